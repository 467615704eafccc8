package server

import (
	"net/http"

	"github.com/toolgate/toolgate/tokens"
)

// route is one entry of the API: method and path (a net/http pattern),
// the role a caller needs ("" for none) and the handler. A route whose
// handler acts through the Gate names gated: the Gate decides what the
// caller's role may do there, so that is written in one place.
type route struct {
	Method  string
	Path    string
	Role    tokens.Role
	handler handlerFunc
	// writeAuthErr writes authorization errors in a mount's own shape.
	writeAuthErr func(w http.ResponseWriter, r *http.Request, err error)
	// Writes marks a route that writes to the store: its success shows the
	// store takes writes again (/healthz).
	Writes bool
	// Holds marks a route whose requests wait (a stream, a blocking
	// call): each takes one of the caller's holds (Limits.MaxHoldsPerToken).
	Holds bool
	// Stores marks a route whose request bodies agents send to be stored
	// (calls): the bytes count against the agent's StoredBytesPerMinute.
	Stores bool
	// slot indexes the route's metrics.
	slot int
}

const (
	agent    = tokens.RoleAgent
	approver = tokens.RoleApprover
	admin    = tokens.RoleAdmin
	public   = tokens.Role("")
	// gated asks only for a credential: the handler acts through the
	// Gate, which takes the caller from the request's context and decides
	// what its role may do (approval.Broker.Gate) — answering, granting,
	// reading sessions, the audit log.
	gated = tokens.RoleAgent
)

// routes is every route the server has: the one table of the API. The
// OpenAPI document must describe exactly these (see TestOpenAPIParity).
func (s *server) routes() []route {
	metricsRole := admin
	if s.deps.PublicMetrics {
		metricsRole = public
	}
	return []route{
		{Method: http.MethodPost, Path: "/v1/evaluate", Role: gated, handler: s.handleEvaluate},
		{Method: http.MethodPost, Path: "/v1/calls", Role: gated, handler: s.handleSubmit, Writes: true, Stores: true},
		{Method: http.MethodPost, Path: "/v1/sandbox/violations", Role: agent, handler: s.handleSandboxReport, Writes: true, Stores: true},

		{Method: http.MethodGet, Path: "/v1/approvals", Role: gated, handler: s.handleListApprovals},
		{Method: http.MethodGet, Path: "/v1/approvals/{id}", Role: gated, handler: s.handleGetApproval},
		{Method: http.MethodGet, Path: "/v1/approvals/{id}/before", Role: approver, handler: s.handleBefore},
		{Method: http.MethodPost, Path: "/v1/approvals/{id}/approve", Role: gated, handler: s.handleApprove, Writes: true},
		{Method: http.MethodPost, Path: "/v1/approvals/{id}/deny", Role: gated, handler: s.handleDeny, Writes: true},
		{Method: http.MethodPost, Path: "/v1/approvals/{id}/cancel", Role: gated, handler: s.handleCancel, Writes: true},

		{Method: http.MethodGet, Path: "/v1/grants", Role: gated, handler: s.handleListGrants},
		{Method: http.MethodPost, Path: "/v1/grants", Role: gated, handler: s.handleAddGrant, Writes: true},
		{Method: http.MethodDelete, Path: "/v1/grants/{id}", Role: gated, handler: s.handleRevokeGrant, Writes: true},

		{Method: http.MethodGet, Path: "/v1/workspaces/{id}/rules", Role: admin, handler: s.handleGetRules},
		{Method: http.MethodPut, Path: "/v1/workspaces/{id}/rules", Role: admin, handler: s.handlePutRules, Writes: true},

		{Method: http.MethodGet, Path: "/v1/sessions", Role: gated, handler: s.handleListSessions},
		{Method: http.MethodGet, Path: "/v1/sessions/{id}", Role: gated, handler: s.handleGetSession},
		{Method: http.MethodPut, Path: "/v1/sessions/{id}/mode", Role: gated, handler: s.handleSetMode, Writes: true},
		{Method: http.MethodPost, Path: "/v1/sessions/{id}/abort", Role: gated, handler: s.handleAbort, Writes: true},
		{Method: http.MethodPost, Path: "/v1/sessions/{id}/turn-end", Role: gated, handler: s.handleTurnEnd, Writes: true},
		{Method: http.MethodPost, Path: "/v1/sessions/{id}/end", Role: agent, handler: s.handleEndSession},
		{Method: http.MethodPost, Path: "/v1/workspaces/{id}/disconnect", Role: agent, handler: s.handleDisconnect},
		{Method: http.MethodPost, Path: "/v1/mcp/pins", Role: agent, handler: s.handleRecordPin, Writes: true, Stores: true},

		{Method: http.MethodGet, Path: "/v1/audit", Role: gated, handler: s.handleAudit},
		{Method: http.MethodGet, Path: "/v1/insights", Role: approver, handler: s.handleInsights},
		{Method: http.MethodGet, Path: "/v1/suggestions", Role: admin, handler: s.handleSuggestions},

		{Method: http.MethodGet, Path: "/v1/tokens", Role: admin, handler: s.handleListTokens},
		{Method: http.MethodPost, Path: "/v1/tokens", Role: admin, handler: s.handleCreateToken, Writes: true},
		{Method: http.MethodDelete, Path: "/v1/tokens/{name}", Role: admin, handler: s.handleRevokeToken, Writes: true},
		{Method: http.MethodGet, Path: "/v1/events", Role: approver, handler: s.handleEvents, Holds: true},

		{Method: http.MethodGet, Path: "/healthz", Role: public, handler: s.handleHealth},
		{Method: http.MethodGet, Path: "/metrics", Role: metricsRole, handler: s.handleMetrics},
		{Method: http.MethodGet, Path: "/v1/openapi.json", Role: public, handler: s.handleOpenAPI},
	}
}

// Routes lists "METHOD /path" for every route of the table, for tests and
// documentation tools.
func Routes() []string {
	var out []string
	for _, rt := range (&server{}).routes() {
		out = append(out, rt.Method+" "+rt.Path)
	}
	return out
}
