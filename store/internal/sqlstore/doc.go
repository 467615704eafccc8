// Package sqlstore is the SQL the SQLite and PostgreSQL stores share:
// approvals, grants, sessions, the audit log's reads and the counts behind
// an agent credential's quotas, written once. What differs between the two
// databases is data in a Dialect (placeholders, the column that keeps rows
// in the order stored, how NULLs sort, the lock that serialises a claim
// across nodes); what differs in how they run is a Backend (connections,
// the write transaction, the audit chain's append, errors).
//
// A backend embeds *Store, which implements the store.Store methods but
// AppendAudit and Close, and store.Counter.
package sqlstore
