package sandbox

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A host the profile names passes without asking; another is asked once
// per target and run, and let through only on a yes; a no, a failure to
// ask, or no one to ask refuses it, saying why.
func TestProxyPermit(t *testing.T) {
	t.Parallel()
	asked := map[string]int{}
	answers := map[string]error{"yes.example:443": nil, "no.example:443": errNo, "down.example:443": errors.New("gateway down")}
	p := &Proxy{Hosts: []string{"registry.example", "*.cdn.example"}, Ask: func(_ context.Context, target string) (bool, error) {
		asked[target]++
		switch err := answers[target]; err {
		case nil:
			return true, nil
		case errNo:
			return false, nil
		default:
			return false, err
		}
	}}
	for _, c := range []struct {
		host, port string
		ok         bool
		why        string
	}{
		{"registry.example", "443", true, ""},
		{"a.cdn.example", "443", true, ""},
		{"YES.example.", "443", true, ""},
		{"yes.example", "443", true, ""},
		{"no.example", "443", false, "the person asked refused it"},
		{"down.example", "443", false, "asking a person failed: gateway down"},
	} {
		ok, why := p.permit(context.Background(), c.host, c.port)
		if ok != c.ok || !strings.Contains(why, c.why) {
			t.Errorf("%s:%s: %v %q, want %v %q", c.host, c.port, ok, why, c.ok, c.why)
		}
	}
	// A no holds too: retrying does not ask again; a failure does.
	if ok, _ := p.permit(context.Background(), "no.example", "443"); ok {
		t.Error("no.example let through on a retry")
	}
	_, _ = p.permit(context.Background(), "down.example", "443")
	if asked["yes.example:443"] != 1 || asked["no.example:443"] != 1 || asked["down.example:443"] != 2 || asked["registry.example:443"] != 0 || len(asked) != 3 {
		t.Errorf("asked %v: want each answered target once, a failed one again, the named never", asked)
	}
	nobody := &Proxy{Hosts: []string{"registry.example"}}
	if ok, why := nobody.permit(context.Background(), "yes.example", "443"); ok || why != reasonUnnamed {
		t.Errorf("without Ask: %v %q", ok, why)
	}
}

var errNo = errors.New("no")

// A run asks about at most MaxAsks hosts (DefaultMaxAsks when unset):
// past the cap a host the profile does not name is refused unasked, with
// a line naming the cap; a host already answered keeps its answer, and a
// host the profile names still passes.
func TestProxyAskCap(t *testing.T) {
	t.Parallel()
	for _, max := range []int{2, 0} {
		limit := max
		if limit == 0 {
			limit = DefaultMaxAsks
		}
		asked := 0
		var log strings.Builder
		p := &Proxy{Hosts: []string{"registry.example"}, MaxAsks: max, Log: &log,
			Ask: func(context.Context, string) (bool, error) { asked++; return true, nil }}
		for i := range limit {
			if ok, why := p.permit(context.Background(), fmt.Sprintf("h%d.example", i), "443"); !ok {
				t.Fatalf("MaxAsks %d: ask %d refused: %s", max, i+1, why)
			}
		}
		w := httptest.NewRecorder()
		p.ServeHTTP(w, httptest.NewRequest(http.MethodConnect, "over.example:443", nil))
		want := fmt.Sprintf("asked about %d hosts, the most one sandboxed run may ask about", limit)
		if w.Code != http.StatusForbidden || !strings.Contains(log.String(), "connection to over.example:443 refused") || !strings.Contains(log.String(), want) {
			t.Errorf("MaxAsks %d: past the cap: status %d, log %q, want 403 and %q", max, w.Code, log.String(), want)
		}
		if asked != limit {
			t.Errorf("MaxAsks %d: asked %d times, want %d", max, asked, limit)
		}
		// Benign twins: an answered host and a named host still pass.
		for _, host := range []string{"h0.example", "registry.example"} {
			if ok, why := p.permit(context.Background(), host, "443"); !ok {
				t.Errorf("MaxAsks %d: %s refused past the cap: %s", max, host, why)
			}
		}
		if asked != limit {
			t.Errorf("MaxAsks %d: asked again past the cap (%d)", max, asked)
		}
	}
}
