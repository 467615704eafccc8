package policy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

// A call's own home: the decision's subjects and reason name the agent's
// file, not the engine's; the views are kept per home up to maxViews and
// built for the call past it, deciding the same.
func TestCallHome(t *testing.T) {
	t.Parallel()
	doc := &Document{Path: "rules.yaml", Rules: []Rule{
		{Tool: "Read", Pattern: "~/.ssh/**", Action: toolgate.Deny, Source: Source{File: "rules.yaml"}},
		{Tool: "Write", Pattern: "~/notes/**", Action: toolgate.Allow, Source: Source{File: "rules.yaml"}},
		{Tool: "Bash", Pattern: "echo *", Action: toolgate.Allow, Source: Source{File: "rules.yaml"}},
	}}
	e, err := New([]*Document{DefaultDocument(), doc}, WithHome("/home/gw"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, home, command string
		want                toolgate.Action
		subject, notSubject string
	}{
		{"agent's key", "/home/alice", "cat ~/.ssh/id_rsa", toolgate.Deny, "/home/alice/.ssh/id_rsa", "/home/gw/.ssh/id_rsa"},
		{"no home", "", "cat ~/.ssh/id_rsa", toolgate.Deny, "/home/gw/.ssh/id_rsa", "/home/alice/.ssh/id_rsa"},
		{"gateway's key by its path", "/home/alice", "cat /home/gw/.ssh/id_rsa", toolgate.Deny, "/home/gw/.ssh/id_rsa", ""},
		{"made-up home", "/nonexistent", "cat /home/gw/.ssh/id_rsa", toolgate.Deny, "/home/gw/.ssh/id_rsa", ""},
		{"agent's notes", "/home/alice", "echo hi > ~/notes/a.md", toolgate.Allow, "/home/alice/notes/a.md", "/home/gw/notes/a.md"},
		{"gateway's notes from alice", "/home/alice", "echo hi > /home/gw/notes/a.md", toolgate.Ask, "/home/gw/notes/a.md", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := toolgate.Call{Tool: "Bash", Args: map[string]any{"command": tc.command}, Cwd: "/srv/proj", Home: tc.home}
			var d toolgate.Decision
			e.Decide(&c, Env{}, &d)
			if d.Action != tc.want {
				t.Fatalf("%s: got %s (%s), want %s", tc.command, d.Action, d.Reason, tc.want)
			}
			var texts []string
			for _, s := range d.Subjects {
				texts = append(texts, s.Text)
			}
			all := strings.Join(texts, " ")
			if !strings.Contains(all, tc.subject) || tc.notSubject != "" && strings.Contains(all, tc.notSubject) {
				t.Errorf("%s: subjects %q, want %q and not %q", tc.command, texts, tc.subject, tc.notSubject)
			}
		})
	}
}

func TestCallHomeViewsBounded(t *testing.T) {
	t.Parallel()
	doc := &Document{Path: "rules.yaml", Rules: []Rule{
		{Tool: "Read", Pattern: "~/private/**", Action: toolgate.Deny, Source: Source{File: "rules.yaml"}},
	}}
	e, err := New([]*Document{DefaultDocument(), doc}, WithHome("/home/gw"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range maxViews {
		c := toolgate.Call{Tool: "Read", Args: map[string]any{"file_path": "~/private/x"}, Home: fmt.Sprintf("/home/u%d", i)}
		var d toolgate.Decision
		e.Decide(&c, Env{}, &d)
		if d.Action != toolgate.Deny {
			t.Fatalf("home %s: got %s (%s), want deny", c.Home, d.Action, d.Reason)
		}
	}
	if n := len(e.views.m); n != maxViews {
		t.Fatalf("%d views kept for %d homes (two views each), want the bound %d", n, maxViews, maxViews)
	}
	c := toolgate.Call{Tool: "Read", Args: map[string]any{"file_path": "~/private/x"}, Home: "/home/late"}
	var d toolgate.Decision
	e.Decide(&c, Env{}, &d)
	if d.Action != toolgate.Deny || len(e.views.m) != maxViews {
		t.Fatalf("past the bound: got %s (%s) with %d views, want deny with %d", d.Action, d.Reason, len(e.views.m), maxViews)
	}
}

// BenchmarkCallHome is a call decided by the engine's own home and by an
// agent's other home (two views, once built).
func BenchmarkCallHome(b *testing.B) {
	e, err := New([]*Document{DefaultDocument()}, WithHome("/home/gw"))
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct{ name, home string }{{"own", ""}, {"agent", "/home/alice"}} {
		b.Run(bc.name, func(b *testing.B) {
			c := toolgate.Call{Tool: "Bash", Args: map[string]any{"command": "cat ~/notes.txt | grep todo"}, Cwd: "/srv/proj", Home: bc.home}
			var d toolgate.Decision
			b.ReportAllocs()
			for b.Loop() {
				e.Decide(&c, Env{}, &d)
			}
		})
	}
}
