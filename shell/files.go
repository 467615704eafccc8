package shell

import (
	"path"
	"strings"
)

// fileKind says how a command's operands map to files.
type fileKind uint8

const (
	readAll   fileKind = iota // every operand is read
	writeAll                  // every operand is written
	copyKind                  // sources read, destination written (cp, install)
	moveKind                  // sources and destination written (mv)
	linkKind                  // link names written (ln)
	modeKind                  // first operand is a mode or owner, the rest written
	pairKind                  // INPUT [OUTPUT] (uniq, xxd)
	firstKind                 // the first operand is read (source FILE ARGS…)
	sedKind                   // script, then files read (written with -i)
	awkKind                   // program, then files read
	jqKind                    // filter, then files read
	ddKind                    // if= read, of= written
	scpKind                   // local sources read, local destination written
	curlKind                  // -o written, -T/-d @file read
	wgetKind                  // -O/-o written, -i read
	tarKind                   // -f archive written or read by mode
)

// fileSpec describes how to find the file operands of a command.
type fileSpec struct {
	kind      fileKind
	shortVal  string   // short options taking a value
	longVal   []string // long options taking a value
	numeric   bool     // -N is an option (head -5)
	pattern   bool     // the first operand is a pattern unless patOpts is given
	patOpts   []string // options that supply the pattern (grep -e, -f)
	readOpts  []string // options whose value is a file read
	writeOpts []string // options whose value is a file written
	dirOpts   []string // options naming the destination directory (cp -t)
	maxOps    int      // at most this many file operands (cmp)
}

var grepSpec = &fileSpec{kind: readAll, shortVal: "efmABCdD", numeric: true, pattern: true,
	longVal: []string{"regexp", "file", "max-count", "after-context", "before-context", "context", "directories",
		"devices", "include", "exclude", "exclude-from", "exclude-dir", "label", "binary-files", "group-separator"},
	patOpts: []string{"-e", "-f", "--regexp", "--file"}, readOpts: []string{"-f", "--file", "--exclude-from"}}

var cpSpec = &fileSpec{kind: copyKind, shortVal: "tS", longVal: []string{"target-directory", "suffix"}, dirOpts: []string{"-t", "--target-directory"}}

var readSimple = &fileSpec{kind: readAll}
var writeSimple = &fileSpec{kind: writeAll}

