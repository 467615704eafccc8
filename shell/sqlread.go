package shell

import (
	"slices"
	"strings"
)

// sqlReadsOnly reports whether every statement of q, as a database
// client runs it (psql -c, mysql -e, sqlite3 DB SQL), only reads, under
// every dialect's reading of it (sqlScan): a SELECT, SHOW, DESCRIBE or
// EXPLAIN (not EXPLAIN ANALYZE, which runs the statement) that names no
// statement or clause that writes (INTO, a data-modifying WITH), calls
// no function but the pure ones of sqlPureFunc (pg_read_file,
// load_extension, writefile and a user's own function may read files,
// run code or write), has no psql variable (its value may be any
// statement) and no comment or dollar quote to hide a word in; or a
// catalogue listing of psql (\dt, \d users, \l) or sqlite3 (.tables,
// .schema) with at most one plain name. Anything else, a shell escape
// (\!, .shell) or an output file (\o, \g FILE, .output) included, is
// not a read.
func sqlReadsOnly(q string) bool {
	for _, d := range sqlDialects {
		if !sqlTextReads(sqlScan(q, d)) {
			return false
		}
	}
	return true
}

// sqlTextReads reports whether one reading of SQL text only reads.
func sqlTextReads(t sqlText) bool {
	if t.hidden || len(t.stmts) == 0 {
		return false
	}
	for _, st := range t.stmts {
		if !sqlStatementReads(st) {
			return false
		}
	}
	return true
}

// sqlCatalogue reports whether w is a psql or sqlite3 meta-command that
// only lists the database's catalogue or sets how results print. The
// word lists here are switches, not maps: a map literal is built by every
// process at start-up, a switch costs nothing until it runs.
func sqlCatalogue(w string) bool {
	switch w {
	case `\d`, `\d+`, `\dt`, `\dt+`, `\di`, `\dv`, `\dn`, `\du`, `\df`, `\ds`, `\dx`, `\l`, `\l+`,
		`\conninfo`, ".tables", ".schema", ".indexes", ".indices", ".databases":
		return true
	}
	return false
}

// sqlReadKeyword reports whether w begins a statement that reads.
func sqlReadKeyword(w string) bool {
	switch w {
	case "select", "show", "describe", "desc", "explain", "values":
		return true
	}
	return false
}

// sqlWriteWord reports whether w makes a reading statement write, run or
// reach elsewhere wherever it stands in it.
func sqlWriteWord(w string) bool {
	switch w {
	case "into", "insert", "update", "delete", "drop", "alter", "create", "truncate", "grant", "revoke",
		"merge", "copy", "call", "do", "exec", "execute", "attach", "detach", "load", "lock", "set",
		"replace", "outfile", "dumpfile", "analyze", "vacuum", "reindex", "upsert", "pragma",
		"handler", "prepare", "flushall", "flushdb", "dropdatabase", "dropindexes":
		return true
	}
	return false
}

// sqlPureFunc reports whether w is a function a reading statement may
// call: it computes on its arguments and touches nothing else.
func sqlPureFunc(w string) bool {
	switch w {
	case "count", "sum", "avg", "min", "max", "version", "now", "lower", "upper", "length", "coalesce",
		"round", "abs", "substr", "substring", "trim", "date", "datetime", "strftime", "current_date",
		"current_timestamp", "current_user", "current_database", "database", "user", "typeof", "cast",
		"ifnull", "nullif", "concat", "date_trunc", "to_char", "in", "exists":
		return true
	}
	return false
}

// sqlStatementReads reports whether one statement only reads.
func sqlStatementReads(st []sqlToken) bool {
	if st[0].kind == sqlMetaTok {
		f := strings.Fields(st[0].text)
		return len(st) == 1 && sqlCatalogue(f[0]) && (len(f) == 1 || len(f) == 2 && plainName(f[1]))
	}
	if !sqlWordsRead(st) {
		return false
	}
	return st[0].kind == sqlWordTok && sqlReadKeyword(st[0].text) &&
		!(st[0].text == "explain" && len(st) > 1 && st[1].text == "analyze")
}

