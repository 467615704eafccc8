package client_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
)

// An agent host submits a call and waits up to a minute for a human.
func Example() {
	c, err := client.New("http://127.0.0.1:8787", os.Getenv("TOOLGATE_TOKEN"), client.WithVia("my-agent"))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	call := toolgate.Call{ID: "call-1", Session: "conv-42", Tool: "Bash", Args: map[string]any{"command": "npm publish"}}
	r, err := c.SubmitWait(ctx, toolgate.SubmitRequest{Call: call}, time.Minute)
	if err != nil {
		// Unreachable gateway, bad token…: never run the tool.
		fmt.Println("not allowed:", err)
		return
	}
	if action, final := r.Final(); final && action == toolgate.Allow {
		fmt.Println("run it")
	} else if !final {
		fmt.Println("still waiting for approval", r.Approval.ID)
	} else {
		fmt.Println("denied:", r.Decision.Reason)
	}
}

// An approver follows the event stream and answers what comes in.
func ExampleClient_Events() {
	c, _ := client.New("http://127.0.0.1:8787", os.Getenv("TOOLGATE_TOKEN"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, errc := c.Events(ctx, toolgate.EventFilter{})
	for ev := range events {
		if ev.Type == toolgate.EventApprovalRequested {
			fmt.Println("pending:", ev.Approval.Call.Tool, ev.Approval.Decision.Reason)
			c.Deny(ctx, ev.Approval.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft, Feedback: "not now"})
		}
	}
	if err := <-errc; err != nil {
		fmt.Println("stream ended:", err)
	}
}
