package shell

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/internal/sensitive"
)

// This file holds the tests the command table applies to option values
// and operands: SQL that drops data, secret-looking variable names,
// process patterns that match every process, security services.

// sqlDestroys reports whether SQL (or a database shell's script) drops or
// empties data, under any dialect's reading of it (sqlScan): a DROP
// statement, a DROP of what a database holds (sqlDropKind) anywhere,
// ALTER … DROP, TRUNCATE, DELETE or UPDATE … SET without a WHERE of
// their own that holds for some rows only; MongoDB's drop(),
// dropDatabase(), deleteMany({}), updateMany({}, …) and remove({});
// Redis FLUSHALL; or statements it cannot see: a psql variable in a
// WHERE clause (its text may be any condition), a script file (\i,
// source) or query results run as statements (\gexec). The strings of a
// statement that does not only read may be statements (EXECUTE '…',
// DO $$…$$, dblink_exec('…')) and are read as SQL too.
func sqlDestroys(q string) bool {
	return sqlDestroysIn(q, 0)
}

// SQLDestroys reports whether SQL text drops or empties data (DROP,
// TRUNCATE, a DELETE or UPDATE without a real WHERE, …), as the shell
// analysis judges a database client's SQL: for a tool that runs the SQL
// it is given (an MCP database server).
func SQLDestroys(q string) bool { return sqlDestroys(q) }

// sqlDestroysIn is sqlDestroys of text quoted depth levels deep.
func sqlDestroysIn(q string, depth int) bool {
	if depth > 3 {
		return true // quotes within quotes: no reading to trust
	}
	for _, d := range sqlDialects {
		for _, st := range sqlScan(q, d).stmts {
			if sqlStatementDestroys(st, depth) {
				return true
			}
		}
	}
	return false
}

// psqlSetValue is the value psql's \set NAME VALUE… gives NAME: its
// value words unquoted ('…' with backslash escapes and ” for a quote,
// "…") and joined with nothing between them.
func psqlSetValue(args string) string {
	var b strings.Builder
	var quote byte
	words := 0
	inWord := false
	for i := 0; i < len(args); i++ {
		c := args[i]
		switch {
		case quote == '\'' && c == '\\' && i+1 < len(args):
			i++
			b.WriteByte(args[i])
		case quote == '\'' && c == '\'' && i+1 < len(args) && args[i+1] == '\'':
			i++
			b.WriteByte(c)
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			b.WriteByte(c)
		case strings.IndexByte(sqlSpace, c) >= 0:
			inWord = false
		default:
			if !inWord {
				inWord = true
				words++
				if words == 2 {
					b.Reset() // the name's text
				}
			}
			if c == '\'' || c == '"' {
				quote = c
			} else {
				b.WriteByte(c)
			}
		}
	}
	if words < 2 {
		return ""
	}
	return b.String()
}

// sqlRunsScript reports whether w is a client command that runs
// statements the text does not hold: a script file, or the rows a query
// returns.
func sqlRunsScript(w string) bool {
	switch w {
	case `\i`, `\ir`, `\include`, `\include_relative`, `\gexec`, `\.`, ".read":
		return true
	}
	return false
}

// sqlDropKind reports whether w is what a DROP drops: tables and what
// holds or shapes their data, in the SQL and NoSQL dialects the clients
// speak.
func sqlDropKind(w string) bool {
	switch w {
	case "table", "tables", "database", "databases", "schema", "user", "role", "owned", "view",
		"materialized", "index", "collection", "keyspace", "column", "columnfamily", "function",
		"procedure", "routine", "sequence", "trigger", "type", "domain", "extension", "tablespace",
		"temporary", "foreign", "partition", "constraint", "policy", "rule", "server", "publication",
		"subscription", "event", "aggregate", "statistics", "group", "primary", "dictionary",
		"measurement", "series", "retention", "shard", "stream", "topic", "stage", "warehouse", "if":
		return true
	}
	return false
}

