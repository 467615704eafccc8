package shell

// readCommands is the read-only family of the command table (DESIGN
// §3.6): the commands and subcommands that only read, which the built-in
// defaults allow without a question. A read is reading files, the
// command's input, the system's state, or a service's state through the
// tool's own client (kubectl get, gh pr list, aws ec2 describe-*); a
// command that sends data to a destination it names is not one (curl
// URL, git push, nc, ssh HOST: none is listed). What an entry adds:
//
//   - readOnly: the (sub)command only reads. Everything the other
//     families say still counts: a risk class (kubectl get secrets), an
//     exec-capable flag (find -exec, rg --pre), a file written (sort -o,
//     sed -i, git log --output) make the command not read-only;
//   - readBare: only without operands (git branch lists, git branch
//     NAME creates one);
//   - notReadWith: options with which it is not read-only after all: it
//     writes (go env -w, yq -i) or talks to a destination or runs a
//     program the option names (kubectl --server, --kubeconfig, whose
//     exec credential plugin runs a command);
//   - readVerbs at verbAt: a service client's operations that only read,
//     by name or name prefix ("describe-"), given as that operand with at
//     most one plain resource name after it. A listed subcommand inherits
//     its parent's verbs one operand earlier (aws iam list-users).
//
// Every command whose operands are files is still checked by the file
// rules, and the policy allows a read-only command only on paths no
// secret can be under (the policy's markReadOnly). A command the table did
// not know before is marked probe, so its arguments are still probed as
// an unknown command's are.
func readCommands() map[string]*cmdSpec {
	ro := &cmdSpec{readOnly: true}
	roNew := &cmdSpec{readOnly: true, probe: true}
	roSub := func(names ...string) subcommands {
		out := make(subcommands, len(names))
		for i, n := range names {
			out[i] = namedSpec{n, ro}
		}
		return out
	}
	withSubs := func(names ...string) *cmdSpec { return &cmdSpec{subs: roSub(names...)} }
	// git branch and git tag list, and take their operands as patterns,
	// with these; creating or deleting alongside is an error in git.
	gitListing := []string{"-l", "--list", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"}
	// A command known only by the words with which it prints its
	// version: --version, --help and -V, which each of these reads so or
	// rejects, and the spellings of its own (node -v, java -version).
	about := func(words ...string) *cmdSpec { return &cmdSpec{probe: true, about: words} }
	return map[string]*cmdSpec{
		// Toolchains, interpreters and tools, by their version forms.
		// Not here: a tool whose bare run, or an option it does not know,
		// runs the project's code or configuration (vite, webpack, R's
		// .Rprofile, mix and lein's project files, nx and turbo, which
		// hand over to the project's own copy).
		"node": about("-v"), "lua": about("-v"), "elixir": about("-v"), "iex": about(), "nim": about("-v"),
		"crystal": about("-v"), "jekyll": about("-v"), "nginx": about("-v"), "mvn": about("-v"),
		"ruby": about("-v"), "perl": about("-v"), "php": about("-v"), "gcc": about("-v"), "clang": about("-v"),
		"rustc": about("-vV"), "python3": about("-VV"), "python": about("-VV"),
		"java": about("-version"), "javac": about("-version"), "kotlin": about("-version"),
		"kotlinc": about("-version"), "scala": about("-version"), "ocaml": about("-version"),
		"ghc": about(), "cabal": about(), "stack": about(), "protoc": about(), "buf": about(),
		"golangci-lint": about(), "ruff": about(), "black": about(), "mypy": about(), "shellcheck": about(),
		"hadolint": about(), "esbuild": about(), "markdownlint": about(), "mkdocs": about(),
		"sphinx-build": about(), "vale": about(), "tflint": about(), "redis-server": about("-v"),
		"pandoc": about(), "rustup": about(), "htop": about(), "ld": about(), "ldd": about(), "pod": about(),
		"flutter": about(), "dart": about(), "swift": about(),
		"hugo": about("version"), "zig": about("version"), "k9s": about("version"),
		"openssl":   {subs: roSub("version")},
		"terraform": {about: []string{"-help"}},

		// Files and text.
		"cat": ro, "tac": ro, "rev": ro, "nl": ro, "head": ro, "tail": ro, "wc": ro,
		"grep": ro, "egrep": ro, "fgrep": ro, "zgrep": ro, "rg": ro, "ag": ro, "ack": ro,
		"fd": ro, "fdfind": ro, "find": ro, "jq": ro, "sed": ro, "sort": ro, "uniq": ro,
		"cut": ro, "column": ro, "fold": ro, "paste": ro, "comm": ro, "join": ro,
		"diff": ro, "cmp": ro, "md5sum": ro, "sha1sum": ro, "sha256sum": ro, "sha512sum": ro,
		"base64": ro, "xxd": ro, "od": ro, "hexdump": ro, "strings": ro, "file": ro,
		"bat": ro, "less": ro, "more": ro, "zcat": ro, "bzcat": ro, "xzcat": ro,
		"echo": ro, "printf": ro,
		"awk":  {readOnly: true, notReadWith: []string{"-i", "--include"}},
		"gawk": {readOnly: true, notReadWith: []string{"-i", "--include"}},
		"date": {readOnly: true, notReadWith: []string{"-s", "--set"}},
		"yq":   {readOnly: true, probe: true, notReadWith: []string{"-i", "--inplace"}},
		"tree": {readOnly: true, probe: true, notReadWith: []string{"-o"}},
		"ls":   roNew, "tr": roNew, "shasum": roNew, "stat": roNew, "du": roNew, "df": roNew,
		"basename": roNew, "dirname": roNew, "realpath": roNew, "readlink": roNew,
		"pwd": roNew, "true": roNew, "false": roNew, "test": roNew, "[": roNew,
		"which": roNew, "type": roNew, "whereis": roNew, "cd": roNew, "pushd": roNew, "popd": roNew,
		"diff3": roNew, "seq": roNew, "expr": roNew, "sleep": roNew,
		"sdiff": {readOnly: true, probe: true, notReadWith: []string{"-o", "--output"}},

		// The system's state.
		"whoami": roNew, "id": roNew, "uname": roNew, "uptime": roNew, "free": roNew,
		"ps": roNew, "pgrep": roNew, "nproc": roNew, "cal": roNew, "lsof": roNew,
		"hostname": {readOnly: true, readBare: true, probe: true},
		// Services and their logs, on this machine only (-H and -M reach
		// another); what changes a unit or the journal is not listed.
		"systemctl": {notReadWith: []string{"-H", "--host", "-M", "--machine"},
			subs: roSub("status", "is-active", "is-enabled", "is-failed", "is-system-running", "list-units",
				"list-unit-files", "list-timers", "list-sockets", "list-dependencies", "show", "cat", "get-default")},
		"journalctl": {readOnly: true, notReadWith: []string{"--vacuum-time", "--vacuum-size", "--vacuum-files",
			"--rotate", "--flush", "--sync", "--relinquish-var", "--smart-relinquish-var", "--setup-keys",
			"--update-catalog", "-M", "--machine"}},
		"launchctl": {subs: roSub("list", "print", "print-disabled")},

		// Version control.
		"git": {subs: append(roSub("status", "log", "diff", "show", "blame", "annotate", "ls-files", "ls-tree",
			"rev-parse", "rev-list", "describe", "shortlog", "cat-file", "grep", "reflog", "show-ref",
			"for-each-ref", "merge-base", "name-rev", "whatchanged", "cherry", "check-ignore", "check-attr",
			"count-objects", "diff-tree", "diff-index", "diff-files", "version", "help", "range-diff", "var",
			"verify-commit", "verify-tag"),
			namedSpec{"fsck", &cmdSpec{readOnly: true, notReadWith: []string{"--lost-found"}}},
			namedSpec{"notes", withSubs("list", "show")},
			namedSpec{"sparse-checkout", withSubs("list")},
			namedSpec{"lfs", withSubs("ls-files", "status", "env", "version")},
			namedSpec{"branch", &cmdSpec{readOnly: true, readBare: true, readWith: gitListing}},
			namedSpec{"tag", &cmdSpec{readOnly: true, readBare: true, readWith: gitListing}},
			namedSpec{"remote", &cmdSpec{readOnly: true, subs: roSub("show", "get-url")}},
			namedSpec{"stash", withSubs("list", "show")},
			namedSpec{"config", &cmdSpec{readOnly: true, readBare: true, notReadWith: []string{"-e", "--edit"},
				readWith: []string{"--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list"},
				subs:     roSub("get", "list")}},
			namedSpec{"worktree", withSubs("list")})},

		// Clusters, containers and clouds, through their own clients.
		"kubectl": {notReadWith: []string{"-s", "--server", "--kubeconfig"},
			subs: append(roSub("get", "describe", "logs", "top", "explain", "api-resources", "api-versions",
				"version", "events"),
				namedSpec{"cluster-info", &cmdSpec{readOnly: true, readBare: true}},
				namedSpec{"config", withSubs("view", "get-contexts", "current-context", "get-clusters", "get-users")},
				namedSpec{"auth", withSubs("can-i", "whoami")},
				namedSpec{"rollout", withSubs("status", "history")})},
		"docker": {notReadWith: []string{"-H", "--host", "--config"},
			subs: append(roSub("ps", "images", "inspect", "logs", "version", "info", "top", "port", "diff",
				"history", "events", "search"),
				namedSpec{"image", withSubs("ls", "inspect", "history")},
				namedSpec{"container", withSubs("ls", "ps", "inspect", "logs", "top", "port", "diff")},
				namedSpec{"network", withSubs("ls", "inspect")},
				namedSpec{"volume", withSubs("ls", "inspect")},
				namedSpec{"context", withSubs("ls", "inspect", "show")},
				namedSpec{"system", withSubs("df", "info")},
				namedSpec{"compose", withSubs("ps", "logs", "config", "ls", "images", "top", "version")},
				namedSpec{"stats", ro},
				namedSpec{"buildx", withSubs("ls", "version")},
				namedSpec{"manifest", withSubs("inspect")},
				namedSpec{"plugin", withSubs("ls", "inspect")},
				namedSpec{"service", withSubs("ls", "ps")},
				namedSpec{"stack", withSubs("ls", "ps", "services")},
				namedSpec{"node", withSubs("ls")},
				namedSpec{"secret", withSubs("ls")},
				namedSpec{"config", withSubs("ls")})},
		"helm": {notReadWith: []string{"--kube-apiserver", "--kubeconfig"},
			subs: append(roSub("list", "ls", "status", "history", "show", "search", "version", "env", "lint"),
				namedSpec{"template", &cmdSpec{readOnly: true, notReadWith: []string{"--output-dir", "--post-renderer"}}},
				namedSpec{"repo", withSubs("list")},
				namedSpec{"dependency", withSubs("list")})},
		"gh": {subs: subcommands{
			{"pr", withSubs("list", "view", "status", "diff", "checks")},
			{"issue", withSubs("list", "view", "status")},
			{"run", withSubs("list", "view", "watch")},
			{"repo", withSubs("view", "list")},
			{"release", withSubs("list", "view")},
			{"workflow", withSubs("list", "view")},
			{"label", withSubs("list")},
			{"cache", withSubs("list")},
			{"secret", withSubs("list")},
			{"variable", withSubs("list")},
			{"gist", withSubs("list")},
			{"search", ro},
			{"status", ro},
			{"auth", &cmdSpec{subs: subcommands{{"status", &cmdSpec{readOnly: true, notReadWith: []string{"-t", "--show-token"}}}}}},
		}},
		// aws SERVICE describe-* and list-*; the get- and other read
		// operations by service, named, since get- also prints secrets
		// and tokens (secretsmanager get-secret-value, ecr
		// get-login-password) and s3api get-object writes a file.
		"aws": {notReadWith: []string{"--endpoint-url"}, readVerbs: []string{"describe-", "list-"}, verbAt: 1,
			subs: subcommands{{"sts", &cmdSpec{readVerbs: []string{"get-caller-identity"}}},
				{"s3", &cmdSpec{readVerbs: []string{"ls"}}},
				{"configure", &cmdSpec{readVerbs: []string{"list", "list-profiles"}}},
				{"iam", awsReads("get-role", "get-user", "get-group", "get-policy", "get-account-summary")},
				{"lambda", awsReads("get-function", "get-function-configuration", "get-alias", "get-policy")},
				{"s3api", awsReads("get-bucket-", "head-object", "head-bucket")},
				{"apigateway", awsReads("get-rest-apis", "get-stages", "get-resources")},
				{"cloudwatch", awsReads("get-metric-statistics", "get-metric-data")},
				{"sqs", awsReads("get-queue-attributes", "get-queue-url")},
				{"logs", awsReads("filter-log-events", "get-log-events", "tail")},
				{"cloudtrail", awsReads("lookup-events")},
				{"ce", awsReads("get-cost-and-usage")}}},
		// gcloud GROUP VERB and gcloud GROUP RESOURCE VERB: each group
		// says where its verb stands, so "gcloud functions create list"
		// is create. Groups whose resources hold secret values list only
		// (gcloud secrets versions access is not a verb here).
		"gcloud": {subs: append(subcommands{
			{"config", &cmdSpec{readVerbs: []string{"list", "get-value", "get"},
				subs: subcommands{{"configurations", gcloudRead(0)}}}},
			{"auth", &cmdSpec{readVerbs: []string{"list"}}},
			{"projects", &cmdSpec{readVerbs: []string{"list", "describe", "get-iam-policy"}}},
			{"secrets", &cmdSpec{readVerbs: []string{"list"}}},
			{"version", ro}, {"info", ro},
		}, gcloudGroups()...)},
		// az GROUP VERB (az vm list) and az GROUP RESOURCE VERB (az
		// network vnet list) for the groups whose resources hold no
		// credential a show prints: az acr credential show, az keyvault
		// secret show and az storage account keys list stay asked.
		"az": {readVerbs: []string{"list", "show"}, verbAt: 1,
			subs: append(subcommands{{"account", &cmdSpec{readVerbs: []string{"list", "show", "list-locations"}}}, {"version", ro}},
				azGroups()...)},

		// Package managers and toolchains: what is installed, and where.
		"npm": {notReadWith: []string{"--registry"}, about: []string{"-v"},
			subs: append(roSub("ls", "list", "ll", "la", "view", "info", "show", "v", "outdated", "why", "explain",
				"prefix", "root", "search"),
				namedSpec{"version", &cmdSpec{readOnly: true, readBare: true}},
				namedSpec{"audit", &cmdSpec{readOnly: true, readBare: true}},
				namedSpec{"config", withSubs("get", "list", "ls")})},
		"pnpm": {about: []string{"-v"}, subs: append(roSub("ls", "list", "outdated", "why"),
			namedSpec{"audit", &cmdSpec{readOnly: true, readBare: true}})},
		"yarn":  {about: []string{"-v"}, subs: roSub("list", "info", "why", "outdated")},
		"pip":   {subs: roSub("list", "show", "freeze", "check")},
		"pip3":  {subs: roSub("list", "show", "freeze", "check")},
		"cargo": {subs: roSub("tree", "metadata", "version", "search", "locate-project", "pkgid")},
		// go list takes the build flags: -toolexec and -exec run a program.
		"go": {notReadWith: []string{"-toolexec", "-exec", "-overlay", "-modfile"},
			subs: append(roSub("list", "version", "doc", "help"),
				namedSpec{"env", &cmdSpec{readOnly: true, notReadWith: []string{"-w", "-u"}}})},
	}
}

// gcloudRead is a gcloud group whose read verbs stand at operand at.
func gcloudRead(at int) *cmdSpec {
	return &cmdSpec{readVerbs: []string{"list", "describe"}, verbAt: at}
}

// gcloudGroups are the gcloud groups by where their verb stands: GROUP
// VERB, or GROUP RESOURCE VERB.
func gcloudGroups() subcommands {
	var out subcommands
	for _, g := range []string{"functions", "builds", "services", "components"} {
		out = append(out, namedSpec{g, gcloudRead(0)})
	}
	for _, g := range []string{"compute", "container", "run", "sql", "iam", "artifacts", "pubsub", "logging",
		"monitoring", "redis", "dns", "billing", "app", "scheduler", "tasks", "kms"} {
		out = append(out, namedSpec{g, gcloudRead(1)})
	}
	return out
}

// azGroups are the az groups whose read verbs stand after a resource
// type: az network vnet list, az storage container list.
func azGroups() subcommands {
	var out subcommands
	for _, g := range []string{"network", "storage", "sql", "monitor", "deployment", "role", "policy", "ad"} {
		out = append(out, namedSpec{g, &cmdSpec{readVerbs: []string{"list", "show"}, verbAt: 1}})
	}
	return out
}

// awsReads is an aws service whose read operations are describe-*,
// list-* and the ones named.
func awsReads(verbs ...string) *cmdSpec {
	return &cmdSpec{readVerbs: append([]string{"describe-", "list-"}, verbs...)}
}
