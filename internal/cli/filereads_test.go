package cli_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/policy"
)

// TestNoFileReadsConfig: no_file_reads in the config file's server
// section reaches the running gateway: a write's card gets no file, and
// the refusal is audited. The same gateway without the key shows the file.
func TestNoFileReadsConfig(t *testing.T) {
	if testing.Short() {
		t.Skip("starts gateway processes")
	}
	t.Parallel()
	const content = "package main // c0ffee\n"
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "main.go"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := policy.AppendRule(policy.DefaultRulesJSONC(), policy.Rule{Tool: "Write", Pattern: "*", Action: toolgate.Ask}, "")
	if err != nil {
		t.Fatal(err)
	}
	bin := toolgateBinary(t)
	for _, tt := range []struct {
		name, section string
		shown         bool
	}{
		{name: "no_file_reads", section: "  no_file_reads: true\n"},
		{name: "reads", section: "  no_file_reads: false\n", shown: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			data := t.TempDir()
			config := filepath.Join(data, "toolgate.yaml")
			if err := os.WriteFile(config, []byte("server:\n"+tt.section), 0o600); err != nil {
				t.Fatal(err)
			}
			g := startGateway(t, bin, data, "TOOLGATE_CONFIG="+config)
			admin := newClient(t, g.url, g.token)
			if err := admin.PutRules(ctx, "default", doc); err != nil {
				t.Fatal(err)
			}
			agent := newClient(t, g.url, createToken(t, bin, data, "agent"))
			r, err := agent.Submit(ctx, toolgate.SubmitRequest{Call: toolgate.Call{ID: "w1", Session: "s1", Tool: "Write", Cwd: ws,
				Args: map[string]any{"file_path": "main.go", "content": "package main\n"}}})
			if err != nil || r.Approval == nil {
				t.Fatalf("submit: %+v %v", r, err)
			}
			req, _ := http.NewRequestWithContext(ctx, "GET", g.url+"/v1/approvals/"+r.Approval.ID+"/before", nil)
			req.Header.Set("Authorization", "Bearer "+g.token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var b struct {
				Shown         bool
				Content, Note string
			}
			if err := json.NewDecoder(resp.Body).Decode(&b); err != nil || resp.StatusCode != 200 {
				t.Fatalf("before: %d %v", resp.StatusCode, err)
			}
			switch {
			case tt.shown && (!b.Shown || b.Content != content):
				t.Fatalf("file reads on: %+v", b)
			case !tt.shown && (b.Shown || b.Content != "" || !strings.Contains(b.Note, "does not read")):
				t.Fatalf("no_file_reads: %+v", b)
			}
			es, err := admin.Audit(ctx, toolgate.AuditFilter{Kind: approval.AuditFileRead})
			if err != nil || len(es) != 1 || es[0].ApprovalID != r.Approval.ID || es[0].Reason != b.Note {
				t.Fatalf("audit: %+v %v", es, err)
			}
		})
	}
}
