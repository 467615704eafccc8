package clicore

import (
	"flag"
	"io"

	"github.com/toolgate/toolgate/internal/clibase"
)

// The command-line basics live in package clibase, which the sandbox's
// lean binary links without this package; these are the same.

// Exit codes. Scripts depend on them (DESIGN §7.1).
const (
	ExitOK      = clibase.ExitOK
	ExitFailure = clibase.ExitFailure
	ExitUsage   = clibase.ExitUsage
)

type (
	// ExitError carries an exit code with the error printed for it.
	ExitError = clibase.ExitError
	// ErrSilent ends a command with an exit code when it already printed
	// what went wrong.
	ErrSilent = clibase.ErrSilent
	// StringList is a repeatable string flag.
	StringList = clibase.StringList
)

// UsageErrorf returns an error that exits 2: bad input.
func UsageErrorf(format string, args ...any) error { return clibase.UsageErrorf(format, args...) }

// BadInput marks err as bad input (exit 2).
func BadInput(err error) error { return clibase.BadInput(err) }

// ExitCode is the process exit code for a command's error (clibase.ExitCode).
func ExitCode(err error, stderr io.Writer) int { return clibase.ExitCode(err, stderr) }

// OneLine folds a multi-line error into one line.
func OneLine(s string) string { return clibase.OneLine(s) }

// NewFlagSet returns a flag set that reports errors instead of exiting.
func NewFlagSet(name string, stderr io.Writer) *flag.FlagSet { return clibase.NewFlagSet(name, stderr) }

// ParseFlags parses args and maps flag errors to bad input.
func ParseFlags(fs *flag.FlagSet, args []string) error { return clibase.ParseFlags(fs, args) }

// ConfigDir is toolgate's config directory: $XDG_CONFIG_HOME/toolgate.
func ConfigDir() string { return clibase.ConfigDir() }

// DataDir is toolgate's data directory: $XDG_DATA_HOME/toolgate, else
// ~/.local/share/toolgate.
func DataDir() string { return clibase.DataDir() }
