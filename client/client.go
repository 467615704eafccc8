package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/httpcode"
)

// Client talks to one gateway. It is safe for concurrent use.
type Client struct {
	base  *url.URL
	token string
	http  *http.Client
	via   string
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient sets the HTTP client (default: http.DefaultClient with
// no overall timeout, since long-polls and event streams last).
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// WithVia names the client in the audit log (cli, tui, hook, mcp, …).
func WithVia(via string) Option { return func(c *Client) { c.via = via } }

// New returns a client for the gateway at baseURL (e.g.
// http://127.0.0.1:8787) authenticating with token.
func New(baseURL, token string, opts ...Option) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("gateway URL %q: want http://host:port or https://host:port", baseURL)
	}
	c := &Client{base: u, token: token, http: http.DefaultClient}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// do sends a request and decodes a JSON response into out (if not nil).
// Error bodies become *toolgate.Error with the server's code and message.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body, out any) error {
	var rd io.Reader
	contentType := ""
	switch b := body.(type) {
	case nil:
	case []byte:
		rd, contentType = bytes.NewReader(b), "application/jsonc"
	default:
		data, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encode %s %s: %w", method, path, err)
		}
		rd, contentType = bytes.NewReader(data), "application/json"
	}
	u := *c.base
	u.Path += path
	u.RawQuery = query.Encode()
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	c.authorize(req)
	resp, err := c.http.Do(req)
	if err != nil {
		return toolgate.Errorf(toolgate.EUnavailable, "gateway %s unreachable: %w", c.base.Host, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return decodeError(resp)
	}
	switch out := out.(type) {
	case nil:
		return nil
	case *[]byte:
		*out, err = io.ReadAll(resp.Body)
		return err
	default:
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			return fmt.Errorf("decode %s %s response: %w", method, path, err)
		}
	}
	return nil
}

func (c *Client) authorize(req *http.Request) {
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if c.via != "" {
		req.Header.Set("X-Toolgate-Client", c.via)
	}
}

// decodeError turns an error response into a *toolgate.Error.
func decodeError(resp *http.Response) error {
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	return httpcode.Error(resp.StatusCode, resp.Status, data)
}

func waitQuery(wait time.Duration) url.Values {
	q := url.Values{}
	if wait > 0 {
		q.Set("wait", wait.String())
	}
	return q
}

// Client is a toolgate.Gate over HTTP.
var _ toolgate.Gate = (*Client)(nil)

// Evaluate decides a call without holding or recording it.
func (c *Client) Evaluate(ctx context.Context, call toolgate.Call) (*toolgate.Decision, error) {
	var d toolgate.Decision
	return &d, c.do(ctx, http.MethodPost, "/v1/evaluate", nil, call, &d)
}

// Submit submits a call and returns at once; a call that asks comes back
// with its pending approval (Wait for the outcome, or use
// toolgate.RequestApproval for both).
func (c *Client) Submit(ctx context.Context, req toolgate.SubmitRequest) (*toolgate.Result, error) {
	return c.SubmitWait(ctx, req, 0)
}

// SubmitWait submits a call; with wait > 0 the gateway holds the request
// up to that long for a pending approval's outcome, saving a round trip.
func (c *Client) SubmitWait(ctx context.Context, req toolgate.SubmitRequest, wait time.Duration) (*toolgate.Result, error) {
	var r toolgate.Result
	return &r, c.do(ctx, http.MethodPost, "/v1/calls", waitQuery(wait), req.Body(), &r)
}

// Approval returns an approval.
func (c *Client) Approval(ctx context.Context, id string) (*toolgate.Approval, error) {
	return c.approval(ctx, id, 0)
}

// approval returns an approval; with wait > 0 the gateway holds the
// request up to that long while the approval is pending.
func (c *Client) approval(ctx context.Context, id string, wait time.Duration) (*toolgate.Approval, error) {
	var a toolgate.Approval
	return &a, c.do(ctx, http.MethodGet, "/v1/approvals/"+url.PathEscape(id), waitQuery(wait), nil, &a)
}

// longPoll is how long one request of Wait is held by the gateway.
const longPoll = 30 * time.Second

