// Command toolgate-sandbox-enter is the inside half of a confined run
// (package sandbox/enter): toolgate-sandbox and "toolgate sandbox" start
// it in the new namespaces when it is installed beside them, and it
// becomes the command. It links nothing but that, so its start costs
// about 0.8 ms of CPU where toolgate-sandbox's, started again, costs 1.2.
// It is not run by hand: without the plan on descriptor 3 it exits 125.
package main

import (
	"os"

	"github.com/toolgate/toolgate/sandbox/enter"
)

func main() { os.Exit(enter.Main(os.Stderr)) }
