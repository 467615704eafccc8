package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Proxy is the HTTP(S) proxy a confined command reaches the network
// through: CONNECT for HTTPS and absolute-form requests for plain HTTP,
// to the hosts the profile names and nowhere else. On Linux the command
// runs in a network namespace of its own, where the proxy's listener on
// 127.0.0.1:ProxyPort is the only thing to connect to (and Landlock lets
// it connect to that port only); the command's environment points
// HTTPS_PROXY and HTTP_PROXY at it (Env). A host not named is refused
// (403), with a line on Log naming it, unless Ask lets it through.
type Proxy struct {
	// Hosts are the names allowed: "example.com" (any port),
	// "example.com:443", or "*.example.com" (any name below it).
	Hosts []string
	// Log receives one line per refused connection.
	Log io.Writer
	// Ask, when set, is asked about a host:port the profile does not
	// name (a person, through a gateway): true lets it through, false
	// refuses it, either for the rest of the run; an error refuses this
	// connection. Nil refuses.
	Ask func(ctx context.Context, target string) (bool, error)
	// Refused, when set, is told of each refused connection: the target
	// and why.
	Refused func(target, why string)
	// MaxAsks caps how many times a run calls Ask (0: DefaultMaxAsks): a
	// command cannot flood the approver with one question per host:port.
	// Past it, a host the profile does not name is refused unasked.
	MaxAsks int

	srv      *http.Server
	mu       sync.Mutex
	answered map[string]bool // targets Ask answered: let through or not
	asks     int             // calls of Ask made or under way
}

// DefaultMaxAsks is how many hosts a confined run may ask a person about
// when Proxy.MaxAsks is not set.
const DefaultMaxAsks = 8

// ProxyPort is the port of the proxy inside the sandbox's network
// namespace, which is new and empty: any number would do.
const ProxyPort = 3128

// Serve serves the connections ln accepts until Close, which also ends
// the connections it carries.
func (p *Proxy) Serve(ln net.Listener) {
	p.mu.Lock()
	if p.srv == nil {
		p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
	}
	srv := p.srv
	p.mu.Unlock()
	_ = srv.Serve(ln)
}

// Env is the environment that sends a command's HTTP(S) through the
// proxy.
func (p *Proxy) Env() []string {
	u := fmt.Sprintf("http://127.0.0.1:%d", ProxyPort)
	return []string{"HTTPS_PROXY=" + u, "https_proxy=" + u, "HTTP_PROXY=" + u, "http_proxy=" + u, "NO_PROXY=", "no_proxy="}
}

// Close stops the proxy and the connections it carries.
func (p *Proxy) Close() error {
	p.mu.Lock()
	if p.srv == nil {
		p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
	}
	srv := p.srv
	p.mu.Unlock()
	return srv.Close()
}

// allowed reports whether the profile names host:port.
func (p *Proxy) allowed(host, port string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, h := range p.Hosts {
		h = strings.ToLower(h)
		name, hport, err := net.SplitHostPort(h)
		if err != nil {
			name, hport = h, ""
		}
		if hport != "" && hport != port {
			continue
		}
		if name == host {
			return true
		}
		if suffix, ok := strings.CutPrefix(name, "*."); ok && strings.HasSuffix(host, "."+suffix) {
			return true
		}
	}
	return false
}

// named reports whether the profile names host itself, not by a wildcard
// (a loopback or private address must be named to be reached).
func (p *Proxy) named(host string) bool {
	for _, h := range p.Hosts {
		name, _, err := net.SplitHostPort(h)
		if err != nil {
			name = h
		}
		if strings.EqualFold(name, host) {
			return true
		}
	}
	return false
}

func (p *Proxy) refuse(w http.ResponseWriter, target, why string) {
	msg := fmt.Sprintf("toolgate sandbox: connection to %s refused: %s", target, why)
	p.mu.Lock()
	if p.Log != nil {
		fmt.Fprintln(p.Log, msg)
	}
	if p.Refused != nil {
		p.Refused(target, why)
	}
	p.mu.Unlock()
	http.Error(w, msg, http.StatusForbidden)
}

// reasonUnnamed is why a host the profile does not name is refused.
const reasonUnnamed = "the sandbox profile does not name this host (--net)"

