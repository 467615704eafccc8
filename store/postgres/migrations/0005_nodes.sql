-- toolgate schema, version 5: the leases of the nodes that decide dry runs
-- on their caches.
--
-- A node renews lease_until (database time) while its LISTEN connection is
-- up and keeps applied_seq at the last entry of the change feed it has
-- applied (at least every change it knows of). A write of a change that
-- caches depend on returns only when every row with lease_until in the
-- future has applied_seq at or past the change's sequence number. A row is
-- inserted with an expired lease first: a lease only becomes live by an
-- UPDATE, which row locks order with the writers' reads (FOR SHARE).

CREATE TABLE nodes (
	node_id     TEXT PRIMARY KEY,
	applied_seq BIGINT NOT NULL,
	lease_until TIMESTAMPTZ NOT NULL
);
