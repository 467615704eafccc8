package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
)

var _ store.Leaser = (*DB)(nil)

// Leases (store.Leaser). A node that decides dry runs on its caches holds
// a lease: a row of the nodes table whose lease_until (database time) it
// renews every leaseEvery while its LISTEN connection is up, and whose
// applied_seq is the last feed entry it has applied (written when it has
// applied a change it knows of, and at every renewal). Every write of an
// entry that caches depend on waits, after its commit, until no row with
// a live lease has applied_seq below the entry (awaitApplied). The node
// trusts its caches until the start of its last renewal's round trip plus
// the lease less a margin, by its own monotonic clock: before the database
// can count the lease as lapsed.
//
// The ordering that makes this sound: a lease becomes live only through an
// UPDATE of an existing row (the row is inserted lapsed), and a writer's
// check reads the rows FOR SHARE after its commit. A renewal's UPDATE is
// thus either seen by the check (committed before it, or waited for), so
// the writer waits for that node, or it is made after the check, and then
// the renewal's next statement reads a change head at or past the write:
// the node trusts that lease only once it has applied up to that head.
// A node that stops keeping up (applied below the head its previous
// renewal read) stops renewing, so a writer waits for a live but stuck
// node at most about two renewal periods and a lease; for a dead one at
// most a lease.

// Lease timing (WithLease changes it; CheckLease says what is sound).
const (
	DefaultLease        = 2 * time.Second
	DefaultLeaseRenewal = 500 * time.Millisecond
	// MaxLease bounds WithLease, and is what a writer waits when it cannot
	// read the leases after its commit: by then every lease that might
	// not have seen the write has lapsed. A longer lease would outlast
	// that wait.
	MaxLease = 30 * time.Second
	// ackPoll is how often a waiting writer reads the leases again when no
	// acknowledgement wakes it first.
	ackPoll = 20 * time.Millisecond
)

// WithLease sets how long a node's lease lasts and how often it is
// renewed (defaults 2 s and 0.5 s; the lease is capped at MaxLease; zero
// keeps a default). A node trusts its caches for the lease less a quarter
// of it after each renewal's start; a write waits at most about a lease
// for a node that died. Settings a person chooses go through CheckLease
// first: WithLease takes any positive pair, for tests.
func WithLease(lease, every time.Duration) Option {
	return func(o *options) {
		if lease > 0 {
			o.lease = min(lease, MaxLease)
		}
		if every > 0 {
			o.leaseEvery = every
		}
	}
}

// CheckLease reports whether a lease and its renewal interval are sound:
// both positive, the lease at most MaxLease (WithLease would cap it), and
// the renewal at most half the lease. A node trusts its caches for three
// quarters of the lease after a renewal starts, so a renewal every half
// lease leaves a quarter of it for the round trip and a late tick before
// the node falls back to reading the feed's head for every dry run; a
// renewal any slower would make that fallback routine, and one of at least
// three quarters of the lease would leave the node trusting its caches
// never or only in flashes.
func CheckLease(lease, renewal time.Duration) error {
	switch {
	case lease <= 0 || renewal <= 0:
		return fmt.Errorf("lease %v and renewal %v must both be positive", lease, renewal)
	case lease > MaxLease:
		return fmt.Errorf("lease %v is longer than %v: a writer that cannot read the leases waits %v for them to lapse", lease, MaxLease, MaxLease)
	case renewal > lease/2:
		return fmt.Errorf("renewal %v must be at most half the lease (%v): a node trusts its caches for three quarters of the lease after a renewal starts", renewal, lease/2)
	}
	return nil
}

// lease is this node's lease, when it holds one.
type lease struct {
	dur, every, margin time.Duration
	id                 string
	base               time.Time // monotonic origin of trustUntil

	running    atomic.Bool
	trustUntil atomic.Int64  // nanoseconds since base; 0: no trust
	required   atomic.Int64  // change head read by the last renewal
	applied    atomic.Int64  // reported by the node (Applied)
	written    atomic.Int64  // applied_seq last written
	known      atomic.Int64  // highest change sequence heard of
	wake       chan struct{} // Applied has entries to report
	kick       chan struct{} // the LISTEN connection is up
}

func newLease(dur, every time.Duration) *lease {
	var b [8]byte
	rand.Read(b[:])
	return &lease{dur: dur, every: every, margin: dur / 4, id: hex.EncodeToString(b[:]),
		base: time.Now(), wake: make(chan struct{}, 1), kick: make(chan struct{}, 1)}
}

