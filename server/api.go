package server

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
	"time"

	"github.com/toolgate/toolgate"
)

// checkArgs bounds the size of a call's args. A body no larger than the
// args limit cannot hold args over it, so the common case costs nothing.
func (s *server) checkArgs(bodyLen int, calls ...*toolgate.Call) error {
	if int64(bodyLen) <= s.limits.MaxArgsBytes {
		return nil
	}
	for _, c := range calls {
		b, err := json.Marshal(c.Args)
		if err != nil {
			return toolgate.Errorf(toolgate.EInvalid, "call %q: args: %w", c.ID, err)
		}
		if int64(len(b)) > s.limits.MaxArgsBytes {
			return toolgate.Errorf(toolgate.ETooLarge, "call %q: args are %d bytes of JSON, more than the limit of %d", c.ID, len(b), s.limits.MaxArgsBytes)
		}
	}
	return nil
}

// handleEvaluate decides a call without holding or recording anything:
// the dry run. It is the hot path: no audit write, pooled buffers.
func (s *server) handleEvaluate(w http.ResponseWriter, r *http.Request) error {
	buf, err := readBody(r)
	if err != nil {
		return err
	}
	var c toolgate.Call
	err = unmarshalStrict(buf.Bytes(), &c)
	n := buf.Len()
	putBuffer(buf)
	if err != nil {
		return err
	}
	if err := s.checkArgs(n, &c); err != nil {
		return err
	}
	d, err := s.gate.Evaluate(r.Context(), c)
	if err != nil {
		return err
	}
	s.metrics.decision(endpointEvaluate, d.Action)
	s.metrics.byTool.add(c.Workspace, c.Tool, d.Action)
	return writeJSON(w, http.StatusOK, d)
}

// submitBody is the body of POST /v1/calls: {"call": …, "batch_remaining":
// […], "ttl": "90s", "hold": false}, or a bare call object.
type submitBody struct {
	toolgate.Call
	Wrapped        *toolgate.Call  `json:"call"`
	BatchRemaining []toolgate.Call `json:"batch_remaining"`
	TTL            string          `json:"ttl"`
	// Hold false records a call that asks without holding it (SubmitRequest.NoHold).
	Hold *bool `json:"hold"`
	// Confirm is SubmitRequest.Confirm.
	Confirm string `json:"confirm"`
	// Confined: the host runs a confined allow so (SubmitRequest.Confined).
	Confined bool `json:"confined"`
}

// handleSubmit decides a call; on ask it creates (or attaches to) a
// pending approval and, with ?wait=, long-polls for its outcome. A long
// poll whose client goes away leaves the approval pending.
func (s *server) handleSubmit(w http.ResponseWriter, r *http.Request) error {
	wait, err := s.parseWait(r)
	if err != nil {
		return err
	}
	buf, err := readBody(r)
	if err != nil {
		return err
	}
	var body submitBody
	err = unmarshalStrict(buf.Bytes(), &body)
	n := buf.Len()
	putBuffer(buf)
	if err != nil {
		return err
	}
	req := toolgate.SubmitRequest{Call: body.Call, BatchRemaining: body.BatchRemaining,
		NoHold: body.Hold != nil && !*body.Hold, Confirm: body.Confirm, Confined: body.Confined}
	if body.Wrapped != nil {
		if !reflect.ValueOf(body.Call).IsZero() {
			return toolgate.Errorf(toolgate.EInvalid, `give the call either as "call" or as the bare body, not both`)
		}
		req.Call = *body.Wrapped
	}
	if req.Call.Tool == "" {
		return toolgate.Errorf(toolgate.EInvalid, `the call has no "tool"`)
	}
	calls := []*toolgate.Call{&req.Call}
	for i := range req.BatchRemaining {
		calls = append(calls, &req.BatchRemaining[i])
	}
	if err := s.checkArgs(n, calls...); err != nil {
		return err
	}
	if body.TTL != "" {
		d, err := time.ParseDuration(body.TTL)
		if err != nil || d <= 0 {
			return toolgate.Errorf(toolgate.EInvalid, "ttl %q: want a positive duration such as 90s", body.TTL)
		}
		req.TTL = d
	}
	res, err := s.gate.Submit(r.Context(), req)
	if err != nil {
		return err
	}
	s.metrics.decision(endpointSubmit, res.Decision.Action)
	s.metrics.byTool.add(req.Call.Workspace, req.Call.Tool, res.Decision.Action)
	if wait > 0 && res.Approval != nil && res.Approval.Status == toolgate.StatusPending {
		a, err := s.waitFor(w, r, res.Approval.ID, wait)
		if err != nil {
			return err
		}
		res.Approval = a
	}
	return writeJSON(w, http.StatusOK, res)
}