// fileSpecs maps well-known readers and writers to their file operands.
var fileSpecs = map[string]*fileSpec{
	"cat": readSimple, "tac": {kind: readAll, shortVal: "s", longVal: []string{"separator"}}, "rev": readSimple,
	"head": {kind: readAll, shortVal: "nc", numeric: true, longVal: []string{"lines", "bytes"}},
	"tail": {kind: readAll, shortVal: "ncs", numeric: true, longVal: []string{"lines", "bytes", "pid", "sleep-interval", "max-unchanged-stats"}},
	"less": {kind: readAll, shortVal: "bhjkoOpPtTxyz#", numeric: true, writeOpts: []string{"-o", "-O", "--log-file", "--LOG-FILE"}},
	"more": {kind: readAll, shortVal: "n", numeric: true},
	"grep": grepSpec, "egrep": grepSpec, "fgrep": grepSpec, "zgrep": grepSpec,
	"rg": {kind: readAll, shortVal: "efgtTmABCjMErd", pattern: true,
		longVal: []string{"regexp", "file", "glob", "iglob", "type", "type-not", "type-add", "type-clear", "max-count",
			"after-context", "before-context", "context", "threads", "max-columns", "encoding", "replace", "max-depth",
			"max-filesize", "path-separator", "pre", "pre-glob", "sort", "sortr", "colors", "color", "engine",
			"dfa-size-limit", "regex-size-limit", "ignore-file", "field-context-separator", "field-match-separator",
			"context-separator", "hostname-bin", "hyperlink-format", "generate"},
		patOpts: []string{"-e", "-f", "--regexp", "--file"}, readOpts: []string{"-f", "--file", "--ignore-file"}},
	"wc":      {kind: readAll, longVal: []string{"files0-from"}, readOpts: []string{"--files0-from"}},
	"sort":    {kind: readAll, shortVal: "kotST", longVal: []string{"key", "output", "field-separator", "buffer-size", "temporary-directory", "parallel", "batch-size", "compress-program", "files0-from", "sort", "random-source"}, writeOpts: []string{"-o", "--output"}, readOpts: []string{"--files0-from"}},
	"uniq":    {kind: pairKind, shortVal: "fsw", numeric: true, longVal: []string{"skip-fields", "skip-chars", "check-chars", "group", "all-repeated"}},
	"diff":    {kind: readAll, shortVal: "CUIxXFLWS", longVal: []string{"label", "ignore-matching-lines", "exclude", "exclude-from", "from-file", "to-file", "width", "tabsize", "line-format", "starting-file", "horizon-lines", "show-function-line", "context", "unified", "color", "palette"}, readOpts: []string{"-X", "--exclude-from", "--from-file", "--to-file"}},
	"cmp":     {kind: readAll, shortVal: "in", maxOps: 2, longVal: []string{"ignore-initial", "bytes"}},
	"base64":  {kind: readAll, shortVal: "w", longVal: []string{"wrap"}},
	"base32":  {kind: readAll, shortVal: "w", longVal: []string{"wrap"}},
	"strings": {kind: readAll, shortVal: "nteT", numeric: true},
	"xxd":     {kind: pairKind, shortVal: "cglson"},
	"od":      {kind: readAll, shortVal: "AjNt"},
	"hexdump": {kind: readAll, shortVal: "efns", readOpts: []string{"-f"}},
	"nl":      {kind: readAll, shortVal: "bdfhilnsvw"},
	"cut":     {kind: readAll, shortVal: "bcdf", longVal: []string{"bytes", "characters", "delimiter", "fields", "output-delimiter"}},
	"paste":   {kind: readAll, shortVal: "d"}, "comm": readSimple, "fold": {kind: readAll, shortVal: "w"},
	"join":   {kind: readAll, shortVal: "aeotv12"},
	"md5sum": readSimple, "sha1sum": readSimple, "sha224sum": readSimple, "sha256sum": readSimple,
	"sha384sum": readSimple, "sha512sum": readSimple, "b2sum": {kind: readAll, shortVal: "l"}, "cksum": readSimple, "sum": readSimple,
	"bat":  {kind: readAll, shortVal: "lHrm", longVal: []string{"language", "highlight-line", "file-name", "diff-context", "tabs", "wrap", "terminal-width", "color", "decorations", "paging", "pager", "map-syntax", "theme", "style", "line-range"}},
	"zcat": readSimple, "bzcat": readSimple, "xzcat": readSimple, "zless": readSimple, "zmore": readSimple,
	"jq":  {kind: jqKind},
	"awk": {kind: awkKind}, "gawk": {kind: awkKind}, "mawk": {kind: awkKind}, "nawk": {kind: awkKind},
	"sed":    {kind: sedKind, shortVal: "efl", longVal: []string{"expression", "file", "line-length"}, readOpts: []string{"-f", "--file"}},
	"source": {kind: firstKind}, ".": {kind: firstKind},
	"tee":     writeSimple,
	"cp":      cpSpec,
	"mv":      {kind: moveKind, shortVal: "tS", longVal: []string{"target-directory", "suffix"}, dirOpts: []string{"-t", "--target-directory"}},
	"install": {kind: copyKind, shortVal: "mogtS", longVal: []string{"mode", "owner", "group", "target-directory", "suffix", "strip-program"}, dirOpts: []string{"-t", "--target-directory"}},
	"ln":      {kind: linkKind, shortVal: "tS", longVal: []string{"target-directory", "suffix"}, dirOpts: []string{"-t", "--target-directory"}},
	"touch":   {kind: writeAll, shortVal: "drt", longVal: []string{"date", "reference", "time"}, readOpts: []string{"-r", "--reference"}},
	"rm":      writeSimple, "rmdir": writeSimple, "unlink": writeSimple, "sudoedit": writeSimple,
	"shred":    {kind: writeAll, shortVal: "ns", longVal: []string{"iterations", "size", "random-source"}},
	"truncate": {kind: writeAll, shortVal: "sr", longVal: []string{"size", "reference"}, readOpts: []string{"-r", "--reference"}},
	"mkdir":    {kind: writeAll, shortVal: "m", longVal: []string{"mode", "context"}},
	"chmod":    {kind: modeKind, longVal: []string{"reference"}, readOpts: []string{"--reference"}},
	"chown":    {kind: modeKind, longVal: []string{"reference", "from"}, readOpts: []string{"--reference"}},
	"chgrp":    {kind: modeKind, longVal: []string{"reference"}, readOpts: []string{"--reference"}},
	"dd":       {kind: ddKind},
	"scp":      {kind: scpKind, shortVal: "cFiJlLoPSDX"},
	"curl":     {kind: curlKind},
	"wget":     {kind: wgetKind},
	"tar":      {kind: tarKind},
}

