package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
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
		resp := proxyExchange(t, p, "CONNECT over.example:443 HTTP/1.1\r\nHost: over.example:443\r\n\r\n")
		want := fmt.Sprintf("asked about %d hosts, the most one sandboxed run may ask about", limit)
		if !strings.HasPrefix(resp, "HTTP/1.1 403 ") || !strings.Contains(log.String(), "connection to over.example:443 refused") || !strings.Contains(log.String(), want) {
			t.Errorf("MaxAsks %d: past the cap: response %q, log %q, want 403 and %q", max, resp, log.String(), want)
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

// proxyExchange sends raw to p as one client connection and returns all
// p answers until it ends the connection.
func proxyExchange(t *testing.T, p *Proxy, raw string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go p.Serve(ln)
	defer p.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(c)
	return string(b)
}

// The proxy's own HTTP: a plain request is sent on in origin form, once,
// without the headers that concern the hop, and its answer comes back; a
// CONNECT tunnels both ways; a head it does not take is a 400 that says
// why, and a host the profile does not name a 403, neither reaching
// anything.
func TestProxyHTTP(t *testing.T) {
	t.Parallel()
	var got []string
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, fmt.Sprintf("%s %s auth=%q conn=%v x=%q", r.Method, r.RequestURI, r.Header.Get("Proxy-Authorization"), r.Close, r.Header.Get("X-Drop")))
		body, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "served %s", body)
	}))
	defer origin.Close()
	echo, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer echo.Close()
	go func() {
		for {
			c, err := echo.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); _, _ = io.Copy(c, bufio.NewReader(io.LimitReader(c, 5))) }()
		}
	}()
	originHost := strings.TrimPrefix(origin.URL, "http://")
	named := func() *Proxy { return &Proxy{Hosts: []string{"127.0.0.1"}, Log: io.Discard} }
	cases := []struct {
		name, raw, want string
		reached         bool
	}{
		{"plain request sent on", "POST http://" + originHost + "/a?b=1 HTTP/1.1\r\nHost: " + originHost + "\r\nProxy-Authorization: Basic eDp5\r\nConnection: keep-alive, X-Drop\r\nX-Drop: 1\r\nContent-Length: 4\r\n\r\nbody", "served body", true},
		{"tunnel", "CONNECT " + echo.Addr().String() + " HTTP/1.1\r\nHost: x\r\n\r\nhello", "HTTP/1.1 200 Connection established\r\n\r\nhello", false},
		{"origin-form request", "GET / HTTP/1.1\r\nHost: " + originHost + "\r\n\r\n", "400 Bad Request", false},
		{"https in absolute form", "GET https://" + originHost + "/ HTTP/1.1\r\n\r\n", "400 Bad Request", false},
		{"not HTTP", "HELLO\r\n\r\n", "not an HTTP/1.x request line", false},
		{"header without a colon", "GET http://" + originHost + "/ HTTP/1.1\r\nnonsense\r\n\r\n", "a malformed header line", false},
		{"a line too long", "GET http://" + originHost + "/" + strings.Repeat("a", maxHeadLine) + " HTTP/1.1\r\n\r\n", "a line of the request is too long", false},
		{"CONNECT without a port", "CONNECT 127.0.0.1 HTTP/1.1\r\n\r\n", "CONNECT needs host:port", false},
		{"host not named", "GET http://localhost:" + strings.Split(originHost, ":")[1] + "/ HTTP/1.1\r\n\r\n", "403 Forbidden", false},
		{"tunnel to a host not named", "CONNECT localhost:" + strings.Split(originHost, ":")[1] + " HTTP/1.1\r\n\r\n", "connection to localhost:", false},
	}
	for _, c := range cases {
		before := len(got)
		resp := proxyExchange(t, named(), c.raw)
		if !strings.Contains(resp, c.want) {
			t.Errorf("%s: response %q, want it to hold %q", c.name, resp, c.want)
		}
		if reached := len(got) > before; reached != c.reached {
			t.Errorf("%s: origin reached %v, want %v", c.name, reached, c.reached)
		}
	}
	if want := `POST /a?b=1 auth="" conn=true x=""`; len(got) != 1 || got[0] != want {
		t.Errorf("the origin saw %q, want [%q]", got, want)
	}
}
