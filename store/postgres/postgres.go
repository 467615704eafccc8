package postgres

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
	"github.com/toolgate/toolgate/store/internal/sqlstore"
)

// DB is a toolgate store in a PostgreSQL database. It implements
// store.Store, store.Counter, store.WebSessions, store.Feed and, through
// Rules, store.Rules: the SQL it shares with store/sqlite is sqlstore's,
// run on this database.
type DB struct {
	*sqlstore.Store

	pool    *pgxpool.Pool
	schema  string // the schema the tables are in
	channel string // the schema's NOTIFY channel
	log     *slog.Logger

	// listen is the configuration of the dedicated LISTEN connection.
	listen     *pgx.ConnConfig
	listenOnce sync.Once
	changes    chan struct{}
	stop       chan struct{}
	listenDone chan struct{}

	appends appender // appends waiting to be committed in a group

	// lease is this node's lease (store.Leaser); listenUp tells whether
	// the LISTEN connection is up. ackChannel carries the nodes' reports
	// of applied entries; ackCh is closed at each.
	lease      *lease
	listenUp   atomic.Bool
	ackChannel string
	ackMu      sync.Mutex
	ackCh      chan struct{}

	// opTimeout bounds each call (bound); silentSince is when a call
	// last waited it out with no answer since (unix nanoseconds, 0: the
	// database answers).
	opTimeout   time.Duration
	silentSince atomic.Int64

	closed    atomic.Bool
	closeOnce sync.Once
}

var (
	_ store.Store  = (*DB)(nil)
	_ store.Feed   = (*DB)(nil)
	_ store.Keeper = (*DB)(nil)
)

// Option configures Open.
type Option func(*options)

type options struct {
	opTimeout  time.Duration
	schema     string
	maxConns   int32
	log        *slog.Logger
	lease      time.Duration
	leaseEvery time.Duration
}

// WithSchema keeps the tables in schema, creating it if needed: several
// toolgate installations (or tests) can share one database. Without it the
// tables go where the connection's search_path puts them (public, unless
// the URL sets search_path).
func WithSchema(schema string) Option { return func(o *options) { o.schema = schema } }

// WithMaxConns sets the pool size (pgxpool's default: 4 or the number of
// CPUs, whichever is more).
func WithMaxConns(n int) Option { return func(o *options) { o.maxConns = int32(n) } }

// WithLogger sets where the LISTEN connection reports losing and regaining
// the database.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

// DefaultOpTimeout is how long one call of the store may take before it
// fails with EUnavailable: a node cut off from its database (a dropped
// network, a database that stopped answering) answers 503 within seconds
// instead of when TCP gives up, and within about a second (silentTimeout)
// once one call has found the database silent.
const DefaultOpTimeout = 5 * time.Second

// WithOpTimeout sets how long one call of the store may take
// (DefaultOpTimeout; zero or negative keeps the default).
func WithOpTimeout(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.opTimeout = d
		}
	}
}

// IsURL reports whether s names a PostgreSQL database (postgres:// or
// postgresql://).
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Open connects to the database at url (a postgres:// URL or a libpq
// keyword string) and migrates its schema. Nodes may open the same
// database at once: migrations run under an advisory lock. ctx bounds the
// opening only.
func Open(ctx context.Context, url string, opts ...Option) (*DB, error) {
	o := options{log: slog.New(slog.DiscardHandler), lease: DefaultLease, leaseEvery: DefaultLeaseRenewal, opTimeout: DefaultOpTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message can quote the URL, password included.
		return nil, toolgate.Errorf(toolgate.EInvalid, "postgres: open: invalid database URL")
	}
	if sp := cfg.ConnConfig.RuntimeParams["search_path"]; o.schema == "" && validSchema(sp) {
		// A URL naming one schema (?search_path=NAME) gets it created.
		o.schema = sp
	}
	if o.schema != "" {
		if !validSchema(o.schema) {
			return nil, toolgate.Errorf(toolgate.EInvalid, "postgres: open: schema %q: want letters, digits and _", o.schema)
		}
		cfg.ConnConfig.RuntimeParams["search_path"] = o.schema
	}
	if o.maxConns > 0 {
		cfg.MaxConns = o.maxConns
	}
	if cfg.ConnConfig.ConnectTimeout <= 0 || cfg.ConnConfig.ConnectTimeout > o.opTimeout {
		// The pool connects in the background, outside any caller's
		// deadline: a connection attempt into a silent network must end
		// too, or it holds a place in the pool for good.
		cfg.ConnConfig.ConnectTimeout = o.opTimeout
	}
	if cfg.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"] == "" {
		// A node cut off in the middle of a transaction leaves its backend
		// holding the transaction's locks (the audit head's, a row's) and
		// every other node waiting: the server ends such a transaction
		// once its client has been silent for twice the call timeout.
		cfg.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"] = strconv.FormatInt((2 * o.opTimeout).Milliseconds(), 10)
	}
	if cfg.ConnConfig.RuntimeParams["application_name"] == "" {
		cfg.ConnConfig.RuntimeParams["application_name"] = "toolgate"
	}
	host := cfg.ConnConfig.Host
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open %s: %w", host, err)
	}
	db := &DB{pool: pool, schema: o.schema, log: o.log, opTimeout: o.opTimeout, changes: make(chan struct{}, 1),
		stop: make(chan struct{}), listenDone: make(chan struct{}),
		lease: newLease(o.lease, o.leaseEvery), ackCh: make(chan struct{})}
	db.Store = sqlstore.New(sqlstore.Postgres(), backend{db})
	if err := db.migrate(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open %s: %w", host, err)
	}
	if db.schema == "" {
		if err := pool.QueryRow(ctx, `SELECT current_schema()`).Scan(&db.schema); err != nil {
			pool.Close()
			return nil, fmt.Errorf("postgres: open %s: %w", host, err)
		}
	}
	sum := sha256.Sum256([]byte(db.schema))
	db.channel = "toolgate_" + hex.EncodeToString(sum[:8])
	db.ackChannel = db.channel + "_ack"
	db.listen = cfg.ConnConfig.Copy()
	db.listen.RuntimeParams["application_name"] = "toolgate-listen-" + strconv.Itoa(os.Getpid())
	return db, nil
}

