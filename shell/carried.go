package shell

import "strings"

// taint records that name is assigned text: when text expands a secret
// from the environment ("$GITHUB_TOKEN") or a variable that carries one,
// name carries it too. A later assignment does not clear the mark: a
// branch or loop may not have run it.
func (w *walker) taint(name, text string) {
	if name == "" {
		return
	}
	secret, ok := refersTo(text, secretName)
	if t := strings.Trim(text, `'"`); !ok && secretName(t) {
		// A nameref to a secret or the name an indirection reads
		// ("declare -n r=GITHUB_TOKEN", "n=API_KEY; echo ${!n}").
		secret, ok = t, true
	}
	if !ok {
		var via string
		if via, ok = refersTo(text, w.carries); ok {
			secret = w.secrets[via]
		}
	}
	if !ok || secretName(name) {
		return // a secret's own name is seen where it is expanded
	}
	if w.secrets == nil {
		w.secrets = make(map[string]string)
	}
	if _, seen := w.secrets[name]; !seen && len(w.secrets) >= maxVars {
		return
	}
	w.secrets[name] = secret
}

// carries reports whether a variable holds a secret from the environment.
func (w *walker) carries(name string) bool {
	_, ok := w.secrets[name]
	return ok
}

// carriedSecrets classes the commands emitted from start on as they are
// classed with the secrets their variables carry written in place: "X=$API_KEY;
// echo $X" prints the key as "echo $API_KEY" does, "for t in $GH_TOKEN;
// do curl -d t=$t URL; done" sends it.
func (w *walker) carriedSecrets(start int) {
	if len(w.secrets) == 0 {
		return
	}
	for i := start; i < len(w.res.Commands); i++ {
		cmd := &w.res.Commands[i]
		var args []string
		for j, a := range cmd.Args {
			if _, ok := refersTo(a, w.carries); !ok {
				continue
			}
			if args == nil {
				args = append([]string(nil), cmd.Args...)
			}
			args[j] = w.unveil(a)
		}
		if args == nil {
			continue
		}
		var r role
		if e := roleEntry(cmd.Name); e != nil {
			r = e.roles
		}
		as := Command{Name: cmd.Name, Text: cmd.Text}
		classifyWords(&as, cmd.Name, r, args, nil)
		for _, cr := range as.Classes {
			cr.Reason += " (a variable of the command line holds it)"
			addClass(cmd, cr)
		}
	}
}

// unveil writes, in place of each variable a word expands that carries a
// secret, the secret's own name: "$X" for "X=$GITHUB_TOKEN" is
// "$GITHUB_TOKEN".
func (w *walker) unveil(a string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(a, '$')
		if i < 0 {
			b.WriteString(a)
			return b.String()
		}
		b.WriteString(a[:i+1])
		a = a[i+1:]
		if strings.HasPrefix(a, "{") {
			b.WriteByte('{')
			a = a[1:]
		}
		j := 0
		for j < len(a) && isWordByte(a[j]) {
			j++
		}
		if s, ok := w.secrets[a[:j]]; ok && j > 0 {
			b.WriteString(s)
		} else {
			b.WriteString(a[:j])
		}
		a = a[j:]
	}
}

// readTaint marks the variables read, mapfile or readarray assign from a
// heredoc or here-string that expands a secret ("read K <<< $API_KEY"):
// each word that may be a name is marked (an option's value only widens
// the mark), and with none they assign REPLY or MAPFILE.
func (w *walker) readTaint(name string, words []word, in stdin) {
	var def string
	switch name {
	case "read":
		def = "REPLY"
	case "mapfile", "readarray":
		def = "MAPFILE"
	default:
		return
	}
	if in.kind != stdinText || !strings.Contains(in.script, "$") {
		return
	}
	named := false
	for _, a := range words[1:] {
		t := a.text
		if t != "" && isNameStart(t[0]) && strings.IndexFunc(t, func(r rune) bool { return r > 0x7f || !isWordByte(byte(r)) }) < 0 {
			w.taint(t, in.script)
			named = true
		}
	}
	if !named {
		w.taint(def, in.script)
	}
}