var statuses = map[string]toolgate.Status{
	"": "", "pending": toolgate.StatusPending, "approved": toolgate.StatusApproved,
	"denied": toolgate.StatusDenied, "expired": toolgate.StatusExpired, "cancelled": toolgate.StatusCancelled,
}

// intParam reads an optional non-negative integer query parameter.
func intParam(r *http.Request, name string, def, maxV int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, toolgate.Errorf(toolgate.EInvalid, "%s=%q: want a non-negative integer", name, v)
	}
	if maxV > 0 && n > maxV {
		n = maxV
	}
	return n, nil
}

// Defaults for listing approvals.
const (
	defaultListLimit = 1000
	maxListLimit     = 10000
)

func (s *server) handleListApprovals(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	st, ok := statuses[q.Get("status")]
	if !ok {
		return toolgate.Errorf(toolgate.EInvalid, "status=%q: want pending, approved, denied, expired or cancelled", q.Get("status"))
	}
	limit, err := intParam(r, "limit", defaultListLimit, maxListLimit)
	if err != nil {
		return err
	}
	list, err := s.gate.Approvals(r.Context(), toolgate.ApprovalFilter{
		Status: st, Session: q.Get("session"), Workspace: q.Get("workspace"), Limit: limit,
	})
	if err != nil {
		return err
	}
	if list == nil {
		list = []*toolgate.Approval{}
	}
	// Batch context: the list itself, when it is every pending approval
	// (the inbox's read); else a bounded read per session.
	if st == toolgate.StatusPending && q.Get("session") == "" && q.Get("workspace") == "" && len(list) < limit {
		list = s.broker.WaitingFrom(list, list)
	} else if list, err = s.broker.WithWaiting(r.Context(), list); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]any{"approvals": list})
}

func (s *server) handleGetApproval(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	wait, err := s.parseWait(r)
	if err != nil {
		return err
	}
	a, err := s.gate.Approval(r.Context(), id)
	if err != nil {
		return err
	}
	if wait > 0 && a.Status == toolgate.StatusPending {
		if a, err = s.waitFor(w, r, id, wait); err != nil {
			return err
		}
	}
	if a.Status == toolgate.StatusPending {
		as, err := s.broker.WithWaiting(r.Context(), []*toolgate.Approval{a})
		if err != nil {
			return err
		}
		a = as[0]
	}
	return writeJSON(w, http.StatusOK, a)
}

// decodeOptional decodes a body that may be empty.
func decodeOptional(r *http.Request, v any) error {
	buf, err := readBody(r)
	if err != nil {
		return err
	}
	defer putBuffer(buf)
	if len(trimSpace(buf.Bytes())) == 0 {
		return nil
	}
	return unmarshalStrict(buf.Bytes(), v)
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\n' || b[0] == '\r' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

func (s *server) handleApprove(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	var req toolgate.ApproveRequest
	if err := decodeOptional(r, &req); err != nil {
		return err
	}
	a, err := s.gate.Approve(r.Context(), id, req)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, a)
}

func (s *server) handleDeny(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	var req toolgate.DenyRequest
	if err := decodeOptional(r, &req); err != nil {
		return err
	}
	a, err := s.gate.Deny(r.Context(), id, req)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, a)
}

// cancelBody is the optional body of POST /v1/approvals/{id}/cancel.
type cancelBody struct {
	Reason string `json:"reason"`
}

func (s *server) handleCancel(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	var req cancelBody
	if err := decodeOptional(r, &req); err != nil {
		return err
	}
	if req.Reason == "" {
		req.Reason = "the agent cancelled the call"
	}
	a, err := s.gate.Cancel(r.Context(), id, req.Reason)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, a)
}

var scopes = map[string]bool{"": true, "turn": true, "session": true, "workspace": true, "global": true, "once": true}

func (s *server) handleListGrants(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	if !scopes[q.Get("scope")] {
		return toolgate.Errorf(toolgate.EInvalid, "scope=%q: want turn, session, workspace or global", q.Get("scope"))
	}
	list, err := s.gate.Grants(r.Context(), toolgate.GrantFilter{
		Scope: toolgate.Scope(q.Get("scope")), Session: q.Get("session"), Workspace: q.Get("workspace"), Tool: q.Get("tool"),
	})
	if err != nil {
		return err
	}
	if list == nil {
		list = []*toolgate.Grant{}
	}
	return writeJSON(w, http.StatusOK, map[string]any{"grants": list})
}

func (s *server) handleAddGrant(w http.ResponseWriter, r *http.Request) error {
	var g toolgate.Grant
	if err := decodeJSON(r, &g); err != nil {
		return err
	}
	out, err := s.gate.AddGrant(r.Context(), g)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, out)
}

