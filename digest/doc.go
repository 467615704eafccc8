// Package digest computes toolgate's content hashes: a call's digest,
// which binds an approval to exactly the call a human saw, and the audit
// log's hash chain.
//
// They live here, not in package toolgate, so that the packages which
// only need the domain types (every binary imports them, the per-call
// hook binary among them) do not link crypto/sha256: its FIPS module
// runs seven package initialisers at every process start.
package digest
