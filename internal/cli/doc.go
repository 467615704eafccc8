// Package cli implements the toolgate command line: one file per
// subcommand, all reached through Run, which takes its arguments and
// standard streams explicitly so tests drive it in process.
package cli
