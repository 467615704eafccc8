// Command testengine is an engine for the tests of package enginehost: it
// speaks seed 000's JSON-lines protocol on stdin and stdout through the
// package's engine-side API, and runs the tool calls it is told to.
//
// Besides the protocol's commands it reads test commands:
//
//	{"type":"test_call","call_id":"c1","tool":{"name":"Bash","category":"exec","args":{…}}}
//	    gate the call; when it is decided, emit
//	    {"type":"test_result","call_id":"c1","approved":…,"auto":…,"scope":…,"answer":…,"reason":…}
//	{"type":"test_suspend","call_id":"c2","tool_name":"AskUserQuestion","context":"…"}
//	    run the hitl_suspend flow, then emit test_result
//	{"type":"test_raw","line":"…"}           write a raw line on stdout
//	{"type":"test_long","bytes":N}            emit a {"type":"text","text":…} event of N bytes
//	{"type":"test_state"}                     emit {"type":"test_state",…}: mode, tool names, prefixes
//	{"type":"test_exit","code":N}             exit with code N
//	{"type":"test_wait_exit","code":N}        wait for every gated call, then exit
//
// -script runs test commands (JSON lines) at start, as if read from stdin:
// an engine that works on its own while nobody writes to it (a host run
// with stdin from /dev/null).
//
// Flags set the TTL, the reap interval, the starting mode (-force is
// Force) and the capabilities advertised in ready.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/integrations/enginehost"
)

type testCommand struct {
	Type     string          `json:"type"`
	CallID   string          `json:"call_id"`
	Tool     enginehost.Tool `json:"tool"`
	ToolName string          `json:"tool_name"`
	Context  string          `json:"context"`
	Line     string          `json:"line"`
	Bytes    int             `json:"bytes"`
	Code     int             `json:"code"`
}

type testResult struct {
	Type     string           `json:"type"`
	CallID   string           `json:"call_id"`
	Approved bool             `json:"approved"`
	Auto     bool             `json:"auto"`
	Scope    enginehost.Scope `json:"scope"`
	Answer   json.RawMessage  `json:"answer,omitempty"`
	Mods     json.RawMessage  `json:"modifications,omitempty"`
	Reason   string           `json:"reason,omitempty"`
	Error    string           `json:"error,omitempty"`
}

func main() {
	ttl := flag.Duration("ttl", 0, "approval TTL (default 5m)")
	reap := flag.Duration("reap", 0, "reap interval (default 30s)")
	mode := flag.String("mode", "Default", "starting mode")
	force := flag.Bool("force", false, "start in Force mode")
	caps := flag.String("caps", "", "comma-separated capabilities for ready")
	script := flag.String("script", "", "test commands (JSON lines) to run at start")
	flag.Parse()

	var opts []enginehost.EngineOption
	if *ttl > 0 {
		opts = append(opts, enginehost.WithTTL(*ttl))
	}
	if *reap > 0 {
		opts = append(opts, enginehost.WithReapInterval(*reap))
	}
	m, err := enginehost.ParseSessionMode(*mode)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if *force {
		m = enginehost.ModeForce
	}
	opts = append(opts, enginehost.WithMode(m))

	var (
		e  *enginehost.Engine
		wg sync.WaitGroup
	)
	handle := func(ctx context.Context, typ string, line []byte) bool {
		if !strings.HasPrefix(typ, "test_") {
			return false
		}
		var c testCommand
		if err := json.Unmarshal(line, &c); err != nil {
			e.Emit(map[string]string{"type": "test_error", "error": err.Error()})
			return true
		}
		switch c.Type {
		case "test_call":
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := e.Gate(ctx, c.CallID, c.Tool)
				emitResult(e, c.CallID, r, err)
			}()
		case "test_suspend":
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := e.Suspend(ctx, enginehost.SuspendRequest{CallID: c.CallID, ToolName: c.ToolName, Context: c.Context})
				emitResult(e, c.CallID, r, err)
			}()
		case "test_raw":
			os.Stdout.WriteString(c.Line + "\n")
		case "test_long":
			e.Emit(map[string]string{"type": "text", "text": strings.Repeat("x", c.Bytes)})
		case "test_state":
			s := e.State()
			e.Emit(map[string]any{"type": "test_state", "mode": s.Mode, "tool_names": s.ToolNames, "prefixes": s.Prefixes, "pending": s.Pending})
		case "test_exit":
			os.Exit(c.Code)
		case "test_wait_exit":
			wg.Wait()
			os.Exit(c.Code)
		default:
			return false
		}
		return true
	}
	opts = append(opts, enginehost.WithCommandHandler(handle))
	e = enginehost.NewEngine(os.Stdin, os.Stdout, opts...)
	var list []string
	for _, c := range strings.Split(*caps, ",") {
		if c = strings.TrimSpace(c); c != "" {
			list = append(list, c)
		}
	}
	if err := e.Ready(list...); err != nil {
		os.Exit(1)
	}
	ctx := context.Background()
	if *script != "" {
		go func() {
			for _, line := range strings.Split(*script, "\n") {
				var env struct {
					Type string `json:"type"`
				}
				if json.Unmarshal([]byte(line), &env) == nil && env.Type != "" {
					handle(ctx, env.Type, []byte(line))
				}
			}
		}()
	}
	if err := e.Serve(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "testengine:", err)
		os.Exit(1)
	}
	wg.Wait()
}

func emitResult(e *enginehost.Engine, callID string, r enginehost.Result, err error) {
	out := testResult{Type: "test_result", CallID: callID, Approved: r.Approved, Auto: r.Auto, Scope: r.Scope, Answer: r.Answer, Mods: r.Modifications, Reason: r.Reason}
	if err != nil {
		out.Error = err.Error()
	}
	e.Emit(out)
}