func validSchema(s string) bool {
	if s == "" || len(s) > 63 {
		return false
	}
	for i, r := range s {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// Schema returns the schema the tables are in.
func (db *DB) Schema() string { return db.schema }

// Pool returns the connection pool (tests and tools that inspect the
// database use it).
func (db *DB) Pool() *pgxpool.Pool { return db.pool }

// Close closes the pool and the LISTEN connection. Using the store
// afterwards returns an error; closing it again does nothing.
func (db *DB) Close() error {
	db.closeOnce.Do(func() {
		db.closed.Store(true)
		close(db.stop)
		// If no listener ran, none may start now; if one did, it closes
		// listenDone when it has stopped.
		db.listenOnce.Do(func() { close(db.listenDone) })
		<-db.listenDone
		db.pool.Close()
	})
	return nil
}

// errClosed is returned by every method after Close.
func (db *DB) errClosed(op string) error {
	return &toolgate.Error{Code: toolgate.EUnavailable, Message: "postgres: " + op + ": the store is closed"}
}

// write runs fn in a transaction and commits it. If it appended an entry
// that caches depend on, it returns once every node holding a lease has
// applied it (or its lease lapsed).
func (db *DB) write(ctx context.Context, fn func(tx pgx.Tx) error) error {
	var change int64
	tctx, cancel := db.bound(ctx)
	err := pgx.BeginFunc(tctx, db.pool, func(tx pgx.Tx) error {
		w := &writeTx{Tx: tx}
		err := fn(w)
		change = w.change
		return err
	})
	cancel()
	if err != nil || change == 0 {
		return err
	}
	return db.awaitApplied(ctx, change)
}

// silentTimeout bounds each call while the database is silent: once a
// call has waited out its whole timeout, the next ones wait at most this
// long, until one is answered, so a node cut off from its database
// answers 503 within about a second after the first.
const silentTimeout = time.Second

// errSilent is the cause of a call's context that bound ended.
var errSilent = errors.New("the database did not answer in time")

// bound returns ctx bounded by the store's call timeout (silentTimeout
// while the database is silent), unless it ends sooner already. Its
// cancel notes whether the database answered in time.
func (db *DB) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	d := db.opTimeout
	if db.silentSince.Load() != 0 {
		d = min(d, silentTimeout)
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= d {
		return ctx, func() {}
	}
	bctx, cancel := context.WithTimeoutCause(ctx, d, errSilent)
	return bctx, func() {
		switch {
		case errors.Is(context.Cause(bctx), errSilent):
			db.silentSince.CompareAndSwap(0, time.Now().UnixNano())
		case ctx.Err() == nil:
			db.silentSince.Store(0) // answered
		}
		cancel()
	}
}

// writeTx is a write's transaction; appendAudit notes in change the last
// entry it appended that caches depend on.
type writeTx struct {
	pgx.Tx
	change int64
}

// wrap adds op's context to err, keeping a *toolgate.Error's code visible
// to ErrorCodeOf.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var te *toolgate.Error
	if errors.As(err, &te) {
		return &toolgate.Error{Code: te.Code, Message: "postgres: " + op + ": " + te.Message, Err: te.Err}
	}
	if isUnique(err) {
		return &toolgate.Error{Code: toolgate.EConflict, Message: "postgres: " + op + ": already exists", Err: err}
	}
	if errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err) {
		return &toolgate.Error{Code: toolgate.EUnavailable, Message: "postgres: " + op + ": the database did not answer in time", Err: err}
	}
	if isUnavailable(err) {
		return &toolgate.Error{Code: toolgate.EUnavailable, Message: "postgres: " + op + ": database unavailable", Err: err}
	}
	return fmt.Errorf("postgres: %s: %w", op, err)
}

// isUnique reports whether err is a unique constraint violation.
func isUnique(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// isUnavailable reports whether err means the database could not be
// reached or the connection was lost (as opposed to refusing a
// statement): a server that restarted or killed the connection, a
// network that dropped it. The caller answers 503 and fails closed; a
// write whose commit was cut off may or may not have committed, so it is
// never taken as done.
func isUnavailable(err error) bool {
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) || pgconn.SafeToRetry(err) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// Class 08: connection exception; 57P01–57P05: the server is
		// shutting down, restarting or was told to end the connection;
		// 53300: too many connections.
		return strings.HasPrefix(pe.Code, "08") || strings.HasPrefix(pe.Code, "57P") || pe.Code == "53300"
	}
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		strings.Contains(err.Error(), "conn closed")
}
