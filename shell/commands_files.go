package shell

import "strings"

// The file family of the command table: which files a command's options
// and operands read and write. An option's effect is its file role
// (read, write, output, destination directory, archive), the form its
// value names the file in, and the mode it switches in the operand
// layout; the operands' effect is the entry's layout (fileKind).
// Over-approximating a write is fine: a write subject only asks when no
// write rule covers it.

// Option effects several entries share. The helpers are functions, not
// func-typed vars, so the compiler can inline them into the table and lay
// it out statically instead of building it in every process's init.
// gpgFiles: gpg reads its operands (to encrypt, decrypt, verify, import)
// and writes -o; key IDs read as file names name nothing.
var gpgFiles = &cmdSpec{files: readAll, probe: true, shortVal: "oruRfzZ", long: []string{"output=", "recipient=", "local-user=", "hidden-recipient=",
	"homedir=", "passphrase=", "passphrase-file=", "default-key=", "keyring=", "secret-keyring=", "trust-model=", "cipher-algo=", "digest-algo=",
	"compress-level=", "pinentry-mode=", "keyserver=", "status-fd=", "logger-fd=", "command-fd="},
	opts: []optEffect{writeValue("-o", "--output"), readValue("--passphrase-file")}}

// opensslFiles are the openssl subcommands that read -in and write
// -out (and -keyout), in its one-dash spelling.
func opensslFiles() subcommands {
	spec := &cmdSpec{singleDash: true, long: []string{"in=", "out=", "keyout=", "key=", "inkey=", "signkey=", "CAfile=", "CAkey=", "CA=",
		"config=", "cert=", "certfile=", "passin=", "passout=", "pass=", "k=", "kfile=", "md=", "days=", "subj=", "newkey=", "inform=", "outform=",
		"name=", "aes256", "aes-256-cbc", "d", "e", "a", "base64", "nodes", "noout", "text", "pubout", "pbkdf2", "salt", "x509", "new", "req", "verify"},
		opts: []optEffect{writeValue("-out", "-keyout"), readValue("-in", "-key", "-inkey", "-signkey", "-CAfile", "-CAkey", "-CA", "-config", "-cert", "-certfile", "-kfile")}}
	names := []string{"enc", "req", "x509", "rsa", "genrsa", "genpkey", "pkey", "pkcs12", "pkcs7", "pkcs8", "dgst", "base64", "smime", "cms",
		"ca", "crl", "dhparam", "ec", "ecparam", "rand", "pkeyutl", "rsautl", "asn1parse", "aes-256-cbc", "des3"}
	out := make(subcommands, len(names))
	for i, n := range names {
		out[i] = namedSpec{n, spec}
	}
	return out
}

func readValue(names ...string) optEffect  { return optEffect{names: names, file: fileRead} }
func writeValue(names ...string) optEffect { return optEffect{names: names, file: fileWrite} }
func patternBy(names ...string) optEffect  { return optEffect{names: names, pattern: true} }

// pipFiles is where pip install puts packages (--target, --prefix,
// --root; --src for editable checkouts) and pip download its files.
func pipFiles() *cmdSpec {
	return &cmdSpec{files: bySub, subs: subcommands{
		{"install", &cmdSpec{opts: []optEffect{writeValue("-t", "--target", "--prefix", "--root", "--src")}}},
		{"download", &cmdSpec{opts: []optEffect{writeValue("-d", "--dest", "--src")}}},
	}}
}

// awsValues are the AWS CLI's global options that take a value, and
// those of aws s3's copies.
var awsValues = []string{"profile=", "region=", "output=", "query=", "endpoint-url=", "ca-bundle=", "cli-read-timeout=",
	"cli-connect-timeout=", "color=", "cli-binary-format=", "exclude=", "include=", "acl=", "sse=", "sse-c=", "sse-c-key=",
	"sse-kms-key-id=", "storage-class=", "website-redirect=", "content-type=", "cache-control=", "content-disposition=",
	"content-encoding=", "content-language=", "expires=", "source-region=", "metadata=", "metadata-directive=", "copy-props=",
	"expected-size=", "request-payer=", "checksum-mode=", "checksum-algorithm=", "page-size="}

// gcloudValues are gcloud's global options that take a value.
var gcloudValues = []string{"project=", "account=", "configuration=", "format=", "verbosity=", "impersonate-service-account=",
	"billing-project=", "flags-file=", "flatten=", "trace-token="}

// gcloudComputeFiles: gcloud compute scp copies as scp does.
var gcloudComputeFiles = &cmdSpec{files: bySub, subs: subcommands{{"scp", &cmdSpec{files: scpKind, long: []string{"zone=", "project=",
	"ssh-key-file=", "scp-flag=", "port=", "strict-host-key-checking=", "tunnel-through-iap", "recurse", "compress", "internal-ip", "dry-run"}}}}}

// gcloudTrackFiles: gcloud alpha and beta hold the same groups.
var gcloudTrackFiles = &cmdSpec{files: bySub, subs: subcommands{{"compute", gcloudComputeFiles}}}

// helmPullFiles: helm pull writes the chart into -d, --destination, and
// with --untar unpacks it into --untardir.
var helmPullFiles = &cmdSpec{fileOpts: true, shortVal: "d", long: []string{"destination=", "untardir=", "untar", "version=", "repo=", "username=", "password=", "keyring="},
	opts: []optEffect{{names: []string{"-d", "--destination", "--untardir"}, file: fileInto}}}

// lastWritten: the last operand is written, the ones before read; an
// option's value the table cannot tell from an operand reads as one.
var lastWritten = &cmdSpec{files: codeKind, rare: &rareSpec{fileCode: (*walker).lastWrittenCode}}

// dumpFiles: pg_dump's and pg_dumpall's -f, --file.
var dumpFiles = &cmdSpec{shortVal: "fdhpUZ", long: []string{"file=", "dbname=", "host=", "port=", "username="}, opts: []optEffect{writeValue("-f", "--file")}, fileOpts: true}

// terraformFiles: a plan saved with -out, a state with -state-out.
var terraformFiles = &cmdSpec{files: bySub, subs: subcommands{{"plan", terraformOut}, {"apply", terraformOut}, {"refresh", terraformOut}}}

var terraformOut = &cmdSpec{singleDash: true, long: []string{"out=", "state-out=", "backup="}, opts: []optEffect{writeValue("-out", "-state-out", "-backup")}, fileOpts: true}

// sqliteFiles: sqlite3 DB [SQL…]: the database read, the files its dot
// commands name.
var sqliteFiles = &cmdSpec{files: codeKind, rare: &rareSpec{fileCode: (*walker).sqliteCode}}

