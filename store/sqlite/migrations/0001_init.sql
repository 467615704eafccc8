-- toolgate schema, version 1.
--
-- Times are INTEGER unix nanoseconds UTC (NULL for the zero time), so they
-- round-trip exactly. The fields queried are real indexed columns; the rest
-- of an approval (call, decision, remaining batch, resolution) is JSON text.

CREATE TABLE approvals (
	id              TEXT PRIMARY KEY,
	session         TEXT NOT NULL,
	call_id         TEXT NOT NULL,
	workspace       TEXT NOT NULL,
	status          TEXT NOT NULL,
	resume_token    TEXT UNIQUE,
	created_at      INTEGER,
	expires_at      INTEGER,
	call            TEXT NOT NULL,
	decision        TEXT NOT NULL,
	batch_remaining TEXT,
	resolution      TEXT,
	UNIQUE (session, call_id)
);
CREATE INDEX approvals_created ON approvals (created_at);
CREATE INDEX approvals_workspace ON approvals (workspace, created_at);
CREATE INDEX approvals_status_expires ON approvals (status, expires_at);

CREATE TABLE grants (
	id          TEXT PRIMARY KEY,
	scope       TEXT NOT NULL,
	kind        TEXT NOT NULL,
	tool        TEXT NOT NULL,
	pattern     TEXT NOT NULL,
	session     TEXT NOT NULL,
	workspace   TEXT NOT NULL,
	turn        INTEGER NOT NULL,
	approval_id TEXT NOT NULL,
	created_by  TEXT NOT NULL,
	via         TEXT NOT NULL,
	created_at  INTEGER
);
CREATE INDEX grants_created ON grants (created_at);
CREATE INDEX grants_session ON grants (session);
CREATE INDEX grants_workspace ON grants (workspace);

CREATE TABLE sessions (
	id         TEXT PRIMARY KEY,
	workspace  TEXT NOT NULL,
	mode       TEXT NOT NULL,
	turn       INTEGER NOT NULL,
	stopped    INTEGER NOT NULL,
	aborted    INTEGER NOT NULL,
	created_at INTEGER,
	updated_at INTEGER
);
CREATE INDEX sessions_workspace ON sessions (workspace, created_at);
CREATE INDEX sessions_created ON sessions (created_at);

-- The audit log is append-only: seq is assigned by the store, data is kept
-- byte for byte (the hash covers it), and the triggers refuse any change.
CREATE TABLE audit (
	seq         INTEGER PRIMARY KEY,
	time        INTEGER,
	kind        TEXT NOT NULL,
	session     TEXT NOT NULL,
	workspace   TEXT NOT NULL,
	call_id     TEXT NOT NULL,
	approval_id TEXT NOT NULL,
	tool        TEXT NOT NULL,
	outcome     TEXT NOT NULL,
	who         TEXT NOT NULL,
	via         TEXT NOT NULL,
	reason      TEXT NOT NULL,
	data        TEXT,
	prev_hash   TEXT NOT NULL,
	hash        TEXT NOT NULL
);
CREATE INDEX audit_session ON audit (session, seq);
CREATE INDEX audit_workspace ON audit (workspace, seq);
CREATE INDEX audit_time ON audit (time);

CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
BEGIN
	SELECT RAISE(ABORT, 'the audit log is append-only');
END;
CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
BEGIN
	SELECT RAISE(ABORT, 'the audit log is append-only');
END;
