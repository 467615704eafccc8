// Command toolgate-sandbox-enter is the inside half of a confined run
// (package sandbox/enter): toolgate-sandbox and "toolgate sandbox" start
// it in the new namespaces when it is installed beside them, and it
// becomes the command. It links nothing but that, so it starts in about
// half the time of toolgate-sandbox, which would otherwise start twice.
// It is not run by hand: without the plan on descriptor 3 it exits 125.
package main

import (
	"os"

	"github.com/toolgate/toolgate/sandbox/enter"
)

func main() { os.Exit(enter.Main(os.Stderr)) }
