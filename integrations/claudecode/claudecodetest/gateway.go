// Package claudecodetest is a stand-in gateway for testing hooks: an
// httptest server with the few endpoints the hook uses (POST /v1/calls,
// GET /v1/approvals/{id}?wait=, POST /v1/approvals/{id}/cancel) and the
// approver's answers (POST /v1/approvals/{id}/approve and /deny) and POST
// /v1/sessions/{id}/turn-end (which only records the session), speaking
// the real API's JSON (approval.Result, toolgate.Approval, the error
// shape). Calls are decided by a real policy engine.
package claudecodetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/policy"
)

// Token is the agent token the gateway accepts.
const Token = "tg_agent_test"

// Gateway is a running stand-in gateway.
type Gateway struct {
	*httptest.Server
	engine *policy.Engine

	mu         sync.Mutex
	approvals  map[string]*toolgate.Approval
	byCall     map[string]string // session/call id → approval id
	changed    chan struct{}     // closed and replaced on every change
	n          int
	submitted  []toolgate.Call
	cancelled  []string
	turnsEnded []string
}

// Submitted returns every call submitted so far, in order.
func (g *Gateway) Submitted() []toolgate.Call {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]toolgate.Call(nil), g.submitted...)
}

// Cancelled returns the ids of the approvals cancelled so far.
func (g *Gateway) Cancelled() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.cancelled...)
}

// TurnsEnded returns the sessions whose turn was ended, in order.
func (g *Gateway) TurnsEnded() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.turnsEnded...)
}

