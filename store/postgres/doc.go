// Package postgres is toolgate's store for several gateway nodes sharing
// one PostgreSQL database (DESIGN §5), through github.com/jackc/pgx/v5.
//
// It keeps the same tables as store/sqlite and passes the same
// conformance suite (store/storetest). Queries run on a pgxpool pool and
// are prepared once per connection (pgx's statement cache). The schema is
// migrated by embedded, numbered SQL files under a PostgreSQL advisory
// lock, so nodes that start together migrate once.
//
// What makes it safe for several nodes:
//   - Resolving an approval is a guarded update (… WHERE status =
//     'pending'): exactly one answer wins, whichever node it reaches.
//   - Every audit append locks the one audit_head row, so the log is one
//     hash chain across nodes and sequence numbers commit in order.
//   - The audit log is the change feed: each append NOTIFYs the schema's
//     channel in its transaction, Changes delivers those notifications
//     from a dedicated LISTEN connection (reconnecting with backoff), and
//     Head tells the sequence of the latest entry that caches depend on,
//     so a node can check that it is current before it decides.
//   - Workspace rules documents are rows (Rules), versioned, and every
//     change to one is an audit entry, so it travels on the same feed.
//   - Leases (store.Leaser, lease.go): a node renews a lease row (nodes)
//     while its LISTEN connection is up and records the feed entries it
//     has applied; a write of a change that caches depend on returns only
//     when every node with a live lease has applied it or its lease has
//     lapsed, whoever writes (a gateway node or a CLI command with
//     --store). A node whose lease is valid by its own clock decides dry
//     runs on its caches without reading Head. WithLease times it;
//     CheckLease says which timings are sound (toolgate serve's
//     node_lease and node_lease_renewal).
package postgres