// sqlWordsRead reports whether the tokens of a statement name nothing
// that writes, runs or reaches elsewhere: no word of sqlWriteWord, no
// call but of sqlPureFunc (a quoted identifier called, or a name
// outside ASCII, is a function no list knows), no psql variable, no
// dollar quote, no client command.
func sqlWordsRead(st []sqlToken) bool {
	for _, w := range st {
		switch w.kind {
		case sqlWordTok:
			if sqlWriteWord(w.text) || w.call && !sqlPureFunc(w.text) {
				return false
			}
		case sqlIdentTok:
			if w.call {
				return false
			}
		case sqlVarTok, sqlDollarTok, sqlMetaTok:
			return false
		case sqlPunctTok:
			if w.text == "$" {
				return false // a parameter ($1) has no value here
			}
		}
	}
	return true
}

// sqlConnKey reports whether w is a connection parameter that only says
// where a client connects and as whom. Any other (options, service, servicefile,
// client_encoding, sslkey, passfile…) may set the server's settings
// (options=-csearch_path=… puts a schema's functions before the pure
// ones a read calls), read a file that does, or change how the server
// splits the text.
func sqlConnKey(w string) bool {
	switch w {
	case "host", "hostaddr", "port", "dbname", "user", "connect_timeout", "sslmode", "application_name",
		"target_session_attrs":
		return true
	}
	return false
}

// sqlConnPlain reports whether a database operand or --dbname value
// names a database plainly: a name, or a connection string (key=value
// pairs, or a postgres:// URI) setting only sqlConnKey.
func sqlConnPlain(v string) bool {
	if rest, ok := strings.CutPrefix(v, "postgresql://"); ok || strings.HasPrefix(v, "postgres://") {
		if !ok {
			rest = strings.TrimPrefix(v, "postgres://")
		}
		_, query, has := strings.Cut(rest, "?")
		if !has {
			return true
		}
		for _, kv := range strings.Split(query, "&") {
			k, _, _ := strings.Cut(kv, "=")
			if !sqlConnKey(k) {
				return false
			}
		}
		return true
	}
	if !strings.Contains(v, "=") {
		return true
	}
	// key = value pairs; a value may be quoted, with backslash escapes.
	for i := 0; ; {
		for i < len(v) && strings.IndexByte(sqlSpace, v[i]) >= 0 {
			i++
		}
		if i == len(v) {
			return true
		}
		j := i
		for j < len(v) && v[j] != '=' && strings.IndexByte(sqlSpace, v[j]) < 0 {
			j++
		}
		if !sqlConnKey(v[i:j]) {
			return false
		}
		for j < len(v) && strings.IndexByte(sqlSpace, v[j]) >= 0 {
			j++
		}
		if j == len(v) || v[j] != '=' {
			return false
		}
		j++
		for j < len(v) && strings.IndexByte(sqlSpace, v[j]) >= 0 {
			j++
		}
		if j < len(v) && v[j] == '\'' {
			for j++; j < len(v) && v[j] != '\''; j++ {
				if v[j] == '\\' {
					j++
				}
			}
			if j >= len(v) {
				return false
			}
			j++
		} else {
			for j < len(v) && strings.IndexByte(sqlSpace, v[j]) < 0 {
				j++
			}
		}
		i = j
	}
}

// sqlConnectsPlainly reports whether a database client given SQL by
// option (psql -c, mysql -e) names its database plainly (sqlConnPlain)
// in its operands and its --dbname: a service or options in a connection
// string is not proven to read. sqlite3's operand is a file.
func sqlConnectsPlainly(readSQL []string, opts []optArg, args []string, ops []int) bool {
	if slices.Contains(readSQL, "") {
		return true
	}
	for _, i := range ops {
		if !sqlConnPlain(args[i]) {
			return false
		}
	}
	for _, o := range opts {
		if (o.name == "-d" || o.name == "--dbname") && o.valAt >= 0 && !sqlConnPlain(o.val) {
			return false
		}
	}
	return true
}

// mysqlNotRead are the options with which mysql and mariadb given SQL
// that only reads still do more: write a file (--tee), run a program
// (--pager), run statements (--init-command, an option file) or load a
// client plugin, a library, from a directory the command names
// (--plugin-dir with --default-auth).
var mysqlNotRead = []string{"--tee", "--pager", "--init-command", "--init-command-add", "--defaults-file",
	"--defaults-extra-file", "--plugin-dir", "--default-auth"}
