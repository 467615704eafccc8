//go:build !linux

package cli_test

import "os"

// escapeMain is the sandbox escape helper; the sandbox runs on Linux only.
func escapeMain() { os.Exit(2) }
