package enginehost_test

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/enginehost"
)

// TestHostResubmittedCallID is issue 10's attack through `toolgate host`:
// the engine (the agent's side) chooses call_id, so after a human approved
// `git push origin main` as tu9 it reuses tu9 for other calls. The gateway
// answers 409 and the host denies each; the approved call itself, sent
// again, is still approved.
func TestHostResubmittedCallID(t *testing.T) {
	t.Parallel()
	g := newGateway(t, seedRules)
	h := startHost(t, hostCfg(g, "s1"))
	h.call("tu9", bash("git push origin main"))
	g.approve(g.pending("s1", "tu9").ID, toolgate.ApproveRequest{Scope: toolgate.ScopeOnce})
	if r := h.result("tu9"); r["approved"] != true {
		t.Fatalf("approved call: %v", r)
	}
	for _, tool := range []enginehost.Tool{
		bash("rm -rf /"),
		{Name: "Read", Category: "info", Args: map[string]any{"file_path": "DATA/tokens.json"}},
		{Name: "Write", Category: "edit", Args: map[string]any{"file_path": "/home/dev/.bashrc", "content": "x"}},
	} {
		h.call("tu9", tool)
		ev := h.out.next("tool_cancelled", typeAndCall("tool_cancelled", "tu9"))
		if !strings.Contains(ev.str("reason"), "already submitted with other content") {
			t.Fatalf("tu9 reused for %s %v: %v", tool.Name, tool.Args, ev)
		}
		if r := h.result("tu9"); r["approved"] != false {
			t.Fatalf("tu9 reused for %s %v: %v", tool.Name, tool.Args, r)
		}
	}
	h.call("tu9", bash("git push origin main"))
	if r := h.result("tu9"); r["approved"] != true {
		t.Fatalf("the approved call again: %v", r)
	}
}
