package server

import (
	"context"
	_ "embed"
	"net/http"
	"strconv"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
)

// handleHealth answers ok when the store answers a cheap query and the
// last write it was given did not fail for want of disk or I/O: a gateway
// that cannot record decisions is unhealthy though it can still read.
func (s *server) handleHealth(w http.ResponseWriter, r *http.Request) error {
	if f := s.fault.Load(); f != nil {
		return toolgate.Errorf(toolgate.EUnavailable, "store unavailable since %s: %s", f.at.UTC().Format(time.RFC3339), f.msg)
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	var err error
	if s.deps.Health != nil {
		err = s.deps.Health(ctx)
	} else {
		_, err = s.broker.Sessions(ctx, store.SessionFilter{Limit: 1})
	}
	if err != nil {
		s.log.Error("health check", "err", err)
		return toolgate.Errorf(toolgate.EUnavailable, "store unavailable")
	}
	return writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

//go:embed openapi.json
var openapiJSON []byte

// handleOpenAPI serves the OpenAPI document of this API.
func (s *server) handleOpenAPI(w http.ResponseWriter, r *http.Request) error {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(openapiJSON)))
	h.Set("Cache-Control", "public, max-age=3600")
	_, err := w.Write(openapiJSON)
	return err
}
