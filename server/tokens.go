package server

import (
	"net/http"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/tokens"
)

// tokenView is a credential as the API shows it: never its hash.
type tokenView struct {
	Name      string      `json:"name"`
	Role      tokens.Role `json:"role"`
	CreatedAt time.Time   `json:"created_at"`
	// Token is set once, in the answer to its creation.
	Token string `json:"token,omitempty"`
}

// handleListTokens is GET /v1/tokens.
func (s *server) handleListTokens(w http.ResponseWriter, r *http.Request) error {
	list, err := s.tokens.List()
	if err != nil {
		return err
	}
	out := make([]tokenView, 0, len(list))
	for _, e := range list {
		out = append(out, tokenView{Name: e.Name, Role: e.Role, CreatedAt: e.CreatedAt})
	}
	return writeJSON(w, http.StatusOK, map[string]any{"tokens": out})
}

type createTokenBody struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

// handleCreateToken is POST /v1/tokens: the token is in the answer, once;
// only its hash is kept.
func (s *server) handleCreateToken(w http.ResponseWriter, r *http.Request) error {
	var body createTokenBody
	if err := decodeJSON(r, &body); err != nil {
		return err
	}
	role, err := tokens.ParseRole(body.Role)
	if err != nil {
		return err
	}
	token, err := s.tokens.Create(body.Name, role)
	if err != nil {
		return err
	}
	s.auditToken(w, r, "token.created", body.Name, string(role))
	return writeJSON(w, http.StatusCreated, tokenView{Name: body.Name, Role: role, CreatedAt: s.now().UTC(), Token: token})
}

// handleRevokeToken is DELETE /v1/tokens/{name}. The token stops working
// at once in this process, and within the token store's check interval in
// other processes sharing the file.
func (s *server) handleRevokeToken(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("name")
	if err := s.tokens.Revoke(name); err != nil {
		return err
	}
	s.auditToken(w, r, "token.revoked", name, "")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// auditToken records a credential change, best effort: the change is
// made, and the request log has it too.
func (s *server) auditToken(w http.ResponseWriter, r *http.Request, kind, name, role string) {
	if s.store == nil {
		return
	}
	by, _ := toolgate.ActorFrom(r.Context())
	e := toolgate.AuditEntry{Time: s.now(), Kind: kind, Outcome: role, Who: by.Name, Via: by.Via, Reason: name}
	if err := s.store.AppendAudit(r.Context(), e); err != nil {
		s.log.Error("audit token change", "kind", kind, "name", name, "err", err)
	}
}