// sqlStatementDestroys reports whether one statement drops or empties
// data (sqlDestroys).
func sqlStatementDestroys(st []sqlToken, depth int) bool {
	if st[0].kind == sqlMetaTok {
		cmd, args := sqlMetaSplit(st[0].text)
		// A client command's arguments are read as SQL too: mysql reads
		// on after \G, \copy and \set take a query or a value. \set's
		// value is its words unquoted and joined, which :NAME puts in.
		return sqlRunsScript(cmd) || args != "" && sqlDestroysIn(args, depth+1) ||
			cmd == `\set` && sqlDestroysIn(psqlSetValue(args), depth+1)
	}
	if st[0].kind == sqlVarTok && (len(st) == 1 || st[1].text != ":") {
		// A statement a psql variable begins is whatever its value is:
		// a query's row (\gset), the environment (\getenv), another
		// -c's \set. (sqlite3's ":memory:" is a file name.)
		return true
	}
	if st[0].kind == sqlWordTok && st[0].text == "source" {
		return true
	}
	reads := sqlWordsRead(st)
	checks := 0 // DELETE and UPDATE each read the rest of the statement
	for i, w := range st {
		next := sqlNext(st, i)
		switch {
		case (w.kind == sqlStringTok || w.kind == sqlDollarTok) && !reads:
			if sqlDestroysIn(w.text, depth+1) {
				return true
			}
		case w.kind != sqlWordTok:
		case w.text == "drop":
			// DROP TABLE t, ALTER TABLE t DROP c, db.users.drop(); in
			// the middle of a statement or a string, DROP of what a
			// database holds ("drop the" is prose).
			head := st[0].kind == sqlWordTok && (st[0].text == "drop" || st[0].text == "alter")
			if next.text == "(" || next.kind == sqlWordTok && sqlDropKind(next.text) ||
				head && (next.kind == sqlWordTok || next.kind == sqlIdentTok) {
				return true
			}
		case w.text == "truncate":
			// TRUNCATE t; truncate(x, 2) is MySQL's rounding.
			if next.kind == sqlWordTok || next.kind == sqlIdentTok {
				return true
			}
		case w.text == "dropdatabase" || w.text == "dropindexes" || w.text == "flushall" || w.text == "flushdb":
			return true
		case w.text == "deletemany" || w.text == "updatemany" || w.text == "remove":
			if sqlEmptyFilter(st[i+1:]) {
				return true
			}
		case w.text == "delete" || w.text == "update":
			if checks++; checks > maxSQLWhereChecks || sqlWholeTable(st, i) {
				return true // past the bound: not read, so not vouched for
			}
		}
	}
	return false
}

// maxSQLWhereChecks bounds the DELETE and UPDATE words of one statement
// whose WHERE is looked for: each reads on to the statement's end.
const maxSQLWhereChecks = 16

// sqlNext returns the token after i, or a blank one.
func sqlNext(st []sqlToken, i int) sqlToken {
	if i+1 < len(st) {
		return st[i+1]
	}
	return sqlToken{kind: sqlPunctTok}
}

// sqlEmptyFilter reports whether the tokens after a MongoDB method name
// call it with an empty filter: ({}) or ({}, …).
func sqlEmptyFilter(st []sqlToken) bool {
	var b strings.Builder
	for _, w := range st[:min(len(st), 4)] {
		b.WriteString(w.text)
	}
	s := b.String()
	return s == "({})" || strings.HasPrefix(s, "({},")
}

// sqlWholeTable reports whether the DELETE or UPDATE at st[i] is a
// statement (DELETE … FROM, UPDATE … SET; not ON DELETE CASCADE, GRANT
// DELETE, ON CONFLICT DO UPDATE, SELECT … FOR UPDATE) whose WHERE, at
// its own depth of parentheses, is missing or holds for every row
// (alwaysTrue), or is a psql variable's text.
func sqlWholeTable(st []sqlToken, i int) bool {
	if i > 0 && st[i-1].kind == sqlWordTok {
		switch st[i-1].text {
		case "on", "do", "for", "grant", "revoke", "key", "before", "after", "instead", "of", "or":
			return false
		}
	}
	if i > 0 && st[i-1].text == "," {
		return false // GRANT SELECT, DELETE ON …
	}
	want := "from"
	if st[i].text == "update" {
		want = "set"
	}
	depth, found := 0, false
	from, to := -1, len(st) // the WHERE clause: st[from:to]
	inWhere := false
	for k := i + 1; k < len(st); k++ {
		w := st[k]
		if w.kind == sqlPunctTok && w.text == "(" {
			depth++
		}
		if w.kind == sqlPunctTok && w.text == ")" {
			if depth == 0 {
				if inWhere {
					to = k
				}
				break // the end of a WITH's statement
			}
			depth--
		}
		if depth > 0 && !inWhere {
			continue
		}
		switch {
		case depth == 0 && w.kind == sqlWordTok && w.text == want && !found:
			found = true
		case !found && want == "from" && depth == 0 && w.kind == sqlWordTok && (w.text == "on" || w.text == "to"):
			return false // GRANT DELETE ON t, REVOKE … FROM
		case found && depth == 0 && w.kind == sqlWordTok && w.text == "where" && from < 0:
			inWhere, from = true, k+1
		case inWhere && depth == 0 && w.kind == sqlWordTok && (w.text == "returning" || w.text == "order" || w.text == "limit"):
			inWhere, to = false, k
		}
		if !inWhere && from >= 0 {
			break
		}
	}
	if !found {
		return false
	}
	return from < 0 || from >= to || alwaysTrue(sqlClauseText(st[from:to]))
}

