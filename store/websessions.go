package store

import (
	"context"
	"time"
)

// WebSession is a signed-in browser or paired device, or a pairing code
// not yet used (Pairing). Only the hash of its secret (the cookie value,
// the pairing code) is stored: the table alone signs nobody in.
type WebSession struct {
	// ID is the public handle devices are listed and revoked by; it is
	// not the secret.
	ID string `json:"id"`
	// KeyHash is the hex SHA-256 of the secret.
	KeyHash string `json:"-"`
	// Pairing marks a one-time pairing code: redeeming it deletes it and
	// creates the device's session.
	Pairing bool `json:"pairing,omitempty"`
	// TokenName and TokenHash name the credential the session was made
	// with; revoking that credential ends the session.
	TokenName string `json:"token_name"`
	TokenHash string `json:"-"`
	// Role is what the session may do (approver or admin).
	Role string `json:"role"`
	// Label names the device ("alice's phone", a browser).
	Label string `json:"label,omitempty"`
	// CSRF is the session's CSRF token; useless without the cookie.
	CSRF string `json:"-"`
	// TTL is, for a pairing code, how long the device's session will last.
	TTL       time.Duration `json:"-"`
	CreatedAt time.Time     `json:"created_at"`
	LastSeen  time.Time     `json:"last_seen"`
	ExpiresAt time.Time     `json:"expires_at"`
}

// WebSessions keeps web sessions and pairing codes so that approvers stay
// signed in across restarts and across nodes. It is optional: a Store
// that implements it gets persistent sessions; the web UI keeps them in
// memory otherwise. storetest.Run checks every store that implements it.
type WebSessions interface {
	// PutWebSession creates or replaces a session (by ID).
	PutWebSession(ctx context.Context, s *WebSession) error
	// GetWebSession returns the session whose KeyHash is keyHash;
	// ENotFound if there is none (expired ones included: the caller
	// checks ExpiresAt).
	GetWebSession(ctx context.Context, keyHash string) (*WebSession, error)
	// TouchWebSession records a session's last use.
	TouchWebSession(ctx context.Context, id string, lastSeen time.Time) error
	// ListWebSessions lists sessions and pairing codes, oldest first.
	ListWebSessions(ctx context.Context) ([]*WebSession, error)
	// DeleteWebSession deletes a session by ID; ENotFound if it is gone.
	// It is a guarded delete: of two concurrent calls exactly one
	// succeeds, so a pairing code is redeemed once.
	DeleteWebSession(ctx context.Context, id string) error
	// DeleteExpiredWebSessions deletes every session that expired at or
	// before now and says how many.
	DeleteExpiredWebSessions(ctx context.Context, now time.Time) (int, error)
}