// heard records a change sequence announced by a NOTIFY or read at a
// renewal.
func (l *lease) heard(seq int64) {
	for {
		k := l.known.Load()
		if seq <= k || l.known.CompareAndSwap(k, seq) {
			return
		}
	}
}

// NodeID returns the id of this node's lease row.
func (db *DB) NodeID() string { return db.lease.id }

// StartLease implements store.Leaser.
func (db *DB) StartLease(ctx context.Context) (func(), error) {
	const op = "start lease"
	if db.closed.Load() {
		return nil, db.errClosed(op)
	}
	l := db.lease
	if !l.running.CompareAndSwap(false, true) {
		return nil, toolgate.Errorf(toolgate.EConflict, "postgres: %s: already held", op)
	}
	if _, err := db.pool.Exec(ctx, `INSERT INTO nodes (node_id, applied_seq, lease_until) VALUES ($1, $2, '-infinity')
		ON CONFLICT (node_id) DO NOTHING`, l.id, l.applied.Load()); err != nil {
		l.running.Store(false)
		return nil, wrap(op, err)
	}
	db.Changes() // the lease is renewed only while LISTEN is up
	stop := make(chan struct{})
	done := make(chan struct{})
	go db.leaseLoop(stop, done)
	var once sync.Once
	return func() {
		once.Do(func() {
			l.trustUntil.Store(0)
			close(stop)
			<-done
		})
	}, nil
}

// Applied implements store.Leaser.
func (db *DB) Applied(seq int64) {
	l := db.lease
	for {
		a := l.applied.Load()
		if seq <= a {
			return
		}
		if l.applied.CompareAndSwap(a, seq) {
			break
		}
	}
	if l.running.Load() && min(seq, l.known.Load()) > l.written.Load() {
		select {
		case l.wake <- struct{}{}:
		default:
		}
	}
}

// Current implements store.Leaser.
func (db *DB) Current(applied int64) bool {
	l := db.lease
	if !db.listenUp.Load() {
		return false
	}
	until := l.trustUntil.Load()
	if until == 0 || int64(time.Since(l.base)) >= until {
		return false
	}
	return applied >= l.required.Load() && applied >= l.known.Load()
}

// leaseLoop renews the lease every l.every and reports applied entries
// when woken, until stop; then it gives the lease up.
func (db *DB) leaseLoop(stop, done chan struct{}) {
	defer close(done)
	l := db.lease
	t := time.NewTicker(l.every)
	defer t.Stop()
	var prevHead int64
	renewals := 0
	due := true // renew at once, then at every tick
	for {
		if due && db.listenUp.Load() && l.applied.Load() >= prevHead {
			if h, ok := db.renew(renewals%1000 == 0); ok {
				prevHead = h
			}
			renewals++
			due = false
		}
		select {
		case <-stop:
			db.giveUp()
			return
		case <-db.stop:
			// The store closed under the node: the lease lapses.
			l.trustUntil.Store(0)
			return
		case <-t.C:
			due = true
		case <-l.kick:
			// LISTEN (re)connected: renew now rather than at the next tick.
			due = true
		case <-l.wake:
			db.reportApplied()
		}
	}
}

// renew extends the lease and reads the change head after it; the node
// trusts the lease once it has applied that head. clean also deletes the
// rows of nodes gone for an hour.
func (db *DB) renew(clean bool) (int64, bool) {
	l := db.lease
	ctx, cancel := context.WithTimeout(context.Background(), l.dur)
	defer cancel()
	start := time.Since(l.base)
	applied := l.applied.Load()
	var (
		head int64
		n    int64
	)
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue(`UPDATE nodes SET lease_until = clock_timestamp() + $2::bigint * interval '1 microsecond',
		applied_seq = GREATEST(applied_seq, $3) WHERE node_id = $1`, l.id, l.dur.Microseconds(), applied).
		Exec(func(ct pgconn.CommandTag) error { n = ct.RowsAffected(); return nil })
	b.Queue(`SELECT change_seq FROM audit_head WHERE id = 1`).QueryRow(func(r pgx.Row) error { return r.Scan(&head) })
	if clean {
		// Not the rows inserted lapsed ('-infinity') that a starting node
		// is about to renew.
		b.Queue(`DELETE FROM nodes WHERE lease_until > '-infinity' AND lease_until < clock_timestamp() - interval '1 hour'`)
	}
	b.Queue("COMMIT")
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		db.log.Warn("postgres: renew lease", "err", err)
		return 0, false
	}
	defer conn.Release()
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		db.rollback(ctx, conn)
		db.log.Warn("postgres: renew lease", "err", err)
		return 0, false
	}
	if n == 0 {
		// The row is gone (deleted as lapsed for an hour): insert it
		// lapsed again; the next renewal makes it live.
		if _, err := db.pool.Exec(ctx, `INSERT INTO nodes (node_id, applied_seq, lease_until) VALUES ($1, $2, '-infinity')
			ON CONFLICT (node_id) DO NOTHING`, l.id, applied); err != nil {
			db.log.Warn("postgres: renew lease", "err", err)
		}
		return 0, false
	}
	setMax(&l.written, applied)
	l.heard(head)
	setMax(&l.required, head)
	l.trustUntil.Store(int64(start + l.dur - l.margin))
	if l.applied.Load() < head {
		db.signal() // a change was missed: catch up
	}
	return head, true
}