// permit reports whether the command may connect to host:port: the
// profile names it, or Ask let it through. Ask's answer, yes or no, holds
// for the target for the rest of the run, so a command cannot ring the
// approver again by retrying; a failure to ask is not remembered, but
// counts towards MaxAsks. why says what refused it.
func (p *Proxy) permit(ctx context.Context, host, port string) (ok bool, why string) {
	if p.allowed(host, port) {
		return true, ""
	}
	if p.Ask == nil {
		return false, reasonUnnamed
	}
	target := net.JoinHostPort(strings.ToLower(strings.TrimSuffix(host, ".")), port)
	limit := p.MaxAsks
	if limit <= 0 {
		limit = DefaultMaxAsks
	}
	p.mu.Lock()
	yes, done := p.answered[target]
	capped := false
	if !done {
		capped = p.asks >= limit
		if !capped {
			p.asks++
		}
	}
	p.mu.Unlock()
	if capped {
		return false, fmt.Sprintf("%s, and this run already asked about %d hosts, the most one sandboxed run may ask about", reasonUnnamed, limit)
	}
	if !done {
		var err error
		if yes, err = p.Ask(ctx, target); err != nil {
			return false, reasonUnnamed + ", and asking a person failed: " + err.Error()
		}
		p.mu.Lock()
		if p.answered == nil {
			p.answered = map[string]bool{}
		}
		p.answered[target] = yes
		p.mu.Unlock()
	}
	if !yes {
		return false, reasonUnnamed + ", and the person asked refused it"
	}
	return true, ""
}

// dial connects to host:port after checking the name and, unless the
// profile names it literally, that it does not resolve to this machine or
// a private network (toolgate's gateway listens on loopback).
func (p *Proxy) dial(ctx context.Context, host, port string) (net.Conn, error) {
	ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	var last error = errors.New("no address")
	for _, ip := range ips {
		if (ip.IP.IsLoopback() || ip.IP.IsPrivate() || ip.IP.IsUnspecified() || ip.IP.IsLinkLocalUnicast()) && !p.named(host) && !p.named(ip.IP.String()) {
			last = fmt.Errorf("%s resolves to %s, a local address the profile does not name", host, ip.IP)
			continue
		}
		c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(ip.IP.String(), port))
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, last
}

// ServeHTTP proxies one request.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		p.connect(w, r)
		return
	}
	if r.URL.Scheme != "http" || r.URL.Host == "" {
		http.Error(w, "toolgate sandbox proxy: send absolute-form http requests or CONNECT", http.StatusBadRequest)
		return
	}
	host, port := r.URL.Hostname(), r.URL.Port()
	if port == "" {
		port = "80"
	}
	if ok, why := p.permit(r.Context(), host, port); !ok {
		p.refuse(w, net.JoinHostPort(host, port), why)
		return
	}
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return p.dial(ctx, host, port) },
		Proxy:       nil,
	}
	defer tr.CloseIdleConnections()
	out := r.Clone(r.Context())
	out.RequestURI = ""
	for _, h := range []string{"Proxy-Connection", "Proxy-Authorization", "Connection", "Keep-Alive", "Te", "Trailer", "Upgrade"} {
		out.Header.Del(h)
	}
	resp, err := tr.RoundTrip(out)
	if err != nil {
		p.refuse(w, net.JoinHostPort(host, port), err.Error())
		return
	}
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

// connect tunnels a CONNECT request.
func (p *Proxy) connect(w http.ResponseWriter, r *http.Request) {
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		http.Error(w, "toolgate sandbox proxy: CONNECT needs host:port", http.StatusBadRequest)
		return
	}
	if ok, why := p.permit(r.Context(), host, port); !ok {
		p.refuse(w, r.Host, why)
		return
	}
	upstream, err := p.dial(r.Context(), host, port)
	if err != nil {
		p.refuse(w, r.Host, err.Error())
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		upstream.Close()
		http.Error(w, "toolgate sandbox proxy: cannot tunnel", http.StatusInternalServerError)
		return
	}
	client, buf, err := hj.Hijack()
	if err != nil {
		upstream.Close()
		return
	}
	_, _ = client.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n"))
	go func() {
		if buf.Reader.Buffered() > 0 {
			_, _ = io.CopyN(upstream, buf, int64(buf.Reader.Buffered()))
		}
		_, _ = io.Copy(upstream, client)
		upstream.Close()
	}()
	_, _ = io.Copy(client, upstream)
	client.Close()
}
