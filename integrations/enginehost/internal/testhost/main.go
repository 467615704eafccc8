// Command testhost is a fake seed-000 host for the pass-through tests of
// package enginehost: it runs its command (toolgate host --passthrough --
// ENGINE…) as a child process, as a real host runs its engine, and plays
// the host's own approval UI.
//
//	testhost [-answer approve|always|deny|none] -- COMMAND [ARGS…]
//
// Every line the child writes is printed on stdout unchanged, so the test
// sees what the host saw. Lines on stdin go to the child unchanged (the
// test's commands for the engine, or the host's own answers). With
// -answer other than none, each tool_request is answered with tool_approve
// (scope once or always) or tool_deny, and each approval_required with
// approval_resume; the host then prints
// {"type":"host_answered","call_id":…,"resume_token":…}. At the end of
// stdin the child's stdin is closed; the host exits with the child's code.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
)

func main() {
	answer := flag.String("answer", "none", "how the host's UI answers: approve, always, deny or none")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "testhost: no command")
		os.Exit(2)
	}
	cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var mu sync.Mutex // one writer at a time on the child's stdin
	send := func(v any) {
		b, _ := json.Marshal(v)
		mu.Lock()
		defer mu.Unlock()
		in.Write(append(b, '\n'))
	}
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			mu.Lock()
			in.Write(append(sc.Bytes(), '\n'))
			mu.Unlock()
		}
		mu.Lock()
		in.Close()
		mu.Unlock()
	}()
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		os.Stdout.Write(append(append([]byte{}, line...), '\n'))
		var ev struct {
			Type        string `json:"type"`
			CallID      string `json:"call_id"`
			ResumeToken string `json:"resume_token"`
		}
		if json.Unmarshal(line, &ev) != nil || *answer == "none" {
			continue
		}
		switch ev.Type {
		case "tool_request":
			switch *answer {
			case "approve":
				send(map[string]any{"type": "tool_approve", "call_id": ev.CallID, "scope": "once"})
			case "always":
				send(map[string]any{"type": "tool_approve", "call_id": ev.CallID, "scope": "always"})
			default:
				send(map[string]any{"type": "tool_deny", "call_id": ev.CallID, "reason": "denied in the host's UI"})
			}
		case "approval_required":
			send(map[string]any{"type": "approval_resume", "resume_token": ev.ResumeToken, "approved": *answer != "deny",
				"modifications": map[string]any{"answer": "from the host"}})
		default:
			continue
		}
		b, _ := json.Marshal(map[string]string{"type": "host_answered", "call_id": ev.CallID, "resume_token": ev.ResumeToken})
		os.Stdout.Write(append(b, '\n'))
	}
	io.Copy(io.Discard, out)
	err = cmd.Wait()
	if cmd.ProcessState != nil && cmd.ProcessState.ExitCode() >= 0 {
		os.Exit(cmd.ProcessState.ExitCode())
	}
	fmt.Fprintln(os.Stderr, "testhost:", err)
	os.Exit(1)
}
