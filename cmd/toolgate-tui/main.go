// Command toolgate-tui is "toolgate tui", the terminal approver, as a
// program of its own:
//
//	toolgate-tui [--url URL] [--session ID] [--workspace ID]
//
// lists a gateway's pending approvals live and answers them from the
// keyboard. The toolgate program hands "toolgate tui" over to it, found
// beside toolgate or on PATH: its terminal libraries stay out of every
// other toolgate command's start (package tuicli).
package main

import (
	"context"
	"os"

	"github.com/toolgate/toolgate/internal/tuicli"
)

func main() {
	os.Exit(tuicli.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
