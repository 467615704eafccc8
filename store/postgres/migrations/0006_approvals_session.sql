-- toolgate schema for PostgreSQL, version 6: the pending approvals of one
-- session, read by index (SQLite's version 4).
--
-- Every new approval's event, and every GET of an approval, carries the
-- other calls of its session that wait (session_waiting): the oldest few
-- pending approvals of that session, ordered as ListApprovals orders them.
-- Without this index that read walked every pending approval.

CREATE INDEX approvals_session_pending ON approvals (session, status, created_at NULLS FIRST, ord);