// parseArgs splits a reader's or writer's arguments into operands and
// options with values. Options may follow operands (GNU permutation).
func parseArgs(spec *fileSpec, name string, args []word) (ops []word, vals []optVal) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		switch {
		case t == "--":
			ops = append(ops, args[i+1:]...)
			return ops, vals
		case t == "-" || len(t) < 2 || t[0] != '-' || !a.static:
			ops = append(ops, a)
		case name == "chmod" && strings.Trim(t[1:], "rwxXst") == "":
			ops = append(ops, a) // a mode such as -w
		case strings.HasPrefix(t, "--"):
			n, v, hasEq := strings.Cut(t, "=")
			if contains(spec.longVal, n[2:]) && !hasEq && i+1 < len(args) {
				i++
				v = args[i].text
			}
			vals = append(vals, optVal{n, v})
		default:
			for j := 1; j < len(t); j++ {
				c := t[j]
				if spec.numeric && c >= '0' && c <= '9' {
					break
				}
				if strings.IndexByte(spec.shortVal, c) >= 0 {
					v := t[j+1:]
					if v == "" && i+1 < len(args) {
						i++
						v = args[i].text
					}
					vals = append(vals, optVal{"-" + string(c), v})
					break
				}
				vals = append(vals, optVal{"-" + string(c), ""})
			}
		}
	}
	return ops, vals
}

// files records the file operands of a well-known reader or writer.
func (w *walker) files(name string, args []word, owner string, d *dirState) {
	spec, ok := fileSpecs[name]
	if !ok || len(args) == 0 {
		return
	}
	switch spec.kind {
	case ddKind:
		for _, a := range args {
			if v, ok := strings.CutPrefix(a.text, "if="); ok {
				a.text = v
				w.file(a, false, owner, d)
			} else if v, ok := strings.CutPrefix(a.text, "of="); ok {
				a.text = v
				w.file(a, true, owner, d)
			}
		}
		return
	case jqKind:
		w.jqFiles(args, owner, d)
		return
	case awkKind:
		w.awkFiles(args, owner, d)
		return
	case curlKind, wgetKind:
		w.fetchFiles(spec.kind, args, owner, d)
		return
	case tarKind:
		w.tarFiles(args, owner, d)
		return
	}
	ops, vals := parseArgs(spec, name, args)
	var dir *word
	write := false // sed -i
	pattern := spec.pattern
	for _, v := range vals {
		vw := litWord(v.val)
		for _, a := range args {
			if a.text == v.val {
				vw = a
				break
			}
		}
		switch {
		case contains(spec.readOpts, v.opt):
			w.file(vw, false, owner, d)
		case contains(spec.writeOpts, v.opt):
			w.file(vw, true, owner, d)
		case contains(spec.dirOpts, v.opt):
			dir = &vw
		}
		if contains(spec.patOpts, v.opt) {
			pattern = false
		}
		if spec.kind == sedKind && (v.opt == "-i" || v.opt == "--in-place") {
			write = true
		}
	}
	switch spec.kind {
	case sedKind:
		pattern = !hasAny(vals, "-e", "-f", "--expression", "--file")
	case modeKind:
		pattern = !hasAny(vals, "--reference")
	}
	if pattern && len(ops) > 0 {
		ops = ops[1:]
	}
	if spec.maxOps > 0 && len(ops) > spec.maxOps {
		ops = ops[:spec.maxOps]
	}
	switch spec.kind {
	case readAll, firstKind, sedKind:
		if spec.kind == firstKind && len(ops) > 1 {
			ops = ops[:1]
		}
		for _, o := range ops {
			w.file(o, write, owner, d)
		}
	case writeAll, modeKind:
		for _, o := range ops {
			w.file(o, true, owner, d)
		}
	case pairKind:
		for i, o := range ops {
			if i > 1 {
				break
			}
			w.file(o, i == 1, owner, d)
		}
	case copyKind, moveKind, linkKind:
		srcs := ops
		if dir != nil {
			w.file(*dir, true, owner, d)
		} else if _, ok := hasOpt(vals, "-d", "--directory"); ok && name == "install" {
			for _, o := range ops {
				w.file(o, true, owner, d)
			}
			return
		} else if len(ops) > 0 {
			dst := ops[len(ops)-1]
			if len(ops) == 1 && spec.kind == linkKind {
				dst.text = path.Base(dst.text)
			} else {
				srcs = ops[:len(ops)-1]
			}
			w.file(dst, true, owner, d)
		}
		if spec.kind == linkKind {
			return
		}
		for _, o := range srcs {
			w.file(o, spec.kind == moveKind, owner, d)
		}
	case scpKind:
		for i, o := range ops {
			if isRemote(o.text) {
				continue
			}
			w.file(o, i == len(ops)-1 && len(ops) > 1, owner, d)
		}
	}
}