// New starts a gateway deciding with the built-in default rules plus the
// given workspace documents (JSONC source). Close it when done.
func New(docs ...string) (*Gateway, error) {
	all := []*policy.Document{policy.DefaultDocument()}
	for i, src := range docs {
		d, err := policy.ParseWorkspace(fmt.Sprintf("test%d.jsonc", i), []byte(src))
		if err != nil {
			return nil, err
		}
		all = append(all, d)
	}
	e, err := policy.New(all)
	if err != nil {
		return nil, err
	}
	g := &Gateway{engine: e, approvals: map[string]*toolgate.Approval{}, byCall: map[string]string{}, changed: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/calls", g.submit)
	mux.HandleFunc("GET /v1/approvals/{id}", g.get)
	mux.HandleFunc("POST /v1/approvals/{id}/cancel", g.resolveHandler(toolgate.StatusCancelled))
	mux.HandleFunc("POST /v1/approvals/{id}/approve", g.resolveHandler(toolgate.StatusApproved))
	mux.HandleFunc("POST /v1/approvals/{id}/deny", g.resolveHandler(toolgate.StatusDenied))
	mux.HandleFunc("POST /v1/sessions/{id}/turn-end", g.endTurn)
	g.Server = httptest.NewServer(g.auth(mux))
	return g, nil
}

func (g *Gateway) auth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+Token {
			writeError(w, http.StatusUnauthorized, toolgate.EUnauthorized, "missing or unknown token")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Pending returns the pending approvals' ids, oldest first.
func (g *Gateway) Pending() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var ids []string
	for i := 1; i <= g.n; i++ {
		id := fmt.Sprintf("ap_%d", i)
		if a := g.approvals[id]; a != nil && a.Status == toolgate.StatusPending {
			ids = append(ids, id)
		}
	}
	return ids
}

// WaitPending waits until an approval is pending and returns its id.
func (g *Gateway) WaitPending(timeout time.Duration) (string, error) {
	deadline := time.After(timeout)
	for {
		g.mu.Lock()
		ch := g.changed
		g.mu.Unlock()
		if ids := g.Pending(); len(ids) > 0 {
			return ids[0], nil
		}
		select {
		case <-ch:
		case <-deadline:
			return "", fmt.Errorf("no approval pending after %s", timeout)
		}
	}
}

func (g *Gateway) notify() {
	close(g.changed)
	g.changed = make(chan struct{})
}

func (g *Gateway) submit(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Call toolgate.Call `json:"call"`
		TTL  string        `json:"ttl"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Call.Tool == "" {
		writeError(w, http.StatusBadRequest, toolgate.EInvalid, "want {\"call\": {\"tool\": …}}")
		return
	}
	c := body.Call
	ttl := approval.DefaultTTL
	if body.TTL != "" {
		d, err := time.ParseDuration(body.TTL)
		if err != nil {
			writeError(w, http.StatusBadRequest, toolgate.EInvalid, "bad ttl")
			return
		}
		ttl = d
	}
	g.mu.Lock()
	g.submitted = append(g.submitted, c)
	if id, ok := g.byCall[c.Session+"/"+c.ID]; ok && c.ID != "" {
		a := g.approvals[id]
		g.mu.Unlock()
		g.respondSubmit(w, r, &approval.Result{Decision: a.Decision, Approval: a})
		return
	}
	var d toolgate.Decision
	g.engine.Decide(&c, policy.Env{Mode: g.engine.Mode()}, &d)
	res := &approval.Result{Decision: d}
	if d.Action == toolgate.Ask {
		g.n++
		now := time.Now().UTC()
		a := &toolgate.Approval{
			ID: fmt.Sprintf("ap_%d", g.n), ResumeToken: fmt.Sprintf("rt_%d", g.n),
			Call: c, Decision: d, Status: toolgate.StatusPending,
			CreatedAt: now, ExpiresAt: now.Add(ttl),
		}
		g.approvals[a.ID] = a
		if c.ID != "" {
			g.byCall[c.Session+"/"+c.ID] = a.ID
		}
		res.Approval = a
		g.notify()
	}
	g.mu.Unlock()
	g.respondSubmit(w, r, res)
}

func (g *Gateway) respondSubmit(w http.ResponseWriter, r *http.Request, res *approval.Result) {
	if res.Approval != nil {
		a, err := g.wait(r, res.Approval.ID)
		if err != nil {
			writeError(w, http.StatusBadRequest, toolgate.EInvalid, err.Error())
			return
		}
		res.Approval = a
	}
	writeJSON(w, http.StatusOK, res)
}

// wait long-polls an approval per ?wait=, returning a snapshot.
func (g *Gateway) wait(r *http.Request, id string) (*toolgate.Approval, error) {
	var wait time.Duration
	if v := r.URL.Query().Get("wait"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return nil, fmt.Errorf("wait=%q: want a duration", v)
		}
		wait = d
	}
	deadline := time.After(wait)
	for {
		g.mu.Lock()
		a, ok := g.approvals[id]
		var snap toolgate.Approval
		if ok {
			snap = *a
		}
		ch := g.changed
		g.mu.Unlock()
		if !ok {
			return nil, fmt.Errorf("approval %s not found", id)
		}
		if snap.Status != toolgate.StatusPending || wait <= 0 {
			return &snap, nil
		}
		select {
		case <-ch:
		case <-deadline:
			return &snap, nil
		case <-r.Context().Done():
			return &snap, nil
		}
	}
}

func (g *Gateway) get(w http.ResponseWriter, r *http.Request) {
	a, err := g.wait(r, r.PathValue("id"))
	if err != nil {
		writeError(w, http.StatusNotFound, toolgate.ENotFound, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, a)
}

func (g *Gateway) resolveHandler(status toolgate.Status) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			approval.ApproveRequest
			approval.DenyRequest
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		id := r.PathValue("id")
		g.mu.Lock()
		defer g.mu.Unlock()
		a, ok := g.approvals[id]
		if !ok {
			writeError(w, http.StatusNotFound, toolgate.ENotFound, "approval "+id+" not found")
			return
		}
		if a.Status != toolgate.StatusPending {
			writeError(w, http.StatusConflict, toolgate.EConflict, "approval "+id+" is already "+string(a.Status))
			return
		}
		res := &toolgate.Resolution{Status: status, By: "alice", Via: "web", At: time.Now().UTC()}
		switch status {
		case toolgate.StatusApproved:
			res.Scope = body.Scope
			if res.Scope == "" {
				res.Scope = toolgate.ScopeOnce
			}
			res.Modifications = body.Modifications
		case toolgate.StatusDenied:
			res.Feedback, res.DenyMode = body.Feedback, body.Mode
			if res.DenyMode == "" {
				res.DenyMode = toolgate.DenyHard
			}
			// The agent's message, composed as the real broker does.
			res.Reason = approval.DenyMessage(a.Call.Tool, approval.DenyRequest{Reason: body.Reason, Feedback: body.Feedback, Mode: res.DenyMode})
		case toolgate.StatusCancelled:
			res.By, res.Via, res.Reason = "token:agent", "hook", "cancelled"
			g.cancelled = append(g.cancelled, id)
		}
		a.Status, a.Resolution = status, res
		g.notify()
		writeJSON(w, http.StatusOK, a)
	}
}

func (g *Gateway) endTurn(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	g.mu.Lock()
	g.turnsEnded = append(g.turnsEnded, id)
	turn := 0
	for _, s := range g.turnsEnded {
		if s == id {
			turn++
		}
	}
	g.mu.Unlock()
	now := time.Now().UTC()
	writeJSON(w, http.StatusOK, &toolgate.Session{ID: id, Workspace: "default", Mode: g.engine.Mode(), Turn: turn, CreatedAt: now, UpdatedAt: now})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, code toolgate.ErrorCode, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]string{"code": string(code), "message": msg}})
}

// ClosedURL returns the URL of a port nothing listens on: a gateway that
// is down.
func ClosedURL() string {
	s := httptest.NewServer(http.NotFoundHandler())
	url := s.URL
	s.Close()
	return strings.TrimRight(url, "/")
}
