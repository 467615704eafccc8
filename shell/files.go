package shell

import (
	"path"
	"strings"
	"sync"
)

// fileKind says how a command's operands map to files.
type fileKind uint8

const (
	readAll      fileKind = iota // every operand is read
	writeAll                     // every operand is written
	copyKind                     // sources read, destination written (cp, install)
	moveKind                     // sources and destination written (mv)
	linkKind                     // link names written (ln)
	modeKind                     // first operand is a mode or owner, the rest written
	pairKind                     // INPUT [OUTPUT] (uniq, xxd)
	firstKind                    // the first operand is read (source FILE ARGS…)
	sedKind                      // script, then files read (written with -i)
	awkKind                      // program, then files read
	jqKind                       // filter, then files read
	ddKind                       // if= read, of= written
	scpKind                      // local sources read, local destination written
	curlKind                     // -o written, -T/-d @file read
	wgetKind                     // -O/-o written, -i read
	tarKind                      // -f archive written or read by mode
	gitKind                      // git's writer options and subcommands
	compressKind                 // gzip, xz, …: operands rewritten
	zipKind                      // archive written, files read
	unzipKind                    // archive read, target directory written
	splitKind                    // input read, PREFIX* written
	patchKind                    // the patched files written
	inplaceKind                  // perl -i, ruby -i
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
var fileSpecs = sync.OnceValue(func() map[string]*fileSpec {
	return map[string]*fileSpec{
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
		"rsync": {kind: scpKind, shortVal: "efBTM", longVal: []string{"rsh", "rsync-path", "filter", "exclude", "include", "exclude-from",
			"include-from", "files-from", "temp-dir", "compare-dest", "copy-dest", "link-dest", "backup-dir", "suffix", "chmod", "chown",
			"log-file", "log-file-format", "password-file", "partial-dir", "max-size", "min-size", "bwlimit", "timeout", "contimeout",
			"port", "sockopts", "out-format", "usermap", "groupmap", "iconv", "block-size", "max-delete", "modify-window",
			"compress-choice", "checksum-choice", "skip-compress", "info", "debug", "outbuf", "remote-option", "address", "protocol",
			"read-batch", "write-batch", "only-write-batch", "stop-after", "stop-at", "mkpath-mode", "early-input"},
			readOpts:  []string{"--exclude-from", "--include-from", "--files-from", "--password-file", "--read-batch", "--early-input"},
			writeOpts: []string{"--log-file", "--write-batch", "--only-write-batch", "--backup-dir", "--partial-dir", "-T", "--temp-dir"}},
		"git":   {kind: gitKind},
		"zip":   {kind: zipKind},
		"unzip": {kind: unzipKind},
		"split": {kind: splitKind},
		"patch": {kind: patchKind},
		"perl":  {kind: inplaceKind}, "ruby": {kind: inplaceKind},
		"curl": {kind: curlKind},
		"wget": {kind: wgetKind},
		"tar":  {kind: tarKind},
	}
})

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
func (w *walker) files(name string, args []word, owner string, c scope, d *dirState) {
	spec, ok := fileSpecs()[name]
	if !ok {
		if _, ok := compressors[name]; ok {
			w.compressFiles(name, args, owner, d)
		}
		return
	}
	switch spec.kind {
	case gitKind:
		w.gitFiles(args, owner, d)
		if sub := subcommand("git", wordTexts(args)); sub < len(args) && args[sub].text == "apply" {
			w.patchFiles("git", args[sub:], c, owner, d)
		}
		return
	case zipKind:
		w.zipFiles(args, owner, d)
		return
	case unzipKind:
		w.unzipFiles(args, owner, d)
		return
	case splitKind:
		w.splitFiles(args, owner, d)
		return
	case patchKind:
		w.patchFiles(name, args, c, owner, d)
		return
	case inplaceKind:
		w.inplaceFiles(name, args, owner, d)
		return
	}
	if len(args) == 0 {
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
				if !hasAny(vals, "-T", "--no-target-directory") {
					dir = &dst
				}
			}
			w.file(dst, true, owner, d)
		}
		for _, o := range srcs {
			if dir != nil {
				w.into(*dir, o, owner, d)
			}
			// A link's target is written through it later ("ln -s
			// ~/.bashrc notes; echo x >> notes"), so it counts as written.
			w.file(o, spec.kind != copyKind, owner, d)
		}
	case scpKind:
		if len(ops) == 1 && name == "rsync" {
			w.file(ops[0], false, owner, d) // rsync SRC lists it
			return
		}
		for i, o := range ops {
			last := i == len(ops)-1
			if !last && !isRemote(o.text) {
				w.file(o, false, owner, d)
			}
			if last && len(ops) > 1 && !isRemote(o.text) {
				w.file(o, true, owner, d)
				for _, s := range ops[:i] {
					w.into(o, s, owner, d)
				}
			}
		}
	}
}

