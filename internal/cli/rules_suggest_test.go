package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/internal/cli"
	"github.com/toolgate/toolgate/internal/stacktest"
)

// TestRulesSuggest runs `rules suggest` against a real gateway whose audit
// holds approvals from both sides: a rubber-stamped build is proposed with
// the calls it would have allowed; interpreter code and a force push,
// approved as often, never are; an approver may not read the audit.
func TestRulesSuggest(t *testing.T) {
	s := stacktest.New(t)
	ctx := context.Background()
	agent, err := client.New(s.Server.URL, s.Agent)
	if err != nil {
		t.Fatal(err)
	}
	approver, err := client.New(s.Server.URL, s.Approver)
	if err != nil {
		t.Fatal(err)
	}
	calls := []string{"git push origin main", "git push origin dev", "git push origin feat"} // three forms under one suggestion
	for _, command := range []string{"npm run build", `python -c "import os"`, "git push --force"} {
		for i := 0; i < 4; i++ {
			calls = append(calls, command)
		}
	}
	for i, command := range calls {
		r, err := agent.Submit(ctx, toolgate.SubmitRequest{Call: toolgate.Call{ID: fmt.Sprint("c", i), Session: "s1", Workspace: "default",
			Tool: "Bash", Args: map[string]any{"command": command}, Cwd: "/tmp/ws"}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Approval == nil {
			t.Fatalf("%s was decided %s, want ask", command, r.Decision.Action)
		}
		if _, err := approver.Approve(ctx, r.Approval.ID, toolgate.ApproveRequest{}); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("TOOLGATE_URL", s.Server.URL)
	run := func(token string, args ...string) (string, error) {
		t.Setenv("TOOLGATE_TOKEN", token)
		var out, errOut bytes.Buffer
		err := cli.Run(ctx, append([]string{"rules", "suggest"}, args...), strings.NewReader(""), &out, &errOut)
		return out.String() + errOut.String(), err
	}

	out, err := run(s.Admin)
	if err != nil {
		t.Fatalf("rules suggest: %v\n%s", err, out)
	}
	for _, want := range []string{`"Bash": {`, `"npm run build": "allow"`, "4 approvals of 1 distinct calls", "//   npm run build  (×4)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, `"git push *": "allow"`) || !strings.Contains(out, "3 approvals of 3 distinct calls") {
		t.Errorf("three different pushes were not widened to git push *:\n%s", out)
	}
	for _, never := range []string{"python", "--force"} {
		if strings.Contains(out, never) {
			t.Errorf("proposed a rule for %s:\n%s", never, out)
		}
	}

	out, err = run(s.Admin, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Proposals []struct {
			Rules     []struct{ Tool, Pattern string }
			Approvals int
			Examples  []struct {
				Call  string
				Count int
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if len(got.Proposals) != 2 || got.Proposals[0].Approvals != 4 || got.Proposals[0].Rules[0].Pattern != "npm run build" || len(got.Proposals[0].Examples) != 1 || got.Proposals[0].Examples[0].Count != 4 {
		t.Errorf("--json: %s", out)
	}

	out, err = run(s.Admin, "--min", "5")
	if err != nil || !strings.Contains(out, "no proposals") {
		t.Errorf("--min 5: %v\n%s", err, out)
	}
	if out, err := run(s.Approver); err == nil || !strings.Contains(err.Error(), "admin") {
		t.Errorf("an approver read the audit: %v\n%s", err, out)
	}
}
