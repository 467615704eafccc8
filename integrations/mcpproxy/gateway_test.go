package mcpproxy_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
)

// Tokens the fake gateway knows: the proxy runs with the agent token, which
// may submit calls and cancel its own approvals but not answer them; the
// test answers with the approver token.
const (
	agentToken    = "agent-token"
	approverToken = "approver-token"
)

// fakeGateway stands in for toolgate's HTTP API: POST /v1/calls,
// GET /v1/approvals/{id}?wait=, POST /v1/approvals/{id}/approve|deny|cancel,
// with the JSON shapes of the real one. Calls to tools named *delete* are
// denied, *echo* allowed, everything else asks.
type fakeGateway struct {
	t   *testing.T
	srv *httptest.Server

	mu        sync.Mutex
	approvals map[string]*toolgate.Approval
	digests   map[string]string // call id → CallDigest, as the real gateway keeps
	changed   chan struct{}     // closed and replaced on every change
	n         int
	submitted chan *toolgate.Approval
	cancelled chan string
}

func newFakeGateway(t *testing.T) *fakeGateway {
	g := &fakeGateway{
		t:         t,
		approvals: map[string]*toolgate.Approval{},
		digests:   map[string]string{},
		changed:   make(chan struct{}),
		submitted: make(chan *toolgate.Approval, 16),
		cancelled: make(chan string, 16),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/calls", g.submit)
	mux.HandleFunc("GET /v1/approvals/{id}", g.get)
	mux.HandleFunc("POST /v1/approvals/{id}/{verb}", g.answer)
	g.srv = httptest.NewServer(mux)
	t.Cleanup(g.srv.Close)
	return g
}

func (g *fakeGateway) URL() string { return g.srv.URL }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, code toolgate.ErrorCode, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]string{"code": string(code), "message": msg}})
}

func token(r *http.Request) string {
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
}