// mysqlFiles: the files mysql's -e statements name (tee, source).
var mysqlFiles = &cmdSpec{files: codeKind, rare: &rareSpec{fileCode: (*walker).mysqlCode}}

// ghClone: gh repo clone REPO [DIR] writes the repository's files,
// which the call does not name, into DIR; git clone's own flags follow
// "--".
var ghClone = &cmdSpec{files: codeKind, rare: &rareSpec{fileCode: (*walker).ghCloneCode}, shortVal: "u", long: []string{"upstream-remote-name=", "no-upstream"}}

// sevenZipFiles: 7z's command letter says what its archive and files
// are (sevenZipCode).
var sevenZipFiles = &cmdSpec{files: codeKind, rare: &rareSpec{fileCode: (*walker).sevenZipCode}}

// awsOutfile is an AWS service whose operations may write their
// response to a file named last (awsOutfileCode).
var awsOutfile = &cmdSpec{files: codeKind, rare: &rareSpec{fileCode: (*walker).awsOutfileCode}}

// storeSubs are an object store client's subcommands that copy
// (storeFiles): a name with "mv" or "move" in it moves, "sync", "rsync"
// and "mirror" merge into their destination.
func storeSubs(names ...string) subcommands {
	out := make(subcommands, len(names))
	for i, n := range names {
		code := (*walker).storeCopyCode
		switch {
		case strings.Contains(n, "mv") || strings.Contains(n, "move"):
			code = (*walker).storeMoveCode
		case strings.Contains(n, "sync") || n == "mirror":
			code = (*walker).storeSyncCode
		}
		out[i] = namedSpec{n, &cmdSpec{files: codeKind, rare: &rareSpec{fileCode: code}}}
	}
	return out
}

// npmInstallFiles: npm install --prefix DIR installs into DIR (global
// packages and their programs, with -g).
var npmInstallFiles = &cmdSpec{opts: []optEffect{writeValue("--prefix")}}

var (
	// goOutput is go build's and go test's -o: the binary written, in
	// every spelling Go's flag package reads (goOutputs).
	goOutput = &cmdSpec{rare: &rareSpec{fileCode: (*walker).goOutputs}}
	// makeFiles is make's -C, the directory whose makefile's recipes run
	// there, writing in it, and the variables that say where an install
	// writes (DESTDIR=/, PREFIX=~/.local): makeDirs.
	makeFiles   = &cmdSpec{shortVal: "C", long: []string{"directory="}, rare: &rareSpec{fileCode: (*walker).makeDirs}}
	readSimple  = &cmdSpec{files: readAll}
	writeSimple = &cmdSpec{files: writeAll}
	grepFiles   = &cmdSpec{files: readAll, shortVal: "efmABCdD", numeric: true, pattern: true,
		long: []string{"regexp=", "file=", "max-count=", "after-context=", "before-context=", "context=", "directories=",
			"devices=", "include=", "exclude=", "exclude-from=", "exclude-dir=", "label=", "binary-files=", "group-separator="},
		opts: []optEffect{patternBy("-e", "--regexp"), {names: []string{"-f", "--file"}, file: fileRead, pattern: true}, readValue("--exclude-from")}}
	copyLong = []string{"target-directory=", "suffix=", "no-target-directory"}
	copyOpts = []optEffect{
		{names: []string{"-t", "--target-directory"}, file: fileDir},
		{names: []string{"-T", "--no-target-directory"}, mode: "no-target"},
	}
	// fd PATTERN [PATH…]: the pattern picks among the names below the
	// paths, which it lists; the directories it starts from are read.
	fdFiles = &cmdSpec{files: readAll, pattern: true, shortVal: "etdEcjSo",
		long: []string{"extension=", "type=", "max-depth=", "min-depth=", "exact-depth=", "exclude=", "color=", "threads=", "size=",
			"changed-within=", "changed-before=", "owner=", "base-directory=", "path-separator=", "search-path=", "max-results=",
			"ignore-file=", "format=", "batch-size=", "max-buffer-time=", "and="},
		opts: []optEffect{patternBy("--and"), readValue("--base-directory", "--search-path", "--ignore-file")}}
	checksums = &cmdSpec{files: readAll}
	// compiler: "@FILE" is a response file, read for more options.
	compiler = &cmdSpec{files: readAll, shortVal: "oIlLDUxeTuzBF", opts: []optEffect{writeValue("-o"), {operand: true, file: fileRead, form: formAt}}}
	// compressor returns a compressor's entry: its operands are rewritten
	// (and removed) under the suffix added or removed, or only read with
	// -c, -t or -l; lz4 IN OUT and zstd -o OUT name the output.
	compressor = func(suffix string, decompress bool) *cmdSpec {
		return &cmdSpec{files: compressKind, rare: &rareSpec{suffix: suffix}, decompress: decompress, shortVal: "So", probe: true,
			long: []string{"suffix=", "output=", "stdout", "to-stdout", "test", "list", "decompress", "uncompress"},
			opts: []optEffect{{names: []string{"-c", "-t", "-l", "--stdout", "--to-stdout", "--test", "--list"}, mode: "stdout"},
				{names: []string{"-d", "--decompress", "--uncompress"}, mode: "decompress"},
				{names: []string{"-S", "--suffix"}, mode: "suffix"},
				{names: []string{"-o", "--output"}, file: fileOutput}}}
	}
	// httpie is HTTPie (http, https) and xh: request items name@path,
	// name=@path and name:=@path upload or embed a file; -o writes the
	// response.
	httpie = &cmdSpec{files: noFiles, shortVal: "oa", long: []string{"output=", "download", "auth=", "session=", "session-read-only=", "verify=", "cert=", "cert-key="},
		opts: []optEffect{{operand: true, file: fileRead, form: formItem}, {names: []string{"-o", "--output"}, file: fileWrite},
			readValue("--cert", "--cert-key"), {names: []string{"--session"}, file: fileWrite}, readValue("--session-read-only")}}
)

