package server_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

// TestSuggestions: GET /v1/suggestions proposes rules for what people
// approved repeatedly, for admins only, with the document to adopt and
// its version; a PUT of that document with If-Match adopts it, and one
// whose document changed meanwhile is refused with 409.
func TestSuggestions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for i := range 3 {
		a := e.ask(shell("s1", fmt.Sprint("b", i), "npm run build"))
		e.must(200, "POST", "/v1/approvals/"+a.ID+"/approve", e.Approver, map[string]any{}, nil)
		a = e.ask(shell("s1", fmt.Sprint("f", i), "git push --force"))
		e.must(200, "POST", "/v1/approvals/"+a.ID+"/approve", e.Approver, map[string]any{}, nil)
	}
	e.must(403, "GET", "/v1/suggestions", e.Approver, nil, nil)
	e.must(403, "GET", "/v1/suggestions", e.Agent, nil, nil)
	for _, bad := range []string{"?min=0", "?min=x", "?since=-1h", "?since=soon"} {
		e.must(400, "GET", "/v1/suggestions"+bad, e.Admin, nil, nil)
	}
	var got struct {
		Suggestions []struct {
			Workspace string
			Rules     []struct{ Tool, Pattern string }
			Approvals int
			Examples  []struct {
				Call  string
				Count int
			}
			Document, Version, JSONC string
		}
	}
	e.must(200, "GET", "/v1/suggestions", e.Admin, nil, &got)
	if len(got.Suggestions) != 1 {
		t.Fatalf("suggestions %+v, want npm run build alone (never the force push)", got.Suggestions)
	}
	s := got.Suggestions[0]
	if s.Workspace != "default" || len(s.Rules) != 1 || s.Rules[0].Pattern != "npm run build" || s.Approvals != 3 ||
		len(s.Examples) != 1 || s.Examples[0].Call != "npm run build" || s.Examples[0].Count != 3 || s.Version == "" {
		t.Fatalf("suggestion %+v", s)
	}
	if !strings.HasSuffix(strings.TrimSpace(strings.SplitN(s.Document, "suggested by toolgate", 2)[1]), "}") ||
		!strings.Contains(s.Document, `"npm run build": "allow"`) {
		t.Fatalf("document:\n%s", s.Document)
	}
	if e.final(shell("s2", "x1", "npm run build")) != toolgate.Ask {
		t.Fatal("listing suggestions changed the rules")
	}
	// A stale version is refused and nothing is stored.
	r := e.do("PUT", "/v1/workspaces/default/rules", e.Admin, s.Document, "If-Match", strconv.Quote("not-the-version"))
	if r.status != 409 || !strings.Contains(string(r.body), "changed since") {
		t.Fatalf("stale If-Match: %d %s", r.status, r.body)
	}
	if e.final(shell("s2", "x2", "npm run build")) != toolgate.Ask {
		t.Fatal("a refused PUT changed the rules")
	}
	if r := e.do("PUT", "/v1/workspaces/default/rules", e.Admin, s.Document, "If-Match", strconv.Quote(s.Version)); r.status != 204 {
		t.Fatalf("adopt: %d %s", r.status, r.body)
	}
	if v := e.final(shell("s2", "x3", "npm run build")); v != toolgate.Allow {
		t.Fatalf("after adopting: %s", v)
	}
	e.must(200, "GET", "/v1/suggestions", e.Admin, nil, &got)
	if len(got.Suggestions) != 0 {
		t.Fatalf("an adopted rule is proposed again: %+v", got.Suggestions)
	}
}
