// Command hello is the floor the hook is measured against (bench/run): a
// static hello-world Go binary (built with CGO_ENABLED=0), which starts
// the Go runtime, writes a line and exits.
package main

import "os"

func main() { os.Stdout.WriteString("hello\n") }
