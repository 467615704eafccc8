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
// no function but the pure ones of sqlPureFuncs (pg_read_file,
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

// sqlCatalogue are the psql and sqlite3 meta-commands that only list the
// database's catalogue or set how results print.
var sqlCatalogue = map[string]bool{
	`\d`: true, `\d+`: true, `\dt`: true, `\dt+`: true, `\di`: true, `\dv`: true, `\dn`: true, `\du`: true,
	`\df`: true, `\ds`: true, `\dx`: true, `\l`: true, `\l+`: true, `\conninfo`: true,
	".tables": true, ".schema": true, ".indexes": true, ".indices": true, ".databases": true,
}

// sqlReadKeywords are the statements that read.
var sqlReadKeywords = map[string]bool{"select": true, "show": true, "describe": true, "desc": true, "explain": true, "values": true}

// sqlWriteWords are words that make a reading statement write, run or
// reach elsewhere wherever they stand in it.
var sqlWriteWords = map[string]bool{
	"into": true, "insert": true, "update": true, "delete": true, "drop": true, "alter": true, "create": true,
	"truncate": true, "grant": true, "revoke": true, "merge": true, "copy": true, "call": true, "do": true,
	"exec": true, "execute": true, "attach": true, "detach": true, "load": true, "lock": true, "set": true,
	"replace": true, "outfile": true, "dumpfile": true, "analyze": true, "vacuum": true, "reindex": true,
	"upsert": true, "pragma": true, "handler": true, "prepare": true, "flushall": true, "flushdb": true,
	"dropdatabase": true, "dropindexes": true,
}

// sqlPureFuncs are the functions a reading statement may call: they
// compute on their arguments and touch nothing else.
var sqlPureFuncs = map[string]bool{
	"count": true, "sum": true, "avg": true, "min": true, "max": true, "version": true, "now": true,
	"lower": true, "upper": true, "length": true, "coalesce": true, "round": true, "abs": true,
	"substr": true, "substring": true, "trim": true, "date": true, "datetime": true, "strftime": true,
	"current_date": true, "current_timestamp": true, "current_user": true, "current_database": true,
	"database": true, "user": true, "typeof": true, "cast": true, "ifnull": true, "nullif": true,
	"concat": true, "date_trunc": true, "to_char": true, "in": true, "exists": true,
}

// sqlStatementReads reports whether one statement only reads.
func sqlStatementReads(st []sqlToken) bool {
	if st[0].kind == sqlMetaTok {
		f := strings.Fields(st[0].text)
		return len(st) == 1 && sqlCatalogue[f[0]] && (len(f) == 1 || len(f) == 2 && plainName(f[1]))
	}
	if !sqlWordsRead(st) {
		return false
	}
	return st[0].kind == sqlWordTok && sqlReadKeywords[st[0].text] &&
		!(st[0].text == "explain" && len(st) > 1 && st[1].text == "analyze")
}

// sqlWordsRead reports whether the tokens of a statement name nothing
// that writes, runs or reaches elsewhere: no word of sqlWriteWords, no
// call but of sqlPureFuncs (a quoted identifier called, or a name
// outside ASCII, is a function no list knows), no psql variable, no
// dollar quote, no client command.
func sqlWordsRead(st []sqlToken) bool {
	for _, w := range st {
		switch w.kind {
		case sqlWordTok:
			if sqlWriteWords[w.text] || w.call && !sqlPureFuncs[w.text] {
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

// sqlConnKeys are the connection parameters that only say where a
// client connects and as whom. Any other (options, service, servicefile,
// client_encoding, sslkey, passfile…) may set the server's settings
// (options=-csearch_path=… puts a schema's functions before the pure
// ones a read calls), read a file that does, or change how the server
// splits the text.
var sqlConnKeys = map[string]bool{
	"host": true, "hostaddr": true, "port": true, "dbname": true, "user": true, "connect_timeout": true,
	"sslmode": true, "application_name": true, "target_session_attrs": true,
}

// sqlConnPlain reports whether a database operand or --dbname value
// names a database plainly: a name, or a connection string (key=value
// pairs, or a postgres:// URI) setting only sqlConnKeys.
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
			if !sqlConnKeys[k] {
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
		if !sqlConnKeys[v[i:j]] {
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