// Wait long-polls until the approval is resolved or ctx ends, and returns
// it as it then stands (still pending, with ctx's error, if ctx ended).
func (c *Client) Wait(ctx context.Context, id string) (*toolgate.Approval, error) {
	for {
		a, err := c.approval(ctx, id, longPoll)
		if err != nil {
			if ctx.Err() != nil {
				// Report the approval as it stands, as the broker does.
				gctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
				defer cancel()
				if a, gerr := c.approval(gctx, id, 0); gerr == nil {
					return a, ctx.Err()
				}
				return nil, ctx.Err()
			}
			return nil, err
		}
		if a.Status != toolgate.StatusPending {
			return a, nil
		}
		if err := ctx.Err(); err != nil {
			return a, err
		}
	}
}

// Approvals lists approvals.
func (c *Client) Approvals(ctx context.Context, f toolgate.ApprovalFilter) ([]*toolgate.Approval, error) {
	q := url.Values{}
	setIf(q, "status", string(f.Status))
	setIf(q, "session", f.Session)
	setIf(q, "workspace", f.Workspace)
	if f.Limit > 0 {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	var out struct {
		Approvals []*toolgate.Approval `json:"approvals"`
	}
	if err := c.do(ctx, http.MethodGet, "/v1/approvals", q, nil, &out); err != nil {
		return nil, err
	}
	if f.ExpiresBefore.IsZero() {
		return out.Approvals, nil
	}
	// The API has no expiry filter; apply it here so the filter means the
	// same on every Gate.
	kept := out.Approvals[:0]
	for _, a := range out.Approvals {
		if !a.ExpiresAt.After(f.ExpiresBefore) {
			kept = append(kept, a)
		}
	}
	return kept, nil
}

func setIf(q url.Values, k, v string) {
	if v != "" {
		q.Set(k, v)
	}
}

// Approve approves a pending approval.
func (c *Client) Approve(ctx context.Context, id string, req toolgate.ApproveRequest) (*toolgate.Approval, error) {
	var a toolgate.Approval
	return &a, c.do(ctx, http.MethodPost, "/v1/approvals/"+url.PathEscape(id)+"/approve", nil, req, &a)
}

// Deny denies a pending approval.
func (c *Client) Deny(ctx context.Context, id string, req toolgate.DenyRequest) (*toolgate.Approval, error) {
	var a toolgate.Approval
	return &a, c.do(ctx, http.MethodPost, "/v1/approvals/"+url.PathEscape(id)+"/deny", nil, req, &a)
}

// EndSession ends a session for good: its pending approvals are
// cancelled, its session grants revoked, later calls denied.
func (c *Client) EndSession(ctx context.Context, session string) (*toolgate.Session, error) {
	var s toolgate.Session
	return &s, c.do(ctx, http.MethodPost, "/v1/sessions/"+url.PathEscape(session)+"/end", nil, struct{}{}, &s)
}

// DisconnectWorkspace reports that a workspace's worker went away: its
// pending approvals are cancelled (seed 001's worker disconnect); with an
// agent token, those of the sessions the token owns.
func (c *Client) DisconnectWorkspace(ctx context.Context, workspace string) error {
	return c.do(ctx, http.MethodPost, "/v1/workspaces/"+url.PathEscape(workspace)+"/disconnect", nil, struct{}{}, nil)
}

// Cancel withdraws a pending approval the agent no longer waits for; an
// empty reason lets the gateway word it.
func (c *Client) Cancel(ctx context.Context, id, reason string) (*toolgate.Approval, error) {
	var a toolgate.Approval
	body := struct {
		Reason string `json:"reason,omitempty"`
	}{reason}
	return &a, c.do(ctx, http.MethodPost, "/v1/approvals/"+url.PathEscape(id)+"/cancel", nil, body, &a)
}

// RecordPin records in the gateway's audit log that an MCP proxy pinned
// a tool's definition.
func (c *Client) RecordPin(ctx context.Context, ev toolgate.PinEvent) error {
	return c.do(ctx, http.MethodPost, "/v1/mcp/pins", nil, ev, nil)
}

// Grants lists grants.
func (c *Client) Grants(ctx context.Context, f toolgate.GrantFilter) ([]*toolgate.Grant, error) {
	q := url.Values{}
	setIf(q, "scope", string(f.Scope))
	setIf(q, "session", f.Session)
	setIf(q, "workspace", f.Workspace)
	setIf(q, "tool", f.Tool)
	var out struct {
		Grants []*toolgate.Grant `json:"grants"`
	}
	return out.Grants, c.do(ctx, http.MethodGet, "/v1/grants", q, nil, &out)
}

// AddGrant adds a grant directly (admin).
func (c *Client) AddGrant(ctx context.Context, g toolgate.Grant) (*toolgate.Grant, error) {
	var out toolgate.Grant
	return &out, c.do(ctx, http.MethodPost, "/v1/grants", nil, g, &out)
}

// RevokeGrant deletes a grant (admin).
func (c *Client) RevokeGrant(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodDelete, "/v1/grants/"+url.PathEscape(id), nil, nil, nil)
}

