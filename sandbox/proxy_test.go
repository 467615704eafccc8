package sandbox

import (
	"context"
	"errors"
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
