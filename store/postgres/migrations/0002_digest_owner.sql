-- toolgate schema, version 2 (as SQLite's).
--
-- approvals.digest is the content digest of the call an approval answers
-- (toolgate.CallDigest): a resubmitted call id with other content is
-- refused. sessions.owner names the credential that opened a session.

ALTER TABLE approvals ADD COLUMN digest TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN owner TEXT NOT NULL DEFAULT '';
