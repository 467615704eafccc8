// Package hookgate is the part of toolgate's HTTP client the agent hook
// needs, over plain HTTP/1.1 on package net: submit a call (POST
// /v1/calls), wait for its approval (GET /v1/approvals/{id}?wait=),
// withdraw it (POST /v1/approvals/{id}/cancel) and end a session's turn
// (POST /v1/sessions/{id}/turn-end). The lean hook binary decides
// through a gateway with it in its own process: net/http would cost every
// hook call, local ones included, about a millisecond of package start-up
// (its TLS, HTTP/2 and MIME tables), which the hook does not use.
//
// It speaks only http:// to an IP address or localhost (a gateway on
// loopback or inside a private network), over a socket of its own
// (dial_unix.go): package net would make the binary use cgo, and load
// dynamically, for its name resolver. An https:// gateway, a host name,
// or a system without it is ErrHandOff: the full toolgate binary (package
// client) decides those. One connection per request, closed after it
// ("Connection: close"): a hook makes one or two requests.
package hookgate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/httpcode"
)

// ErrHandOff is returned by New for a gateway it does not reach itself:
// https://, a host name, or a system without its socket code.
var ErrHandOff = errors.New("hookgate speaks only http:// to an IP address or localhost")

// maxBody bounds a response body.
const maxBody = 8 << 20

// longPoll is how long one request of Wait asks the gateway to hold.
const longPoll = 30 * time.Second

// Gate talks to one gateway; it implements claudecode.HookGate.
type Gate struct {
	host   string // host[:port] as written, for the Host header and messages
	addr   addr   // where to connect
	prefix string // path prefix of the gateway, without the trailing slash
	token  string
	via    string
}

// New returns a Gate for the gateway at baseURL (http://host[:port][/path])
// with a bearer token; via names the client in the audit log.
func New(baseURL, token, via string) (*Gate, error) {
	rest, ok := strings.CutPrefix(strings.TrimRight(baseURL, "/"), "http://")
	if !ok {
		if strings.HasPrefix(baseURL, "https://") {
			return nil, ErrHandOff
		}
		return nil, fmt.Errorf("gateway URL %q: want http://host:port or https://host:port", baseURL)
	}
	host, prefix, _ := strings.Cut(rest, "/")
	if host == "" || strings.ContainsAny(host, "@?# ") || strings.ContainsAny(prefix, "?# ") {
		return nil, fmt.Errorf("gateway URL %q: want http://host:port or https://host:port", baseURL)
	}
	if prefix != "" {
		prefix = "/" + prefix
	}
	addr, err := parseAddr(host)
	if err != nil {
		return nil, err
	}
	if strings.ContainsAny(token, "\r\n") || strings.ContainsAny(via, "\r\n") {
		return nil, errors.New("the token or client name has a line break")
	}
	return &Gate{host: host, addr: addr, prefix: prefix, token: token, via: via}, nil
}

// Submit implements claudecode.HookGate: POST /v1/calls.
func (g *Gate) Submit(ctx context.Context, req toolgate.SubmitRequest) (*toolgate.Result, error) {
	var r toolgate.Result
	return &r, g.do(ctx, "POST", "/v1/calls", req.Body(), &r)
}

// Wait implements claudecode.HookGate: it long-polls the approval until
// it is no longer pending or ctx ends, and returns it as it then stands.
func (g *Gate) Wait(ctx context.Context, id string) (*toolgate.Approval, error) {
	for {
		var a toolgate.Approval
		err := g.do(ctx, "GET", "/v1/approvals/"+pathEscape(id)+"?wait="+longPoll.String(), nil, &a)
		if err != nil {
			return nil, err
		}
		if a.Status != toolgate.StatusPending {
			return &a, nil
		}
		if err := ctx.Err(); err != nil {
			return &a, err
		}
	}
}

// Cancel implements claudecode.HookGate.
func (g *Gate) Cancel(ctx context.Context, id, reason string) (*toolgate.Approval, error) {
	var a toolgate.Approval
	body := struct {
		Reason string `json:"reason,omitempty"`
	}{reason}
	return &a, g.do(ctx, "POST", "/v1/approvals/"+pathEscape(id)+"/cancel", body, &a)
}