// handleRecordPin records an MCP proxy's pin of a tool definition in the
// audit log.
func (s *server) handleRecordPin(w http.ResponseWriter, r *http.Request) error {
	var ev toolgate.PinEvent
	if err := decodeJSON(r, &ev); err != nil {
		return err
	}
	if err := s.broker.RecordPin(r.Context(), ev); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *server) handleRevokeGrant(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	if err := s.gate.RevokeGrant(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *server) handleListSessions(w http.ResponseWriter, r *http.Request) error {
	limit, err := intParam(r, "limit", defaultListLimit, maxListLimit)
	if err != nil {
		return err
	}
	list, err := s.gate.Sessions(r.Context(), toolgate.SessionFilter{Workspace: r.URL.Query().Get("workspace"), Limit: limit})
	if err != nil {
		return err
	}
	if list == nil {
		list = []*toolgate.Session{}
	}
	return writeJSON(w, http.StatusOK, map[string]any{"sessions": list})
}

func (s *server) handleGetSession(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	sess, err := s.gate.Session(r.Context(), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, sess)
}

// modeBody is the body of PUT /v1/sessions/{id}/mode.
type modeBody struct {
	Mode *string `json:"mode"`
}

func (s *server) handleSetMode(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	var body modeBody
	if err := decodeJSON(r, &body); err != nil {
		return err
	}
	if body.Mode == nil {
		return toolgate.Errorf(toolgate.EInvalid, `missing "mode"`)
	}
	m, err := toolgate.ParseMode(*body.Mode)
	if err != nil {
		return toolgate.Errorf(toolgate.EInvalid, "%w", err)
	}
	sess, err := s.gate.SetMode(r.Context(), id, m)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, sess)
}

func (s *server) handleAbort(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	sess, err := s.gate.Abort(r.Context(), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, sess)
}

func (s *server) handleTurnEnd(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	sess, err := s.gate.EndTurn(r.Context(), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, sess)
}

func (s *server) handleEndSession(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	sess, err := s.broker.EndSession(r.Context(), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, sess)
}

// handleSandboxReport audits what the kernel sandbox refused a confined
// command (toolgate.SandboxReport).
func (s *server) handleSandboxReport(w http.ResponseWriter, r *http.Request) error {
	buf, err := readBody(r)
	if err != nil {
		return err
	}
	var rep toolgate.SandboxReport
	err = unmarshalStrict(buf.Bytes(), &rep)
	putBuffer(buf)
	if err != nil {
		return err
	}
	if err := s.broker.RecordSandbox(r.Context(), &rep); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]bool{"recorded": true})
}

// handleDisconnect is seed 001's worker disconnect: the workspace's
// pending approvals are cancelled.
func (s *server) handleDisconnect(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	if err := s.broker.CancelWorkspace(r.Context(), id); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]bool{"cancelled": true})
}

// timeParam reads an optional RFC 3339 time.
func timeParam(r *http.Request, name string) (time.Time, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, toolgate.Errorf(toolgate.EInvalid, "%s=%q: want an RFC 3339 time such as 2026-01-02T15:04:05Z", name, v)
	}
	return t, nil
}

// maxAuditQuery bounds an audit search's text.
const maxAuditQuery = 1024

func (s *server) handleAudit(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	f := toolgate.AuditFilter{
		Session: q.Get("session"), Workspace: q.Get("workspace"), Tool: q.Get("tool"),
		Outcome: q.Get("outcome"), Kind: q.Get("kind"), Query: q.Get("q"),
	}
	if len(f.Query) > maxAuditQuery {
		return toolgate.Errorf(toolgate.EInvalid, "q is longer than %d bytes", maxAuditQuery)
	}
	var err error
	if f.Since, err = timeParam(r, "since"); err != nil {
		return err
	}
	if f.Until, err = timeParam(r, "until"); err != nil {
		return err
	}
	after, err := intParam(r, "after", 0, 0)
	if err != nil {
		return err
	}
	f.AfterSeq = int64(after)
	if f.Limit, err = intParam(r, "limit", DefaultAuditLimit, MaxAuditLimit); err != nil {
		return err
	}
	if f.Limit == 0 {
		f.Limit = DefaultAuditLimit
	}
	entries, err := s.gate.Audit(r.Context(), f)
	if err != nil {
		return err
	}
	if entries == nil {
		entries = []toolgate.AuditEntry{}
	}
	return writeJSON(w, http.StatusOK, map[string]any{"entries": entries})
}

func (s *server) handleNotFound(w http.ResponseWriter, r *http.Request) error {
	return toolgate.Errorf(toolgate.ENotFound, "no route %s %s", r.Method, r.URL.Path)
}
