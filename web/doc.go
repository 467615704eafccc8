// Package web is toolgate's approval inbox: a single page, written by hand
// in plain HTML, CSS and ES modules and embedded in the binary, that lets a
// person answer pending tool calls from a laptop or a phone (DESIGN §7.3).
//
// The page talks to the HTTP API under /v1 with a session cookie instead of
// a bearer token. This package owns that session: POST /ui/login exchanges
// an approver or admin token for an HttpOnly, SameSite=Strict cookie that
// holds only a random session id (the token never leaves the login
// request), GET /ui/session returns the caller and the session's CSRF
// token, and POST /ui/logout ends it. [UI.Authenticate] is the API server's
// Deps.Authenticate: it accepts the cookie and, for every method but GET
// and HEAD, requires the session's CSRF token in the X-CSRF-Token header,
// so every state change made with the cookie is CSRF-protected. WebSocket
// upgrades are GETs; the API server checks their Origin.
//
// Wiring, with api the handler of server.NewServer:
//
//	ui := web.New(web.WithTokens(toks), web.WithAudit(broker))
//	api := server.NewServer(server.Deps{…, Authenticate: ui.Authenticate})
//	mux := http.NewServeMux()
//	mux.Handle("/", api)
//	ui.Register(mux)
package web