// EndTurn implements claudecode.HookGate.
func (g *Gate) EndTurn(ctx context.Context, session string) (*toolgate.Session, error) {
	var s toolgate.Session
	return &s, g.do(ctx, "POST", "/v1/sessions/"+pathEscape(session)+"/turn-end", struct{}{}, &s)
}

// ReportSandbox sends what the kernel sandbox refused a confined command
// to the gateway's audit (POST /v1/sandbox/violations).
func (g *Gate) ReportSandbox(ctx context.Context, r *toolgate.SandboxReport) error {
	var out struct {
		Recorded bool `json:"recorded"`
	}
	return g.do(ctx, "POST", "/v1/sandbox/violations", r, &out)
}

// do sends one request and decodes the JSON response into out. An error
// response becomes a *toolgate.Error with the gateway's code; a gateway
// that cannot be reached is EUnavailable, as package client says it.
func (g *Gate) do(ctx context.Context, method, path string, body, out any) error {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return fmt.Errorf("encode %s %s: %w", method, path, err)
		}
	}
	conn, err := dial(ctx, g.addr)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%s %s: %w", method, path, ctx.Err())
		}
		return toolgate.Errorf(toolgate.EUnavailable, "gateway %s unreachable: %w", g.host, err)
	}
	defer conn.Close()

	var req bytes.Buffer
	fmt.Fprintf(&req, "%s %s%s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\nAccept: application/json\r\n", method, g.prefix, path, g.host)
	if g.token != "" {
		fmt.Fprintf(&req, "Authorization: Bearer %s\r\n", g.token)
	}
	if g.via != "" {
		fmt.Fprintf(&req, "X-Toolgate-Client: %s\r\n", g.via)
	}
	if payload != nil {
		fmt.Fprintf(&req, "Content-Type: application/json\r\nContent-Length: %d\r\n", len(payload))
	}
	req.WriteString("\r\n")
	req.Write(payload)
	if _, err := conn.Write(req.Bytes()); err != nil {
		return g.failed(ctx, method, path, err)
	}
	status, data, err := readResponse(bufio.NewReader(conn))
	if err != nil {
		return g.failed(ctx, method, path, err)
	}
	if status >= 300 {
		return httpcode.Error(status, strconv.Itoa(status), data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("decode %s %s response: %w", method, path, err)
		}
	}
	return nil
}

// failed words a request that broke off: ctx's end, else the gateway
// gone.
func (g *Gate) failed(ctx context.Context, method, path string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s %s: %w", method, path, ctx.Err())
	}
	return toolgate.Errorf(toolgate.EUnavailable, "gateway %s unreachable: %w", g.host, err)
}

// addr is a gateway's IP address and port.
type addr struct {
	ip   [16]byte
	v4   bool
	port int
}

// parseAddr reads host[:port] as an IP address (v4, or v6 in brackets)
// or localhost (127.0.0.1); a host name is ErrHandOff.
func parseAddr(hostport string) (addr, error) {
	host, port := hostport, "80"
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 && !strings.HasSuffix(hostport, "]") && (strings.HasPrefix(hostport, "[") || strings.Count(hostport, ":") == 1) {
		host, port = hostport[:i], hostport[i+1:]
	}
	p, err := strconv.Atoi(port)
	if err != nil || p <= 0 || p > 65535 {
		return addr{}, fmt.Errorf("gateway address %q: bad port", hostport)
	}
	a := addr{port: p}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if host == "localhost" {
		host = "127.0.0.1"
	}
	if ip, ok := parseIPv4(host); ok {
		a.v4 = true
		copy(a.ip[:4], ip[:])
		return a, nil
	}
	if ip, ok := parseIPv6(host); ok {
		a.ip = ip
		return a, nil
	}
	return addr{}, ErrHandOff
}

func parseIPv4(s string) (ip [4]byte, ok bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return ip, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 255 || p == "" || len(p) > 1 && p[0] == '0' {
			return ip, false
		}
		ip[i] = byte(n)
	}
	return ip, true
}