func wordTexts(args []word) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a.text
	}
	return out
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

var curlSpec = &fileSpec{shortVal: "AbcCdDeEFHKmoPQrtTuUwxXyYz", longVal: []string{"output", "upload-file", "config", "data",
	"data-binary", "data-raw", "data-urlencode", "data-ascii", "form", "form-string", "json", "header", "user-agent", "referer",
	"cookie", "cookie-jar", "dump-header", "request", "user", "proxy", "proxy-user", "max-time", "connect-timeout", "retry",
	"retry-delay", "retry-max-time", "range", "write-out", "output-dir", "cert", "key", "cacert", "capath", "trace",
	"trace-ascii", "stderr", "libcurl", "etag-save", "etag-compare", "hsts", "alt-svc", "url", "resolve", "connect-to",
	"interface", "limit-rate", "max-filesize", "speed-limit", "speed-time", "time-cond", "continue-at", "quote",
	"telnet-option", "ftp-port", "netrc-file", "unix-socket", "abstract-unix-socket", "proto", "proto-redir", "variable",
	"create-file-mode", "local-port", "ciphers", "pinnedpubkey", "oauth2-bearer", "aws-sigv4", "preproxy", "noproxy",
	"mail-from", "mail-rcpt", "max-redirs", "dns-servers", "doh-url", "tls-max", "url-query", "proxy-header", "key-type",
	"cert-type", "request-target", "socks5", "socks5-hostname", "happy-eyeballs-timeout-ms", "keepalive-time"}}

var wgetSpec = &fileSpec{shortVal: "oaiBtOTwQPUlARDXIe", longVal: []string{"output-document", "output-file", "append-output",
	"input-file", "base", "tries", "timeout", "wait", "quota", "directory-prefix", "user-agent", "level", "accept", "reject",
	"domains", "exclude-directories", "include-directories", "execute", "post-file", "post-data", "body-file", "body-data",
	"load-cookies", "save-cookies", "header", "user", "password", "http-user", "http-password", "method", "referer",
	"limit-rate", "ca-certificate", "certificate", "private-key", "bind-address", "dns-timeout", "connect-timeout",
	"read-timeout", "waitretry", "cut-dirs", "default-page", "restrict-file-names", "local-encoding", "remote-encoding",
	"config", "use-askpass", "progress", "report-speed", "warc-file", "rejected-log", "hsts-file", "ca-directory"}}

