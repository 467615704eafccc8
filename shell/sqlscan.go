package shell

import "strings"

// This file holds the one reading of SQL text that both the read-only
// test (sqlReadsOnly) and the destructive test (sqlDestroys) answer from:
// a tokenizer that knows quotes, dollar quotes, comments, quoted
// identifiers, psql variables and client meta-commands, and splits the
// tokens into statements.
//
// Database clients disagree on a few bytes: PostgreSQL nests block
// comments and quotes with dollars, MySQL ends a comment at the first
// "*/", runs the text of a "/*! */" comment, takes "#" and "-- " as line
// comments and a backslash as an escape inside strings, SQLite does
// neither. The text is read once per dialect (sqlDialects); it only reads
// when it reads under every dialect, and it destroys when it destroys
// under any.

// sqlDialect says how one family of clients reads the bytes SQL
// dialects disagree on.
type sqlDialect struct {
	// nestComments: "/* /* */ */" is one comment (PostgreSQL).
	nestComments bool
	// runComments: the text of "/*! … */" is SQL (MySQL).
	runComments bool
	// hashComments: "#" starts a line comment (MySQL).
	hashComments bool
	// dashNeedsSpace: "--" starts a comment only before white space
	// (MySQL).
	dashNeedsSpace bool
	// crEndsLine: a carriage return ends a line comment (PostgreSQL).
	crEndsLine bool
	// backslashEscapes: a backslash escapes the next byte inside quotes
	// (MySQL; PostgreSQL only in E'…' strings).
	backslashEscapes bool
	// dollarQuotes: "$tag$…$tag$" is a string (PostgreSQL).
	dollarQuotes bool
	// doubleQuoteString: "…" is a string, not an identifier (MySQL).
	doubleQuoteString bool
	// eStrings: E'…' is a string with backslash escapes (PostgreSQL).
	eStrings bool
	// brackets: "[…]" quotes an identifier (SQLite, SQL Server).
	brackets bool
}

// sqlDialects are the readings every text gets: PostgreSQL (psql,
// cockroach, duckdb), MySQL (mysql, mariadb, clickhouse) and SQLite
// (sqlite3, the plain standard).
var sqlDialects = [...]sqlDialect{
	{nestComments: true, crEndsLine: true, dollarQuotes: true, eStrings: true},
	{runComments: true, hashComments: true, dashNeedsSpace: true, backslashEscapes: true, doubleQuoteString: true},
	{brackets: true},
}

// sqlKind is the kind of a token.
type sqlKind uint8

const (
	sqlWordTok   sqlKind = iota // a bare word, lower-cased: keyword, name, number
	sqlIdentTok                 // a quoted identifier ("x", `x`, [x]): its text
	sqlStringTok                // a quoted string ('x', E'x', MySQL's "x"): its text
	sqlDollarTok                // a dollar-quoted string ($$x$$): its text
	sqlPunctTok                 // one byte of punctuation: ( ) ; , . = …
	sqlVarTok                   // a psql variable (:x, :'x', :"x", :{?x}): its name
	sqlMetaTok                  // a client command (\dt, \! id, .tables): the whole line
)

// sqlToken is one token of SQL text.
type sqlToken struct {
	kind sqlKind
	text string
	// call: a "(" follows (a word or quoted identifier called as a
	// function).
	call bool
}

// sqlText is one reading of SQL text.
type sqlText struct {
	// stmts are the statements, split at ";" and at client commands
	// (which stand alone), empty ones dropped.
	stmts [][]sqlToken
	// hidden: the text has a comment or a quote left open, which a
	// reading may take differently from the client.
	hidden bool
	// unclosed: a quote, dollar quote or comment is not closed; its text
	// was read as SQL from the byte after the opening.
	unclosed bool
}

