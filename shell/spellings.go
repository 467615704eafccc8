package shell

import (
	"strings"

	"github.com/toolgate/toolgate/internal/sensitive"
)

// Spellings that hide what a command names from deny rules written for
// the plain form (DESIGN §9 self-protection): the analysis adds the plain
// form as an alternative text, which deny and ask rules match and allow
// rules never do.

// decodedAlt returns the command text with %-escapes decoded, when it has
// any: the gateway decodes "%61pprove" in a URL path, so a deny rule for
// ".../approve" must see it. Where every % starts an escape this is
// url.PathUnescape's result (TestDecodedAltAsPathUnescape); a stray %
// stays as it is and the rest still decodes. Not net/url itself: its
// package start-up (net/netip, unique) is a cost every hook process pays.
func decodedAlt(text string) (string, bool) {
	if !strings.Contains(text, "%") {
		return "", false
	}
	d := lenientUnescape(text)
	if d == text {
		return "", false
	}
	return d, true
}

// lenientUnescape decodes every valid %XX and keeps the rest.
func lenientUnescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// isGateVerb: toolgate's subcommands that answer approvals or change
// rules, grants, sessions and tokens.
func isGateVerb(name string) bool {
	switch name {
	case "approvals", "grants", "tokens", "sessions":
		return true
	}
	return false
}

// gateAlt returns "toolgate ARGS…" for a command that is toolgate's
// program under another name ("cp $(which toolgate) /tmp/t; /tmp/t
// --data DIR approvals approve ID"): its arguments from a gate verb on,
// so the deny rules written for "toolgate approvals *" match.
func gateAlt(name string, args []string) (string, bool) {
	if name == "toolgate" || len(args) < 2 {
		return "", false
	}
	for i, a := range args {
		if isGateVerb(a) && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			// An option of the program before the verb (--data DIR) or
			// nothing: the verb is toolgate's subcommand position.
			if i == 0 || strings.HasPrefix(args[0], "-") {
				return "toolgate " + strings.Join(args[i:], " "), true
			}
			return "", false
		}
	}
	return "", false
}

// xdgDefault returns where an XDG base directory is under the home
// directory by default, "" for other variables.
func xdgDefault(name string) string {
	switch name {
	case "XDG_CONFIG_HOME":
		return "/.config"
	case "XDG_DATA_HOME":
		return "/.local/share"
	case "XDG_STATE_HOME":
		return "/.local/state"
	case "XDG_CACHE_HOME":
		return "/.cache"
	}
	return ""
}

// defaultExpansion returns the path p would be with $XDG_* variables at
// their defaults and ${VAR:-default} (and ${VAR-…}, ${VAR:=…}) at their
// default, when that leaves a static path: one of the files the command
// may touch, which deny rules must see.
func defaultExpansion(p, home string) (string, bool) {
	if home == "" {
		return "", false
	}
	if out := expansions(p, home, nil, 1); len(out) > 0 {
		return out[0], true
	}
	return "", false
}

// maxExpansions bounds the static paths one word may expand to, and
// maxExpansionBytes the length of each (a path longer than PATH_MAX names
// no file): the work stays linear in the word's length.
const (
	maxExpansions     = 8
	maxExpansionBytes = 4096
)

// expansions returns the static paths p may be: defaultExpansion's, with
// each variable the script gave static values (vars) at each of them, at
// most max. None when a variable has no known value, or a path would be
// longer than maxExpansionBytes.
func expansions(p, home string, vars map[string][]string, max int) []string {
	if !strings.Contains(p, "$") || len(p) > maxExpansionBytes {
		return nil
	}
	outs := []string{""}
	for len(p) > 0 {
		i := strings.IndexByte(p, '$')
		if i < 0 {
			i = len(p)
		}
		if i > 0 {
			for k := range outs {
				outs[k] += p[:i]
			}
			p = p[i:]
			continue
		}
		rest := p[1:]
		var name, def string
		hasDef := false
		adv := 0
		if strings.HasPrefix(rest, "{") {
			end := matchingBrace(rest)
			if end < 0 {
				return nil
			}
			name, def, hasDef = cutDefault(rest[1:end])
			adv = end + 1
		} else {
			for adv < len(rest) && (rest[adv] == '_' || rest[adv] >= 'A' && rest[adv] <= 'Z' || rest[adv] >= 'a' && rest[adv] <= 'z' || adv > 0 && rest[adv] >= '0' && rest[adv] <= '9') {
				adv++
			}
			name = rest[:adv]
		}
		opts := vars[name]
		switch {
		case len(opts) > 0:
		case name == "HOME" && home != "":
			opts = []string{home}
		case xdgDefault(name) != "" && !hasDef && home != "":
			opts = []string{home + xdgDefault(name)}
		case hasDef:
			d := def
			if strings.Contains(def, "$") {
				sub := expansions(def, home, vars, 1)
				if len(sub) == 0 {
					return nil
				}
				d = sub[0]
			}
			if (strings.HasPrefix(d, "~/") || d == "~") && home != "" {
				d = home + d[1:]
			}
			opts = []string{d}
		default:
			return nil
		}
		next := make([]string, 0, min(len(outs)*len(opts), max))
		for _, o := range outs {
			for _, v := range opts {
				if len(o)+len(v) > maxExpansionBytes {
					return nil
				}
				if len(next) < max {
					next = append(next, o+v)
				}
			}
		}
		outs = next
		p = rest[adv:]
	}
	kept := outs[:0]
	for _, o := range outs {
		if len(o) <= maxExpansionBytes && !strings.ContainsAny(o, "$`") {
			kept = append(kept, o)
		}
	}
	return kept
}

