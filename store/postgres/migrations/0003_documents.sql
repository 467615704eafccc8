-- toolgate schema, version 3: documents that every node shares.
--
-- A document is text kept byte for byte under a name: "rules/ID" is a
-- workspace's rules document (JSONC, comments kept), "tokens" the
-- credential list (hashes only). revision counts the writes; every write
-- is also an audit entry, so it travels on the change feed.

CREATE TABLE documents (
	name       TEXT PRIMARY KEY,
	body       TEXT NOT NULL,
	revision   BIGINT NOT NULL,
	updated_at BIGINT NOT NULL
);