// sqlScan reads q as dialect d reads it.
func sqlScan(q string, d sqlDialect) sqlText {
	var t sqlText
	var cur []sqlToken
	end := func() {
		if len(cur) > 0 {
			t.stmts = append(t.stmts, cur)
			cur = nil
		}
	}
	emit := func(k sqlKind, s string) {
		if k == sqlPunctTok && s == "(" && len(cur) > 0 {
			if p := &cur[len(cur)-1]; p.kind == sqlWordTok || p.kind == sqlIdentTok {
				p.call = true
			}
		}
		cur = append(cur, sqlToken{kind: k, text: s})
	}
	lineStart := true
	// runEnd is where the "*/" of the /*! … */ being read as SQL is; once
	// a comment or dollar quote is left open, no later one is looked
	// for (nothing closes it either): the rest is read as SQL, in time
	// linear in the text.
	runEnd, open, runNone := -1, false, false
	for i := 0; i < len(q); {
		c := q[i]
		if i == runEnd {
			i += 2
			continue
		}
		if strings.IndexByte(sqlSpace, c) >= 0 {
			lineStart = lineStart || c == '\n' || c == '\r'
			i++
			continue
		}
		atLine := lineStart
		lineStart = false
		switch {
		case c == '\\' || c == '.' && atLine && i+1 < len(q) && isWordByte(q[i+1]):
			// A client command (psql's and mysql's "\x", sqlite3's
			// ".x" at the start of a line) runs to the end of the line
			// and stands alone; psql's ends at an unquoted backslash,
			// which begins another ("\x \o |sh"), or at "\\", after
			// which SQL goes on ("\x \\ DROP TABLE t").
			j := sqlMetaEnd(q, i)
			end()
			cur = append(cur, sqlToken{kind: sqlMetaTok, text: q[i:j]})
			end()
			i = j
			if c == '\\' && strings.HasPrefix(q[j:], `\\`) {
				i += 2
			}
		case c == '-' && i+1 < len(q) && q[i+1] == '-' &&
			(!d.dashNeedsSpace || i+2 >= len(q) || strings.IndexByte(sqlSpace, q[i+2]) >= 0),
			c == '#' && d.hashComments:
			t.hidden = true
			for i < len(q) && q[i] != '\n' && !(d.crEndsLine && q[i] == '\r') {
				i++
			}
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			t.hidden = true
			if n := sqlRunOpen(q, i); d.runComments && n > 0 && runEnd < i {
				// MySQL runs the text of /*!NNNNN … */, MariaDB that of
				// /*M!NNNNN … */ too: read it as SQL and skip its
				// closing "*/".
				i += n
				for i < len(q) && q[i] >= '0' && q[i] <= '9' {
					i++
				}
				if j := -1; !runNone {
					if j = strings.Index(q[i:], "*/"); j >= 0 {
						runEnd = i + j
					} else {
						runNone = true // nor will a later one
					}
				}
				continue
			}
			j, ok := len(q), false
			if !open {
				j, ok = sqlCommentEnd(q, i, d.nestComments)
			}
			if !ok {
				t.unclosed, open = true, true
				j = i + 2
			}
			i = j
		case c == '\'' || c == '"' || c == '`' || c == '[' && d.brackets:
			kind := sqlIdentTok
			if c == '\'' || c == '"' && d.doubleQuoteString {
				kind = sqlStringTok
			}
			esc := d.backslashEscapes && c != '`' && c != '['
			if c == '\'' && d.eStrings && len(cur) > 0 && cur[len(cur)-1] == (sqlToken{kind: sqlWordTok, text: "e"}) && q[i-1]|0x20 == 'e' {
				esc = true // E'…' is one string, with escapes
				cur = cur[:len(cur)-1]
			}
			closer := c
			if c == '[' {
				closer = ']'
			}
			s, j, ok := sqlQuoted(q, i, closer, esc)
			if !ok {
				t.unclosed, t.hidden = true, true
				i++
				continue
			}
			emit(kind, s)
			i = j
		case c == '$' && d.dollarQuotes && !open && !(i > 0 && isWordByte(q[i-1])):
			tag, ok := sqlDollarTag(q, i)
			if !ok {
				emit(sqlPunctTok, "$")
				i++
				continue
			}
			j := strings.Index(q[i+len(tag):], tag)
			if j < 0 {
				t.unclosed, t.hidden, open = true, true, true
				i += len(tag)
				continue
			}
			emit(sqlDollarTok, q[i+len(tag):i+len(tag)+j])
			i += 2*len(tag) + j
		case c == ':' && i+1 < len(q) && q[i+1] == ':':
			emit(sqlPunctTok, "::")
			i += 2
		case c == ':' && i+1 < len(q) && (isWordByte(q[i+1]) || strings.IndexByte(`'"{`, q[i+1]) >= 0):
			// psql puts a variable's value here, any text at all.
			j := i + 1
			for j < len(q) && (isWordByte(q[j]) || strings.IndexByte(`'"{?}`, q[j]) >= 0) {
				j++
			}
			emit(sqlVarTok, q[i:j])
			i = j
		case c == ';':
			end()
			i++
		case isSQLWordByte(c, d):
			j := i
			for j < len(q) && isSQLWordByte(q[j], d) {
				j++
			}
			emit(sqlWordTok, strings.ToLower(q[i:j]))
			i = j
		default:
			emit(sqlPunctTok, q[i:i+1])
			i++
		}
	}
	end()
	t.hidden = t.hidden || t.unclosed
	return t
}

