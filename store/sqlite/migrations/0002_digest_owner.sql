-- toolgate schema, version 2.
--
-- approvals.digest is the content digest of the call an approval answers
-- (toolgate.CallDigest): a resubmitted call id with other content is
-- refused. sessions.owner names the credential that opened a session; other
-- agent credentials cannot see or use it. Rows from version 1 have ''
-- (the broker then digests the stored call; an unowned session stays open
-- to any agent until its next write binds it).

ALTER TABLE approvals ADD COLUMN digest TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN owner TEXT NOT NULL DEFAULT '';