// gitFiles is git's file entry: -C DIR moves every path; --output and
// --pathspec-from-file are every subcommand's; each subcommand's
// options and operand layout say the rest.
var gitFiles = &cmdSpec{files: bySub, opts: []optEffect{{names: []string{"-C"}, file: fileChdir}},
	rare: &rareSpec{everySub: []optEffect{writeValue("--output"), readValue("--pathspec-from-file")}},
	subs: subcommands{
		{"mv", &cmdSpec{files: writeAll}}, {"rm", &cmdSpec{files: writeAll}},
		{"restore", &cmdSpec{files: writeAll, shortVal: "s", long: []string{"source="}}},
		{"checkout", &cmdSpec{files: codeKind, rare: &rareSpec{fileCode: (*walker).gitCheckoutFiles}, shortVal: "bB", long: []string{"orphan=", "conflict="}}},
		{"commit", &cmdSpec{shortVal: "Ft", long: []string{"file=", "template="}, opts: []optEffect{readValue("-F", "--file", "-t", "--template")}}},
		{"tag", &cmdSpec{shortVal: "F", long: []string{"file="}, opts: []optEffect{readValue("-F", "--file")}}},
		{"merge", &cmdSpec{shortVal: "F", long: []string{"file="}, opts: []optEffect{readValue("-F", "--file")}}},
		{"notes", &cmdSpec{shortVal: "F", long: []string{"file="}, opts: []optEffect{readValue("-F", "--file")}}},
		{"blame", &cmdSpec{opts: []optEffect{readValue("--contents")}}},
		{"config", &cmdSpec{files: codeKind, rare: &rareSpec{fileCode: (*walker).gitConfigFiles}, shortVal: "f", long: []string{"file="}}},
		{"archive", &cmdSpec{shortVal: "o", opts: []optEffect{writeValue("-o")}}},
		{"format-patch", &cmdSpec{shortVal: "o", opts: []optEffect{writeValue("-o", "--output-directory")}}},
		{"bundle", &cmdSpec{files: bySub, subs: subcommands{{"create", &cmdSpec{files: writeFirst}}}}},
		// The directory a clone creates receives the repository's files,
		// which the call does not name: ~/.config/fish, cloned, brings
		// its config.fish.
		{"clone", &cmdSpec{files: codeKind, rare: &rareSpec{fileCode: (*walker).cloneIntoCode}, shortVal: "obuc", long: []string{"origin=", "branch=", "depth=", "reference=", "separate-git-dir=", "config=", "upload-pack=", "template="}}},
		{"init", &cmdSpec{files: writeFirst}},
		{"worktree", &cmdSpec{files: bySub, subs: subcommands{{"add", &cmdSpec{files: writeFirst, shortVal: "bB", long: []string{"reason="}}}}}},
		{"merge-file", &cmdSpec{files: writeFirst, opts: []optEffect{{names: []string{"-p", "--stdout"}, mode: "stdout"}}}},
		// --no-index compares or searches any files, not the repository.
		{"diff", &cmdSpec{files: readAll, rare: &rareSpec{needMode: "no-index"}, opts: []optEffect{{names: []string{"--no-index"}, mode: "no-index"}}}},
		// -e is declared without its value, so the pattern is read as a
		// file too, as before the table (over-approximated, never less).
		{"grep", &cmdSpec{files: readAll, rare: &rareSpec{needMode: "no-index"}, pattern: true, shortVal: "f",
			opts: []optEffect{{names: []string{"--no-index"}, mode: "no-index"}, patternBy("-e"), {names: []string{"-f"}, file: fileRead, pattern: true}}}},
		// REV:PATH reads PATH as committed.
		{"show", &cmdSpec{opts: []optEffect{{operand: true, file: fileRead, form: formRevPath}}}},
		{"cat-file", &cmdSpec{opts: []optEffect{{operand: true, file: fileRead, form: formRevPath}}}},
		{"apply", &cmdSpec{files: codeKind, rare: &rareSpec{fileCode: (*walker).gitApplyFiles}}},
	}}

// loginKeys are an ssh client's options that name the key it logs in
// with.
var loginKeys = []optEffect{{names: []string{"-i"}, file: fileKey}, {names: []string{"-o"}, values: []string{"IdentityFile", "CertificateFile"}, file: fileKey}}

// ansibleKeys are ansible's options that name the key its ssh logs in
// with.
var ansibleKeys = []optEffect{{names: []string{"--private-key", "--key-file"}, file: fileKey}}