// sqlClauseText spells a WHERE clause's tokens upper-cased, without white
// space, strings in single quotes ("ID=3OR1=1", "'A'='A'"); a psql
// variable stands as TRUE, for its text may be any condition.
func sqlClauseText(toks []sqlToken) string {
	var b strings.Builder
	for _, w := range toks {
		switch w.kind {
		case sqlVarTok:
			return "TRUE"
		case sqlStringTok, sqlDollarTok:
			b.WriteString("'" + strings.ToUpper(w.text) + "'")
		default:
			b.WriteString(strings.ToUpper(w.text))
		}
	}
	return b.String()
}

// alwaysTrue reports whether an upper-cased WHERE clause holds for every
// row ("1=1", "TRUE", "'a'='a'", "1 OR …"): the statement touches the
// whole table, as one without WHERE does.
func alwaysTrue(where string) bool {
	w := strings.NewReplacer(" ", "", "(", "", ")", "", "\"", "").Replace(where)
	if w == "TRUE" || w == "1" || strings.HasPrefix(w, "TRUE") && !isWordByte(w[min(4, len(w)-1)]) {
		return true
	}
	if l, r, ok := strings.Cut(w, "="); ok {
		if i := strings.IndexAny(r, "AO"); i > 0 && (strings.HasPrefix(r[i:], "AND") || strings.HasPrefix(r[i:], "OR")) {
			r = r[:i]
		}
		if l != "" && l == r {
			return true
		}
	}
	return strings.Contains(w, "OR1=1") || strings.Contains(w, "ORTRUE")
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9'
}

// mountsSecret reports whether a container volume ("-v ~/.ssh:/keys",
// "--mount type=bind,source=~/.aws,…") mounts a credential directory.
func mountsSecret(v string) bool {
	host, _, _ := strings.Cut(v, ":")
	if strings.Contains(v, "source=") || strings.Contains(v, "src=") {
		for _, kv := range strings.Split(v, ",") {
			if k, val, _ := strings.Cut(kv, "="); k == "source" || k == "src" {
				host = val
			}
		}
	}
	if wholeTree(host) {
		return true // the home directory or the root, credentials and all
	}
	e, ok := sensitive.Lookup(host, "")
	return ok && e.Kind == sensitive.Credential
}

// secretName reports whether a variable name looks like it holds a
// secret (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, DB_PASSWORD, OPENAI_API_KEY).
func secretName(n string) bool {
	n = strings.ToUpper(n)
	if n == "SSH_AUTH_SOCK" || n == "GPG_TTY" {
		return false
	}
	for _, s := range [...]string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "API_KEY", "APIKEY",
		"PRIVATE_KEY", "ACCESS_KEY", "AUTH_KEY", "SESSION_KEY", "_PAT"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return strings.HasSuffix(n, "_KEY") || strings.HasSuffix(n, "_PASS") || strings.HasSuffix(n, "_PW")
}

// secretRef reports whether a word expands a secret-looking variable
// ("$GITHUB_TOKEN", "${DB_PASSWORD}", "key=$API_KEY"), or any variable
// through indirection ("${!n}" after n=GITHUB_TOKEN), whose name the word
// does not show.
func secretRef(a string) bool {
	_, ok := refersTo(a, secretName)
	return ok || indirect(a)
}

// indirect reports whether a word holds an indirect expansion, "${!n}",
// "${!n:-x}": the value of the variable n names. "${!prefix*}",
// "${!prefix@}" and "${!a[@]}" list names or keys, no value.
func indirect(a string) bool {
	for rest := a; ; {
		i := strings.Index(rest, "${!")
		if i < 0 {
			return false
		}
		rest = rest[i+3:]
		j := 0
		for j < len(rest) && isWordByte(rest[j]) {
			j++
		}
		tail := rest[j:]
		if j > 0 && !strings.HasPrefix(tail, "*}") && !strings.HasPrefix(tail, "@}") &&
			!strings.HasPrefix(tail, "[@]}") && !strings.HasPrefix(tail, "[*]}") {
			return true
		}
	}
}