// reportApplied writes the node's applied entry and wakes the writers.
func (db *DB) reportApplied() {
	l := db.lease
	applied := l.applied.Load()
	if applied <= l.written.Load() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), l.dur)
	defer cancel()
	b := &pgx.Batch{}
	b.Queue(`UPDATE nodes SET applied_seq = $2 WHERE node_id = $1 AND applied_seq < $2`, l.id, applied)
	b.Queue(`SELECT pg_notify($1, '')`, db.ackChannel)
	if err := db.pool.SendBatch(ctx, b).Close(); err != nil {
		db.log.Warn("postgres: report applied", "err", err)
		return
	}
	setMax(&l.written, applied)
}

// giveUp ends the lease: writers no longer wait for this node.
func (db *DB) giveUp() {
	l := db.lease
	l.trustUntil.Store(0)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := db.pool.Exec(ctx, `DELETE FROM nodes WHERE node_id = $1`, l.id); err != nil {
		db.log.Warn("postgres: give up lease", "err", err)
	}
	l.running.Store(false)
}

func setMax(v *atomic.Int64, n int64) {
	for {
		c := v.Load()
		if n <= c || v.CompareAndSwap(c, n) {
			return
		}
	}
}

// acked returns a channel closed at the next acknowledgement (a node
// reported applied entries) this node hears of.
func (db *DB) acked() <-chan struct{} {
	db.ackMu.Lock()
	defer db.ackMu.Unlock()
	return db.ackCh
}

// ack wakes the writers waiting for acknowledgements.
func (db *DB) ack() {
	db.ackMu.Lock()
	defer db.ackMu.Unlock()
	close(db.ackCh)
	db.ackCh = make(chan struct{})
}

// awaitApplied returns once every node with a live lease has applied the
// entry seq (or its lease has lapsed): the write of a change returns to
// its caller only when no node can decide without it. It is called after
// the write committed.
func (db *DB) awaitApplied(ctx context.Context, seq int64) error {
	committed := time.Now()
	for {
		ch := db.acked()
		lagging, err := db.lagging(ctx, seq)
		if err != nil {
			if ctx.Err() != nil {
				return toolgate.Errorf(toolgate.EUnavailable, "committed, but not yet applied by every node: %v", ctx.Err())
			}
			// The leases cannot be read: wait until every lease that may
			// not have seen this write has lapsed.
			db.log.Warn("postgres: read leases after a change", "err", err)
			select {
			case <-time.After(time.Until(committed.Add(MaxLease))):
				return nil
			case <-ctx.Done():
				return toolgate.Errorf(toolgate.EUnavailable, "committed, but not yet applied by every node: %v", ctx.Err())
			}
		}
		if !lagging {
			return nil
		}
		select {
		case <-ch:
		case <-time.After(ackPoll):
		case <-ctx.Done():
			return toolgate.Errorf(toolgate.EUnavailable, "committed, but not yet applied by every node: %v", ctx.Err())
		}
	}
}

// lagging reports whether a node with a live lease has not applied seq.
// FOR SHARE waits for a renewal in flight and reads the row it leaves.
func (db *DB) lagging(ctx context.Context, seq int64) (bool, error) {
	ctx, cancel := db.bound(ctx)
	defer cancel()
	rows, err := db.pool.Query(ctx, `SELECT lease_until > clock_timestamp() FROM nodes WHERE applied_seq < $1 FOR SHARE`, seq)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	lag := false
	for rows.Next() {
		var live bool
		if err := rows.Scan(&live); err != nil {
			return false, err
		}
		lag = lag || live
	}
	return lag, rows.Err()
}