// sqlSpace is SQL's white space.
const sqlSpace = " \t\n\r\f\v"

// isSQLWordByte reports whether b continues a bare word: a letter, digit,
// "_", any byte outside ASCII (a letter of a name), and "$" where it is
// no quote.
func isSQLWordByte(b byte, d sqlDialect) bool {
	return isWordByte(b) || b >= 0x80 || b == '$' && !d.dollarQuotes
}

// sqlRunOpen returns the length of the opening of a comment whose text
// MySQL or MariaDB runs at i ("/*!", "/*M!"), or 0.
func sqlRunOpen(q string, i int) int {
	switch {
	case strings.HasPrefix(q[i:], "/*!"):
		return 3
	case strings.HasPrefix(q[i:], "/*M!"), strings.HasPrefix(q[i:], "/*m!"):
		return 4
	}
	return 0
}

// sqlCommentEnd returns the index after the block comment opening at i.
func sqlCommentEnd(q string, i int, nest bool) (int, bool) {
	depth := 0
	for i+1 < len(q) {
		switch {
		case q[i] == '/' && q[i+1] == '*':
			if depth == 0 || nest {
				depth++
			}
			i += 2
		case q[i] == '*' && q[i+1] == '/':
			depth--
			i += 2
			if depth == 0 {
				return i, true
			}
		default:
			i++
		}
	}
	return i, false
}

// sqlQuoted returns the text of the quote opening at i and closed by
// closer (doubled, it stands for itself; after a backslash too when esc),
// and the index after it.
func sqlQuoted(q string, i int, closer byte, esc bool) (string, int, bool) {
	var b strings.Builder
	for j := i + 1; j < len(q); j++ {
		switch c := q[j]; {
		case esc && c == '\\' && j+1 < len(q):
			j++
			b.WriteByte(q[j])
		case c == closer && j+1 < len(q) && q[j+1] == closer:
			j++
			b.WriteByte(c)
		case c == closer:
			return b.String(), j + 1, true
		default:
			b.WriteByte(c)
		}
	}
	return "", len(q), false
}

// sqlDollarTag returns the "$tag$" opening at i, if one does.
func sqlDollarTag(q string, i int) (string, bool) {
	for j := i + 1; j < len(q); j++ {
		switch c := q[j]; {
		case c == '$':
			return q[i : j+1], true
		case c >= '0' && c <= '9' && j == i+1:
			return "", false // $1 is a parameter
		case !isWordByte(c) && c < 0x80:
			return "", false
		}
	}
	return "", false
}

// sqlMetaEnd returns the end of the client command at i: the end of its
// line, or for a backslash command an unquoted backslash after its name
// (quoted: in '…' with its backslash escapes, "…" or `…`).
func sqlMetaEnd(q string, i int) int {
	j := i + 2
	if q[i] != '\\' {
		j = i + 1
	}
	var quote byte
	for ; j < len(q) && q[j] != '\n' && q[j] != '\r'; j++ {
		c := q[j]
		switch {
		case q[i] != '\\':
		case quote == '\'' && c == '\\':
			j++
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '\\':
			return j
		}
	}
	return min(j, len(q))
}

// sqlMetaSplit splits a client command's token (sqlMetaTok) into its
// name (\g, .once) and the rest of its line.
func sqlMetaSplit(text string) (cmd, args string) {
	text = strings.TrimLeft(text, sqlSpace)
	i := strings.IndexAny(text, sqlSpace)
	if i < 0 {
		return text, ""
	}
	return text[:i], text[i:]
}