func (g *fakeGateway) submit(w http.ResponseWriter, r *http.Request) {
	if tok := token(r); tok != agentToken && tok != approverToken {
		writeError(w, http.StatusUnauthorized, toolgate.EUnauthorized, "unknown token")
		return
	}
	var body struct {
		Call toolgate.Call `json:"call"`
		TTL  string        `json:"ttl"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, toolgate.EInvalid, err.Error())
		return
	}
	if body.Call.Origin == "" || !strings.HasPrefix(body.Call.Tool, "mcp__") {
		writeError(w, http.StatusBadRequest, toolgate.EInvalid, "want an MCP call with an origin")
		return
	}
	g.mu.Lock()
	key, digest := body.Call.Session+"/"+body.Call.ID, toolgate.CallDigest(&body.Call)
	if d, ok := g.digests[key]; ok && d != digest {
		g.mu.Unlock()
		writeError(w, http.StatusConflict, toolgate.EConflict, "call id "+body.Call.ID+" was already submitted with other content")
		return
	}
	g.digests[key] = digest
	g.mu.Unlock()
	ttl := approval.DefaultTTL
	if body.TTL != "" {
		d, err := time.ParseDuration(body.TTL)
		if err != nil {
			writeError(w, http.StatusBadRequest, toolgate.EInvalid, "bad ttl")
			return
		}
		ttl = d
	}
	d := toolgate.Decision{Tier: body.Call.Tier.Effective(), Subjects: []toolgate.SubjectResult{}, Risks: []toolgate.Risk{}, Suggestions: []toolgate.Suggestion{}}
	switch {
	case strings.Contains(body.Call.Tool, "delete"):
		d.Action, d.Reason = toolgate.Deny, "deleting is not allowed here"
	case strings.Contains(body.Call.Tool, "echo"):
		d.Action, d.Reason = toolgate.Allow, "echo is harmless"
	default:
		d.Action, d.Reason = toolgate.Ask, "no rule allows this call"
	}
	res := approval.Result{Decision: d}
	if d.Action == toolgate.Ask {
		now := time.Now().UTC()
		g.mu.Lock()
		g.n++
		a := &toolgate.Approval{
			ID: fmt.Sprintf("ap%d", g.n), ResumeToken: "rt-" + body.Call.ID, Call: body.Call, Decision: d,
			Status: toolgate.StatusPending, CreatedAt: now, ExpiresAt: now.Add(ttl),
		}
		g.approvals[a.ID] = a
		cp := *a
		g.mu.Unlock()
		res.Approval = &cp
		g.submitted <- &cp
	}
	writeJSON(w, http.StatusOK, res)
}

func (g *fakeGateway) get(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var wait time.Duration
	if s := r.URL.Query().Get("wait"); s != "" {
		wait, _ = time.ParseDuration(s)
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		g.mu.Lock()
		a, ok := g.approvals[id]
		var cp toolgate.Approval
		if ok {
			cp = *a
		}
		changed := g.changed
		g.mu.Unlock()
		if !ok {
			writeError(w, http.StatusNotFound, toolgate.ENotFound, "no approval "+id)
			return
		}
		if cp.Status != toolgate.StatusPending || wait <= 0 {
			writeJSON(w, http.StatusOK, cp)
			return
		}
		select {
		case <-changed:
		case <-timer.C:
			wait = 0
		case <-r.Context().Done():
			return
		}
	}
}

func (g *fakeGateway) answer(w http.ResponseWriter, r *http.Request) {
	id, verb := r.PathValue("id"), r.PathValue("verb")
	tok := token(r)
	res := toolgate.Resolution{By: tok, Via: "api", At: time.Now().UTC()}
	switch verb {
	case "approve":
		if tok != approverToken {
			writeError(w, http.StatusForbidden, toolgate.EForbidden, "agent credentials cannot answer")
			return
		}
		var req approval.ApproveRequest
		json.NewDecoder(r.Body).Decode(&req)
		if req.Scope == "" {
			req.Scope = toolgate.ScopeOnce
		}
		res.Status, res.Scope, res.Reason = toolgate.StatusApproved, req.Scope, "approved by "+tok
	case "deny":
		if tok != approverToken {
			writeError(w, http.StatusForbidden, toolgate.EForbidden, "agent credentials cannot answer")
			return
		}
		var req approval.DenyRequest
		json.NewDecoder(r.Body).Decode(&req)
		res.Status, res.DenyMode, res.Feedback = toolgate.StatusDenied, req.Mode, req.Feedback
		res.Reason = approval.DenyMessage("tool", req)
	case "cancel":
		res.Status, res.Reason = toolgate.StatusCancelled, "cancelled: the agent stopped waiting"
	default:
		writeError(w, http.StatusNotFound, toolgate.ENotFound, "no such endpoint")
		return
	}
	g.mu.Lock()
	a, ok := g.approvals[id]
	if !ok {
		g.mu.Unlock()
		writeError(w, http.StatusNotFound, toolgate.ENotFound, "no approval "+id)
		return
	}
	if a.Status != toolgate.StatusPending {
		g.mu.Unlock()
		writeError(w, http.StatusConflict, toolgate.EConflict, "approval "+id+" is already "+string(a.Status))
		return
	}
	a.Status, a.Resolution = res.Status, &res
	cp := *a
	close(g.changed)
	g.changed = make(chan struct{})
	g.mu.Unlock()
	if verb == "cancel" {
		g.cancelled <- id
	}
	writeJSON(w, http.StatusOK, cp)
}

// nextSubmitted waits for the next call held for approval.
func (g *fakeGateway) nextSubmitted() *toolgate.Approval {
	g.t.Helper()
	select {
	case a := <-g.submitted:
		return a
	case <-time.After(waitLong):
		g.t.Fatal("the gateway got no call to approve")
	}
	return nil
}

// nextCancelled waits for the next cancelled approval.
func (g *fakeGateway) nextCancelled() string {
	g.t.Helper()
	select {
	case id := <-g.cancelled:
		return id
	case <-time.After(waitLong):
		g.t.Fatal("the gateway saw no cancel")
	}
	return ""
}
