package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash runs code from places that look like data. Each was found by the
// differential test against bash (differential_test.go): bash executed a
// program the analysis did not report.

// Codes of the unprefixable risks of code hidden in data.
const (
	RiskPromptExpansion = "prompt-expansion"
	RiskSubscriptCode   = "subscript-code"
)

// hash handles the hash builtin. "hash -p /bin/rm x" makes the name x run
// /bin/rm: later commands named x are analysed as the program (so "x -rf
// ~" is "rm -rf ~" to every rule and risk), and the hash command itself is
// opaque, because a command that ran before it was seen (a function
// body) is not renamed.
func (w *walker) hash(words []word, assigns []string, c scope) {
	cmd := w.makeCommand(words, assigns, c.via, false)
	args := words[1:]
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if t == "--" || !strings.HasPrefix(t, "-") {
			break
		}
		j := strings.IndexByte(t, 'p')
		if j < 0 {
			continue
		}
		cmd.Opaque = true
		p := t[j+1:]
		if p == "" && i+1 < len(args) {
			i++
			p = args[i].text
		}
		if i+1 < len(args) && args[i+1].static && p != "" {
			if w.hashed == nil {
				w.hashed = map[string]word{}
			}
			pw := args[i]
			if pw.text != p {
				pw = litWord(p)
			}
			for _, n := range args[i+1:] {
				w.hashed[n.text] = pw
			}
		}
		break
	}
	w.emit(cmd)
}

// rehash returns words with a name that hash -p bound replaced by the
// program it runs.
func (w *walker) rehash(words []word) []word {
	if w.hashed == nil || !words[0].static {
		return words
	}
	p, ok := w.hashed[words[0].text]
	if !ok {
		return words
	}
	out := make([]word, len(words))
	copy(out, words)
	out[0] = p
	return out
}

// mapfile handles mapfile and readarray, whose -C option names a command
// bash evaluates for every -c lines read: it is a nested script.
func (w *walker) mapfile(words []word, assigns []string, c scope, d *dirState) {
	idx := w.emit(w.makeCommand(words, assigns, c.via, false))
	args := words[1:]
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if len(t) < 2 || t[0] != '-' || t == "--" {
			return
		}
		for j := 1; j < len(t); j++ {
			if strings.IndexByte("dnOsucC", t[j]) < 0 {
				continue
			}
			v, vw := t[j+1:], args[i]
			if v == "" && i+1 < len(args) {
				i++
				v, vw = args[i].text, args[i]
			}
			if t[j] == 'C' && !w.script(v, vw.static, c, d.clone(), "mapfile -C", false) {
				w.res.Commands[idx].Opaque = true
			}
			break
		}
	}
}

// promptExpansion reports ${X@P}: bash expands the value of X as a prompt,
// which runs the command substitutions in it.
func (w *walker) promptExpansion(pe *syntax.ParamExp, src string) {
	if pe.Exp == nil || pe.Exp.Op != syntax.OtherParamOps || pe.Exp.Word == nil || pe.Exp.Word.Lit() != "P" {
		return
	}
	w.unprefixable(RiskPromptExpansion, "prompt expansion (${X@P}) runs the command substitutions in the variable's value, which no prefix can vet", srcOf(src, pe))
}

// subscriptCode reports a command text holding a command substitution in
// an array subscript ('a[$(id)]'). Bash runs it when the string is used
// as a variable name or evaluated as arithmetic: by printf -v, read,
// declare, let, (( )), $(( )), [[ -eq ]], test -v, declare -i, …, even
// through a variable that holds it.
func (w *walker) subscriptCode(s string) bool {
	open := strings.IndexByte(s, '[')
	if open < 0 {
		return false
	}
	rest := s[open:]
	code := strings.Index(rest, "$(")
	if bt := strings.IndexByte(rest, '`'); bt >= 0 && (code < 0 || bt < code) {
		code = bt
	}
	if code < 0 || strings.IndexByte(rest[code:], ']') < 0 {
		return false
	}
	w.unprefixable(RiskSubscriptCode, "a string holds a command substitution in an array subscript, which bash runs when the string is used as a variable name or evaluated as arithmetic", s)
	return true
}
