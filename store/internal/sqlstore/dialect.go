package sqlstore

import (
	"strconv"
	"strings"
)

// Dialect is what differs in the SQL text between the databases.
type Dialect struct {
	// Name prefixes error messages: "sqlite", "postgres".
	Name string
	// Numbered says placeholders are $1, $2… instead of ?.
	Numbered bool
	// Stored is the column that orders rows in the order they were
	// stored, after created_at.
	Stored string
	// Int64 is the column type of a 64-bit integer (a time in nanoseconds).
	Int64 string
	// NullsFirst is what ORDER BY created_at needs to put rows without a
	// time first ("" where the database does so already).
	NullsFirst string
	// ClaimLock, if set, runs first in ClaimWorkspace's transaction with
	// the owner as its argument: it serialises one owner's claims across
	// every node sharing the database ("" where one writer serialises
	// every write).
	ClaimLock string
}

// SQLite is the dialect of store/sqlite.
func SQLite() Dialect { return Dialect{Name: "sqlite", Stored: "rowid", Int64: "INTEGER"} }

// Postgres is the dialect of store/postgres.
func Postgres() Dialect {
	return Dialect{
		Name: "postgres", Numbered: true, Stored: "ord", Int64: "BIGINT", NullsFirst: " NULLS FIRST",
		ClaimLock: `SELECT pg_advisory_xact_lock(hashtextextended('toolgate.workspace_creators:' || ?, 0))`,
	}
}

// Bind returns q, written with ? placeholders, in the dialect's form. The
// statements given to it hold no ? inside a string literal.
func (d Dialect) Bind(q string) string {
	if !d.Numbered || !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	n := 0
	for _, part := range strings.SplitAfter(q, "?") {
		if strings.HasSuffix(part, "?") {
			n++
			b.WriteString(part[:len(part)-1])
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteString(part)
	}
	return b.String()
}

// order is the ORDER BY clause of a list by creation time.
func (d Dialect) order() string {
	return " ORDER BY created_at" + d.NullsFirst + ", " + d.Stored
}

// where builds a WHERE clause with the dialect's placeholders.
type where struct {
	d     Dialect
	conds []string
	args  []any
}

// add adds "expr ?" for arg.
func (w *where) add(expr string, arg any) {
	w.args = append(w.args, arg)
	p := "?"
	if w.d.Numbered {
		p = "$" + strconv.Itoa(len(w.args))
	}
	w.conds = append(w.conds, expr+" "+p)
}

func (w *where) String() string {
	if len(w.conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(w.conds, " AND ")
}

// limit returns a LIMIT clause for n > 0.
func limit(n int) string {
	if n > 0 {
		return " LIMIT " + strconv.Itoa(n)
	}
	return ""
}
