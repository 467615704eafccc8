package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/sqlstore"
)

// DB is a toolgate store in a SQLite database. It implements store.Store,
// store.Counter and store.WebSessions: the SQL it shares with
// store/postgres is sqlstore's, run on this database.
type DB struct {
	*sqlstore.Store

	path string
	// w is the one writer connection: every write transaction runs on it,
	// so writes are serialized within the process, and it begins its
	// transactions IMMEDIATE, so they are serialized with other processes
	// sharing the file too.
	w *sql.DB
	// r is the pool of read-only connections.
	r *sql.DB

	// st holds the audit chain's statements, prepared once on w.
	st auditStmts
	// hotWrites and hotReads are the shared layer's statements on the hot
	// paths (sqlstore.Store.Hot) by their text, prepared once on w and on
	// r (database/sql prepares each on a pooled connection the first time
	// it runs there). Set by Open, only read afterwards.
	hotWrites, hotReads map[string]*sql.Stmt

	busyTimeout  time.Duration
	writeTimeout time.Duration // see writeAt
	readConns    int
	maxPages     int64

	// writes carries write transactions to the writer goroutine, which
	// commits them in groups (see write); stop ends it, and writerDone
	// says it has.
	writes     chan writeReq
	stop       chan struct{}
	writerDone chan struct{}
	// sync is the writer connection's synchronous setting; only the
	// writer goroutine uses it (see commitGroup).
	sync syncLevel

	// ckpt is the connection that checkpoints the WAL into the database
	// in the background; kick wakes it after commits, and ckptDone says
	// it has stopped (see checkpointer).
	ckpt     *sql.DB
	kick     chan struct{}
	ckptDone chan struct{}

	closed    atomic.Bool
	closeOnce sync.Once
	closeErr  error
}

var _ store.Store = (*DB)(nil)

// Option configures Open.
type Option func(*DB)

// WithBusyTimeout sets how long a connection waits for a lock held by
// another process sharing the file before it fails. The default is 5 s.
func WithBusyTimeout(d time.Duration) Option {
	return func(db *DB) { db.busyTimeout = d }
}

// WithWriteTimeout sets how long a write may wait for its commit before
// it fails with EUnavailable (default: the busy timeout and 5 s more, so
// a lock another process holds fails as busy first).
func WithWriteTimeout(d time.Duration) Option {
	return func(db *DB) { db.writeTimeout = d }
}

// WithMaxSize bounds the database file (in bytes, rounded down to 4 KiB
// pages): a write that would grow it further fails as a full disk does,
// with EUnavailable. Zero is no bound.
func WithMaxSize(bytes int64) Option {
	return func(db *DB) { db.maxPages = bytes / 4096 }
}

// WithReadConns sets the size of the read connection pool. The default is
// the number of CPUs, at least 4.
func WithReadConns(n int) Option {
	return func(db *DB) { db.readConns = n }
}