// refersTo returns the first variable a word expands ("$NAME",
// "${NAME…}") whose name is, per is, one looked for.
func refersTo(a string, is func(string) bool) (string, bool) {
	for i := strings.IndexByte(a, '$'); i >= 0; {
		rest := strings.TrimPrefix(a[i+1:], "{")
		j := 0
		for j < len(rest) && isWordByte(rest[j]) {
			j++
		}
		if j > 0 && is(rest[:j]) {
			return rest[:j], true
		}
		k := strings.IndexByte(a[i+1:], '$')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return "", false
}

// allProcesses reports whether a pkill or killall pattern matches every
// process (".", ".*", "^", "").
func allProcesses(p string) bool {
	switch p {
	case "", ".", ".*", "^", "$", "^.*", ".+", "*", "^.*$", "[a-z]*", "-1":
		return true
	}
	return false
}

// historyVar reports whether an assignment or name turns off or redirects
// the shell's history (HISTFILE=/dev/null, unset HISTFILE, HISTSIZE=0).
// setsHistoryOff reports whether set's arguments turn the history option off:
// "+o history" ("-o history" turns it on).
func setsHistoryOff(args []string) bool {
	for i := 1; i < len(args); i++ {
		if args[i] == "history" && strings.HasPrefix(args[i-1], "+") && strings.HasSuffix(args[i-1], "o") {
			return true
		}
	}
	return false
}

func historyVar(a string) bool {
	name, val, eq := strings.Cut(a, "=")
	switch name {
	case "HISTFILE":
		return !eq || val == "" || val == "/dev/null"
	case "HISTSIZE", "HISTFILESIZE", "SAVEHIST":
		return !eq || val == "0" || val == ""
	case "HISTCONTROL":
		return eq && strings.Contains(val, "ignorespace")
	case "HISTIGNORE":
		return eq && (val == "*" || val == "'*'")
	}
	return false
}

// securityUnit reports whether a systemd unit is a security control: a
// firewall, mandatory access control, audit daemon or endpoint agent.
func securityUnit(u string) bool {
	u = strings.TrimSuffix(u, ".service")
	switch u {
	case "firewalld", "ufw", "iptables", "ip6tables", "nftables", "apparmor", "auditd", "selinux", "fail2ban",
		"falcon-sensor", "osqueryd", "wazuh-agent", "clamav-daemon", "clamav-freshclam", "crowdstrike", "sysmon", "aide", "rsyslog", "syslog", "systemd-journald":
		return true
	}
	return false
}

// metadataURL reports whether a URL reaches a cloud instance's metadata
// service, which hands out the machine's credentials: its host in any
// spelling (ClassifyHost), or the address further on, where a proxy or
// redirector takes it.
func metadataURL(a string) bool {
	for _, h := range [...]string{"169.254.169.254", "metadata.google.internal", "100.100.100.200", "[fd00:ec2::254]", "169.254.170.2", "metadata.azure.com"} {
		if i := strings.Index(a, h); i >= 0 && (i == 0 || a[i-1] == '/' || a[i-1] == '@') {
			return true
		}
	}
	return ClassifyHost(URLHost(a)) == HostMetadata
}

// everything reports whether a pathspec names the whole tree (".", ":/",
// "*"), so git checkout or restore throws away every uncommitted change.
func everything(a string) bool {
	switch strings.TrimSuffix(a, "/") {
	case ".", "", ":/", ":", "*", "./*", ":/*", "..", ":(top)":
		return true
	}
	return false
}

// sqlFile reports whether psql -f runs a file: any file but standard
// input holds statements nobody reviewed in the call.
func sqlFile(v string) bool { return v != "-" }

// credentialPath reports whether an operand names a credential file or
// directory (~/.ssh/id_rsa, ~/.kube) that an uploader would send away.
func credentialPath(a string) bool {
	e, ok := sensitive.Lookup(a, "")
	return ok && e.Kind == sensitive.Credential
}

// homeRoot reports whether an operand is a whole home directory ("~",
// "$HOME", "/home/user", "/root"): copying or searching it
// takes every credential file with it.
func homeRoot(a string) bool {
	if strings.Contains(a, "/.") {
		a = path.Clean(a) // ~/. and /home/u/proj/.. are the home directory
	}
	if len(a) > 1 {
		a = strings.TrimRight(a, "/")
	}
	switch a {
	case "~", "$HOME", "${HOME}", "/root":
		return true
	}
	if strings.HasPrefix(a, "~") && !strings.Contains(a, "/") {
		return true // ~user
	}
	for _, p := range [...]string{"/home/", "/Users/"} {
		if rest, ok := strings.CutPrefix(a, p); ok && rest != "" && !strings.Contains(rest, "/") {
			return true
		}
	}
	return false
}

// accessUnit reports whether a systemd unit is the remote-access service:
// stopping it locks out whoever reaches the machine over SSH.
func accessUnit(u string) bool {
	for _, suf := range [...]string{".service", ".socket"} {
		u = strings.TrimSuffix(u, suf)
	}
	switch u {
	case "ssh", "sshd", "openssh", "openssh-server":
		return true
	}
	return false
}

// hostPodSpec reports whether a kubectl run --overrides pod spec escapes
// to its node: host namespaces, host paths or a privileged container.
func hostPodSpec(v string) bool {
	c := strings.Join(strings.Fields(v), "")
	for _, k := range [...]string{`"hostPID":true`, `"hostNetwork":true`, `"hostIPC":true`, `"privileged":true`, `"hostPath":`, `"allowPrivilegeEscalation":true`} {
		if strings.Contains(c, k) {
			return true
		}
	}
	return false
}

// servesSecrets reports whether a directory given to a file server holds
// the machine's secrets: a home directory, the root, /etc or a credential
// directory.
func servesSecrets(d string) bool {
	if d == "/" || homeRoot(d) || credentialPath(d) {
		return true
	}
	d = strings.TrimRight(d, "/")
	return d == "/etc" || d == "/home" || d == "/Users" || d == "/var"
}

// credentialRef reports whether an uploader's argument names a credential
// file in any of the forms senders read a file from: the path itself,
// "@path" and "name=@path" (curl, httpie, gh api), "name@path" and
// "name:=@path" (httpie form and JSON fields), "file://path" and
// "fileb://path" (aws), "TYPE:path,opts" (socat's FILE:, OPEN:, GOPEN:).
func credentialRef(a string) bool {
	if credentialPath(a) {
		return true
	}
	if i := strings.IndexByte(a, '@'); i >= 0 && i+1 < len(a) && credentialPath(a[i+1:]) {
		return true
	}
	for _, p := range [...]string{"file://", "fileb://"} {
		if rest, ok := strings.CutPrefix(a, p); ok && credentialPath(rest) {
			return true
		}
	}
	if i := strings.IndexByte(a, ':'); i > 0 && isAddrType(a[:i]) {
		rest, _, _ := strings.Cut(a[i+1:], ",")
		return credentialPath(rest)
	}
	return false
}

// isAddrType reports whether s is a socat address type ("FILE",
// "OPEN", "GOPEN"): letters only, in either case.
func isAddrType(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// mentionsCredential returns the first word of a script (a file
// transfer's commands: "put ~/.ssh/id_rsa") that names a credential file.
func mentionsCredential(script string) (string, bool) {
	for _, f := range strings.Fields(script) {
		if f = strings.Trim(f, `"';`); credentialRef(f) {
			return f, true
		}
	}
	return "", false
}

// wholeTree reports whether an operand is a directory that holds every
// user's or this user's credentials: a home directory (homeRoot), "/",
// "/home", "/Users", or a home's hidden entries ("~/.*"). Reading,
// archiving or sending it recursively takes ~/.ssh and ~/.aws with it.
func wholeTree(a string) bool {
	if homeRoot(a) {
		return true
	}
	if rest, ok := strings.CutSuffix(a, "/.*"); ok && (homeRoot(rest) || rest == "") {
		return true
	}
	switch strings.TrimRight(a, "/") {
	case "", "/*", "/home", "/Users", "/home/*", "/Users/*":
		return a != ""
	}
	return false
}

// secretInURL reports whether a URL carries a secret from the environment
// outside its user information: in the host ("https://$TOKEN.evil.example",
// a DNS query), the path or the query. "https://user:$TOKEN@host/" is a
// login, as curl -u is.
func secretInURL(u string) bool {
	if !secretRef(u) {
		return false
	}
	rest := u
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	auth := rest
	if i := strings.IndexAny(auth, "/?#"); i >= 0 {
		auth = auth[:i]
	}
	if i := strings.LastIndexByte(auth, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	return secretRef(rest)
}

// httpieSecret reports whether an httpie or xh argument sends a secret from
// the environment as data: a data field ("k=$T"), a query parameter
// ("k==$T"), a JSON field ("k:=$T") or the URL. A header ("Authorization:
// Bearer $T") is how an API is called and stays open.
func httpieSecret(a string) bool {
	if !secretRef(a) {
		return false
	}
	if strings.Contains(a, "://") {
		return secretInURL(a)
	}
	i := strings.IndexAny(a, ":=@")
	switch {
	case i < 0:
		return secretInURL(a) // a URL without a scheme
	case a[i] == ':':
		return strings.HasPrefix(a[i:], ":=") // a header unless JSON
	}
	return true
}

// killsGate reports whether a pkill pattern reaches toolgate's own
// processes: pkill matches an unanchored regular expression against the
// process name ("tool", "gate" and "tool.*gate" all do), and with -f the
// command line, which starts with the program ("toolgate serve").
func killsGate(p string) bool {
	for _, n := range gateNames {
		if procMatches(p, n, true) {
			return true
		}
	}
	return false
}

// gateNames are the names of toolgate's long-running programs: toolgate,
// and the companions it hands mcp-proxy and tui to.
var gateNames = [...]string{"toolgate", "toolgate-mcp", "toolgate-tui"}

// gateLines are the command lines of toolgate's long-running processes
// as pkill -f sees them (the program, then its subcommand).
var gateLines = [...]string{"toolgate serve", "toolgate mcp-proxy", "toolgate tui", "toolgate host",
	"toolgate-mcp mcp-proxy", "toolgate-tui tui"}

// killsGateLine reports whether a pkill -f pattern matches the command
// line of one of toolgate's processes: "pkill -f serve" stops "toolgate
// serve" although the pattern does not name toolgate.
func killsGateLine(p string) bool {
	if p == "" || allProcesses(p) {
		return false // every process: its own entry
	}
	var re *regexp.Regexp
	if strings.ContainsAny(p, ".*+?[]()|^$\\{}") {
		var err error
		if re, err = regexp.Compile(p); err != nil {
			return false // pkill rejects it too
		}
	}
	for _, l := range gateLines {
		if re == nil && strings.Contains(l, p) || re != nil && re.MatchString(l) {
			return true
		}
	}
	return false
}

// pkillFull reports whether pkill's or pgrep's arguments match the whole
// command line (-f, --full, or f in a cluster of short options).
func pkillFull(args []string) bool {
	for _, a := range args {
		switch {
		case a == "--":
			return false
		case a == "--full":
			return true
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			for j := 1; j < len(a); j++ {
				if a[j] == 'f' {
					return true
				}
				if strings.IndexByte("gGPsTtuUF", a[j]) >= 0 {
					break // the rest is this option's value
				}
			}
		}
	}
	return false
}

// namesGate reports whether a process, service or container name
// (killall, systemctl, launchctl, docker) is toolgate's: it contains
// "toolgate" ("toolgate.service", "dev.toolgate.serve") or, as a regular
// expression (killall -r), matches it.
func namesGate(p string) bool {
	for _, n := range gateNames {
		if procMatches(p, n, false) {
			return true
		}
	}
	return false
}

// agentNames are the AI agents' program names.
var agentNames = [...]string{"claude", "codex", "gemini", "aider", "cursor-agent"}

// killsAgent reports whether a pkill pattern reaches an AI agent's
// processes.
func killsAgent(p string) bool {
	for _, a := range agentNames {
		if procMatches(p, a, true) {
			return true
		}
	}
	return false
}

// namesAgent reports whether a killall name is an AI agent's.
func namesAgent(p string) bool {
	for _, a := range agentNames {
		if procMatches(p, a, false) {
			return true
		}
	}
	return false
}

// procMatches reports whether process pattern p reaches the program name:
// p names it, or p, read as an extended regular expression (case folded
// to fail closed), matches it; with sub, as pkill reads a pattern, a part
// of the name is enough ("tool").
func procMatches(p, name string, sub bool) bool {
	if p == "" || allProcesses(p) {
		return false // every process: its own entry
	}
	if containsFold(p, name) || sub && containsFold(name, p) {
		return true
	}
	if !strings.ContainsAny(p, ".*+?[]()|^$\\{}") {
		return false
	}
	if !sub {
		p = "^(?:" + p + ")$"
	}
	re, err := regexp.Compile("(?i)" + p)
	return err == nil && re.MatchString(name)
}

// systemTree reports whether a path is a whole home directory, every
// home, / or a top-level system directory (/etc, /usr, /var/lib …), the
// trees whose removal or move breaks the machine or takes a user's data.
func systemTree(a string) bool {
	if wholeTree(a) {
		return true
	}
	if !strings.HasPrefix(a, "/") {
		return false
	}
	c := stripWhole(a)
	return c == "/" || isSystemDir(c)
}

// remoteURL reports whether a value is a URL or git remote (pip -r
// https://…), not a path: "requirements/dev.txt" is a file here, though
// npm would read "user/repo" as a GitHub package.
func remoteURL(v string) bool {
	for _, p := range urlPrefix {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return false
}

// packageFile reports whether a package manager's operand is a package
// file or a URL of one (apt install ./x.deb, dnf install https://…/x.rpm),
// not a package name of the distribution's archive.
func packageFile(a string) bool {
	if remoteURL(a) {
		return true
	}
	for _, ext := range []string{".deb", ".rpm", ".apk", ".pkg.tar.zst", ".pkg.tar.xz", ".pkg.tar.gz", ".txz", ".pkg", ".ipk"} {
		if strings.HasSuffix(a, ext) {
			return true
		}
	}
	return false
}

// standardInput reports whether a file option's value is standard input or
// an inherited descriptor (a here-doc, a pipe, a process substitution).
func standardInput(v string) bool {
	return v == "-" || v == "/dev/stdin" || strings.HasPrefix(v, "/dev/fd/") || strings.HasPrefix(v, "/proc/self/fd/") || strings.HasPrefix(v, "<(")
}

// anyValue matches every value: the option's presence with a value is the
// risk (git checkout -B NAME).
func anyValue(string) bool { return true }

// publicIndexes are the public registries package managers fetch from
// when nothing says otherwise: naming one of them (pip install
// --index-url https://pypi.org/simple) redirects nothing. Exact URLs, a
// trailing slash aside: another path, a user in the URL or another host
// ("https://pypi.org.evil.example/simple") is another index.
var publicIndexes = []string{"https://pypi.org/simple", "https://pypi.python.org/simple", "https://registry.npmjs.org",
	"https://registry.yarnpkg.com", "https://rubygems.org"}

// otherIndex reports whether a package index or registry value is not
// one of publicIndexes: a value known only at run time ($URL) is another
// index too.
func otherIndex(v string) bool {
	v = strings.TrimSuffix(v, "/")
	for _, p := range publicIndexes {
		if strings.EqualFold(v, p) {
			return false
		}
	}
	return true
}

// clientShell reports whether a command given to a SQL or transfer
// client runs a shell command: psql's and mysql's "\\!", lftp's and
// ftp's leading "!", mysql's "system"; or, as the SQL scanner reads it
// (sqlRunsShell), a pipe to a command, a pager or an editor, COPY …
// PROGRAM.
func clientShell(q string) bool {
	for _, line := range strings.FieldsFunc(q, func(r rune) bool { return r == '\n' || r == ';' }) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "!") || strings.HasPrefix(line, "system ") || strings.HasPrefix(line, "\\!") {
			return true
		}
	}
	return strings.Contains(q, "\\!") || sqlRunsShell(q)
}

// sqliteShell reports whether sqlite3 input runs a program or loads a
// library: the dot commands .shell, .system and .load, or, as the SQL
// scanner reads it (sqlRunsShell), a pipe to a command, a spreadsheet
// application or an editor.
func sqliteShell(q string) bool {
	for _, line := range strings.FieldsFunc(q, func(r rune) bool { return r == '\n' || r == ';' }) {
		line = strings.TrimSpace(line)
		for _, dot := range [...]string{".shell", ".system", ".load"} {
			if rest, ok := strings.CutPrefix(line, dot); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
				return true
			}
		}
	}
	return sqlRunsShell(q)
}

// sqlPipeCommands are the client commands whose file argument, begun
// with "|", is a shell command their output or input goes through
// (psql's \o |cmd and \g (format=csv) |cmd, sqlite3's .once |cmd and
// .import |cmd).
var sqlPipeCommands = []string{
	`\o`, `\out`, `\g`, `\gx`, `\w`, `\write`,
	".once", ".output", ".import", ".read",
}

// sqlProgramCommands are the client commands that run a program
// whatever their arguments: an editor, a pager, a spreadsheet
// application, an environment variable a pager or editor is read from.
var sqlProgramCommands = []string{
	`\e`, `\edit`, `\ef`, `\ev`, `\setenv`, `\P`, ".excel",
}

// sqlRunsShell reports whether SQL text, under any dialect's reading
// (sqlScan), runs a shell command on the client or the server: a pipe
// client command (sqlPipeCommands), a program one (sqlProgramCommands),
// sqlite3's .once -x/-e, COPY or \copy … PROGRAM, mysql's pager,
// sqlite3's edit().
func sqlRunsShell(q string) bool {
	for _, d := range sqlDialects {
		for _, st := range sqlScan(q, d).stmts {
			if st[0].kind == sqlMetaTok {
				if st[0].text[0] == '\\' && strings.IndexByte(st[0].text, '`') >= 0 {
					return true // psql runs `…` in a command's arguments
				}
				cmd, args := sqlMetaSplit(st[0].text)
				arg := strings.TrimLeft(args, sqlSpace)
				if strings.HasPrefix(arg, "(") {
					_, arg, _ = strings.Cut(arg, ")") // \g (format=csv) FILE
				}
				arg = strings.TrimLeft(arg, sqlSpace+`'"`)
				if slices.Contains(sqlProgramCommands, cmd) || slices.Contains(sqlPipeCommands, cmd) && strings.HasPrefix(arg, "|") ||
					cmd == ".once" && (strings.HasPrefix(arg, "-x") || strings.HasPrefix(arg, "-e")) ||
					cmd == `\copy` && sqlHasWord(sqlScan(args, d), "program") {
					return true
				}
				continue
			}
			if st[0].kind == sqlWordTok && (st[0].text == "pager" || st[0].text == "copy" && sqlHasWord(sqlText{stmts: [][]sqlToken{st}}, "program")) {
				return true
			}
			for _, w := range st {
				if w.kind == sqlWordTok && w.call && w.text == "edit" {
					return true
				}
			}
		}
	}
	return false
}

// sqlHasWord reports whether a reading holds the bare word w.
func sqlHasWord(t sqlText, w string) bool {
	for _, st := range t.stmts {
		for _, tok := range st {
			if tok.kind == sqlWordTok && tok.text == w {
				return true
			}
		}
	}
	return false
}

// redisConfigSet reports whether redis-cli's arguments set the server's
// configuration (CONFIG SET, any case).
func redisConfigSet(args []string) bool {
	for i := 0; i+1 < len(args); i++ {
		if strings.EqualFold(args[i], "config") && strings.EqualFold(args[i+1], "set") {
			return true
		}
	}
	return false
}

// redisModuleLoad reports whether redis-cli's arguments load a module
// (MODULE LOAD, any case).
func redisModuleLoad(args []string) bool {
	for i := 0; i+1 < len(args); i++ {
		if strings.EqualFold(args[i], "module") && strings.EqualFold(args[i+1], "load") {
			return true
		}
	}
	return false
}

// checkoutPaths reports whether git checkout's arguments name paths, which
// it overwrites with their committed content: anything after "--", a
// pathspec file, a second operand (git checkout REV PATH), an operand
// with --ours or --theirs (which only paths take), or a lone operand
// that can only be a path or reads as a file (pathOperand). Another lone
// operand is a branch to switch to (git guesses, and "git checkout main"
// reads the same as a file named main); -b, -B and --orphan create a
// branch from the operand.
func checkoutPaths(args []string) bool {
	ops, sides, path := 0, false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasEq := strings.Cut(a, "=")
		switch {
		case a == "--":
			return i+1 < len(args)
		case name == "--pathspec-from-file":
			return true
		case name == "-b" || name == "-B" || name == "--orphan":
			return false
		case name == "--ours" || name == "--theirs":
			sides = true
		case name == "--conflict" || name == "--unified" || name == "--inter-hunk-context":
			if !hasEq {
				i++
			}
		case strings.HasPrefix(a, "-"):
			if len(a) > 2 && a[1] != '-' && strings.ContainsAny(a[1:], "bB") {
				return false // a cluster ending in -b NAME
			}
			if a[len(a)-1] == 'U' && !strings.HasPrefix(a, "--") {
				i++ // -U N, -pU N: --patch's context lines
			}
		default:
			ops++
			path = path || pathOperand(a)
		}
	}
	return ops >= 2 || ops == 1 && (sides || path)
}

