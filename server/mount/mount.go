// Package mount is the route another package contributes to the gateway's
// HTTP server, apart from the server so that a package that contributes
// one (the notifiers' answer links, Slack's interactivity endpoint) does
// not link the server, the broker and the policy engine behind it.
package mount

import (
	"net/http"

	"github.com/toolgate/toolgate/tokens"
)

// Route is a route another package contributes: the seed protocols' own
// endpoints and the web UI's. It goes through the same authentication,
// role check, rate limit, body limit, metrics and logging as the API's
// routes. Handler receives the authenticated caller (the zero Entry on a
// public route); an error it returns is written in the API's error format,
// so handlers that speak another wire format write their own errors and
// return nil.
type Route struct {
	// Method and Path form a net/http pattern ("POST /trpc/{proc}"); an
	// empty Method matches every method.
	Method string
	Path   string
	// Role is the least role a caller needs; "" makes the route public.
	Role    tokens.Role
	Handler func(w http.ResponseWriter, r *http.Request, caller tokens.Entry) error
	// WriteError, if set, writes the errors the server raises before
	// Handler runs (authentication, role, rate limit) in the mount's own
	// protocol, so a stock client of that protocol can read them (tRPC's
	// error shape on /trpc/). The status headers (WWW-Authenticate,
	// Retry-After) are set before it is called.
	WriteError func(w http.ResponseWriter, r *http.Request, err error)
	// Holds marks a route whose requests wait (a blocking submit, a
	// stream): each takes one of the caller's holds
	// (Limits.MaxHoldsPerToken), so one credential cannot hold them all.
	Holds bool
}
