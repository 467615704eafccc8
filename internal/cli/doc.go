// Package cli implements the toolgate command line: one file per
// subcommand, all reached through Run, which takes its arguments and
// standard streams explicitly so tests drive it in process. Three
// commands live in companion programs (companion.go): tui in
// toolgate-tui (package tuicli), mcp-proxy and mcp in toolgate-mcp
// (package mcpcli), whose libraries would otherwise initialise at every
// start of every command.
package cli
