// Package store defines where toolgate keeps what must survive a restart:
// approvals, grants, sessions and the hash-chained audit log, and the
// workspace rules documents. Implementations live in packages named after
// their technology (store/sqlite, store/postgres) and all pass the one
// conformance suite in store/storetest.
package store