// pathOperand reports whether a git checkout operand is a path, not a
// revision: a form no branch or tag name may take (git check-ref-format:
// a leading or trailing "/", a component starting with ".", "..", a
// blank, a glob character, a backslash; "." and "~" expand to
// directories), or a last component with a file name's extension
// ("main.go", "src/app.ts"; "v1.2.0" ends in a digit, "2.x" is a
// version's branch). A bare name
// without one ("Makefile", "src") may be a branch, and stays a switch.
func pathOperand(a string) bool {
	if a == "" || a[0] == '/' || a[0] == '.' || a[0] == '~' || strings.HasSuffix(a, "/") ||
		strings.Contains(a, "/.") || strings.ContainsAny(a, " \t*?[\\") {
		return true
	}
	base := a[strings.LastIndexByte(a, '/')+1:]
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 || dot == len(base)-1 || len(base)-dot > 11 {
		return false
	}
	ext := base[dot+1:]
	if !(ext[0] >= 'a' && ext[0] <= 'z' || ext[0] >= 'A' && ext[0] <= 'Z') {
		return false
	}
	if stem := strings.TrimLeft(base[:dot], "vV"); stem != "" && strings.Trim(stem, "0123456789.") == "" {
		return false // a version branch: 2.x, v1.4.x
	}
	for i := 0; i < len(ext); i++ {
		c := ext[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// serviceStops reports whether service's arguments stop the service
// (stop, or a state that leaves it off).
// otherUnit is a unit (or SysV service) that is not the remote-access
// service, a security control or the gate, which have their own reasons;
// systemctl's and service's verbs are not units.
func otherUnit(u string) bool {
	switch u {
	case "stop", "force-stop", "disable", "mask", "kill", "--now":
		return false
	}
	return !accessUnit(u) && !securityUnit(u) && !namesGate(u)
}

// rootUser is a user option's value naming root, by name or id, with
// or without a group ("0", "root", "0:0").
func rootUser(v string) bool {
	u, _, _ := strings.Cut(v, ":")
	return u == "0" || u == "root"
}

// nginxStops is nginx -s's signal that stops the server.
func nginxStops(v string) bool { return v == "stop" || v == "quit" }

// systemStops reports a systemctl call that stops, disables, masks or
// kills system units: --user names the user's own.
func systemStops(args []string) bool {
	stops := false
	for _, a := range args {
		switch a {
		case "--user":
			return false
		case "stop", "disable", "mask", "kill":
			stops = true
		}
	}
	return stops
}

func serviceStops(args []string) bool {
	for _, a := range args {
		switch a {
		case "stop", "force-stop", "disable", "mask":
			return true
		}
	}
	return false
}
