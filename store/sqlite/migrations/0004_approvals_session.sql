-- toolgate schema, version 4: the pending approvals of one session, read
-- by index.
--
-- Every new approval's event, and every GET of an approval, carries the
-- other calls of its session that wait (session_waiting): the oldest few
-- pending approvals of that session. Without this index that read walked
-- every pending approval, so each submit cost time linear in all pending
-- approvals (at 10,000 pending: ~190 submits/s instead of ~2,000).
-- rowid, the order rows were stored, is the index's implicit last column.

CREATE INDEX approvals_session_pending ON approvals (session, status, created_at);
