package shell

import "strings"

// sqlReadsOnly reports whether every statement of q, as a database
// client runs it (psql -c, mysql -e, sqlite3 DB SQL), only reads: a
// SELECT, SHOW, DESCRIBE or EXPLAIN (not EXPLAIN ANALYZE, which runs the
// statement) that names no statement or clause that writes (INTO, a
// data-modifying WITH), calls no function but the pure ones of
// sqlPureFuncs (pg_read_file, load_extension, writefile and a user's own
// function may read files, run code or write), and has no comment or
// dollar quote to hide a word in; or a catalogue listing of psql (\dt,
// \d users, \l) or sqlite3 (.tables, .schema) with at most one plain
// name. Anything else, a shell escape (\!, .shell) or an output file
// (\o, .output) included, is not a read.
func sqlReadsOnly(q string) bool {
	stmts := sqlStatements(q)
	if len(stmts) == 0 {
		return false
	}
	for _, st := range stmts {
		if !sqlStatementReads(st) {
			return false
		}
	}
	return true
}

// sqlStatements splits q at the semicolons outside quotes, dropping
// empty statements; nil when a quote is not closed.
func sqlStatements(q string) []string {
	var out []string
	start := 0
	var quote byte
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == ';':
			if st := strings.TrimSpace(q[start:i]); st != "" {
				out = append(out, st)
			}
			start = i + 1
		}
	}
	if quote != 0 {
		return nil
	}
	if st := strings.TrimSpace(q[start:]); st != "" {
		out = append(out, st)
	}
	return out
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
	"upsert": true, "pragma": true, "handler": true, "prepare": true,
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
func sqlStatementReads(st string) bool {
	if st[0] == '\\' || st[0] == '.' {
		f := strings.Fields(st)
		return sqlCatalogue[f[0]] && (len(f) == 1 || len(f) == 2 && plainName(f[1]))
	}
	if strings.Contains(st, "--") || strings.Contains(st, "/*") || strings.Contains(st, "#") ||
		strings.ContainsAny(st, "$\\") {
		return false
	}
	words, ok := sqlWords(st)
	if !ok || len(words) == 0 || !sqlReadKeywords[words[0].text] {
		return false
	}
	for i, w := range words {
		if sqlWriteWords[w.text] {
			return false
		}
		if w.call && !sqlPureFuncs[w.text] {
			return false
		}
		if i == 0 && w.text == "explain" && len(words) > 1 && words[1].text == "analyze" {
			return false
		}
	}
	return true
}

// sqlWord is a bare word of a statement, lower-cased, and whether a "("
// follows it (a function call).
type sqlWord struct {
	text string
	call bool
}

// sqlWords returns the bare words of st outside quotes. A quoted
// identifier ("lo_export", `sys_exec`) that is called stands as a call
// of a function with no name, which no list knows; so does a call after
// a byte outside ASCII, which may end a name. ok is false for a colon
// outside quotes that is not a cast ("::"): psql puts a variable's value
// there (psql -v 'x=1; drop table t' -c 'select :x'), and a value may
// hold any statement.
func sqlWords(st string) (out []sqlWord, ok bool) {
	for i := 0; i < len(st); {
		c := st[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := strings.IndexByte(st[i+1:], c)
			if j < 0 {
				return out, true
			}
			i += j + 2
			if c != '\'' && sqlCallAt(st, i) {
				out = append(out, sqlWord{call: true})
			}
		case isWordByte(c):
			j := i
			for j < len(st) && isWordByte(st[j]) {
				j++
			}
			out = append(out, sqlWord{text: strings.ToLower(st[i:j]), call: sqlCallAt(st, j)})
			i = j
		case c == ':':
			if i+1 >= len(st) || st[i+1] != ':' {
				return nil, false
			}
			i += 2
		case c >= 0x80:
			if sqlCallAt(st, i+1) {
				out = append(out, sqlWord{call: true})
			}
			i++
		default:
			i++
		}
	}
	return out, true
}

// sqlCallAt reports whether "(" is the first byte from i on that is not
// SQL white space.
func sqlCallAt(st string, i int) bool {
	for i < len(st) && strings.IndexByte(" \t\n\r\f\v", st[i]) >= 0 {
		i++
	}
	return i < len(st) && st[i] == '('
}
