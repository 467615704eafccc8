package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/rowcodec"
)

var _ store.GuardedAppender = (*DB)(nil)

// Appends that are only appends (every recorded decision) are committed in
// groups, as store/sqlite commits its writes: every append holds the one
// audit_head row lock through its commit, so appends are serialized in the
// database and each pays a whole fsync alone. Gathering the appends that
// arrive while a commit is in flight into the next transaction makes that
// one fsync for the lot. A group is two round trips: BEGIN with the head's
// lock (which also reads the feed's change head for the guarded appends),
// then the inserts, the head's advance, the NOTIFY and COMMIT; or one,
// when the store knows the head (see appendGroup).

// maxGroup bounds the appends in one transaction, so one commit's latency
// stays bounded under a flood.
const maxGroup = 64

// groupTimeout bounds one group's transaction; each caller also stops
// waiting when its own context ends.
const groupTimeout = 30 * time.Second

// appender queues appends for the next group.
type appender struct {
	mu      sync.Mutex
	queue   []*appendReq
	running bool // a goroutine is committing groups

	// The head this store's last group left, believed current while known.
	// It is only a hint: checkHead verifies it in the database.
	head     chainHead
	known    bool
	gen      uint64 // bumped by every append outside the groups
	notified int64  // the highest sequence a NOTIFY announced

	// Groups committed in one round trip and in two, and one-round-trip
	// attempts that found the head moved (tests read them).
	fast, slow, missed atomic.Int64
}

// appendReq is one caller's append.
type appendReq struct {
	ctx     context.Context
	entries []toolgate.AuditEntry
	guarded bool  // append only if the change head is at most applied
	applied int64 // the caller's last applied entry, when guarded
	done    chan struct{}
	ok      bool // appended
	err     error
	// change is set, when entries hold one that caches depend on, to the
	// group's last entry: the caller waits for the nodes to apply it.
	change int64
}

// AppendAudit implements store.Store.
func (db *DB) AppendAudit(ctx context.Context, entries ...toolgate.AuditEntry) error {
	if len(entries) == 0 {
		if db.closed.Load() {
			return db.errClosed("append audit")
		}
		return nil
	}
	_, err := db.appendQueued(ctx, false, 0, entries)
	return err
}

// AppendAuditIfCurrent implements store.GuardedAppender: the check of the
// change head and the append are one transaction holding the head's lock.
func (db *DB) AppendAuditIfCurrent(ctx context.Context, applied int64, entries ...toolgate.AuditEntry) (bool, error) {
	return db.appendQueued(ctx, true, applied, entries)
}

// appendQueued queues an append for the next group and waits for its
// outcome. The caller that finds no group running commits groups itself
// until its own is done, then hands what is left to a goroutine.
func (db *DB) appendQueued(ctx context.Context, guarded bool, applied int64, entries []toolgate.AuditEntry) (bool, error) {
	const op = "append audit"
	if db.closed.Load() {
		return false, db.errClosed(op)
	}
	for _, e := range entries {
		// Refused here, so that one bad entry cannot fail a whole group.
		if _, err := rowcodec.Nanos("audit time", e.Time); err != nil {
			return false, wrap(op, err)
		}
	}
	wctx, cancel := db.bound(ctx)
	defer cancel()
	r := &appendReq{ctx: wctx, entries: entries, guarded: guarded, applied: applied, done: make(chan struct{})}
	a := &db.appends
	a.mu.Lock()
	a.queue = append(a.queue, r)
	lead := !a.running
	a.running = true
	a.mu.Unlock()
	if lead {
		db.commitGroups(r)
	}
	select {
	case <-r.done:
		if r.ok && r.err == nil && r.change > 0 {
			return true, wrap(op, db.awaitApplied(ctx, r.change))
		}
		return r.ok, wrap(op, r.err)
	case <-wctx.Done():
		// The append may still commit: as when a commit's answer is lost,
		// the caller must not act on it.
		return false, wrap(op, wctx.Err())
	}
}

// commitGroups commits queued groups until own is answered (own nil: until
// the queue is empty), then hands the rest to a new goroutine.
func (db *DB) commitGroups(own *appendReq) {
	a := &db.appends
	for {
		a.mu.Lock()
		if len(a.queue) == 0 {
			a.running = false
			a.mu.Unlock()
			return
		}
		if own != nil && answered(own) {
			// Its caller has waited long enough: another goroutine carries on.
			a.mu.Unlock()
			go db.commitGroups(nil)
			return
		}
		n := min(len(a.queue), maxGroup)
		group := slices.Clone(a.queue[:n])
		a.queue = slices.Delete(a.queue, 0, n)
		a.mu.Unlock()
		db.commitGroup(group)
	}
}

func answered(r *appendReq) bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// commitGroup appends a group in one transaction and answers each caller.
func (db *DB) commitGroup(group []*appendReq) {
	ctx, cancel := context.WithTimeout(context.Background(), min(groupTimeout, db.opTimeout))
	defer cancel()
	err := db.appendGroup(ctx, group)
	for _, r := range group {
		if err != nil && r.err == nil {
			// Nothing of the group was appended: every caller is told.
			r.ok, r.err = false, err
		}
		close(r.done)
	}
}

