package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
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
	src, version, err := s.rules.Document(r.Context(), id)
	if err != nil {
		return fmt.Errorf("read rules of workspace %s: %w", id, err)
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

// handlePutRules replaces a workspace's rules document after compiling it
// as it would be used; a document that does not compile is refused with
// the loader's file:line:col message and nothing is stored.
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
	if len(trimSpace(src)) == 0 {
		return toolgate.Errorf(toolgate.EInvalid, "empty rules document")
	}
	if _, err := s.policies.Compile(id, src); err != nil {
		if toolgate.ErrorCodeOf(err) == toolgate.EInternal {
			return fmt.Errorf("compile rules of workspace %s: %w", id, err)
		}
		return err
	}
	if err := s.rules.PutDocument(r.Context(), id, src); err != nil {
		return fmt.Errorf("store rules of workspace %s: %w", id, err)
	}
	if s.store != nil {
		sum := sha256.Sum256(src)
		data, _ := json.Marshal(map[string]any{"sha256": hex.EncodeToString(sum[:]), "bytes": len(src)})
		a := actorOf(w, r)
		err := s.store.AppendAudit(r.Context(), toolgate.AuditEntry{
			Time: s.now(), Kind: "rules.changed", Workspace: id, Outcome: "changed",
			Who: a.Name, Via: a.Via, Data: data,
		})
		if err != nil {
			// The document is stored and in force; only its record is
			// missing. Say so rather than pretend the PUT failed.
			s.log.Error("record rules change", "workspace", id, "err", err)
		}
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
