// Package server is toolgate's HTTP API (DESIGN §7.2): JSON under /v1 for
// agents, approvers and admins, an event stream over WebSocket or
// Server-Sent Events, health and Prometheus metrics, and the OpenAPI
// document that describes it all at /v1/openapi.json.
//
// NewServer returns an http.Handler. Every route is one entry of the table
// in routes.go; every handler returns an error, and one adapter turns
// errors into statuses (by toolgate.ErrorCode) and {"error":{"code",
// "message"}} bodies, checks the bearer token's role, rate-limits per
// token, bounds the request body, logs one line and records metrics.
//
// Long polls (?wait=) end when the client goes away without cancelling the
// approval: an agent re-attaches by resubmitting the same call id or by
// GET /v1/approvals/{id}?wait=.
package server