// appendGroup runs the group's transaction and sets ok on each request
// appended (commitGroup resets it if the transaction fails).
//
// When this store made the last append it knows of, the group is one
// round trip: BEGIN, a statement that locks the head and fails unless it
// is still the one expected (and the change head passes every guard),
// the appends and COMMIT, pipelined. Otherwise, or if that statement
// fails, it is two: BEGIN with the head's lock, then the appends and
// COMMIT.
func (db *DB) appendGroup(ctx context.Context, group []*appendReq) error {
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	h, known := db.appends.knownHead()
	if known {
		entries, in, minApplied := pick(group, -1)
		if len(entries) == 0 {
			return nil
		}
		b := &pgx.Batch{}
		b.Queue("BEGIN")
		b.Queue(checkHead, h.seq, h.hash, minApplied)
		seq, hash, err := db.chain(b, entries, h.seq, h.hash)
		if err != nil {
			return err
		}
		b.Queue("COMMIT")
		err = conn.SendBatch(ctx, b).Close()
		if err == nil {
			for _, r := range in {
				r.ok = true
				if changes(r.entries) {
					r.change = seq
				}
			}
			db.appends.setHead(chainHead{seq: seq, hash: hash, gen: h.gen})
			db.appends.fast.Add(1)
			return nil
		}
		db.rollback(ctx, conn)
		if !headMoved(err) {
			return err
		}
		db.appends.missed.Add(1)
		// Another node appended, or a guard failed: read the head.
		db.appends.forget(h)
	}
	var (
		seq, changeSeq int64
		prev           string
	)
	head := &pgx.Batch{}
	head.Queue("BEGIN")
	head.Queue(lockHead).QueryRow(func(r pgx.Row) error { return r.Scan(&seq, &prev, &changeSeq) })
	if err := conn.SendBatch(ctx, head).Close(); err != nil {
		db.rollback(ctx, conn)
		return fmt.Errorf("read last audit entry: %w", err)
	}
	entries, in, _ := pick(group, changeSeq)
	if len(entries) == 0 {
		if _, err := conn.Exec(ctx, "ROLLBACK"); err != nil {
			conn.Conn().Close(ctx)
			return nil
		}
		db.appends.setHead(chainHead{seq: seq, hash: prev, gen: h.gen})
		return nil
	}
	b := &pgx.Batch{}
	seq, prev, err = db.chain(b, entries, seq, prev)
	if err == nil {
		b.Queue("COMMIT")
		err = conn.SendBatch(ctx, b).Close()
	}
	if err != nil {
		db.rollback(ctx, conn)
		return err
	}
	for _, r := range in {
		r.ok = true
		if changes(r.entries) {
			r.change = seq
		}
	}
	db.appends.setHead(chainHead{seq: seq, hash: prev, gen: h.gen})
	db.appends.slow.Add(1)
	return nil
}

// checkHead locks the head and fails (division by zero) unless it is the
// head expected ($1, $2) and no change caches depend on was appended
// after $3: the one-round-trip append's guard. The CASE-free form keeps
// the planner from folding the division.
const checkHead = `SELECT 1 / (seq = $1 AND hash = $2 AND change_seq <= $3)::int FROM audit_head WHERE id = 1 FOR UPDATE`

// headMoved reports whether err is checkHead's failure.
func headMoved(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "22012"
}

// pick returns, in chain order, the entries of the requests to append and
// those requests: guarded ones first, so that no entry of the group lands
// between the change head they were checked against and them; not those
// whose caller has gone (their err is set) nor, with changeSeq >= 0, the
// guarded ones it fails. minApplied is the lowest guard picked.
func pick(group []*appendReq, changeSeq int64) (entries []toolgate.AuditEntry, in []*appendReq, minApplied int64) {
	minApplied = math.MaxInt64
	for _, guarded := range [...]bool{true, false} {
		for _, r := range group {
			switch {
			case r.guarded != guarded || r.err != nil:
			case r.ctx.Err() != nil:
				r.err = r.ctx.Err()
			case guarded && changeSeq >= 0 && changeSeq > r.applied:
				// Stale: r.ok stays false, r.err nil.
			default:
				if guarded {
					minApplied = min(minApplied, r.applied)
				}
				entries = append(entries, r.entries...)
				in = append(in, r)
			}
		}
	}
	return entries, in, minApplied
}

// chainHead is the head of the chain as an appender last saw it.
type chainHead struct {
	seq  int64
	hash string
	gen  uint64 // the appender's gen when it was read
}

// knownHead returns the head as of this store's last group, and whether
// it is still believed current; its gen is current either way.
func (a *appender) knownHead() (chainHead, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	h := a.head
	h.gen = a.gen
	return h, a.known
}

// setHead records the head a group left, unless the chain may have moved
// since h.gen was read (another append on this store, or a NOTIFY of a
// later entry).
func (a *appender) setHead(h chainHead) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.gen == h.gen && a.notified <= h.seq {
		a.head, a.known = h, true
	}
}

// forget drops the head h, found moved.
func (a *appender) forget(h chainHead) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.gen == h.gen {
		a.known = false
	}
}

// moved records that an append outside the groups holds the head's lock:
// the known head is stale. It must be called after the lock is taken, so
// that a group that read gen before it is committed after it.
func (a *appender) moved() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.gen++
	a.known = false
}

// announced records a NOTIFY of entry seq (from any node).
func (a *appender) announced(seq int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.notified = max(a.notified, seq)
	if a.known && seq > a.head.seq {
		a.known = false
	}
}

// rollback ends a transaction an error left open, rather than leave the
// head's lock held until the pool notices; a connection that cannot is
// closed.
func (db *DB) rollback(ctx context.Context, conn interface {
	Conn() *pgx.Conn
}) {
	if conn.Conn().PgConn().TxStatus() == 'I' {
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if _, err := conn.Conn().Exec(rctx, "ROLLBACK"); err != nil {
		conn.Conn().Close(rctx)
	}
}
