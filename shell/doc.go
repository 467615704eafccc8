// Package shell analyses shell commands for the gate: it parses them with a
// real bash parser (mvdan.cc/sh/v3/syntax) and reports every simple command
// as a subject for the rules, the files the commands read and write, and the
// risks that must reach a human: critical patterns such as recursive rm of
// the root and constructs such as command substitution that no prefix can
// vet. It also suggests "always" patterns from the seed arity table.
//
// Analysis errs on the side of more subjects: a construct it cannot see
// through becomes an opaque subject, never a hidden one.
package shell
