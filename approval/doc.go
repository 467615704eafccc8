// Package approval is toolgate's broker: it decides calls with the policy
// engine, holds the ones that ask as pending approvals until a human
// answers, remembers answers as grants at the scope the human chose,
// expires what nobody answers, and publishes every step on an ordered
// event stream (DESIGN §4).
//
// The broker keeps durable state in a store.Store and workspace rules in a
// store.Rules; it holds only waiters, timers and caches in memory, so a
// restart loses no approval and never turns one into an allow. The caches
// (compiled rules, sessions, grant layers) are kept current by the broker's
// own writes; when several nodes share a store (one that is a store.Feed,
// PostgreSQL), each broker also applies the store's change feed: other
// nodes' answers wake its waiters, their events join its stream in one
// order, and no cache older than the store decides a call: a recorded
// decision commits only if no change its caches miss was appended before
// it (checked in the append's transaction; otherwise the broker applies
// the feed and decides again), a dry run or an approval to hold checks
// the feed's head first (feed.go). A session's
// read-modify-write (a mode, a stop flag, a first call's binding) holds
// the session's lock in the store, so writes on two nodes never undo each
// other.
//
// Broker.Gate is the broker as a toolgate.Gate, the interface every surface
// is written against and the only way to answer, cancel, change a session
// or write a grant: the acting credential comes from the context and its
// role is checked as the HTTP routes check it. The broker's operations
// beyond the Gate take the actor from the context too: the workspaces'
// rules documents (Rules, PutRules: validated, stored, audited,
// published), pins, sandbox reports, file reads, ending a session or a
// workspace's calls, and the decision's suggested rules as grants.
//
// The seed engine's calls exist under their names: RequestApproval,
// Resolve, SpawnReaper and ReapNow (its Approve is the Gate's).
package approval
