package server

import (
	"net/http"
	"strconv"

	"github.com/toolgate/toolgate"
)

// handleGetRules returns a workspace's rules document, byte for byte.
func (s *server) handleGetRules(w http.ResponseWriter, r *http.Request) error {
	id, err := workspaceID(r)
	if err != nil {
		return err
	}
	src, version, err := s.broker.Rules(r.Context(), id)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/jsonc; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(src)))
	if version != "" {
		h.Set("ETag", strconv.Quote(version))
	}
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(src)
	return err
}

// handlePutRules replaces a workspace's rules document through the broker,
// which validates, stores, audits and publishes the change.
func (s *server) handlePutRules(w http.ResponseWriter, r *http.Request) error {
	id, err := workspaceID(r)
	if err != nil {
		return err
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.limits.MaxRulesBytes)
	buf, err := readBody(r)
	if err != nil {
		return err
	}
	defer putBuffer(buf)
	src := append([]byte(nil), buf.Bytes()...)
	// If-Match: the document must still be the version the caller read
	// (the web UI's adopted suggestions), so no edit made meanwhile is
	// overwritten unseen.
	if want := r.Header.Get("If-Match"); want != "" && want != "*" {
		_, version, err := s.broker.Rules(r.Context(), id)
		if err != nil {
			return err
		}
		if strconv.Quote(version) != want {
			return toolgate.Errorf(toolgate.EConflict, "the rules of workspace %s changed since they were read: load them again", id)
		}
	}
	if err := s.broker.PutRules(r.Context(), id, src); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