// cutDefault splits "VAR:-default" (or "VAR-default", "VAR:=default",
// "VAR=default") into the name and the default.
func cutDefault(s string) (name, def string, ok bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		rest := s[i:]
		for _, op := range [...]string{":-", ":=", "-", "="} {
			if v, ok := strings.CutPrefix(rest, op); ok {
				return s[:i], v, true
			}
		}
		return s, "", false
	}
	return s, "", false
}

// matchingBrace returns the index of the "}" closing s[0] == '{'.
func matchingBrace(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// codePaths returns the path-like strings in inline code (quoted or not:
// "/home/u/.local/share/toolgate/tokens.json", '~/.ssh/id_rsa'), which the
// policy checks against its file rules: an interpreter may read or write
// them.
func codePaths(code string) []string {
	var out []string
	isPathByte := func(c byte) bool {
		return c > ' ' && c < 0x7f && !strings.ContainsRune("'\"`(),;[]<>|&!*?", rune(c))
	}
	for i := 0; i < len(code); {
		if !isPathByte(code[i]) {
			i++
			continue
		}
		j := i
		for j < len(code) && isPathByte(code[j]) {
			j++
		}
		tok := code[i:j]
		quoted := i > 0 && j < len(code) && (code[i-1] == '\'' || code[i-1] == '"') && code[j] == code[i-1]
		i = j
		if !strings.Contains(tok, "/") {
			// A hidden file's name alone, as a string literal (".env",
			// '.mcp.json'), not a method (.read()); a string literal
			// that is a file's name ("secrets.txt", 'id_rsa'), not a
			// module (import secrets) or a variable's name.
			if quoted && len(tok) > 1 && (tok[0] == '.' && tok != ".." || fileNameLike(tok) || tok == strings.ToLower(tok) && sensitive.SecretName(tok)) {
				out = append(out, tok)
			}
			continue
		}
		if strings.Contains(tok, "://") {
			continue
		}
		base := tok[strings.LastIndexByte(tok, '/')+1:]
		if c := tok[0]; c == '/' || c == '~' || c == '.' || c == '$' || quoted && (fileNameLike(base) || strings.HasPrefix(base, ".")) {
			// An absolute, home or relative path; a string literal
			// ending in a file's name ("config/secrets.yml"), not any
			// string with a '/' ("text/plain").
			out = append(out, tok)
		}
		if len(out) >= 16 {
			break
		}
	}
	return out
}

// fileNameLike reports whether a word has the shape of a file's name
// with an extension: NAME.EXT, where EXT is one to five letters or digits
// and NAME starts with a letter or digit ("secrets.txt", "db.sqlite3").
func fileNameLike(tok string) bool {
	i := strings.LastIndexByte(tok, '.')
	if i < 1 || len(tok)-i-1 < 1 || len(tok)-i-1 > 5 || !isAlnum(tok[0]) {
		return false
	}
	for j := i + 1; j < len(tok); j++ {
		if !isAlnum(tok[j]) {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// gitAlias returns the arguments of the git command a command is under
// another name: a git-CMD program (/usr/lib/git-core/git-push) is git
// CMD, hub is git, and the push plumbing (git send-pack, git http-push,
// git subtree push) is git push. ok is false for anything else.
func gitAlias(name string, args []string) ([]string, bool) {
	switch {
	case name == "hub":
		return args, true
	case strings.HasPrefix(name, "git-") && len(name) > len("git-") && !strings.Contains(name[4:], "-") && name != "git-lfs":
		return append([]string{name[4:]}, args...), true
	case name != "git":
		return nil, false
	}
	i := firstWord(args, 0)
	if i < 0 {
		return nil, false
	}
	switch args[i] {
	case "send-pack", "http-push":
		return append([]string{"push"}, args[i+1:]...), true
	case "subtree":
		if j := firstWord(args, i+1); j >= 0 && args[j] == "push" {
			return append([]string{"push"}, args[j+1:]...), true
		}
	}
	return nil, false
}

// firstWord returns the index of the first word from i on that is no
// option (or the option's value it may take), -1 for none.
func firstWord(args []string, i int) int {
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return -1
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--prefix" || a == "-P":
			i++ // its value
		case strings.HasPrefix(a, "-"):
		default:
			return i
		}
	}
	return -1
}
