// Command testclient is a scriptable MCP client for the proxy's tests,
// built on the official SDK. It connects to a stdio server command
// (-cmd, a JSON array) or a streamable HTTP endpoint (-url), then reads
// steps from stdin, one JSON object per line, and runs each in its own
// goroutine:
//
//	{"id":"a","op":"call","name":"echo","args":{…},"progress":true}
//	{"id":"b","op":"list"}
//	{"id":"c","op":"read","uri":"test://greeting"}
//	{"id":"d","op":"prompt","name":"hello","args":{"who":"x"}}
//	{"id":"e","op":"close"}
//
// It writes one JSON object per line on stdout: {"id","result"} or
// {"id","error"} for a step, and {"event":…} for what the server sent:
// elicit (with the form's schema), progress, tools_changed. With -elicit the client supports
// elicitation and answers with the listed answers in order: a toolgate
// decision (once, session, always, deny), "decline", or "colour=VALUE" for
// a form with a colour field; when the list runs out it cancels.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type step struct {
	ID       string         `json:"id"`
	Op       string         `json:"op"`
	Name     string         `json:"name,omitempty"`
	URI      string         `json:"uri,omitempty"`
	Args     map[string]any `json:"args,omitempty"`
	Progress bool           `json:"progress,omitempty"`
}

var (
	outMu sync.Mutex
	out   = json.NewEncoder(os.Stdout)
)

func emit(v any) {
	outMu.Lock()
	defer outMu.Unlock()
	if err := out.Encode(v); err != nil {
		log.Fatalf("testclient: write: %v", err)
	}
}

func main() {
	cmdJSON := flag.String("cmd", "", "stdio server command as a JSON array")
	url := flag.String("url", "", "streamable HTTP endpoint")
	elicit := flag.String("elicit", "", "support elicitation, answering with these comma-separated answers in order")
	protocol := flag.String("protocol", "", "protocol `VERSION` to ask for (default: the SDK's newest)")
	flag.Parse()

	var (
		mu      sync.Mutex
		answers []string
	)
	if *elicit != "" {
		answers = strings.Split(*elicit, ",")
	}
	opts := &mcp.ClientOptions{
		ToolListChangedHandler: func(ctx context.Context, req *mcp.ToolListChangedRequest) {
			emit(map[string]any{"event": "tools_changed"})
		},
		ProgressNotificationHandler: func(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
			emit(map[string]any{"event": "progress", "token": req.Params.ProgressToken, "progress": req.Params.Progress, "message": req.Params.Message})
		},
	}
	if *elicit != "" {
		opts.ElicitationHandler = func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			answer := "cancel"
			if len(answers) > 0 {
				answer, answers = answers[0], answers[1:]
			}
			mu.Unlock()
			emit(map[string]any{"event": "elicit", "message": req.Params.Message, "answer": answer, "schema": req.Params.RequestedSchema})
			switch {
			case answer == "decline" || answer == "cancel":
				return &mcp.ElicitResult{Action: answer}, nil
			case strings.HasPrefix(answer, "colour="):
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"colour": strings.TrimPrefix(answer, "colour=")}}, nil
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": answer}}, nil
		}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "testclient", Version: "1.0.0"}, opts)

	var t mcp.Transport
	switch {
	case *cmdJSON != "":
		var argv []string
		if err := json.Unmarshal([]byte(*cmdJSON), &argv); err != nil || len(argv) == 0 {
			log.Fatalf("testclient: -cmd: want a JSON array: %v", err)
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stderr = os.Stderr
		t = &mcp.CommandTransport{Command: cmd}
	case *url != "":
		t = &mcp.StreamableClientTransport{Endpoint: *url, MaxRetries: -1}
	default:
		log.Fatal("testclient: -cmd or -url is required")
	}
	ctx := context.Background()
	cs, err := c.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: *protocol})
	if err != nil {
		emit(map[string]any{"event": "connect_error", "error": err.Error()})
		os.Exit(1)
	}
	emit(map[string]any{"event": "connected", "server": cs.InitializeResult().ServerInfo, "capabilities": cs.InitializeResult().Capabilities, "instructions": cs.InitializeResult().Instructions})

	var wg sync.WaitGroup
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var s step
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			log.Fatalf("testclient: bad step %q: %v", sc.Text(), err)
		}
		if s.Op == "close" {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(ctx, cs, s)
		}()
	}
	wg.Wait()
	if err := cs.Close(); err != nil {
		log.Printf("testclient: close: %v", err)
	}
	emit(map[string]any{"event": "closed"})
}

func run(ctx context.Context, cs *mcp.ClientSession, s step) {
	var (
		res any
		err error
	)
	switch s.Op {
	case "call":
		p := &mcp.CallToolParams{Name: s.Name, Arguments: s.Args}
		if s.Progress {
			p.SetProgressToken("tok-" + s.ID)
		}
		res, err = cs.CallTool(ctx, p)
	case "list":
		res, err = cs.ListTools(ctx, nil)
	case "read":
		res, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: s.URI})
	case "prompt":
		args := map[string]string{}
		for k, v := range s.Args {
			args[k] = fmt.Sprint(v)
		}
		res, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: s.Name, Arguments: args})
	default:
		err = fmt.Errorf("unknown op %q", s.Op)
	}
	if err != nil {
		emit(map[string]any{"id": s.ID, "error": err.Error()})
		return
	}
	emit(map[string]any{"id": s.ID, "result": res})
}
