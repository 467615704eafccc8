package claudecode_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/policy"
)

// Claude Code's permissions as a layer: managed, user, project and local
// files merge, deny over ask over allow; the managed file's deny is a veto
// no toolgate rule undoes, and the others' deny wins over toolgate's
// static rules.
func TestPermissionsLayer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	managed := filepath.Join(dir, "managed-settings.json")
	write(managed, `{"permissions": {"deny": ["Bash(curl *)"]}}`)
	write(filepath.Join(home, ".claude", "settings.json"), `{"permissions": {"allow": ["Bash(npm test)", "Bash(npm run *)", "Bash(make *)"]}}`)
	write(filepath.Join(proj, ".claude", "settings.json"), `{"permissions": {"deny": ["Bash(npm run deploy)"]}}`)
	write(filepath.Join(proj, ".claude", "settings.local.json"), `{"permissions": {"ask": ["Bash(npm test)"]}}`)

	files := claudecode.PermissionFiles(proj, home, managed)
	if len(files) != 4 {
		t.Fatalf("files: %+v", files)
	}
	p, err := claudecode.LoadPermissions(files)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Found) != 4 || p.Found[1].Allow != 3 || p.Found[0].Deny != 1 {
		t.Errorf("found: %+v", p.Found)
	}
	// toolgate's own config allows curl and make deploy: the managed deny
	// vetoes curl; a plain Claude deny would not be undone either.
	cfg := &policy.Document{Path: "toolgate.yaml", Rules: []policy.Rule{
		{Tool: "Bash", Pattern: "curl *", Action: toolgate.Allow},
		{Tool: "Bash", Pattern: "npm run deploy", Action: toolgate.Allow},
	}}
	e, err := policy.New(p.Layer([]*policy.Document{policy.DefaultDocument(), cfg}))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		mode toolgate.Mode
		want toolgate.Action
	}{
		{"npm test", toolgate.ModeDefault, toolgate.Ask}, // local ask beats user allow
		{"npm run build", toolgate.ModeDefault, toolgate.Allow},
		{"make all", toolgate.ModeReadOnly, toolgate.Allow}, // a person's allow: no mode changes it
		{"npm run deploy", toolgate.ModeDefault, toolgate.Deny},
		{"npm run deploy", toolgate.ModeYolo, toolgate.Deny},
		{"curl https://x.io", toolgate.ModeYolo, toolgate.Deny},
		{"ls", toolgate.ModeDefault, toolgate.Allow},        // only reads: the built-in default allows
		{"cargo build", toolgate.ModeDefault, toolgate.Ask}, // no rule covers it
	} {
		d := e.Evaluate(&toolgate.Call{Tool: "Bash", Args: map[string]any{"command": tc.cmd}}, tc.mode)
		if d.Action != tc.want {
			t.Errorf("%s in %s: %s (%s), want %s", tc.cmd, tc.mode, d.Action, d.Reason, tc.want)
		}
	}
	d := e.Evaluate(&toolgate.Call{Tool: "Bash", Args: map[string]any{"command": "curl x.io"}}, toolgate.ModeYolo)
	if d.Rule == nil || d.Rule.Layer != toolgate.LayerManaged || d.Rule.Source != managed+":1" {
		t.Errorf("curl decided by %+v, want the managed settings file", d.Rule)
	}

	// A project in the home directory reads the user file once.
	if got := claudecode.PermissionFiles(home, home, ""); len(got) != 2 || got[1].Scope != claudecode.ScopeLocal {
		t.Errorf("home project: %+v", got)
	}
}
