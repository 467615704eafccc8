// Package sqlite is toolgate's embedded store: approvals, grants, sessions
// and the hash-chained audit log in one SQLite file, through the pure Go
// driver modernc.org/sqlite (no cgo).
//
// The database runs in WAL mode with synchronous=FULL, so a write is on disk
// before the method that made it returns, with one exception: a new
// pending approval (CreateApproval) is committed without an fsync of its
// own, durable against a crash of the process at once and against a
// power cut from the next durable commit on (see CreateApproval). WAL
// checkpoints run in the background on their own connection, off the
// writers' path. Writes go through a single
// connection, which serializes them (the audit chain reads the last hash
// and appends in one transaction), and are committed in groups: the
// writes waiting while a commit is on disk share the next one, each in
// its own savepoint, so concurrent writers share an fsync. Reads use a
// pool of read-only connections that see every committed write. The
// schema is migrated by embedded, numbered SQL files when the database is
// opened.
//
// Times are stored as unix nanoseconds and come back in UTC; the JSON
// fields of an approval (its call, decision and resolution) come back as
// JSON decodes them, so a call's numeric arguments are float64.
package sqlite