// Token is a credential as the gateway shows it; Token is set only in
// the answer to CreateToken.
type Token struct {
	Name      string    `json:"name"`
	Role      string    `json:"role"`
	CreatedAt time.Time `json:"created_at"`
	Token     string    `json:"token,omitempty"`
}

// Tokens lists the gateway's credentials (admin).
func (c *Client) Tokens(ctx context.Context) ([]Token, error) {
	var out struct {
		Tokens []Token `json:"tokens"`
	}
	return out.Tokens, c.do(ctx, http.MethodGet, "/v1/tokens", nil, nil, &out)
}

// CreateToken creates a credential (admin); the token is in the answer,
// once.
func (c *Client) CreateToken(ctx context.Context, name, role string) (*Token, error) {
	var out Token
	return &out, c.do(ctx, http.MethodPost, "/v1/tokens", nil, map[string]string{"name": name, "role": role}, &out)
}

// RevokeToken revokes a credential (admin); it stops working at once at
// that gateway.
func (c *Client) RevokeToken(ctx context.Context, name string) error {
	return c.do(ctx, http.MethodDelete, "/v1/tokens/"+url.PathEscape(name), nil, nil, nil)
}

// Rules returns a workspace's rules document, byte for byte.
func (c *Client) Rules(ctx context.Context, workspace string) ([]byte, error) {
	var src []byte
	return src, c.do(ctx, http.MethodGet, "/v1/workspaces/"+url.PathEscape(workspace)+"/rules", nil, nil, &src)
}

// PutRules replaces a workspace's rules document; the gateway validates it
// first and stores nothing if it is invalid.
func (c *Client) PutRules(ctx context.Context, workspace string, src []byte) error {
	return c.do(ctx, http.MethodPut, "/v1/workspaces/"+url.PathEscape(workspace)+"/rules", nil, src, nil)
}

