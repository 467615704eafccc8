-- toolgate schema, version 3.
--
-- web_sessions keeps signed-in browsers, paired devices and one-time
-- pairing codes (store.WebSessions), so approvers stay signed in across
-- restarts. key_hash is the SHA-256 of the cookie value or pairing code:
-- the secret itself is never stored.

CREATE TABLE web_sessions (
	id          TEXT PRIMARY KEY,
	key_hash    TEXT NOT NULL UNIQUE,
	pairing     INTEGER NOT NULL DEFAULT 0,
	token_name  TEXT NOT NULL,
	token_hash  TEXT NOT NULL,
	role        TEXT NOT NULL,
	label       TEXT NOT NULL DEFAULT '',
	csrf        TEXT NOT NULL DEFAULT '',
	ttl_ns      INTEGER NOT NULL DEFAULT 0,
	created_at  INTEGER NOT NULL,
	last_seen   INTEGER NOT NULL,
	expires_at  INTEGER NOT NULL
);
CREATE INDEX web_sessions_expires ON web_sessions (expires_at);
