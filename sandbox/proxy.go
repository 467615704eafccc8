package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
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

	mu       sync.Mutex
	answered map[string]bool // targets Ask answered: let through or not
	asks     int             // calls of Ask made or under way
	closed   bool
	ln       net.Listener
	conns    map[net.Conn]struct{} // open on either side, ended by Close
	cancel   context.CancelFunc    // ends the asks under way
}

// DefaultMaxAsks is how many hosts a confined run may ask a person about
// when Proxy.MaxAsks is not set.
const DefaultMaxAsks = 8

// ProxyPort is the port of the proxy inside the sandbox's network
// namespace, which is new and empty: any number would do.
const ProxyPort = 3128

// Serve serves the connections ln accepts until Close, which also ends
// the connections it carries. Each connection carries one request: a
// CONNECT tunnel, or one plain HTTP request sent on with "Connection:
// close". It speaks just this much HTTP/1.1 itself, without net/http,
// whose initialisation would be a tenth of the sandbox's start.
func (p *Proxy) Serve(ln net.Listener) {
	ctx, cancel := context.WithCancel(context.Background())
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		cancel()
		ln.Close()
		return
	}
	p.ln, p.cancel = ln, cancel
	p.mu.Unlock()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		if !p.track(c) {
			return
		}
		go func() {
			defer p.untrack(c)
			p.serveConn(ctx, c)
		}()
	}
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
	p.closed = true
	ln, conns, cancel := p.ln, p.conns, p.cancel
	p.conns = nil
	p.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	if ln != nil {
		ln.Close()
	}
	for c := range conns {
		c.Close()
	}
	return nil
}

// track records c so that Close ends it; after Close it closes c and
// reports false.
func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		c.Close()
		return false
	}
	if p.conns == nil {
		p.conns = map[net.Conn]struct{}{}
	}
	p.conns[c] = struct{}{}
	return true
}