// Sessions lists sessions.
func (c *Client) Sessions(ctx context.Context, f toolgate.SessionFilter) ([]*toolgate.Session, error) {
	q := url.Values{}
	setIf(q, "workspace", f.Workspace)
	if f.Limit > 0 {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	var out struct {
		Sessions []*toolgate.Session `json:"sessions"`
	}
	return out.Sessions, c.do(ctx, http.MethodGet, "/v1/sessions", q, nil, &out)
}

// Session returns a session.
func (c *Client) Session(ctx context.Context, id string) (*toolgate.Session, error) {
	var s toolgate.Session
	return &s, c.do(ctx, http.MethodGet, "/v1/sessions/"+url.PathEscape(id), nil, nil, &s)
}

// SetMode changes a session's mode.
func (c *Client) SetMode(ctx context.Context, session string, mode toolgate.Mode) (*toolgate.Session, error) {
	var s toolgate.Session
	return &s, c.do(ctx, http.MethodPut, "/v1/sessions/"+url.PathEscape(session)+"/mode", nil, map[string]string{"mode": mode.String()}, &s)
}

// Abort aborts a session.
func (c *Client) Abort(ctx context.Context, session string) (*toolgate.Session, error) {
	var s toolgate.Session
	return &s, c.do(ctx, http.MethodPost, "/v1/sessions/"+url.PathEscape(session)+"/abort", nil, struct{}{}, &s)
}

// EndTurn ends a session's turn: the user spoke again.
func (c *Client) EndTurn(ctx context.Context, session string) (*toolgate.Session, error) {
	var s toolgate.Session
	return &s, c.do(ctx, http.MethodPost, "/v1/sessions/"+url.PathEscape(session)+"/turn-end", nil, struct{}{}, &s)
}

// Audit lists audit entries in sequence order.
func (c *Client) Audit(ctx context.Context, f toolgate.AuditFilter) ([]toolgate.AuditEntry, error) {
	q := url.Values{}
	setIf(q, "session", f.Session)
	setIf(q, "workspace", f.Workspace)
	setIf(q, "tool", f.Tool)
	setIf(q, "outcome", f.Outcome)
	setIf(q, "kind", f.Kind)
	setIf(q, "q", f.Query)
	if !f.Since.IsZero() {
		q.Set("since", f.Since.UTC().Format(time.RFC3339Nano))
	}
	if !f.Until.IsZero() {
		q.Set("until", f.Until.UTC().Format(time.RFC3339Nano))
	}
	if f.AfterSeq > 0 {
		q.Set("after", strconv.FormatInt(f.AfterSeq, 10))
	}
	if f.Limit > 0 {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	var out struct {
		Entries []toolgate.AuditEntry `json:"entries"`
	}
	return out.Entries, c.do(ctx, http.MethodGet, "/v1/audit", q, nil, &out)
}

// Events streams events (Server-Sent Events) until ctx ends or the stream
// breaks; the error channel then carries why (nil when ctx ended). The
// stream begins with the approvals still pending.
func (c *Client) Events(ctx context.Context, f toolgate.EventFilter) (<-chan toolgate.Event, <-chan error) {
	events := make(chan toolgate.Event, 64)
	errc := make(chan error, 1)
	go func() {
		defer close(events)
		errc <- c.streamEvents(ctx, f, events)
	}()
	return events, errc
}

func (c *Client) streamEvents(ctx context.Context, f toolgate.EventFilter, out chan<- toolgate.Event) error {
	q := url.Values{}
	setIf(q, "session", f.Session)
	setIf(q, "workspace", f.Workspace)
	if f.AfterSeq > 0 {
		q.Set("after", strconv.FormatInt(f.AfterSeq, 10))
	}
	u := *c.base
	u.Path += "/v1/events"
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	c.authorize(req)
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return toolgate.Errorf(toolgate.EUnavailable, "gateway %s unreachable: %w", c.base.Host, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return decodeError(resp)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var data bytes.Buffer
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if data.Len() > 0 {
				var e toolgate.Event
				if err := json.Unmarshal(data.Bytes(), &e); err != nil {
					return fmt.Errorf("decode event: %w", err)
				}
				data.Reset()
				select {
				case out <- e:
				case <-ctx.Done():
					return nil
				}
			}
		case bytes.HasPrefix(line, []byte("data:")):
			data.Write(bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" ")))
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	if err := sc.Err(); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("event stream: %w", err)
	}
	return toolgate.Errorf(toolgate.EUnavailable, "event stream ended")
}

// PairRequest asks for a one-time pairing link.
type PairRequest struct {
	// Label names the device ("alice's phone").
	Label string `json:"label,omitempty"`
	// TTL is how long the device stays signed in ("720h").
	TTL string `json:"ttl,omitempty"`
	// PublicURL is the gateway's address as the device reaches it.
	PublicURL string `json:"public_url,omitempty"`
}

// Pairing is a one-time link that signs a device in as an approver.
type Pairing struct {
	URL       string    `json:"url"`
	ExpiresAt time.Time `json:"expires_at"`
	DeviceTTL string    `json:"device_ttl"`
}

// Pair makes a one-time pairing link.
func (c *Client) Pair(ctx context.Context, req PairRequest) (*Pairing, error) {
	var p Pairing
	return &p, c.do(ctx, http.MethodPost, "/ui/pair", nil, req, &p)
}

// Device is a signed-in browser, a paired device or an unused pairing
// link.
type Device struct {
	ID        string    `json:"id"`
	Label     string    `json:"label"`
	Token     string    `json:"token"`
	Role      string    `json:"role"`
	Paired    bool      `json:"paired"`
	Pending   bool      `json:"pending,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	LastSeen  time.Time `json:"last_seen"`
	ExpiresAt time.Time `json:"expires_at"`
}

// Devices lists the devices the caller may see: an admin's every one,
// anyone else's their own.
func (c *Client) Devices(ctx context.Context) ([]Device, error) {
	var out struct {
		Devices []Device `json:"devices"`
	}
	return out.Devices, c.do(ctx, http.MethodGet, "/ui/devices", nil, nil, &out)
}

// RevokeDevice signs a device out.
func (c *Client) RevokeDevice(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodDelete, "/ui/devices/"+url.PathEscape(id), nil, nil, nil)
}