func hasAny(vals []optVal, opts ...string) bool {
	_, ok := hasOpt(vals, opts...)
	return ok
}

// isRemote reports whether an scp/rsync operand names a remote path.
func isRemote(s string) bool {
	i := strings.IndexByte(s, ':')
	return i > 0 && !strings.Contains(s[:i], "/")
}

func (w *walker) jqFiles(args []word, owner string, d *dirState) {
	filter := true
	var ops []word
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "--args" || t == "--jsonargs":
			i = len(args)
		case t == "--arg" || t == "--argjson":
			i += 2
		case t == "--slurpfile" || t == "--rawfile":
			if i+2 < len(args) {
				w.file(args[i+2], false, owner, d)
			}
			i += 2
		case t == "-f" || t == "--from-file":
			filter = false
			if i+1 < len(args) {
				i++
				w.file(args[i], false, owner, d)
			}
		case t == "--indent" || t == "-L" || t == "--tab-width":
			i++
		case len(t) > 1 && t[0] == '-':
		default:
			ops = append(ops, args[i])
		}
	}
	if filter && len(ops) > 0 {
		ops = ops[1:]
	}
	for _, o := range ops {
		w.file(o, false, owner, d)
	}
}

func (w *walker) awkFiles(args []word, owner string, d *dirState) {
	prog := true
	var ops []word
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
		case t == "-f" || t == "--file" || t == "-i" || t == "--include" || t == "-E" || t == "--exec":
			prog = false
			if i+1 < len(args) {
				i++
				w.file(args[i], false, owner, d)
			}
		case t == "-v" || t == "-F" || t == "--assign" || t == "--field-separator" || t == "-e" || t == "--source" || t == "-l" || t == "--load":
			if t == "-e" || t == "--source" {
				prog = false
			}
			i++
		case len(t) > 1 && t[0] == '-':
		default:
			ops = append(ops, args[i])
		}
	}
	if prog && len(ops) > 0 {
		ops = ops[1:]
	}
	for _, o := range ops {
		if isAssignment(o.text) {
			continue
		}
		w.file(o, false, owner, d)
	}
}

