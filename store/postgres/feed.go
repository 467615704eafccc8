package postgres

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/toolgate/toolgate/store"
)

var _ store.SessionLocker = (*DB)(nil)

// Head implements store.Feed: one indexed read of the audit_head row.
func (db *DB) Head(ctx context.Context) (store.FeedHead, error) {
	var h store.FeedHead
	if db.closed.Load() {
		return h, db.errClosed("feed head")
	}
	ctx, cancel := db.bound(ctx)
	defer cancel()
	if err := db.pool.QueryRow(ctx, `SELECT seq, change_seq FROM audit_head WHERE id = 1`).Scan(&h.Seq, &h.ChangeSeq); err != nil {
		return h, wrap("feed head", err)
	}
	return h, nil
}

// LockSession implements store.SessionLocker with a session-level
// advisory lock on a connection of its own, held until unlock.
func (db *DB) LockSession(ctx context.Context, id string) (func(), error) {
	const op = "lock session"
	if db.closed.Load() {
		return nil, db.errClosed(op)
	}
	// Waiting for another node's hold counts too: a lock held past the
	// store's call timeout is a fault, not a queue.
	ctx, cancel := db.bound(ctx)
	defer cancel()
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return nil, wrap(op, err)
	}
	key := "toolgate session " + db.schema + " " + id
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(hashtextextended($1, 0))`, key); err != nil {
		conn.Release()
		return nil, wrap(op, err)
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := conn.Exec(ctx, `SELECT pg_advisory_unlock(hashtextextended($1, 0))`, key); err != nil {
			// The lock outlives statements: a connection that may still
			// hold it must not go back to the pool.
			conn.Conn().Close(ctx)
		}
		conn.Release()
	}, nil
}

// Channel returns the NOTIFY channel of the store's schema.
func (db *DB) Channel() string { return db.channel }

// Changes implements store.Feed. The first call starts the LISTEN
// connection: a dedicated connection outside the pool that LISTENs on the
// schema's channel. Whenever an entry is appended on any node, and
// whenever the connection is (re)established (notifications sent while it
// was down are lost: the reader catches up by sequence), a value is sent,
// coalesced: the channel has room for one.
func (db *DB) Changes() <-chan struct{} {
	db.listenOnce.Do(func() { go db.listenLoop() })
	return db.changes
}

// Listen backoff bounds: a lost connection is retried quickly at first,
// then at most every maxBackoff.
const (
	minBackoff = 50 * time.Millisecond
	maxBackoff = 2 * time.Second
)

func (db *DB) listenLoop() {
	defer close(db.listenDone)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-db.stop
		cancel()
	}()
	backoff := minBackoff
	for ctx.Err() == nil {
		err := db.listenOnceConn(ctx, func() { backoff = minBackoff })
		if ctx.Err() != nil {
			return
		}
		db.log.Warn("postgres: change feed connection lost; reconnecting", "err", err, "in", backoff)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, maxBackoff)
	}
}

// listenOnceConn connects, LISTENs, signals (to catch up with whatever
// was missed) and then signals every notification until the connection
// fails.
func (db *DB) listenOnceConn(ctx context.Context, connected func()) error {
	conn, err := pgx.ConnectConfig(ctx, db.listen)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	// The change channel last: its LISTEN stays the connection's last
	// query, by which tools find the connection (pg_stat_activity).
	for _, ch := range []string{db.ackChannel, db.channel} {
		if _, err := conn.Exec(ctx, `LISTEN `+pgx.Identifier{ch}.Sanitize()); err != nil {
			return err
		}
	}
	connected()
	db.listenUp.Store(true)
	select {
	case db.lease.kick <- struct{}{}:
	default:
	}
	// Notifications may be missed from here on: the lease stops being
	// trusted at once (store.Leaser's Current).
	defer db.listenUp.Store(false)
	db.signal()
	db.ack() // acknowledgements may have been missed too
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		if n.Channel == db.ackChannel {
			db.ack()
			continue
		}
		head, change, _ := strings.Cut(n.Payload, " ")
		if seq, err := strconv.ParseInt(head, 10, 64); err == nil {
			db.appends.announced(seq)
		}
		if seq, err := strconv.ParseInt(change, 10, 64); err == nil {
			db.lease.heard(seq)
		}
		db.signal()
	}
}

func (db *DB) signal() {
	select {
	case db.changes <- struct{}{}:
	default:
	}
}