// fetchFiles records what curl and wget read and write: -o/-O outputs
// (the URL's own name with -O, or wget's default), --output-dir and -P
// directories, cookie jars, header dumps and logs written; uploads, form
// and data files (@file), configs and cookie files read.
func (w *walker) fetchFiles(kind fileKind, args []word, owner string, d *dirState) {
	spec := curlSpec
	if kind == wgetKind {
		spec = wgetSpec
	}
	ops, vals := parseArgs(spec, "", args)
	var dir *word
	find := func(v string) word {
		for _, a := range args {
			if a.text == v || strings.HasSuffix(a.text, "="+v) || strings.HasSuffix(a.text, v) && strings.HasPrefix(a.text, "-") {
				a.text = v
				return a
			}
		}
		return litWord(v)
	}
	write := func(v string) {
		if v == "" || v == "-" {
			return
		}
		f := find(v)
		if dir != nil && !path.IsAbs(v) {
			f = joinWord(*dir, v, f.static)
		}
		w.file(f, true, owner, d)
	}
	read := func(v string) {
		if v != "" && v != "-" {
			w.file(find(v), false, owner, d)
		}
	}
	for _, v := range vals {
		if v.opt == "--output-dir" || v.opt == "-P" || v.opt == "--directory-prefix" {
			dw := find(v.val)
			dir = &dw
		}
	}
	var urls []string
	for _, o := range ops {
		urls = append(urls, o.text)
	}
	outputs, remoteName, unknownName, recursive, inputList := 0, false, false, false, false
	for _, v := range vals {
		switch kind {
		case curlKind:
			switch v.opt {
			case "-o", "--output":
				outputs++
				write(v.val)
			case "-O", "--remote-name", "--remote-name-all":
				remoteName = true
			case "-J", "--remote-header-name":
				unknownName = true
			case "-c", "--cookie-jar", "-D", "--dump-header", "--trace", "--trace-ascii", "--stderr", "--libcurl", "--etag-save", "--hsts", "--alt-svc":
				if v.val != "-" && v.val != "%" {
					w.file(find(v.val), true, owner, d)
				}
			case "-T", "--upload-file", "-K", "--config", "--etag-compare", "-E", "--cert", "--key", "--cacert", "--netrc-file":
				read(v.val)
			case "-b", "--cookie":
				if !strings.Contains(v.val, "=") {
					read(v.val)
				}
			case "--url":
				urls = append(urls, v.val)
			case "-w", "--write-out":
				// %output{file} and %output{>>file} write files.
				for rest := v.val; ; {
					i := strings.Index(rest, "%output{")
					if i < 0 {
						break
					}
					rest = rest[i+len("%output{"):]
					j := strings.IndexByte(rest, '}')
					if j < 0 {
						break
					}
					w.file(litWord(strings.TrimLeft(rest[:j], ">")), true, owner, d)
					rest = rest[j:]
				}
			case "-d", "--data", "--data-binary", "--data-urlencode", "--data-ascii", "-F", "--form", "--json":
				if j := strings.IndexByte(v.val, '@'); j >= 0 && (j == 0 || v.opt == "-F" || v.opt == "--form" || v.opt == "--data-urlencode") {
					p := v.val[j+1:]
					if k := strings.IndexByte(p, ';'); k >= 0 {
						p = p[:k]
					}
					read(p)
				} else if v.opt == "-F" || v.opt == "--form" {
					if j := strings.Index(v.val, "=<"); j >= 0 {
						read(v.val[j+2:])
					}
				}
			}
		case wgetKind:
			switch v.opt {
			case "-O", "--output-document":
				outputs++
				write(v.val)
			case "-o", "--output-file", "-a", "--append-output", "--save-cookies", "--warc-file", "--rejected-log", "--hsts-file":
				w.file(find(v.val), true, owner, d)
			case "-i", "--input-file", "--post-file", "--body-file", "--load-cookies", "--config", "--ca-certificate", "--certificate", "--private-key":
				read(v.val)
				if v.opt == "-i" || v.opt == "--input-file" {
					inputList = true
				}
			case "-r", "--recursive", "-m", "--mirror", "-p", "--page-requisites", "-x", "--force-directories", "--content-disposition", "--trust-server-names":
				recursive = true
			}
		}
	}
	if kind == wgetKind && outputs == 0 {
		remoteName = true                      // wget saves under the URL's name by default
		unknownName = unknownName || inputList // … and the listed URLs' names
	}
	if unknownName || recursive {
		// The server chooses the names: a pattern no allow rule vouches for.
		base := litWord(".")
		if dir != nil {
			base = *dir
		}
		w.file(joinWord(base, "*", false), true, owner, d)
	}
	if !remoteName {
		return
	}
	for _, u := range urls {
		if !strings.Contains(u, "/") && !strings.Contains(u, ".") {
			continue
		}
		b := urlBase(u)
		if b == "" || b == "/" || b == "." {
			if kind != wgetKind {
				continue
			}
			b = "index.html"
		}
		write(b)
	}
}

// tarValueShort are tar's short options that take a value.
const tarValueShort = "fCbHKLNTXVgIF"

// tarValueLong are tar's long options that take a value as the next word.
var tarValueLong = []string{"--file", "--directory", "--files-from", "--exclude-from", "--exclude", "--transform", "--xform",
	"--owner", "--group", "--mode", "--mtime", "--listed-incremental", "--newer", "--after-date", "--newer-mtime", "--label",
	"--format", "--blocking-factor", "--use-compress-program", "--to-command", "--info-script", "--new-volume-script",
	"--checkpoint-action", "--suffix", "--backup", "--record-size", "--tape-length", "--starting-file", "--volno-file",
	"--rsh-command", "--index-file", "--strip-components", "--owner-map", "--group-map", "--exclude-tag", "--exclude-tag-all",
	"--exclude-tag-under", "--occurrence", "--sparse-version", "--hole-detection", "--pax-option", "--quoting-style",
	"--xattrs-include", "--xattrs-exclude"}