// untrack closes c and forgets it.
func (p *Proxy) untrack(c net.Conn) {
	c.Close()
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
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

func (p *Proxy) refuse(w io.Writer, target, why string) {
	msg := fmt.Sprintf("toolgate sandbox: connection to %s refused: %s", target, why)
	p.mu.Lock()
	if p.Log != nil {
		fmt.Fprintln(p.Log, msg)
	}
	if p.Refused != nil {
		p.Refused(target, why)
	}
	p.mu.Unlock()
	respond(w, "403 Forbidden", msg)
}

// respond writes a whole plain-text response that ends the connection.
func respond(w io.Writer, status, msg string) {
	fmt.Fprintf(w, "HTTP/1.1 %s\r\nContent-Type: text/plain; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s\n", status, len(msg)+1, msg)
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

// Limits on a request's head: a line, and the lines together.
const (
	maxHeadLine  = 8 << 10
	maxHeadLines = 200
	headTimeout  = 30 * time.Second
)

// request is the head of a request: its line and its header lines, as
// sent (without their line ends).
type request struct {
	method, target, proto string
	header                []string
}

// errHead is a request head the proxy does not take.
type errHead string

func (e errHead) Error() string { return string(e) }

// readRequest reads a request's head from r.
func readRequest(r *bufio.Reader) (*request, error) {
	var req request
	for n := 0; ; n++ {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, errHead("a line of the request is too long")
		}
		if err != nil {
			return nil, err
		}
		text := strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r")
		if n == 0 {
			f := strings.Fields(text)
			if len(f) != 3 || !strings.HasPrefix(f[2], "HTTP/1.") {
				return nil, errHead("not an HTTP/1.x request line")
			}
			req.method, req.target, req.proto = f[0], f[1], f[2]
			continue
		}
		if text == "" {
			return &req, nil
		}
		if n > maxHeadLines {
			return nil, errHead("too many header lines")
		}
		if !strings.Contains(text, ":") || text[0] == ' ' || text[0] == '\t' {
			return nil, errHead("a malformed header line")
		}
		req.header = append(req.header, text)
	}
}

// serveConn serves the one request c carries.
func (p *Proxy) serveConn(ctx context.Context, c net.Conn) {
	_ = c.SetReadDeadline(time.Now().Add(headTimeout))
	br := bufio.NewReaderSize(c, maxHeadLine)
	req, err := readRequest(br)
	if err != nil {
		var bad errHead
		if errors.As(err, &bad) {
			respond(c, "400 Bad Request", "toolgate sandbox proxy: "+bad.Error())
		}
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	if req.method == "CONNECT" {
		p.connect(ctx, c, br, req)
		return
	}
	p.forward(ctx, c, br, req)
}

// hopByHop are the headers that concern one connection, not the request:
// the proxy does not send them on.
var hopByHop = []string{"Proxy-Connection", "Proxy-Authorization", "Connection", "Keep-Alive", "Te", "Trailer", "Upgrade"}

// forward sends one absolute-form plain HTTP request on to its host and
// the response back.
func (p *Proxy) forward(ctx context.Context, c net.Conn, br *bufio.Reader, req *request) {
	u, err := url.Parse(req.target)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		respond(c, "400 Bad Request", "toolgate sandbox proxy: send absolute-form http requests or CONNECT")
		return
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "80"
	}
	target := net.JoinHostPort(host, port)
	if ok, why := p.permit(ctx, host, port); !ok {
		p.refuse(c, target, why)
		return
	}
	upstream, err := p.dial(ctx, host, port)
	if err != nil {
		p.refuse(c, target, err.Error())
		return
	}
	if !p.track(upstream) {
		return
	}
	defer p.untrack(upstream)
	var head bytes.Buffer
	fmt.Fprintf(&head, "%s %s HTTP/1.1\r\n", req.method, u.RequestURI())
	drop := map[string]bool{}
	for _, h := range hopByHop {
		drop[strings.ToLower(h)] = true
	}
	for _, line := range req.header {
		name, value, _ := strings.Cut(line, ":")
		if strings.EqualFold(name, "Connection") {
			for _, n := range strings.Split(value, ",") {
				drop[strings.ToLower(strings.TrimSpace(n))] = true
			}
		}
	}
	hasHost := false
	for _, line := range req.header {
		name, _, _ := strings.Cut(line, ":")
		if drop[strings.ToLower(strings.TrimSpace(name))] {
			continue
		}
		hasHost = hasHost || strings.EqualFold(name, "Host")
		head.WriteString(line)
		head.WriteString("\r\n")
	}
	if !hasHost {
		fmt.Fprintf(&head, "Host: %s\r\n", u.Host)
	}
	head.WriteString("Connection: close\r\n\r\n")
	if _, err := upstream.Write(head.Bytes()); err != nil {
		p.refuse(c, target, err.Error())
		return
	}
	splice(c, br, upstream)
}

// connect tunnels a CONNECT request.
func (p *Proxy) connect(ctx context.Context, c net.Conn, br *bufio.Reader, req *request) {
	host, port, err := net.SplitHostPort(req.target)
	if err != nil {
		respond(c, "400 Bad Request", "toolgate sandbox proxy: CONNECT needs host:port")
		return
	}
	if ok, why := p.permit(ctx, host, port); !ok {
		p.refuse(c, req.target, why)
		return
	}
	upstream, err := p.dial(ctx, host, port)
	if err != nil {
		p.refuse(c, req.target, err.Error())
		return
	}
	if !p.track(upstream) {
		return
	}
	defer p.untrack(upstream)
	if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	splice(c, br, upstream)
}

// splice copies what the client sends (the bytes br holds first) to
// upstream and what upstream sends back to the client, until upstream
// ends; the caller closes both.
func splice(c net.Conn, br *bufio.Reader, upstream net.Conn) {
	go func() {
		_, _ = io.Copy(upstream, br)
		if tc, ok := upstream.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
	}()
	_, _ = io.Copy(c, upstream)
}
