package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/integrations/claudecode/claudecodetest"
)

// withGateway is h's environment with a gateway the sandbox reports to
// and asks through.
func withGateway(h *sandboxHome, g *claudecodetest.Gateway) *sandboxHome {
	c := *h
	c.env = append(append([]string(nil), h.env...), "TOOLGATE_URL="+g.URL, "TOOLGATE_TOKEN="+g.Agent, "TOOLGATE_WORKSPACE=proj")
	return &c
}

// sandboxReports are the gateway's audited sandbox reports.
func sandboxReports(t *testing.T, g *claudecodetest.Gateway) []toolgate.SandboxReport {
	t.Helper()
	entries, err := g.Audit(approval.SandboxViolationKind)
	if err != nil {
		t.Fatal(err)
	}
	var out []toolgate.SandboxReport
	for _, e := range entries {
		var r toolgate.SandboxReport
		if err := json.Unmarshal(e.Data, &r); err != nil || e.Outcome != "blocked" {
			t.Fatalf("audit entry %+v: %v", e, err)
		}
		out = append(out, r)
	}
	return out
}

// TestSandboxExplainsViolations: each file the sandbox refused is named
// on stderr with the rule that refused it, and the violations go to the
// gateway's audit; the benign twin, which the sandbox lets do its work,
// gets no such line and no report, and neither does a file refused by
// its own permissions.
func TestSandboxExplainsViolations(t *testing.T) {
	h := newSandboxHome(t)
	g := claudecodetest.New(t, `{"*": "ask"}`)
	h = withGateway(h, g)
	_, out := h.sh(t, `echo x >> ~/.bashrc; cat ~/.ssh/id_ed25519; echo hook > .git/hooks/pre-commit; echo done`)
	for _, want := range []string{
		"toolgate sandbox: writes outside the workspace and the temporary directory are blocked by the sandbox: ~/.bashrc\n",
		"toolgate sandbox: reading or writing secrets, agent settings and toolgate's state is blocked by the sandbox: ~/.ssh/id_ed25519 (it holds SSH private keys)\n",
		"toolgate sandbox: writes to .git/hooks, .git/config, agent settings and start-up files are blocked by the sandbox: ~/proj/.git/hooks/pre-commit (it ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	reps := sandboxReports(t, g)
	if len(reps) != 1 || len(reps[0].Violations) != 3 || reps[0].Workspace != "proj" || !strings.Contains(reps[0].Command, "bashrc") {
		t.Fatalf("audited reports %+v, want one with three violations", reps)
	}

	// Benign: work inside the workspace; a refusal by the file's own
	// permissions (not the sandbox's) is not named.
	_, out = h.sh(t, `echo ok > out.txt && git add out.txt && git commit -qm ok && cat /proc/1/environ; echo done`)
	if strings.Contains(out, "is blocked by the sandbox") || strings.Contains(out, "are blocked by the sandbox") {
		t.Errorf("benign run named a violation:\n%s", out)
	}
	if reps := sandboxReports(t, g); len(reps) != 1 {
		t.Errorf("benign run reported: %+v", reps)
	}
}

// TestSandboxNetworkAsks: with a gateway, a connection to a host the
// profile does not name is held there for a person, as a call of
// SandboxNetwork naming the host and the command; approved it goes
// through, denied it is refused and audited. Without a gateway it is
// refused at once, saying nobody could be asked.
func TestSandboxNetworkAsks(t *testing.T) {
	h := newSandboxHome(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "served") }))
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	// The profile names 127.0.0.1 on another port: this port is not named.
	netFlags := []string{"--net", "127.0.0.1:1"}

	code, out := h.run(t, netFlags, "escape", "get", "http://"+addr+"/")
	if code == 0 || !strings.Contains(out, "refused: the sandbox profile does not name this host (--net) (no gateway is configured") {
		t.Errorf("without a gateway: exit %d:\n%s", code, out)
	}

	g := claudecodetest.New(t, `{"*": "ask"}`)
	gh := withGateway(h, g)
	approver, err := client.New(g.URL, g.Approver, client.WithVia("web"))
	if err != nil {
		t.Fatal(err)
	}
	for _, approve := range []bool{true, false} {
		type result struct {
			code int
			out  string
		}
		done := make(chan result, 1)
		go func() {
			code, out := gh.run(t, netFlags, "escape", "get", "http://"+addr+"/")
			done <- result{code, out}
		}()
		id, err := g.WaitPending(20 * time.Second)
		if err != nil {
			t.Fatal(err)
		}
		a, err := approver.Approval(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if a.Call.Tool != "SandboxNetwork" || a.Call.Args["host"] != "127.0.0.1:"+port || !strings.Contains(fmt.Sprint(a.Call.Args["description"]), "wants to reach 127.0.0.1:"+port) {
			t.Errorf("held call %+v", a.Call)
		}
		if approve {
			_, err = approver.Approve(context.Background(), id, toolgate.ApproveRequest{})
		} else {
			_, err = approver.Deny(context.Background(), id, toolgate.DenyRequest{Reason: "no"})
		}
		if err != nil {
			t.Fatal(err)
		}
		r := <-done
		if approve && (r.code != 0 || !strings.Contains(r.out, "served")) {
			t.Errorf("approved: exit %d:\n%s", r.code, r.out)
		}
		if !approve && (r.code == 0 || !strings.Contains(r.out, "the person asked refused it")) {
			t.Errorf("denied: exit %d:\n%s", r.code, r.out)
		}
	}
	reps := sandboxReports(t, g)
	if len(reps) != 1 || len(reps[0].Violations) != 1 || reps[0].Violations[0].Kind != "network" || reps[0].Violations[0].Target != "127.0.0.1:"+port {
		t.Errorf("audited reports %+v, want the denied connection", reps)
	}
}