// parseIPv6 reads an IPv6 address without a zone ("::1", "fd00::2").
func parseIPv6(s string) (ip [16]byte, ok bool) {
	if !strings.Contains(s, ":") || strings.Contains(s, "%") {
		return ip, false
	}
	head, tail, double := strings.Cut(s, "::")
	if strings.Contains(tail, "::") {
		return ip, false
	}
	groups := func(part string) ([]uint16, bool) {
		if part == "" {
			return nil, true
		}
		var out []uint16
		for _, g := range strings.Split(part, ":") {
			n, err := strconv.ParseUint(g, 16, 16)
			if err != nil || g == "" || len(g) > 4 {
				return nil, false
			}
			out = append(out, uint16(n))
		}
		return out, true
	}
	h, ok1 := groups(head)
	t, ok2 := groups(tail)
	if !ok1 || !ok2 || len(h)+len(t) > 8 || !double && len(h) != 8 || double && len(h)+len(t) == 8 {
		return ip, false
	}
	all := make([]uint16, 8)
	copy(all, h)
	copy(all[8-len(t):], t)
	for i, g := range all {
		ip[2*i], ip[2*i+1] = byte(g>>8), byte(g)
	}
	return ip, true
}

// readResponse reads an HTTP/1.1 response: the status code and the body,
// by Content-Length, chunked, or to the end of the connection.
func readResponse(r *bufio.Reader) (status int, body []byte, err error) {
	line, err := readLine(r)
	if err != nil {
		return 0, nil, err
	}
	proto, rest, _ := strings.Cut(line, " ")
	code, _, _ := strings.Cut(rest, " ")
	if !strings.HasPrefix(proto, "HTTP/1.") || len(code) != 3 {
		return 0, nil, fmt.Errorf("not an HTTP response: %q", line)
	}
	if status, err = strconv.Atoi(code); err != nil {
		return 0, nil, fmt.Errorf("not an HTTP response: %q", line)
	}
	length, chunked := int64(-1), false
	for {
		h, err := readLine(r)
		if err != nil {
			return 0, nil, err
		}
		if h == "" {
			break
		}
		k, v, _ := strings.Cut(h, ":")
		v = strings.TrimSpace(v)
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "content-length":
			if length, err = strconv.ParseInt(v, 10, 64); err != nil || length < 0 {
				return 0, nil, fmt.Errorf("bad Content-Length %q", v)
			}
		case "transfer-encoding":
			chunked = strings.EqualFold(v, "chunked")
		}
	}
	switch {
	case chunked:
		body, err = readChunked(r)
	case length >= 0:
		if length > maxBody {
			return 0, nil, fmt.Errorf("response of %d bytes", length)
		}
		body = make([]byte, length)
		_, err = io.ReadFull(r, body)
	default:
		body, err = io.ReadAll(io.LimitReader(r, maxBody))
	}
	return status, body, err
}

// readChunked reads a chunked body (RFC 9112 §7.1), trailers ignored.
func readChunked(r *bufio.Reader) ([]byte, error) {
	var body []byte
	for {
		line, err := readLine(r)
		if err != nil {
			return nil, err
		}
		size, _, _ := strings.Cut(line, ";")
		n, err := strconv.ParseInt(strings.TrimSpace(size), 16, 64)
		if err != nil || n < 0 || int64(len(body))+n > maxBody {
			return nil, fmt.Errorf("bad chunk size %q", line)
		}
		if n == 0 {
			for {
				if t, err := readLine(r); err != nil || t == "" {
					return body, err
				}
			}
		}
		chunk := make([]byte, n+2)
		if _, err := io.ReadFull(r, chunk); err != nil {
			return nil, err
		}
		if string(chunk[n:]) != "\r\n" {
			return nil, errors.New("bad chunk end")
		}
		body = append(body, chunk[:n]...)
	}
}

// readLine reads one CRLF-ended line, bounded.
func readLine(r *bufio.Reader) (string, error) {
	line, err := r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		return "", errors.New("response line too long")
	}
	if err != nil {
		return "", err
	}
	return strings.TrimRight(string(line), "\r\n"), nil
}

// pathEscape escapes a path segment: every byte but unreserved ones.
func pathEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