// tarFiles records tar's archive (written when creating, read when
// extracting or listing), the files it adds (read) and where it
// extracts (written): the -C directory or the working directory, and the
// members named on the command line in it.
func (w *walker) tarFiles(args []word, owner string, d *dirState) {
	mode := byte(0)
	var archive *word
	var ops []word
	dir := litWord(".")
	toStdout := false
	note := func(s string) {
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case 'c', 'r', 'u', 'A', 'x', 't', 'd':
				if mode == 0 {
					mode = s[i]
				}
			case 'O':
				toStdout = true
			}
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		next := func() (word, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return word{}, false
		}
		switch {
		case i == 0 && !strings.HasPrefix(t, "-") && a.static:
			// Old style: "tar czf ARCHIVE", the values of its letters follow in order.
			note(t)
			for j := 0; j < len(t); j++ {
				if strings.IndexByte(tarValueShort, t[j]) < 0 {
					continue
				}
				v, ok := next()
				if !ok {
					break
				}
				switch t[j] {
				case 'f':
					archive = &v
				case 'C':
					dir = v
				case 'T', 'X':
					w.file(v, false, owner, d)
				}
			}
		case t == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
		case !a.static || !strings.HasPrefix(t, "-") || t == "-":
			ops = append(ops, a)
		case strings.HasPrefix(t, "--"):
			n, v, hasEq := strings.Cut(t, "=")
			vw := a
			vw.text = v
			if !hasEq && contains(tarValueLong, n) {
				vw, _ = next()
			}
			switch n {
			case "--file":
				archive = &vw
			case "--directory":
				dir = vw
			case "--files-from", "--exclude-from":
				w.file(vw, false, owner, d)
			case "--listed-incremental", "--index-file", "--volno-file":
				w.file(vw, true, owner, d)
			case "--create", "--append", "--update", "--concatenate", "--catenate":
				mode = 'c'
			case "--extract", "--get":
				mode = 'x'
			case "--list", "--diff", "--compare", "--test-label":
				mode = 't'
			case "--to-stdout":
				toStdout = true
			}
		default:
			for j := 1; j < len(t); j++ {
				ch := t[j]
				note(string(ch))
				if strings.IndexByte(tarValueShort, ch) < 0 {
					continue
				}
				v := a
				v.text = t[j+1:]
				if v.text == "" {
					v, _ = next()
				}
				switch ch {
				case 'f':
					archive = &v
				case 'C':
					dir = v
				case 'T', 'X':
					w.file(v, false, owner, d)
				case 'g':
					w.file(v, true, owner, d)
				}
				break
			}
		}
	}
	creating := mode == 'c' || mode == 'r' || mode == 'u' || mode == 'A'
	if archive != nil && archive.text != "-" && !isRemote(archive.text) {
		w.file(*archive, creating, owner, d)
	}
	switch {
	case creating:
		for _, o := range ops {
			w.file(joinWord(dir, o.text, o.static), false, owner, d)
		}
	case mode == 'x' && !toStdout:
		w.file(dir, true, owner, d)
		for _, o := range ops {
			w.file(joinWord(dir, o.text, o.static), true, owner, d)
		}
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
	if !static {
		if e, ok := defaultExpansion(p, w.a.home); ok {
			f.Alts = []string{e}
		}
	}
	rel := !path.IsAbs(p) && !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "$")
	if d == nil || !rel {
		w.addFile(f)
		return
	}
	// A relative path resolves against every directory the shell may be
	// in (a cd that fails or does not run leaves it elsewhere).
	d.each(func(dir string) {
		f.Dir = dir
		w.addFile(f)
	})
	if d.lost() {
		f.Dir, f.Static = "", false
		w.addFile(f)
	}
}

// addFile records f and the critical risk of writing it.
func (w *walker) addFile(f File) {
	w.spendSubject(len(f.Path) + len(f.Dir))
	w.res.Files = append(w.res.Files, f)
	if f.Write {
		full := f.Path
		if f.Dir != "" {
			full = joinDir(f.Dir, f.Path)
		}
		if code, reason, ok := IsCriticalWritePath(full, w.a.home); ok {
			w.critical(code, reason, full)
		}
	}
}
