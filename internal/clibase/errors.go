// Package clibase is what every toolgate command line shares and nothing
// more: exit codes and the errors that carry them, flag sets that report
// instead of exiting, and toolgate's own directories. Package hookcli and
// the lean binaries build on it; the sandbox's lean binary links it
// without the policy engine behind hookcli.
package clibase

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Exit codes. Scripts depend on them (DESIGN §7.1).
const (
	ExitOK      = 0
	ExitFailure = 1 // something went wrong, or rule tests failed
	ExitUsage   = 2 // bad input: flags, call JSON, rule files
)

// ExitError carries an exit code with the error printed for it.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// UsageErrorf returns an error that exits 2: bad input.
func UsageErrorf(format string, args ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, args...)}
}

// BadInput marks err as bad input (exit 2).
func BadInput(err error) error {
	if err == nil {
		return nil
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return err
	}
	return &ExitError{Code: ExitUsage, Err: err}
}

// ErrSilent ends a command with an exit code when it already printed what
// went wrong.
type ErrSilent int

func (e ErrSilent) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// ExitCode is the process exit code for a command's error, printing the
// error as one line on stderr unless it is silent or a request for help.
func ExitCode(err error, stderr io.Writer) int {
	if err == nil {
		return ExitOK
	}
	var silent ErrSilent
	if errors.As(err, &silent) {
		return int(silent)
	}
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	fmt.Fprintf(stderr, "toolgate: %s\n", OneLine(err.Error()))
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return ExitFailure
}

// OneLine folds a multi-line error into one line, so scripts can rely on
// a single line on stderr.
func OneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}

// NewFlagSet returns a flag set that reports errors instead of exiting.
func NewFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("toolgate "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// ParseFlags parses args and maps flag errors to bad input.
func ParseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return BadInput(err)
	}
	return nil
}

// StringList is a repeatable string flag.
type StringList []string

func (s *StringList) String() string     { return strings.Join(*s, ",") }
func (s *StringList) Set(v string) error { *s = append(*s, v); return nil }

// ConfigDir is toolgate's config directory: $XDG_CONFIG_HOME/toolgate.
func ConfigDir() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "toolgate")
}

// DataDir is toolgate's data directory: $XDG_DATA_HOME/toolgate, else
// ~/.local/share/toolgate.
func DataDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "toolgate")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".local", "share", "toolgate")
}