func (w *walker) fetchFiles(kind fileKind, args []word, owner string, d *dirState) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		var opt, val string
		hasVal := false
		if n, v, ok := strings.Cut(t, "="); ok && strings.HasPrefix(t, "--") {
			opt, val, hasVal = n, v, true
		} else if len(t) > 2 && t[0] == '-' && t[1] != '-' && strings.IndexByte("oOTdFKi", t[1]) >= 0 {
			opt, val, hasVal = t[:2], t[2:], true
		} else {
			opt = t
		}
		next := func() (word, bool) {
			if hasVal {
				return litWord(val), true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return word{}, false
		}
		switch kind {
		case curlKind:
			switch opt {
			case "-o", "--output":
				if f, ok := next(); ok && f.text != "-" {
					w.file(f, true, owner, d)
				}
			case "-T", "--upload-file", "-K", "--config":
				if f, ok := next(); ok && f.text != "-" {
					w.file(f, false, owner, d)
				}
			case "-d", "--data", "--data-binary", "--data-urlencode", "-F", "--form", "--json":
				if f, ok := next(); ok {
					if j := strings.IndexByte(f.text, '@'); j >= 0 && (j == 0 || opt == "-F" || opt == "--form" || opt == "--data-urlencode") {
						p := f.text[j+1:]
						if k := strings.IndexByte(p, ';'); k >= 0 {
							p = p[:k]
						}
						if p != "-" && p != "" {
							f.text = p
							w.file(f, false, owner, d)
						}
					}
				}
			}
		case wgetKind:
			switch opt {
			case "-O", "--output-document", "-o", "--output-file", "-a", "--append-output":
				if f, ok := next(); ok && f.text != "-" {
					w.file(f, true, owner, d)
				}
			case "-i", "--input-file", "--post-file", "--body-file":
				if f, ok := next(); ok && f.text != "-" {
					w.file(f, false, owner, d)
				}
			}
		}
	}
}

func (w *walker) tarFiles(args []word, owner string, d *dirState) {
	mode := byte(0)
	var archive *word
	note := func(s string) {
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case 'c', 'r', 'u', 'A', 'x', 't', 'd':
				if mode == 0 {
					mode = s[i]
				}
			}
		}
	}
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case i == 0 && !strings.HasPrefix(t, "-"):
			note(t)
			if j := strings.IndexByte(t, 'f'); j >= 0 && i+1 < len(args) {
				i++
				a := args[i]
				archive = &a
			}
		case strings.HasPrefix(t, "--file="):
			a := args[i]
			a.text = t[len("--file="):]
			archive = &a
		case t == "--file" && i+1 < len(args):
			i++
			a := args[i]
			archive = &a
		case t == "--create", t == "--append", t == "--update":
			mode = 'c'
		case t == "--extract", t == "--get", t == "--list":
			mode = 'x'
		case strings.HasPrefix(t, "--"):
		case len(t) > 1 && t[0] == '-':
			note(t[1:])
			if j := strings.IndexByte(t, 'f'); j > 0 {
				a := word{text: t[j+1:], static: true}
				if a.text == "" && i+1 < len(args) {
					i++
					a = args[i]
				}
				archive = &a
			}
		}
	}
	if archive != nil && archive.text != "-" {
		w.file(*archive, mode == 'c' || mode == 'r' || mode == 'u' || mode == 'A', owner, d)
	}
}

// nonFiles are device paths that are not file subjects.
func nonFile(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero",
		"/dev/random", "/dev/urandom", "/dev/full", "{}", "", "-":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/self/fd/")
}

// file records one file the script touches.
func (w *walker) file(wd word, write bool, owner string, d *dirState) {
	if nonFile(wd.text) || strings.HasPrefix(wd.text, "/dev/tcp/") || strings.HasPrefix(wd.text, "/dev/udp/") ||
		!wd.static && (strings.HasPrefix(wd.text, "<(") || strings.HasPrefix(wd.text, ">(")) {
		return
	}
	p := wd.text
	static := wd.static && !wd.glob
	if wd.tilde || strings.HasPrefix(p, "$") {
		if e, ok := expandHome(p, w.a.home); ok {
			p = e
			static = !wd.glob && !strings.ContainsAny(p, "$`")
		}
	}
	f := File{Path: p, Write: write, Static: static, Command: owner}
	if d != nil && d.dir != "" && !path.IsAbs(p) && !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "$") {
		f.Dir = d.dir
	}
	w.res.Files = append(w.res.Files, f)
	if write {
		full := p
		if f.Dir != "" {
			full = joinDir(f.Dir, p)
		}
		if code, reason, ok := IsCriticalWritePath(full, w.a.home); ok {
			w.critical(code, reason, full)
		}
	}
}
