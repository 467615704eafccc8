package server

import (
	"net/http"

	"github.com/toolgate/toolgate/server/mount"
)

// mountHandler adapts a Mount's handler to the adapter's signature,
// handing it the authenticated caller.
func mountHandler(m mount.Route) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		return m.Handler(w, r, callerOf(w))
	}
}
