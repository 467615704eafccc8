-- toolgate schema, version 4: web_sessions, as SQLite's version 3.
--
-- Signed-in browsers, paired devices and one-time pairing codes
-- (store.WebSessions): an approver signed in on one node is signed in on
-- every node. key_hash is the SHA-256 of the cookie value or pairing code:
-- the secret itself is never stored.

CREATE TABLE web_sessions (
	id          TEXT PRIMARY KEY,
	key_hash    TEXT NOT NULL UNIQUE,
	pairing     BOOLEAN NOT NULL DEFAULT FALSE,
	token_name  TEXT NOT NULL,
	token_hash  TEXT NOT NULL,
	role        TEXT NOT NULL,
	label       TEXT NOT NULL DEFAULT '',
	csrf        TEXT NOT NULL DEFAULT '',
	ttl_ns      BIGINT NOT NULL DEFAULT 0,
	created_at  BIGINT NOT NULL,
	last_seen   BIGINT NOT NULL,
	expires_at  BIGINT NOT NULL,
	ord         BIGINT GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX web_sessions_expires ON web_sessions (expires_at);
