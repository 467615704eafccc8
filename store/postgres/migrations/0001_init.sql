-- toolgate schema for PostgreSQL, version 1: the same tables as SQLite's.
--
-- Times are BIGINT unix nanoseconds UTC (NULL for the zero time), so they
-- round-trip exactly. The fields queried are real indexed columns; the rest
-- of an approval (call, decision, remaining batch, resolution) is JSON text
-- kept byte for byte. ord keeps the order rows were stored (SQLite's rowid).

CREATE TABLE approvals (
	id              TEXT PRIMARY KEY,
	session         TEXT NOT NULL,
	call_id         TEXT NOT NULL,
	workspace       TEXT NOT NULL,
	status          TEXT NOT NULL,
	resume_token    TEXT UNIQUE,
	created_at      BIGINT,
	expires_at      BIGINT,
	call            TEXT NOT NULL,
	decision        TEXT NOT NULL,
	batch_remaining TEXT,
	resolution      TEXT,
	ord             BIGINT GENERATED ALWAYS AS IDENTITY,
	UNIQUE (session, call_id)
);
CREATE INDEX approvals_created ON approvals (created_at, ord);
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
	created_at  BIGINT,
	ord         BIGINT GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX grants_created ON grants (created_at, ord);
CREATE INDEX grants_session ON grants (session);
CREATE INDEX grants_workspace ON grants (workspace);

CREATE TABLE sessions (
	id         TEXT PRIMARY KEY,
	workspace  TEXT NOT NULL,
	mode       TEXT NOT NULL,
	turn       INTEGER NOT NULL,
	stopped    BOOLEAN NOT NULL,
	aborted    BOOLEAN NOT NULL,
	created_at BIGINT,
	updated_at BIGINT,
	ord        BIGINT GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX sessions_workspace ON sessions (workspace, created_at);
CREATE INDEX sessions_created ON sessions (created_at, ord);

-- The audit log is append-only: seq is assigned by the store, data is kept
-- byte for byte (the hash covers it), and the triggers refuse any change.
CREATE TABLE audit (
	seq         BIGINT PRIMARY KEY,
	time        BIGINT,
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

CREATE FUNCTION audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'the audit log is append-only';
END;
$$;
CREATE TRIGGER audit_no_update BEFORE UPDATE OR DELETE ON audit
	FOR EACH ROW EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER audit_no_truncate BEFORE TRUNCATE ON audit
	FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();

-- audit_head is the one row every append locks (SELECT … FOR UPDATE): it
-- serializes appends across every node, so the log stays one hash chain
-- and sequence numbers commit in order. change_seq is the sequence of the
-- latest entry that other nodes' caches depend on (anything but a plain
-- decision): a node compares it with what it has applied before deciding.
CREATE TABLE audit_head (
	id         INTEGER PRIMARY KEY CHECK (id = 1),
	seq        BIGINT NOT NULL,
	hash       TEXT NOT NULL,
	change_seq BIGINT NOT NULL
);
INSERT INTO audit_head (id, seq, hash, change_seq) VALUES (1, 0, '', 0);
