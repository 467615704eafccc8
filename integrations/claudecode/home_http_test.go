package claudecode_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/integrations/claudecode/claudecodetest"
	"github.com/toolgate/toolgate/integrations/claudecode/hookhttp"
)

// The gateway's HTTP hook endpoint takes the agent's home from the hook
// URL (home=PATH), since Claude Code's HTTP hook input carries none: "~"
// in a call then means that home, for deny rules as for allow rules. A
// relative home or "/" makes the call undecidable, never an allow.
func TestHandlerHome(t *testing.T) {
	g := claudecodetest.New(t, `{"*": "ask", "Bash": {"cat *": "allow"}, "read_file": {"/home/alice/private/**": "deny"}}`)
	c, err := client.New(g.URL, g.Agent)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(hookhttp.NewHandler(claudecode.Hook{Decider: &claudecode.Remote{Gate: c, OnAsk: claudecode.AskPrompt}}, hookhttp.WithMaxWait(time.Second)))
	defer srv.Close()
	for i, tc := range []struct{ query, command, want string }{
		{"?workspace=shop&home=/home/alice", "cat ~/private/plan.txt", "deny"},
		{"?workspace=shop&home=/home/alice/", "cat ~/private/plan.txt", "deny"},
		{"?workspace=shop&home=/home/alice", "cat /home/alice/private/plan.txt", "deny"},
		{"?workspace=shop&home=/home/alice", "cat ~/notes.txt", "allow"},
		{"?workspace=shop&home=/home/alice", "cat README.md", "allow"},
		{"?workspace=shop&home=home/alice", "cat README.md", "deny"},
		{"?workspace=shop&home=/", "cat README.md", "deny"},
	} {
		status, body := post(t, srv.URL+tc.query, bashInput("home"+string(rune('a'+i)), tc.command))
		a := decode(t, body)
		if status != 200 || a.HookSpecificOutput == nil || a.HookSpecificOutput.PermissionDecision != tc.want {
			t.Errorf("%s %q: %d %s, want %s", tc.query, tc.command, status, body, tc.want)
		}
	}
}
