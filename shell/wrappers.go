package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// wrapperFor returns the command table's entry for a wrapper (an entry
// with wraps, commands_wrap.go), nil for any other command.
func wrapperFor(name string) *cmdSpec {
	if s := commandSpec(name); s != nil && s.wraps {
		return s
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// isAssignment reports whether s has the form NAME=value.
func isAssignment(s string) bool {
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// wrapper handles a wrapper command. It returns the inner command's words
// and assignments, or done when nothing more is to be run, and the
// directory state the inner command runs in when the wrapper changes it
// (env -C, sudo -D), else nil.
func (w *walker) wrapper(name string, spec *cmdSpec, words []word, assigns []string, c scope, d *dirState) ([]word, []string, *dirState, bool) {
	start, vals, envs, unknown := spec.wrapped(words)
	inner := words[start:]
	noCmd := false
	for _, v := range vals {
		if len(v.name) == 2 && v.name[0] == '-' && strings.IndexByte(spec.wrapFields().noCommand, v.name[1]) >= 0 {
			noCmd = true
		}
	}
	var script *word
	var nd *dirState
	lookup := false // command -v NAME: says what NAME is, runs nothing
	switch name {
	case "command":
		if _, ok := optValue(vals, "-v", "-V"); ok {
			noCmd, lookup = true, true
		}
	case "env":
		if s, ok := optValue(vals, "-S", "--split-string"); ok {
			inner = append(splitWords(s), inner...)
		}
		nd = w.wrapperDir(vals, d, words, "-C", "--chdir")
	case "arch":
		// macOS arch -e NAME=VALUE sets the variable for the command it
		// runs, as env NAME=VALUE does (DYLD_INSERT_LIBRARIES, PATH).
		for _, v := range vals {
			if v.name == "-e" && v.valAt >= 0 {
				envs = append(envs, v.val)
			}
		}
	case "time":
		if f, ok := optValue(vals, "-o", "--output"); ok {
			w.file(litWord(f), true, joinWords(words), d)
		}
	case "strace", "ltrace":
		// The trace log is written; ltrace -F reads its configuration.
		if f, ok := optValue(vals, "-o", "--output"); ok {
			w.file(litWord(f), true, joinWords(words), d)
		}
		if f, ok := optValue(vals, "-F", "--config"); ok && name == "ltrace" {
			w.file(litWord(f), false, joinWords(words), d)
		}
	case "flock":
		if s, ok := optValue(vals, "-c", "--command"); ok {
			script = &word{text: s, static: !strings.ContainsAny(s, "$`")}
			inner = nil
		}
	case "su", "runuser":
		if s, ok := optValue(vals, "-c", "--command", "--session-command"); ok {
			script = &word{text: s, static: !strings.ContainsAny(s, "$`")}
		}
		if _, ok := optValue(vals, "-u", "--user"); !ok || name == "su" {
			inner = nil // operands are a user name and shell arguments
		}
	case "watch":
		if _, ok := optValue(vals, "-x", "--exec"); !ok && len(inner) > 0 {
			s, static := joinStatic(inner)
			script = &word{text: s, static: static}
			inner = nil
		}
	case "sudo":
		nd = w.wrapperDir(vals, d, words, "-D", "--chdir")
		if _, ok := optValue(vals, "-e", "--edit"); ok {
			for _, f := range inner {
				w.file(f, true, joinWords(words), d)
			}
			inner = nil
		}
	}
	if noCmd {
		inner = nil
	}
	if spec.subject || unknown || script != nil || len(inner) == 0 {
		cmd := w.makeCommand(words, assigns, c.via, unknown)
		classify(&cmd, name, cmd.Args)
		// A wrapper given nothing at all runs nothing: the table says
		// whether it then only prints (arch names the machine's
		// architecture; env, which prints every variable, is no read).
		bareRead := len(words) == 1 && spec.readOnly && spec.readBare && len(cmd.Classes) == 0
		cmd.ReadOnly = (lookup || bareRead) && !unknown && len(assigns) == 0 && words[0].text == name && allStatic(words)
		idx := w.emit(cmd)
		if script != nil && !w.script(script.text, script.static, c, d, name, true) {
			w.res.Commands[idx].Opaque = true
		}
	}
	if len(inner) == 0 {
		return nil, nil, nil, true
	}
	if len(envs) > 0 {
		assigns = append(append([]string(nil), assigns...), envs...)
	}
	return inner, assigns, nd, false
}

// wrapperDir returns the directory state of a command a wrapper runs in
// the directory given by one of opts, nil when it has none. The wrapper
// fails rather than run the command elsewhere, so the change is certain.
func (w *walker) wrapperDir(vals []optArg, d *dirState, words []word, opts ...string) *dirState {
	v, ok := optValue(vals, opts...)
	if !ok {
		return nil
	}
	dw := litWord(v)
	for _, wd := range words {
		if wd.text == v {
			dw = wd
			break
		}
	}
	nd := d.clone()
	w.chdir(nd, "cd", []word{dw}, false)
	return nd
}

// splitWords splits a command line into static words with the shell
// parser (env -S); on failure it falls back to fields.
func splitWords(s string) []word {
	f, err := parse(s)
	if err == nil && len(f.Stmts) == 1 {
		if x, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(x.Assigns) == 0 {
			out := make([]word, 0, len(x.Args))
			for _, a := range x.Args {
				out = append(out, render(s, a))
			}
			return out
		}
	}
	var out []word
	for _, t := range strings.Fields(s) {
		out = append(out, litWord(t))
	}
	return out
}

// allStatic reports whether every word is known before the command runs.
func allStatic(words []word) bool {
	for _, wd := range words {
		if !wd.static {
			return false
		}
	}
	return true
}