func fileCommands() map[string]*cmdSpec {
	// docker compose config -o FILE writes the configuration there.
	composeFiles := &cmdSpec{files: bySub, subs: subcommands{{"config", &cmdSpec{shortVal: "o", long: []string{"output="},
		opts: []optEffect{writeValue("-o", "--output")}}}}}
	// containerFiles: docker's and podman's compose, and cp (container cp
	// too), which copies between a container's CONTAINER:PATH and this
	// machine as scp does between machines.
	// save and export write the archive -o names; a build's -o
	// exports its result into a directory (buildOutputCode).
	containerCp := &cmdSpec{files: scpKind}
	containerSave := &cmdSpec{fileOpts: true, shortVal: "o", long: []string{"output="}, opts: []optEffect{writeValue("-o", "--output")}}
	containerBuild := &cmdSpec{files: codeKind, rare: &rareSpec{fileCode: (*walker).buildOutputCode}}
	containerFiles := &cmdSpec{files: bySub, shortVal: "Hc", long: []string{"host=", "context=", "config=", "log-level="},
		subs: subcommands{{"compose", composeFiles}, {"cp", containerCp}, {"save", containerSave}, {"export", containerSave},
			{"build", containerBuild}, {"buildx", &cmdSpec{files: bySub, subs: subcommands{{"build", containerBuild}}}},
			{"image", &cmdSpec{files: bySub, subs: subcommands{{"save", containerSave}, {"build", containerBuild}}}},
			{"container", &cmdSpec{files: bySub, subs: subcommands{{"cp", containerCp}, {"export", containerSave}}}}}}
	return map[string]*cmdSpec{
		"docker": containerFiles, "podman": containerFiles, "docker-compose": composeFiles,
		// Readers.
		"find": {files: codeKind, rare: &rareSpec{fileCode: (*walker).findFiles, patternArgs: findPatterns}},
		"cat":  readSimple, "tac": {files: readAll, shortVal: "s", long: []string{"separator="}}, "rev": readSimple,
		"head": {files: readAll, shortVal: "nc", numeric: true, long: []string{"lines=", "bytes="}},
		"tail": {files: readAll, shortVal: "ncs", numeric: true, long: []string{"lines=", "bytes=", "pid=", "sleep-interval=", "max-unchanged-stats="}},
		"less": {files: readAll, shortVal: "bhjkoOpPtTxyz#", numeric: true, opts: []optEffect{writeValue("-o", "-O", "--log-file", "--LOG-FILE")}},
		"more": {files: readAll, shortVal: "n", numeric: true},
		"grep": grepFiles, "egrep": grepFiles, "fgrep": grepFiles, "zgrep": grepFiles,
		"fd": fdFiles, "fdfind": fdFiles,
		"rg": {files: readAll, shortVal: "efgtTmABCjMErd", pattern: true,
			long: []string{"regexp=", "file=", "glob=", "iglob=", "type=", "type-not=", "type-add=", "type-clear=", "max-count=",
				"after-context=", "before-context=", "context=", "threads=", "max-columns=", "encoding=", "replace=", "max-depth=",
				"max-filesize=", "path-separator=", "pre=", "pre-glob=", "sort=", "sortr=", "colors=", "color=", "engine=",
				"dfa-size-limit=", "regex-size-limit=", "ignore-file=", "field-context-separator=", "field-match-separator=",
				"context-separator=", "hostname-bin=", "hyperlink-format=", "generate="},
			opts: []optEffect{patternBy("-e", "--regexp"), {names: []string{"-f", "--file"}, file: fileRead, pattern: true}, readValue("--ignore-file")}},
		"wc": {files: readAll, long: []string{"files0-from="}, opts: []optEffect{readValue("--files0-from")}},
		// du reads --files0-from's names and prints each it cannot
		// find: the file's text, in its errors.
		"du": {long: []string{"files0-from="}, opts: []optEffect{readValue("--files0-from")}},
		"sort": {files: readAll, shortVal: "kotST", long: []string{"key=", "output=", "field-separator=", "buffer-size=", "temporary-directory=", "parallel=", "batch-size=", "compress-program=", "files0-from=", "sort=", "random-source="},
			opts: []optEffect{writeValue("-o", "--output"), readValue("--files0-from")}},
		"uniq": {files: pairKind, shortVal: "fsw", numeric: true, long: []string{"skip-fields=", "skip-chars=", "check-chars=", "group=", "all-repeated="}},
		"diff": {files: readAll, shortVal: "CUIxXFLWS", long: []string{"label=", "ignore-matching-lines=", "exclude=", "exclude-from=", "from-file=", "to-file=", "width=", "tabsize=", "line-format=", "starting-file=", "horizon-lines=", "show-function-line=", "context=", "unified=", "color=", "palette="},
			opts: []optEffect{readValue("-X", "--exclude-from", "--from-file", "--to-file")}},
		"cmp":     {files: readAll, shortVal: "in", rare: &rareSpec{maxOps: 2}, long: []string{"ignore-initial=", "bytes="}},
		"base64":  {files: readAll, shortVal: "w", long: []string{"wrap="}},
		"base32":  {files: readAll, shortVal: "w", long: []string{"wrap="}},
		"strings": {files: readAll, shortVal: "nteT", numeric: true},
		"xxd":     {files: pairKind, shortVal: "cglson"},
		"od":      {files: readAll, shortVal: "AjNt"},
		"hexdump": {files: readAll, shortVal: "efns", opts: []optEffect{readValue("-f")}},
		"nl":      {files: readAll, shortVal: "bdfhilnsvw"},
		// Plain commands that read a file an option names, or print the
		// files they are given: GTFOBins' readers.
		// Compilers: the sources are read (gcc -E prints them), -o written.
		"rustc": {files: readAll, probe: true, shortVal: "oLlCAWDFg", long: []string{"crate-type=", "crate-name=", "edition=", "emit=", "out-dir=", "target=", "cfg=", "cap-lints=", "explain=", "print=", "extern=", "sysroot=", "error-format=", "json=", "color="},
			opts: []optEffect{writeValue("-o"), {names: []string{"--out-dir"}, file: fileDir}}},
		"tcpdump": {files: noFiles, probe: true, opts: []optEffect{writeValue("-w"), readValue("-F", "-r")}},
		// Builders: where an output option puts the build is a write
		// (go build -o ~/.local/bin/git, hugo -d ~, make -C ~ clean), so
		// a build outside the project asks as any write there does.
		"go": {files: bySub, subs: subcommands{{"build", goOutput}, {"test", goOutput}}},
		// Installers: where an option puts what they install is a write
		// of that directory, as a build's output is (the variables that
		// say the same: installDirVars).
		"cargo": {files: bySub, subs: subcommands{{"install", &cmdSpec{opts: []optEffect{writeValue("--root", "--target-dir")}}}}},
		"gem":   {files: bySub, subs: subcommands{{"install", &cmdSpec{opts: []optEffect{writeValue("-i", "--install-dir", "-n", "--bindir")}}}}},
		"pip":   pipFiles(), "pip3": pipFiles(),
		"uv": {files: bySub, subs: subcommands{{"pip", pipFiles()}}},
		"npm": {files: bySub, subs: subcommands{{"install", npmInstallFiles}, {"i", npmInstallFiles}, {"add", npmInstallFiles},
			{"pack", &cmdSpec{fileOpts: true, long: []string{"pack-destination="}, opts: []optEffect{{names: []string{"--pack-destination"}, file: fileInto}}}}}},
		"age": {fileOpts: true, shortVal: "oirR", long: []string{"output=", "identity=", "recipient=", "recipients-file="}, opts: []optEffect{writeValue("-o", "--output")}},
		"mkdocs": {files: bySub, subs: subcommands{{"build", &cmdSpec{shortVal: "dfa", long: []string{"site-dir=", "config-file=", "theme="},
			opts: []optEffect{writeValue("-d", "--site-dir")}}}}},
		"hugo": {shortVal: "dscbtep", long: []string{"destination=", "source=", "contentDir=", "baseURL=", "theme=", "environment=", "config="},
			opts: []optEffect{writeValue("-d", "--destination")}},
		"make": makeFiles, "gmake": makeFiles,
		"gcc": compiler, "cc": compiler, "g++": compiler, "c++": compiler, "clang": compiler, "clang++": compiler,
		"aria2c": {files: noFiles, shortVal: "idoxsjk", long: []string{"input-file=", "dir=", "out="}, opts: []optEffect{readValue("-i", "--input-file"),
			{names: []string{"-d", "--dir"}, file: fileInto}, writeValue("-o", "--out")}},
		"yt-dlp": {shortVal: "oaP", long: []string{"output=", "batch-file=", "paths="}, opts: []optEffect{writeValue("-o", "--output"), readValue("-a", "--batch-file"),
			{names: []string{"-P", "--paths"}, file: fileInto}}, fileOpts: true},
		// Media converters: ffmpeg writes the outputs among its
		// operands (ffmpegCode), ImageMagick its last operand, mogrify
		// every file in place.
		"ffmpeg":  {files: codeKind, rare: &rareSpec{fileCode: (*walker).ffmpegCode}},
		"convert": lastWritten, "magick": lastWritten, "mogrify": {files: writeAll},
		// Dumps and exports to the file or directory an option names.
		"pg_dump": dumpFiles, "pg_dumpall": dumpFiles,
		"cloc":        {long: []string{"report-file=", "out=", "sql="}, opts: []optEffect{writeValue("--report-file", "--out", "--sql")}, fileOpts: true},
		"mysqldump":   {shortVal: "r", long: []string{"result-file="}, opts: []optEffect{writeValue("-r", "--result-file")}, fileOpts: true},
		"mongodump":   {shortVal: "o", long: []string{"out="}, opts: []optEffect{{names: []string{"-o", "--out"}, file: fileInto}}, fileOpts: true},
		"mongoexport": {shortVal: "o", long: []string{"out="}, opts: []optEffect{writeValue("-o", "--out")}, fileOpts: true},
		"redis-cli":   {long: []string{"rdb=", "functions-rdb="}, opts: []optEffect{writeValue("--rdb", "--functions-rdb")}, fileOpts: true},
		"javac":       {shortVal: "dshp", long: []string{"d=", "s=", "h="}, singleDash: true, opts: []optEffect{{names: []string{"-d", "-s", "-h"}, file: fileInto}}, fileOpts: true},
		"terraform":   terraformFiles, "tofu": terraformFiles,
		// Container images copied to a directory or an archive here
		// (skopeo's dir:, oci:, docker-archive: destinations; crane pull
		// and export's file).
		"skopeo": {files: bySub, subs: subcommands{{"copy", &cmdSpec{files: codeKind, rare: &rareSpec{fileCode: (*walker).skopeoCode}}}}},
		"crane":  {files: bySub, subs: subcommands{{"pull", &cmdSpec{files: writeSecond}}, {"export", &cmdSpec{files: writeSecond}}}},
		"column": {files: readAll, shortVal: "csoNRHEWdl", long: []string{"columns=", "separator=", "output-separator=", "table-columns=", "table-right=", "table-hide=", "table-noextreme=", "table-wrap=", "table-name=", "table-order="}},
		"date":   {files: noFiles, shortVal: "dfr", long: []string{"date=", "file=", "reference="}, opts: []optEffect{readValue("-f", "--file")}},
		"file":   {files: noFiles, shortVal: "fmFeP", long: []string{"files-from=", "magic-file=", "separator=", "exclude=", "parameter="}, opts: []optEffect{readValue("-f", "--files-from", "-m", "--magic-file")}},
		"cut":    {files: readAll, shortVal: "bcdf", long: []string{"bytes=", "characters=", "delimiter=", "fields=", "output-delimiter="}},
		"paste":  {files: readAll, shortVal: "d"}, "comm": readSimple, "fold": {files: readAll, shortVal: "w"},
		"join":   {files: readAll, shortVal: "aeotv12"},
		"md5sum": checksums, "sha1sum": checksums, "sha224sum": checksums, "sha256sum": checksums,
		"sha384sum": checksums, "sha512sum": checksums, "b2sum": {files: readAll, shortVal: "l"}, "cksum": checksums, "sum": checksums,
		"bat":  {files: readAll, shortVal: "lHrm", long: []string{"language=", "highlight-line=", "file-name=", "diff-context=", "tabs=", "wrap=", "terminal-width=", "color=", "decorations=", "paging=", "pager=", "map-syntax=", "theme=", "style=", "line-range="}},
		"zcat": readSimple, "bzcat": readSimple, "xzcat": readSimple, "zless": readSimple, "zmore": readSimple,
		// Text filters and converters.
		"expand": {files: readAll, probe: true, shortVal: "t", long: []string{"tabs=", "initial"}}, "unexpand": {files: readAll, probe: true, shortVal: "t", long: []string{"tabs=", "all", "first-only"}},
		"fmt": {files: readAll, probe: true, shortVal: "wgp", numeric: true, long: []string{"width=", "goal=", "prefix="}},
		"pr":  {files: readAll, probe: true, shortVal: "NwWloheisS", long: []string{"columns=", "header=", "length=", "width=", "page-width=", "indent=", "first-line-number=", "sep-string=", "separator="}},
		"iconv": {files: readAll, probe: true, shortVal: "fto", long: []string{"from-code=", "to-code=", "output="},
			opts: []optEffect{writeValue("-o", "--output")}},
		// Mini-languages: the code reads the program or filter.
		"jq":  {files: codeKind, rare: &rareSpec{fileCode: (*walker).jqCode}},
		"awk": {files: codeKind, rare: &rareSpec{fileCode: (*walker).awkCode}}, "gawk": {files: codeKind, rare: &rareSpec{fileCode: (*walker).awkCode}},
		"mawk": {files: codeKind, rare: &rareSpec{fileCode: (*walker).awkCode}}, "nawk": {files: codeKind, rare: &rareSpec{fileCode: (*walker).awkCode}},
		"sed": {files: readAll, pattern: true, shortVal: "efl", long: []string{"expression=", "file=", "line-length=", "in-place"},
			opts: []optEffect{patternBy("-e", "--expression"), {names: []string{"-f", "--file"}, file: fileRead, pattern: true},
				{names: []string{"-i", "--in-place"}, mode: "rewrite"}}},
		// Go's formatters read their files and, with -w, rewrite them.
		"gofmt":     {files: readAll, shortVal: "r", opts: []optEffect{{names: []string{"-w"}, mode: "rewrite"}}},
		"goimports": {files: readAll, shortVal: "", long: []string{"local=", "srcdir="}, opts: []optEffect{{names: []string{"-w"}, mode: "rewrite"}}},
		"source":    {files: firstKind}, ".": {files: firstKind},
		// Database shells: the first operand is the database file.
		// and the files their client commands name (sqlClientFiles).
		"sqlite3": sqliteFiles, "sqlite": sqliteFiles, "duckdb": {files: firstKind},
		"psql":  {files: codeKind, rare: &rareSpec{fileCode: (*walker).psqlCode}},
		"mysql": mysqlFiles, "mariadb": mysqlFiles,
		// Writers.
		"tee": writeSimple,
		// sponge soaks up its input and then writes the file (jq . f |
		// sponge f); dos2unix and unix2dos rewrite theirs in place.
		"sponge": {files: writeAll}, "dos2unix": {files: writeAll, probe: true}, "unix2dos": {files: writeAll, probe: true},
		// Converters and crypto tools that write where -o or -out says.
		"pandoc": {files: readAll, probe: true, shortVal: "oftrwMVcHABdLF", long: []string{"output=", "from=", "to=", "read=", "write=", "metadata=",
			"variable=", "css=", "include-in-header=", "include-before-body=", "include-after-body=", "defaults=", "lua-filter=", "filter=",
			"template=", "data-dir=", "resource-path=", "reference-doc=", "extract-media=", "metadata-file=", "bibliography=", "csl="},
			opts: []optEffect{writeValue("-o", "--output"), writeValue("--extract-media")}},
		"gpg": gpgFiles, "gpg2": gpgFiles,
		"openssl": {files: bySub, subs: opensslFiles()},
		// yq's first operand is its expression; -i rewrites the files.
		"yq": {files: readAll, pattern: true, shortVal: "opIs", long: []string{"output-format=", "input-format=", "indent=", "split-exp=", "front-matter=", "from-file=", "inplace"},
			opts: []optEffect{{names: []string{"-i", "--inplace"}, mode: "rewrite"}, {names: []string{"--from-file"}, file: fileRead, pattern: true}}},
		"cp":      {files: copyKind, shortVal: "tS", long: copyLong, opts: copyOpts},
		"mv":      {files: moveKind, shortVal: "tS", long: copyLong, opts: copyOpts},
		"install": {files: copyKind, shortVal: "mogtS", long: append([]string{"mode=", "owner=", "group=", "strip-program="}, copyLong...), opts: append([]optEffect{{names: []string{"-d", "--directory"}, mode: "rewrite"}}, copyOpts...)},
		"ln":      {files: linkKind, shortVal: "tS", long: copyLong, opts: copyOpts},
		"touch":   {files: writeAll, shortVal: "drt", long: []string{"date=", "reference=", "time="}, opts: []optEffect{readValue("-r", "--reference")}},
		"rm":      writeSimple, "rmdir": writeSimple, "unlink": writeSimple, "sudoedit": writeSimple,
		"rimraf": writeSimple, "del-cli": writeSimple,
		"shred":    {files: writeAll, shortVal: "ns", long: []string{"iterations=", "size=", "random-source="}},
		"truncate": {files: writeAll, shortVal: "sr", long: []string{"size=", "reference="}, opts: []optEffect{readValue("-r", "--reference")}},
		"mkdir":    {files: writeAll, shortVal: "m", long: []string{"mode=", "context="}},
		"chmod":    {files: modeKind, pattern: true, long: []string{"reference="}, opts: []optEffect{{names: []string{"--reference"}, file: fileRead, pattern: true}}},
		"chown":    {files: modeKind, pattern: true, long: []string{"reference=", "from="}, opts: []optEffect{{names: []string{"--reference"}, file: fileRead, pattern: true}}},
		"chgrp":    {files: modeKind, pattern: true, long: []string{"reference="}, opts: []optEffect{{names: []string{"--reference"}, file: fileRead, pattern: true}}},
		"dd":       {files: codeKind, deletes: true, rare: &rareSpec{fileCode: (*walker).ddCode}}, // of= empties the file it writes
		"nmap":     {files: codeKind, rare: &rareSpec{fileCode: (*walker).nmapCode}},
		"scp":      {files: scpKind, shortVal: "cFiJlLoPSDX", opts: loginKeys},
		// The other clients that log in with a key (fileKey): ssh's
		// option value -o IdentityFile=KEY names one too.
		"ssh": {opts: loginKeys}, "sftp": {opts: loginKeys}, "autossh": {opts: loginKeys},
		"ssh-add": {opts: []optEffect{{operand: true, file: fileKey}}},
		"ansible": {probe: true, opts: ansibleKeys}, "ansible-playbook": {probe: true, opts: ansibleKeys}, "ansible-pull": {probe: true, opts: ansibleKeys},
		"rsync": {files: syncKind, shortVal: "efBTM", long: []string{"rsh=", "rsync-path=", "filter=", "exclude=", "include=", "exclude-from=",
			"include-from=", "files-from=", "temp-dir=", "compare-dest=", "copy-dest=", "link-dest=", "backup-dir=", "suffix=", "chmod=", "chown=",
			"log-file=", "log-file-format=", "password-file=", "partial-dir=", "max-size=", "min-size=", "bwlimit=", "timeout=", "contimeout=",
			"port=", "sockopts=", "out-format=", "usermap=", "groupmap=", "iconv=", "block-size=", "max-delete=", "modify-window=",
			"compress-choice=", "checksum-choice=", "skip-compress=", "info=", "debug=", "outbuf=", "remote-option=", "address=", "protocol=",
			"read-batch=", "write-batch=", "only-write-batch=", "stop-after=", "stop-at=", "mkpath-mode=", "early-input="},
			opts: []optEffect{readValue("--exclude-from", "--include-from", "--files-from", "--password-file", "--read-batch", "--early-input"),
				writeValue("--log-file", "--write-batch", "--only-write-batch", "--backup-dir", "--partial-dir", "-T", "--temp-dir")}},
		"git":   gitFiles,
		"zip":   {files: codeKind, rare: &rareSpec{fileCode: (*walker).zipCode}},
		"unzip": {files: codeKind, rare: &rareSpec{fileCode: (*walker).unzipCode}},
		// ditto (macOS): SRC… DEST merges each source directory's
		// entries into DEST; -c writes an archive, -x extracts into DEST.
		"ditto": {files: codeKind, rare: &rareSpec{fileCode: (*walker).dittoCode}, long: []string{"arch=", "bom=", "zlibCompressionLevel=", "password", "keepParent",
			"rsrc", "norsrc", "extattr", "noextattr", "qtn", "noqtn", "acl", "noacl", "sequesterRsrc", "hfsCompression", "nohfsCompression",
			"preserveHFSCompression", "nopreserveHFSCompression", "nocache", "persistRootless", "clone", "noclone"},
			opts: []optEffect{readValue("--bom")}},
		"split": {files: codeKind, rare: &rareSpec{fileCode: (*walker).splitCode, otherProgram: splitOther}, shortVal: "abCeln t",
			long: []string{"suffix-length=", "additional-suffix=", "bytes=", "line-bytes=", "lines=", "number=", "separator=", "filter=", "numeric-suffixes", "hex-suffixes"}},
		"patch": {files: codeKind, rare: &rareSpec{fileCode: (*walker).patchCode}, shortVal: "ipodrBDFVYzgl",
			long: []string{"input=", "strip=", "output=", "directory=", "reject-file=", "prefix=", "ifdef=", "fuzz=", "version-control=", "basename-prefix=", "suffix=", "get=", "quoting-style=", "reject-format=", "read-only="}},
		"perl": {files: codeKind, rare: &rareSpec{fileCode: (*walker).inplaceCode}}, "ruby": {files: codeKind, rare: &rareSpec{fileCode: (*walker).inplaceCode}},

		// Object stores' clients copy between a bucket, named in the
		// store's own scheme (s3://, gs://, https://, remote:), and local
		// paths (storeFiles). The options each client and the global
		// ones take a value from the next word are listed, so that the
		// word after them is not taken for the subcommand.
		"aws": {files: bySub, long: awsValues, subs: subcommands{
			{"s3", &cmdSpec{files: bySub, long: awsValues, subs: storeSubs("cp", "mv", "sync")}},
			// Operations that write their response to an output file
			// named after the options (s3api get-object … FILE,
			// lambda invoke … FILE).
			{"s3api", awsOutfile}, {"glacier", awsOutfile}, {"lambda", awsOutfile}, {"bedrock-runtime", awsOutfile},
			{"sagemaker-runtime", awsOutfile}, {"polly", awsOutfile}, {"ebs", awsOutfile}, {"iot-data", awsOutfile},
			{"kinesis-video-media", awsOutfile}, {"kinesis-video-archived-media", awsOutfile}, {"mediastore-data", awsOutfile},
			{"lex-runtime", awsOutfile}, {"lexv2-runtime", awsOutfile}, {"apigateway", awsOutfile}, {"codeartifact", awsOutfile}}},
		"gsutil": {files: bySub, shortVal: "ohu", subs: storeSubs("cp", "mv", "rsync")},
		"gcloud": {files: bySub, long: gcloudValues, subs: subcommands{{"storage", &cmdSpec{files: bySub, long: gcloudValues, subs: storeSubs("cp", "mv", "rsync")}},
			{"compute", gcloudComputeFiles}, {"alpha", gcloudTrackFiles}, {"beta", gcloudTrackFiles}}},
		// Copies between this machine and a container or a pod (NAME:PATH),
		// as scp's between machines.
		"kubectl": {files: bySub, shortVal: "nc", long: []string{"namespace=", "context=", "container=", "kubeconfig=", "cluster=", "user="}, subs: subcommands{{"cp", &cmdSpec{files: scpKind, shortVal: "c", long: []string{"container=", "retries="}}}}},
		"oc":      {files: bySub, shortVal: "nc", long: []string{"namespace=", "context=", "container=", "kubeconfig=", "cluster=", "user="}, subs: subcommands{{"cp", &cmdSpec{files: scpKind, shortVal: "c", long: []string{"container=", "retries="}}}}},
		// GitHub's and Helm's downloads: into a directory (-D, --dir,
		// --untardir, --destination) or a file (-O); a clone into the
		// directory it names.
		"gh": {files: bySub, shortVal: "R", long: []string{"repo="}, subs: subcommands{
			{"release", &cmdSpec{files: bySub, subs: subcommands{{"download", &cmdSpec{fileOpts: true, shortVal: "DOpA", long: []string{"dir=", "output=", "pattern=", "archive="},
				opts: []optEffect{{names: []string{"-D", "--dir"}, file: fileInto}, writeValue("-O", "--output")}}}}}},
			{"run", &cmdSpec{files: bySub, subs: subcommands{{"download", &cmdSpec{fileOpts: true, shortVal: "Dnp", long: []string{"dir=", "name=", "pattern="},
				opts: []optEffect{{names: []string{"-D", "--dir"}, file: fileInto}}}}}}},
			{"repo", &cmdSpec{files: bySub, subs: subcommands{{"clone", ghClone}}}},
			{"gist", &cmdSpec{files: bySub, subs: subcommands{{"clone", ghClone}}}}}},
		"helm": {files: bySub, subs: subcommands{{"pull", helmPullFiles}, {"fetch", helmPullFiles}}},
		"7z":   sevenZipFiles, "7za": sevenZipFiles, "7zz": sevenZipFiles,
		// The clients the table knows only for their copies are still
		// probed as unknown commands are (probe): their other verbs
		// (mc rb, s3cmd del) are read as a service's.
		"azcopy": {files: bySub, probe: true, subs: storeSubs("copy", "cp", "sync")},
		"s3cmd":  {files: bySub, probe: true, shortVal: "c", long: []string{"config="}, subs: storeSubs("get", "put", "cp", "mv", "sync")},
		"s5cmd":  {files: bySub, probe: true, long: []string{"endpoint-url=", "profile=", "credentials-file=", "log=", "numworkers="}, subs: storeSubs("cp", "mv", "sync")},
		"rclone": {files: bySub, long: []string{"config="}, subs: storeSubs("copy", "copyto", "move", "moveto", "sync")},
		"mc":     {files: bySub, probe: true, subs: storeSubs("cp", "mv", "mirror")},
		// az storage blob download --file FILE, download-batch
		// --destination DIR; an upload reads its file.
		"az": {files: bySub, shortVal: "o", long: []string{"subscription=", "output=", "query="}, subs: subcommands{{"storage", &cmdSpec{files: bySub, subs: subcommands{
			{"blob", &cmdSpec{files: bySub, subs: subcommands{
				{"download", &cmdSpec{fileOpts: true, shortVal: "f", long: []string{"file="}, opts: []optEffect{writeValue("-f", "--file")}}},
				{"download-batch", &cmdSpec{fileOpts: true, shortVal: "ds", long: []string{"destination=", "source="}, opts: []optEffect{{names: []string{"-d", "--destination"}, file: fileInto}}}},
				{"upload", &cmdSpec{fileOpts: true, shortVal: "f", long: []string{"file="}, opts: []optEffect{readValue("-f", "--file")}}},
				{"upload-batch", &cmdSpec{fileOpts: true, shortVal: "ds", long: []string{"destination=", "source="}, opts: []optEffect{readValue("-s", "--source")}}}}}},
			{"file", &cmdSpec{files: bySub, subs: subcommands{
				{"download", &cmdSpec{fileOpts: true, long: []string{"dest="}, opts: []optEffect{writeValue("--dest")}}},
				{"upload", &cmdSpec{fileOpts: true, long: []string{"source="}, opts: []optEffect{readValue("--source")}}}}}}}}}}},

		// Linters and formatters print what they find in their files,
		// lines of them included.
		"ruff":  {files: bySub, subs: subcommands{{"check", &cmdSpec{files: readAll}}, {"lint", &cmdSpec{files: readAll}}, {"format", &cmdSpec{files: readAll}}}},
		"black": {files: readAll}, "isort": {files: readAll},
		"fzf": {long: []string{"history="}, opts: []optEffect{writeValue("--history")}, fileOpts: true},

		// Downloaders and uploaders: -o writes the output, -O saves under
		// the URL's name, files given with @ are uploaded.
		"curl": {files: fetchKind, shortVal: "AbcCdDeEFHKmoPQrtTuUwxXyYz",
			long: []string{"output=", "upload-file=", "config=", "data=",
				"data-binary=", "data-raw=", "data-urlencode=", "data-ascii=", "form=", "form-string=", "json=", "header=", "user-agent=", "referer=",
				"cookie=", "cookie-jar=", "dump-header=", "request=", "user=", "proxy=", "proxy-user=", "max-time=", "connect-timeout=", "retry=",
				"retry-delay=", "retry-max-time=", "range=", "write-out=", "output-dir=", "cert=", "key=", "cacert=", "capath=", "trace=",
				"trace-ascii=", "stderr=", "libcurl=", "etag-save=", "etag-compare=", "hsts=", "alt-svc=", "url=", "resolve=", "connect-to=",
				"interface=", "limit-rate=", "max-filesize=", "speed-limit=", "speed-time=", "time-cond=", "continue-at=", "quote=",
				"telnet-option=", "ftp-port=", "netrc-file=", "unix-socket=", "abstract-unix-socket=", "proto=", "proto-redir=", "variable=",
				"create-file-mode=", "local-port=", "ciphers=", "pinnedpubkey=", "oauth2-bearer=", "aws-sigv4=", "preproxy=", "noproxy=",
				"mail-from=", "mail-rcpt=", "max-redirs=", "dns-servers=", "doh-url=", "tls-max=", "url-query=", "proxy-header=", "key-type=",
				"cert-type=", "request-target=", "socks5=", "socks5-hostname=", "happy-eyeballs-timeout-ms=", "keepalive-time=",
				"remote-name", "remote-name-all", "remote-header-name"},
			opts: []optEffect{{names: []string{"-o", "--output"}, file: fileOutput},
				{names: []string{"--output-dir"}, file: fileDir},
				{names: []string{"-O", "--remote-name", "--remote-name-all"}, mode: "remote-name"},
				{names: []string{"-J", "--remote-header-name"}, mode: "server-names"},
				writeValue("-c", "--cookie-jar", "-D", "--dump-header", "--trace", "--trace-ascii", "--stderr", "--libcurl", "--etag-save", "--hsts", "--alt-svc"),
				readValue("-T", "--upload-file", "-K", "--config", "--etag-compare", "-E", "--cert", "--key", "--cacert", "--netrc-file"),
				{names: []string{"-b", "--cookie"}, file: fileRead, form: formNoAssign},
				{names: []string{"--url"}, mode: "url"},
				{names: []string{"-w", "--write-out"}, file: fileWrite, form: formWriteOut},
				{names: []string{"-d", "--data", "--data-binary", "--data-ascii", "--json"}, file: fileRead, form: formAt},
				{names: []string{"--data-urlencode"}, file: fileRead, form: formAnyAt},
				{names: []string{"-F", "--form"}, file: fileRead, form: formField}}},
		"wget": {files: fetchKind, saves: true, shortVal: "oaiBtOTwQPUlARDXIe",
			long: []string{"output-document=", "output-file=", "append-output=",
				"input-file=", "base=", "tries=", "timeout=", "wait=", "quota=", "directory-prefix=", "user-agent=", "level=", "accept=", "reject=",
				"domains=", "exclude-directories=", "include-directories=", "execute=", "post-file=", "post-data=", "body-file=", "body-data=",
				"load-cookies=", "save-cookies=", "header=", "user=", "password=", "http-user=", "http-password=", "method=", "referer=",
				"limit-rate=", "ca-certificate=", "certificate=", "private-key=", "bind-address=", "dns-timeout=", "connect-timeout=",
				"read-timeout=", "waitretry=", "cut-dirs=", "default-page=", "restrict-file-names=", "local-encoding=", "remote-encoding=",
				"config=", "use-askpass=", "progress=", "report-speed=", "warc-file=", "rejected-log=", "hsts-file=", "ca-directory=",
				"recursive", "mirror", "page-requisites", "force-directories", "content-disposition", "trust-server-names"},
			opts: []optEffect{{names: []string{"-O", "--output-document"}, file: fileOutput},
				{names: []string{"-P", "--directory-prefix"}, file: fileDir},
				writeValue("-o", "--output-file", "-a", "--append-output", "--save-cookies", "--warc-file", "--rejected-log", "--hsts-file"),
				{names: []string{"-i", "--input-file"}, file: fileRead, mode: "input-list"},
				readValue("--post-file", "--body-file", "--load-cookies", "--config", "--ca-certificate", "--certificate", "--private-key"),
				{names: []string{"-r", "--recursive", "-m", "--mirror", "-p", "--page-requisites", "-x", "--force-directories", "--content-disposition", "--trust-server-names"}, mode: "server-names"}}},
		"http": httpie, "https": httpie, "xh": httpie,

		// Archivers and compressors.
		"tar": {files: tarKind, bundled: true, shortVal: "fCbHKLNTXVgIF",
			long: []string{"file=", "directory=", "files-from=", "exclude-from=", "exclude=", "transform=", "xform=",
				"owner=", "group=", "mode=", "mtime=", "listed-incremental=", "newer=", "after-date=", "newer-mtime=", "label=",
				"format=", "blocking-factor=", "use-compress-program=", "to-command=", "info-script=", "new-volume-script=",
				"checkpoint-action=", "suffix=", "backup=", "record-size=", "tape-length=", "starting-file=", "volno-file=",
				"rsh-command=", "index-file=", "strip-components=", "owner-map=", "group-map=", "exclude-tag=", "exclude-tag-all=",
				"exclude-tag-under=", "occurrence=", "sparse-version=", "hole-detection=", "pax-option=", "quoting-style=",
				"xattrs-include=", "xattrs-exclude=", "create", "append", "update", "concatenate", "catenate", "extract", "get",
				"list", "diff", "compare", "test-label", "to-stdout"},
			opts: []optEffect{{names: []string{"-f", "--file"}, file: fileArchive},
				{names: []string{"-C", "--directory"}, file: fileDir},
				readValue("-T", "-X", "--files-from", "--exclude-from"),
				writeValue("-g", "--listed-incremental", "--index-file", "--volno-file"),
				{names: []string{"-c", "-r", "-u", "-A", "--create", "--append", "--update", "--concatenate", "--catenate"}, mode: "create"},
				{names: []string{"-x", "--extract", "--get"}, mode: "extract"},
				{names: []string{"-t", "-d", "--list", "--diff", "--compare", "--test-label"}, mode: "list"},
				{names: []string{"-O", "--to-stdout"}, mode: "stdout"},
				{names: []string{"-P", "--absolute-names"}, mode: "absolute"}}},
		// cpio -i extracts members where their names say, absolute ones
		// included unless --no-absolute-filenames.
		"cpio": {files: codeKind, rare: &rareSpec{fileCode: (*walker).cpioCode}},
		"gzip": compressor(".gz", false), "gunzip": compressor(".gz", true), "pigz": compressor(".gz", false), "unpigz": compressor(".gz", true),
		"bzip2": compressor(".bz2", false), "bunzip2": compressor(".bz2", true), "pbzip2": compressor(".bz2", false),
		"xz": compressor(".xz", false), "unxz": compressor(".xz", true), "lzma": compressor(".lzma", false), "unlzma": compressor(".lzma", true),
		"zstd": compressor(".zst", false), "unzstd": compressor(".zst", true), "pzstd": compressor(".zst", false),
		"lz4": compressor(".lz4", false), "unlz4": compressor(".lz4", true), "lzip": compressor(".lz", false), "brotli": compressor(".br", false),
		"compress": compressor(".Z", false), "uncompress": compressor(".Z", true),
	}
}
