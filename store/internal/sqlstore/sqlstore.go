package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/toolgate/toolgate"
)

// Row is one result row: *sql.Row, *sql.Rows, pgx.Row, pgx.Rows.
type Row interface {
	Scan(dest ...any) error
}

// Querier runs statements, written in the dialect's form: the read
// connections outside a write, or a write's transaction.
type Querier interface {
	// Exec runs a statement and returns how many rows it changed.
	Exec(ctx context.Context, q string, args ...any) (int64, error)
	// QueryRow runs a query for one row; a missing row is the error Scan
	// returns, which the Backend's NoRows recognises.
	QueryRow(ctx context.Context, q string, args ...any) Row
	// Query runs a query and calls each for every row in turn, stopping
	// at the first error.
	Query(ctx context.Context, q string, args []any, each func(Row) error) error
}

// Backend is a database a Store runs on.
type Backend interface {
	// Reads returns the querier for reads outside a write.
	Reads() Querier
	// Write runs fn in one write transaction and commits it. durable is
	// false for a write that may be lost to a power cut until the next
	// durable commit (a new pending approval); fn's error, or the
	// commit's, is returned as is.
	Write(ctx context.Context, durable bool, fn func(ctx context.Context, tx Querier) error) error
	// AppendAudit appends entries to the audit chain within tx.
	AppendAudit(ctx context.Context, tx Querier, entries []toolgate.AuditEntry) error
	// Closed reports whether the store was closed.
	Closed() bool
	// ErrClosed is the error of a method op called after Close.
	ErrClosed(op string) error
	// Wrap adds op's context to err, naming the database, and gives an
	// error the database raised its code (a unique violation a conflict,
	// a lost connection or full disk unavailable).
	Wrap(op string, err error) error
	// IsUnique reports whether err is a unique constraint violation.
	IsUnique(err error) bool
	// NoRows reports whether err says a query found no row.
	NoRows(err error) bool
}

// Store is the store.Store methods but AppendAudit and Close, and
// store.Counter, over a Backend.
type Store struct {
	d Dialect
	b Backend
	q statements
}

// New returns the Store of backend b, which speaks dialect d.
func New(d Dialect, b Backend) *Store {
	return &Store{d: d, b: b, q: bind(d)}
}

// Hot returns the statements on the hot paths in the dialect's form: reads
// a backend may prepare on its read connections, and writes on its
// writer.
func (s *Store) Hot() (reads, writes []string) {
	return []string{s.q.getSession, s.q.getApproval, s.q.getApprovalByCall, s.q.getApprovalByToken},
		[]string{s.q.insertApproval, s.q.resolveApproval, s.q.insertGrant}
}

// closed returns the error of op called after Close, or nil.
func (s *Store) closed(op string) error {
	if s.b.Closed() {
		return s.b.ErrClosed(op)
	}
	return nil
}

// errf returns an EInvalid error naming the database.
func (s *Store) errf(format string, args ...any) error {
	return toolgate.Errorf(toolgate.EInvalid, s.d.Name+": "+format, args...)
}

// queryRows runs a read query and scans each row with scan; op names the
// operation in errors.
func queryRows[T any](ctx context.Context, s *Store, op, q string, args []any, scan func(Row) (T, error)) ([]T, error) {
	if err := s.closed(op); err != nil {
		return nil, err
	}
	var out []T
	err := s.b.Reads().Query(ctx, q, args, func(r Row) error {
		v, err := scan(r)
		if err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	if err != nil {
		return nil, s.b.Wrap(op, err)
	}
	return out, nil
}

// fromNanos reads a time column: unix nanoseconds, NULL for the zero time
// (rowcodec.Nanos writes them).
func fromNanos(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.Unix(0, n.Int64).UTC()
}

// nullString stores "" as NULL.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}