// Open opens the database at path, creating it (its parent directories
// with mode 0700, the file with mode 0600) if it does not exist, and
// migrates its schema. ctx bounds the opening only.
func Open(ctx context.Context, path string, opts ...Option) (*DB, error) {
	if path == "" {
		return nil, toolgate.Errorf(toolgate.EInvalid, "sqlite: open: no database path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	db := &DB{path: abs, busyTimeout: 5 * time.Second, readConns: max(4, runtime.NumCPU())}
	db.Store = sqlstore.New(sqlstore.SQLite(), backend{db})
	hotReads, hotWrites := db.Hot()
	for _, o := range opts {
		o(db)
	}
	if db.writeTimeout <= 0 {
		db.writeTimeout = db.busyTimeout + 5*time.Second
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	// Create the file ourselves so that it gets mode 0600 whatever the
	// umask; SQLite gives its -wal and -shm files the same mode.
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}

	// synchronous=FULL: in WAL mode, NORMAL syncs the WAL only at
	// checkpoints, so a commit can be lost to a power cut after the method
	// returned. An answer must be durable before it is acknowledged (DESIGN
	// §5): with FULL every commit is fsynced before it returns.
	common := url.Values{}
	common.Set("_busy_timeout", strconv.FormatInt(db.busyTimeout.Milliseconds(), 10))
	common.Set("_synchronous", "FULL")
	common.Set("_foreign_keys", "1")

	wq := url.Values{}
	for k, v := range common {
		wq[k] = v
	}
	wq.Set("_journal_mode", "WAL")
	wq.Set("_txlock", "immediate")
	// The checkpointer moves the WAL into the database in the background;
	// the writer checkpoints only if that falls far behind, so a commit
	// rarely carries a checkpoint's writes and fsyncs.
	wq.Add("_pragma", fmt.Sprintf("wal_autocheckpoint(%d)", writerCheckpointPages))
	if db.maxPages > 0 {
		wq.Add("_pragma", "page_size(4096)")
		wq.Add("_pragma", fmt.Sprintf("max_page_count(%d)", db.maxPages))
	}
	db.w, err = sql.Open("sqlite", dsn(abs, wq))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	db.w.SetMaxOpenConns(1)
	db.w.SetMaxIdleConns(1)
	db.w.SetConnMaxLifetime(0)
	db.w.SetConnMaxIdleTime(0)
	if err := db.w.PingContext(ctx); err != nil {
		db.w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	if err := db.migrate(ctx); err != nil {
		db.w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	if db.hotWrites, err = prepare(ctx, db.w, hotWrites); err == nil {
		err = db.st.prepare(ctx, db.w)
	}
	if err != nil {
		db.w.Close()
		return nil, fmt.Errorf("sqlite: open %s: prepare: %w", abs, err)
	}

	db.ckpt, err = sql.Open("sqlite", dsn(abs, common))
	if err != nil {
		db.w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	db.ckpt.SetMaxOpenConns(1)
	db.ckpt.SetMaxIdleConns(1)

	db.writes, db.stop, db.writerDone = make(chan writeReq), make(chan struct{}), make(chan struct{})
	db.kick, db.ckptDone = make(chan struct{}, 1), make(chan struct{})
	go db.writer()
	go db.checkpointer()

	rq := common
	rq.Set("_query_only", "1")
	db.r, err = sql.Open("sqlite", dsn(abs, rq))
	if err != nil {
		db.w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	db.r.SetMaxOpenConns(db.readConns)
	db.r.SetMaxIdleConns(db.readConns)
	if err := db.r.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	if db.hotReads, err = prepare(ctx, db.r, hotReads); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s: prepare: %w", abs, err)
	}
	return db, nil
}

// prepare prepares each statement of texts on c, by its text.
func prepare(ctx context.Context, c *sql.DB, texts []string) (map[string]*sql.Stmt, error) {
	m := make(map[string]*sql.Stmt, len(texts))
	for _, q := range texts {
		st, err := c.PrepareContext(ctx, q)
		if err != nil {
			return m, err
		}
		m[q] = st
	}
	return m, nil
}

// auditStmts are the audit chain's statements, run by every write that
// appends to it.
type auditStmts struct {
	lastAudit, insertAudit *sql.Stmt
}

func (st *auditStmts) prepare(ctx context.Context, w *sql.DB) error {
	var err error
	if st.lastAudit, err = w.PrepareContext(ctx, `SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1`); err != nil {
		return err
	}
	st.insertAudit, err = w.PrepareContext(ctx, `INSERT INTO audit (`+sqlstore.AuditColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	return err
}

// dsn returns the driver's name for the file at abs: a file: URI, so that
// a path with '?' or '#' in it is escaped, with the driver's parameters.
func dsn(abs string, q url.Values) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	if u.Path != "" && u.Path[0] != '/' {
		u.Path = "/" + u.Path // a Windows drive letter
	}
	return u.String()
}

// Path returns the database file's absolute path.
func (db *DB) Path() string { return db.path }

// Close closes the database. Using it afterwards returns an error; closing
// it again returns the first Close's result.
func (db *DB) Close() error {
	db.closeOnce.Do(func() {
		db.closed.Store(true)
		if db.stop != nil {
			close(db.stop)
			<-db.writerDone
			<-db.ckptDone
		}
		var errs []error
		stmts := []*sql.Stmt{db.st.lastAudit, db.st.insertAudit}
		for _, m := range []map[string]*sql.Stmt{db.hotWrites, db.hotReads} {
			for _, st := range m {
				stmts = append(stmts, st)
			}
		}
		for _, st := range stmts {
			if st != nil {
				errs = append(errs, st.Close())
			}
		}
		if db.r != nil {
			errs = append(errs, db.r.Close())
		}
		if db.ckpt != nil {
			errs = append(errs, db.ckpt.Close())
		}
		errs = append(errs, db.w.Close())
		if err := errors.Join(errs...); err != nil {
			db.closeErr = fmt.Errorf("sqlite: close %s: %w", db.path, err)
		}
	})
	return db.closeErr
}

// errClosed is returned by every method after Close.
func (db *DB) errClosed(op string) error {
	return &toolgate.Error{Code: toolgate.EUnavailable, Message: "sqlite: " + op + ": the store is closed"}
}

// write runs fn in a write transaction and commits it durably. fn's
// error, or the commit's, is returned as is: callers wrap it with their
// context.
//
// Writes are committed in groups: the writer goroutine takes every write
// waiting when it is free, runs each in a savepoint of one transaction
// and commits once, so concurrent writers share one fsync (the commit
// with synchronous=FULL) instead of queueing for one each. Each write
// still stands alone: a failing one is rolled back to its savepoint and
// returns its error, the others commit; nothing returns before the
// commit that makes it durable, and a failed commit fails every write in
// it. A write whose ctx ends before its turn is not run; once run, it is
// not interrupted: fn gets ctx without its cancellation (see
// uncancelled), and runs its statements with that.
func (db *DB) write(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error) error {
	return db.writeAt(ctx, syncFull, fn)
}

// writeAt queues a write and waits for its outcome, at most the store's
// write timeout: a write the writer has not taken by then is not run, and
// the caller is told the store is unavailable (one it had taken may still
// commit; the caller must not act on it, as when a commit's answer is
// lost). A caller whose ctx ends waits for the outcome as long, so that
// what it is told is what happened whenever the store can say.
func (db *DB) writeAt(ctx context.Context, level syncLevel, fn func(ctx context.Context, tx *sql.Tx) error) error {
	timer := time.NewTimer(db.writeTimeout)
	defer timer.Stop()
	wctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	req := writeReq{ctx: wctx, fn: fn, sync: level, done: make(chan error, 1)}
	select {
	case db.writes <- req:
	case <-db.stop:
		return db.errClosed("write")
	case <-ctx.Done():
		return ctxError(ctx.Err())
	case <-timer.C:
		return ctxError(errWriteTimeout)
	}
	select {
	case err := <-req.done:
		return ctxError(err)
	case <-timer.C:
		cancel(errWriteTimeout) // not run if the writer has not taken it
		return ctxError(errWriteTimeout)
	}
}

// errWriteTimeout is a write that waited out the store's write timeout.
var errWriteTimeout = errors.New("the database did not take the write in time")

// ctxError returns err, unless it says a write's time ran out (the
// store's timeout or the caller's deadline): that is the store being
// unavailable, a 503. A cancellation (the caller went away) is returned
// as is.
func ctxError(err error) error {
	if errors.Is(err, errWriteTimeout) || errors.Is(err, context.DeadlineExceeded) {
		return &toolgate.Error{Code: toolgate.EUnavailable, Message: "sqlite: write: " + err.Error(), Err: fmt.Errorf("%w: %w", store.ErrUnavailable, err)}
	}
	return err
}

// syncLevel is a commit's synchronous setting.
type syncLevel int8

const (
	syncUnknown syncLevel = iota // not set since the connection opened, or a change failed
	syncNormal                   // synchronous=NORMAL: no fsync at commit (WAL)
	syncFull                     // synchronous=FULL: the WAL is fsynced at commit
)

// writeReq is one write waiting for the writer.
type writeReq struct {
	ctx  context.Context
	fn   func(ctx context.Context, tx *sql.Tx) error
	sync syncLevel
	done chan error // buffered: the writer never blocks on it
}

// groupSync is a group's commit: durable if any write in it must be.
func groupSync(group []writeReq) syncLevel {
	level := syncNormal
	for _, r := range group {
		level = max(level, r.sync)
	}
	return level
}

// setSync sets the writer connection's synchronous setting, if it is not
// set so already. A failure leaves it unknown, so the next group sets it
// again; the group that needed it fails.
func (db *DB) setSync(level syncLevel) error {
	if db.sync == level {
		return nil
	}
	q := "PRAGMA synchronous=FULL"
	if level == syncNormal {
		q = "PRAGMA synchronous=NORMAL"
	}
	db.sync = syncUnknown
	if _, err := db.w.Exec(q); err != nil {
		return fmt.Errorf("set %s: %w", q, err)
	}
	db.sync = level
	return nil
}

// maxGroup bounds the writes in one transaction, so one commit's latency
// stays bounded however many writers wait.
const maxGroup = 64

// writer commits the writes sent to db.writes, in groups, until stop.
func (db *DB) writer() {
	defer close(db.writerDone)
	for {
		var group []writeReq
		select {
		case r := <-db.writes:
			group = append(group, r)
		case <-db.stop:
			return
		}
	more:
		for len(group) < maxGroup {
			select {
			case r := <-db.writes:
				group = append(group, r)
			default:
				break more
			}
		}
		db.commitGroup(group)
		select {
		case db.kick <- struct{}{}:
		default: // the checkpointer is awake already
		}
	}
}

// commitGroup runs a group of writes in one transaction and answers each.
func (db *DB) commitGroup(group []writeReq) {
	errs := make([]error, len(group))
	answer := func() {
		for i, r := range group {
			r.done <- errs[i]
		}
	}
	if err := db.setSync(groupSync(group)); err != nil {
		for i := range errs {
			errs[i] = err
		}
		answer()
		return
	}
	// The transaction is not bound to any one writer's ctx: a cancelled
	// caller must not roll back the others' writes.
	tx, err := db.w.BeginTx(context.Background(), nil)
	if err != nil {
		for i := range errs {
			errs[i] = err
		}
		answer()
		return
	}
	if len(group) == 1 {
		// Alone: no savepoint needed, as a plain transaction.
		if errs[0] = group[0].ctx.Err(); errs[0] == nil {
			errs[0] = group[0].fn(uncancelled(group[0].ctx), tx)
		}
		if errs[0] != nil {
			tx.Rollback()
		} else {
			errs[0] = tx.Commit()
		}
		answer()
		return
	}
	for i, r := range group {
		if errs[i] = r.ctx.Err(); errs[i] != nil {
			continue
		}
		if _, err := tx.Exec("SAVEPOINT write"); err != nil {
			db.abortGroup(tx, errs, i, err)
			answer()
			return
		}
		errs[i] = r.fn(uncancelled(r.ctx), tx)
		if errs[i] != nil {
			if _, err := tx.Exec("ROLLBACK TO write"); err != nil {
				db.abortGroup(tx, errs, i, err)
				answer()
				return
			}
		}
		if _, err := tx.Exec("RELEASE write"); err != nil {
			db.abortGroup(tx, errs, i, err)
			answer()
			return
		}
	}
	cerr := tx.Commit()
	for i := range errs {
		if errs[i] == nil {
			errs[i] = cerr
		}
	}
	answer()
}

// uncancelled is ctx without its cancellation: what a write's statements
// and a point read run with, once ctx was checked before they start.
// Either takes microseconds, so interrupting it would gain nothing, while
// a statement run with a ctx that can end costs a goroutine of the
// driver's watching it (and database/sql another, for a query's rows):
// several per approval round trip, each scheduled twice.
func uncancelled(ctx context.Context) context.Context {
	if ctx.Done() == nil {
		return ctx
	}
	return context.WithoutCancel(ctx)
}

// abortGroup rolls back a group whose transaction broke at write i (a
// savepoint could not be set, released or rolled back to: the
// transaction's state is unknown) and fails every write of it that had
// not failed already: none of them is committed.
func (db *DB) abortGroup(tx *sql.Tx, errs []error, i int, err error) {
	tx.Rollback()
	err = fmt.Errorf("group commit aborted: %w", err)
	for k := range errs {
		if errs[k] == nil || k >= i {
			errs[k] = err
		}
	}
}

// wrap adds op's context to err, keeping a *toolgate.Error's code visible
// to ErrorCodeOf (the chain is wrapped, not replaced).
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var te *toolgate.Error
	if errors.As(err, &te) {
		return &toolgate.Error{Code: te.Code, Message: "sqlite: " + op + ": " + te.Message, Err: te.Err}
	}
	if isUnique(err) {
		return &toolgate.Error{Code: toolgate.EConflict, Message: "sqlite: " + op + ": already exists", Err: err}
	}
	if cause := unavailable(err); cause != "" {
		// The database cannot take the write now (a full disk, an I/O
		// error): the caller answers 503 with the cause, and retries.
		return &toolgate.Error{Code: toolgate.EUnavailable, Message: "sqlite: " + op + ": " + cause, Err: fmt.Errorf("%w: %w", store.ErrUnavailable, err)}
	}
	return fmt.Errorf("sqlite: %s: %w", op, err)
}

// unavailable names the cause of an error that says the database cannot
// be used right now, or returns "".
func unavailable(err error) string {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_FULL:
			return "disk full"
		case sqlite3.SQLITE_IOERR:
			return "I/O error"
		case sqlite3.SQLITE_READONLY:
			return "database is read-only"
		case sqlite3.SQLITE_CANTOPEN:
			return "cannot open the database file"
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return "database is locked"
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			return "database file is damaged"
		}
	}
	if errors.Is(err, syscall.ENOSPC) {
		return "disk full"
	}
	return ""
}

// isUnique reports whether err is a primary key or unique constraint
// violation.
func isUnique(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	c := se.Code()
	return c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY || c == sqlite3.SQLITE_CONSTRAINT_UNIQUE
}

// Checkpoints: the WAL is copied into the database by the checkpointer,
// off the writer's path, at most every checkpointEvery while writes come.
const (
	checkpointEvery = 100 * time.Millisecond
	// writerCheckpointPages is the writer's own automatic checkpoint: only
	// if the WAL grows this far (40 MB) does a commit checkpoint it, which
	// bounds the WAL should the checkpointer fall behind.
	writerCheckpointPages = 10000
)

// checkpointer runs passive checkpoints on its own connection after
// writes, until stop. A passive checkpoint copies what the WAL holds into
// the database without blocking the writer or readers; it fsyncs the WAL
// and then the database before the WAL may be reused, so it makes every
// commit before it durable too. A failed checkpoint is harmless (the WAL
// keeps the commits) and is tried again after the next write.
func (db *DB) checkpointer() {
	defer close(db.ckptDone)
	for {
		select {
		case <-db.kick:
		case <-db.stop:
			return
		}
		_, _ = db.ckpt.Exec("PRAGMA wal_checkpoint(PASSIVE)")
		select {
		case <-time.After(checkpointEvery):
		case <-db.stop:
			return
		}
	}
}
