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
//   - readWith without readOnly: read-only only in one of these query
//     modes (dpkg -l, pacman -Q, tar -t, brew --prefix);
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
	about := func(words ...string) *cmdSpec { return &cmdSpec{probe: true, read: &readSpec{about: words}} }
	projectStart := &cmdSpec{read: &readSpec{startsProject: true}}
	// An object of ip lists without operands, or with show, list or get
	// (ip addr, ip route show table all).
	terraformReads := &cmdSpec{read: &readSpec{about: []string{"-help"}}, subs: subcommands{{"fmt", &cmdSpec{singleDash: true,
		read: &readSpec{readWith: []string{"-check"}, notReadWith: []string{"-write"}}}},
		{"show", &cmdSpec{readOnly: true, singleDash: true, read: &readSpec{notReadWith: []string{"-json"}}}},
		{"output", &cmdSpec{readOnly: true, singleDash: true, read: &readSpec{notReadWith: []string{"-json", "-raw"}}}},
		{"state", &cmdSpec{subs: subcommands{{"list", ro}, {"show", &cmdSpec{readOnly: true, singleDash: true, read: &readSpec{notReadWith: []string{"-json"}}}}}}},
		{"workspace", withSubs("list", "show")},
		{"providers", &cmdSpec{readOnly: true, readBare: true}},
		{"version", ro}}}
	ipListing := &cmdSpec{readOnly: true, readBare: true, subs: roSub("show", "list", "get")}
	ruffCheck := &cmdSpec{readOnly: true, read: &readSpec{notReadWith: []string{"--fix", "--fix-only", "--add-noqa", "-o", "--output-file"}}}
	// What docker compose and docker-compose list and show. config
	// prints the project's configuration with the values of .env and
	// the env_file entries filled in, secrets included: only its
	// listings of names are reads, and -o writes the file it names.
	composeReads := &cmdSpec{subs: append(roSub("ps", "logs", "ls", "images", "top", "version"),
		namedSpec{"config", &cmdSpec{read: &readSpec{readWith: []string{"--services", "--images", "--volumes", "--profiles", "--networks"},
			notReadWith: []string{"-o", "--output", "--environment", "--variables"}}}})}
	containerReads := append(roSub("ps", "images", "inspect", "logs", "version", "info", "top", "port", "diff",
		"history", "events", "search", "help"),
		namedSpec{"trust", withSubs("inspect")},
		namedSpec{"image", withSubs("ls", "inspect", "history")},
		namedSpec{"container", withSubs("ls", "ps", "inspect", "logs", "top", "port", "diff", "stats")},
		namedSpec{"network", withSubs("ls", "inspect")},
		namedSpec{"volume", withSubs("ls", "inspect")},
		namedSpec{"context", withSubs("ls", "inspect", "show")},
		namedSpec{"system", withSubs("df", "info", "events")},
		namedSpec{"compose", composeReads},
		namedSpec{"stats", ro},
		namedSpec{"buildx", &cmdSpec{subs: append(roSub("ls", "version", "inspect", "du"), namedSpec{"imagetools", withSubs("inspect")})}},
		namedSpec{"manifest", withSubs("inspect")},
		namedSpec{"scout", withSubs("quickview", "qv", "cves", "recommendations", "compare", "version")},
		namedSpec{"plugin", withSubs("ls", "inspect")},
		namedSpec{"service", withSubs("ls", "list", "ps", "inspect", "logs")},
		namedSpec{"stack", withSubs("ls", "ps", "services")},
		namedSpec{"node", withSubs("ls", "inspect", "ps")},
		namedSpec{"secret", withSubs("ls", "inspect")},
		namedSpec{"config", withSubs("ls", "inspect")})
	return map[string]*cmdSpec{
		// Toolchains, interpreters and tools, by their version forms.
		// Not here: a tool whose bare run, or an option it does not know,
		// runs the project's code or configuration (vite, webpack, R's
		// .Rprofile, mix and lein's project files, nx and turbo, which
		// hand over to the project's own copy).
		"node": about("-v"), "lua": about("-v"), "elixir": about("-v"), "iex": about(), "nim": about("-v"),
		"crystal": about("-v"), "jekyll": about("-v"), "nginx": about("-v"),
		"ruby": about("-v"), "perl": about("-v"), "php": about("-v", "-m"), "gcc": about("-v"), "clang": about("-v", "--print-targets"),
		"rustc": about("-vV"), "python3": about("-VV"), "python": about("-VV"),
		"java": about("-version"), "javac": about("-version"), "kotlin": about("-version"),
		"kotlinc": about("-version"), "scala": about("-version"), "ocaml": about("-version"),
		"ghc": about(), "cabal": about(), "stack": about(), "protoc": about(), "buf": about(),
		"golangci-lint": about(), "mypy": about(),
		"esbuild": about(), "markdownlint": about(), "mkdocs": about(),
		"sphinx-build": about(), "vale": about(), "tflint": about(), "redis-server": about("-v"),
		"pandoc": about(), "htop": about(), "ld": about(), "ldd": about(), "pod": about(),
		"dart": about(), "swift": about(),
		"hugo": about("version"), "zig": about("version"), "k9s": about("version"),
		// Editors' launchers, a CI agent and ansible (which reads
		// ansible.cfg but loads no plugin to print its version); erl
		// prints the emulator's version before it boots, so before any
		// .erlang file is read; php -m lists the compiled-in modules.
		"subl": about(), "cursor": about(), "buildkite-agent": about(), "ansible": about(),
		"erl": about("-version", "+V"),
		// flutter doctor and devices look at the SDK, the toolchains and
		// the attached devices (they may start adb's server); neither
		// runs the project. --android-licenses accepts the licences.
		"flutter": {probe: true, subs: subcommands{{"devices", ro},
			{"doctor", &cmdSpec{readOnly: true, read: &readSpec{notReadWith: []string{"--android-licenses"}}}}}},
		// openssl version, rand (without -out) and x509 showing a
		// certificate. What writes (-out, -writerand), signs with a key
		// (-signkey, -key, -CA, -CAkey, -req, -new) or loads a module
		// (-engine, -provider, a -config that names one) is not a read.
		"openssl": {subs: append(roSub("version"),
			namedSpec{"rand", &cmdSpec{readOnly: true, read: &readSpec{notReadWith: []string{"-out", "-writerand", "-rand", "-engine", "-provider",
				"-provider-path", "-config"}}}},
			namedSpec{"x509", &cmdSpec{readOnly: true, read: &readSpec{notReadWith: []string{"-out", "-signkey", "-key", "-CA", "-CAkey",
				"-CAserial", "-CAcreateserial", "-req", "-x509toreq", "-new", "-set_serial", "-force_pubkey", "-extfile", "-passin",
				"-writerand", "-rand", "-engine", "-provider", "-provider-path", "-config"}}}})},
		// terraform fmt -check lists the files it would reformat and
		// writes none; -write=true would write them anyway. The state
		// and its outputs read, without -json or -raw, which print the
		// values marked sensitive in clear (state pull prints them all).
		"terraform": terraformReads, "tofu": terraformReads,

		// Files and text.
		"cat": ro, "tac": ro, "rev": ro, "nl": ro, "head": ro, "tail": ro, "wc": ro,
		"grep": ro, "egrep": ro, "fgrep": ro, "zgrep": ro, "rg": ro, "ag": ro, "ack": ro,
		// read assigns what it reads to variables, whose later uses are judged
		// where they are (an arithmetic on one, an eval of one).
		"read": ro,
		"fd":   ro, "fdfind": ro, "find": ro, "jq": ro, "sed": ro, "sort": ro, "uniq": ro,
		"cut": ro, "column": ro, "fold": ro, "paste": ro, "comm": ro, "join": ro,
		"diff": ro, "cmp": ro, "md5sum": ro, "sha1sum": ro, "sha256sum": ro, "sha512sum": ro,
		"base64": ro, "xxd": ro, "od": ro, "hexdump": ro, "strings": ro, "file": ro,
		"bat": ro, "less": ro, "more": ro, "zcat": ro, "bzcat": ro, "xzcat": ro,
		"echo": ro, "printf": ro,
		"awk":  {readOnly: true, read: &readSpec{notReadWith: []string{"-i", "--include"}}},
		"gawk": {readOnly: true, read: &readSpec{notReadWith: []string{"-i", "--include"}}},
		"date": {readOnly: true, read: &readSpec{notReadWith: []string{"-s", "--set"}}},
		"yq":   {readOnly: true, probe: true, read: &readSpec{notReadWith: []string{"-i", "--inplace"}}},
		// gofmt -l, -d: the files it would change and how; -w changes them.
		"gofmt": {readOnly: true, read: &readSpec{notReadWith: []string{"-w"}}}, "goimports": {readOnly: true, read: &readSpec{notReadWith: []string{"-w"}}},
		"tree": {readOnly: true, probe: true, read: &readSpec{notReadWith: []string{"-o"}}},
		"ls":   roNew, "tr": roNew, "shasum": roNew, "stat": roNew, "du": roNew, "df": roNew,
		"basename": roNew, "dirname": roNew, "realpath": roNew, "readlink": roNew,
		"pwd": roNew, "true": roNew, "false": roNew, "test": roNew, "[": roNew,
		"which": roNew, "type": roNew, "whereis": roNew, "cd": roNew, "pushd": roNew, "popd": roNew,
		"diff3": roNew, "seq": roNew, "expr": roNew, "sleep": roNew,
		"sdiff": {readOnly: true, probe: true, read: &readSpec{notReadWith: []string{"-o", "--output"}}},
		// The shell's own options and exits change nothing outside the
		// line: set with options (set -euo pipefail; bare set prints every
		// variable, secrets included, and set +o history is a class),
		// shopt, ":" and exit.
		"set":   {read: &readSpec{readWith: []string{"-e", "-u", "-o", "-x", "-E", "-T", "-f", "-C", "-v", "-n", "-B", "-H", "-P"}}},
		"shopt": roNew, ":": ro, "exit": ro,

		// The system's state.
		"whoami": roNew, "id": roNew, "uname": roNew, "uptime": roNew, "free": roNew,
		"ps": roNew, "pgrep": roNew, "nproc": roNew, "cal": roNew, "lsof": roNew,
		"hostname": {readOnly: true, readBare: true, probe: true},
		// arch bare prints the machine's architecture; with a command
		// (macOS) it is the wrapper that runs it.
		"arch": {readOnly: true, readBare: true},
		// nvidia-smi bare, or with its query options, prints the GPUs'
		// state. What sets one (persistence, ECC, compute mode, clocks,
		// power limits, a reset, MIG, the LED), a log file written (-f)
		// or a subcommand (an operand: drain, mig, ...) is not a read;
		// a single letter of these in a cluster counts too.
		"nvidia-smi": {readOnly: true, readBare: true, probe: true, shortVal: "idl", read: &readSpec{notReadWith: []string{
			"-pm", "--persistence-mode", "-e", "--ecc-config", "-p", "--reset-ecc-errors", "-c", "--compute-mode",
			"-dm", "--driver-model", "-fdm", "--force-driver-model", "--gom", "-r", "--gpu-reset", "-vm", "--virt-mode",
			"-lgc", "--lock-gpu-clocks", "-rgc", "--reset-gpu-clocks", "-lmc", "--lock-memory-clocks", "-rmc", "--reset-memory-clocks",
			"-lmcd", "--lock-memory-clocks-deferred", "-ac", "--applications-clocks", "-rac", "--reset-applications-clocks",
			"-acp", "--applications-clocks-permission", "-pl", "--power-limit", "-cc", "--cuda-clocks", "-am", "--accounting-mode",
			"-caa", "--clear-accounted-apps", "--auto-boost-default", "--auto-boost-permission", "-mig", "--multi-instance-gpu",
			"-gtt", "--gpu-target-temp", "-t", "--toggle-led", "-f", "--filename", "--debug"}}},
		// mount bare lists the mounted file systems; with any argument
		// but -l it mounts (the privilege class says so).
		"mount": {readOnly: true, readBare: true, read: &readSpec{notReadWith: []string{"-a", "--all"}}},
		// sysctl KEY and sysctl -n KEY read a kernel setting; setting one
		// (-w, KEY=VALUE, a file loaded) is a class of its own.
		"sysctl": {readOnly: true, read: &readSpec{notReadWith: []string{"-w", "--write", "-p", "--load", "-f", "--system"}}},
		// printenv NAME prints that variable: read-only when each name
		// says it holds no secret (plainEnv, as echo "$NAME"); bare, it
		// prints every one, secrets included.
		"printenv": {read: &readSpec{readEnvNames: true}},
		// Services and their logs, on this machine only (-H and -M reach
		// another); what changes a unit or the journal is not listed.
		"systemctl": {read: &readSpec{notReadWith: []string{"-H", "--host", "-M", "--machine"}},
			subs: roSub("status", "is-active", "is-enabled", "is-failed", "is-system-running", "list-units",
				"list-unit-files", "list-timers", "list-sockets", "list-dependencies", "show", "cat", "get-default")},
		"journalctl": {readOnly: true, read: &readSpec{notReadWith: []string{"--vacuum-time", "--vacuum-size", "--vacuum-files",
			"--rotate", "--flush", "--sync", "--relinquish-var", "--smart-relinquish-var", "--setup-keys",
			"--update-catalog", "-M", "--machine"}}},
		"launchctl": {subs: roSub("list", "print", "print-disabled")},
		// Hardware, devices, processes, sessions and the network's
		// configuration, as listings. What sets one (ip addr add, route
		// add, dmesg -C, ss -K, arp -s) is an operand or option that is
		// not read-only.
		"lscpu": roNew, "lsmem": roNew, "lspci": roNew, "lsusb": roNew, "lsblk": roNew, "lshw": roNew,
		"inxi": roNew, "hwinfo": roNew, "sensors": roNew, "findmnt": roNew, "pstree": roNew, "pidof": roNew,
		"vmstat": roNew, "iostat": roNew, "w": roNew, "who": roNew, "last": roNew, "logname": roNew,
		"groups": roNew, "tty": roNew, "locale": roNew, "getconf": roNew, "lsb_release": roNew,
		"sw_vers": roNew, "system_profiler": roNew, "vm_stat": roNew, "netstat": roNew, "top": roNew,
		"neofetch": roNew, "mdfind": roNew, "mdls": roNew, "locate": roNew, "jobs": roNew,
		"ulimit":      {readOnly: true, readBare: true, probe: true},
		"ss":          {readOnly: true, probe: true, read: &readSpec{notReadWith: []string{"-K", "--kill"}}},
		"route":       {readOnly: true, readBare: true, probe: true},
		"arp":         {readOnly: true, readBare: true, probe: true, read: &readSpec{notReadWith: []string{"-d", "--delete", "-s", "--set", "-f", "--file"}}},
		"dmesg":       {readOnly: true, probe: true, read: &readSpec{notReadWith: []string{"-C", "--clear", "-c", "--read-clear", "-n", "--console-level", "-D", "--console-off", "-E", "--console-on"}}},
		"getent":      {probe: true, read: &readSpec{readVerbs: []string{"passwd", "group", "hosts", "ahosts", "ahostsv4", "ahostsv6", "services", "protocols", "networks", "netgroup"}}},
		"timedatectl": {readOnly: true, readBare: true, probe: true, subs: roSub("status", "show", "list-timezones", "timesync-status", "show-timesync")},
		"hostnamectl": {readOnly: true, readBare: true, probe: true, subs: roSub("status")},
		"resolvectl":  {probe: true, subs: roSub("status", "statistics", "query")},
		"nmcli":       {probe: true, subs: subcommands{{"device", withSubs("status", "show")}, {"connection", withSubs("show")}, {"general", withSubs("status")}}},
		"iw":          {probe: true, subs: subcommands{{"dev", &cmdSpec{readOnly: true, readBare: true}}, {"list", ro}}},
		"ip": {singleDash: true, shortVal: "n", read: &readSpec{notReadWith: []string{"-b", "-batch", "-force"}}, subs: subcommands{
			{"addr", ipListing}, {"address", ipListing}, {"a", ipListing}, {"route", ipListing}, {"r", ipListing},
			{"link", ipListing}, {"l", ipListing}, {"neigh", ipListing}, {"neighbor", ipListing}, {"neighbour", ipListing}, {"n", ipListing},
			{"rule", ipListing}, {"ru", ipListing}, {"tunnel", ipListing}, {"tuntap", ipListing}, {"maddr", ipListing}, {"maddress", ipListing},
			{"m", ipListing}, {"mroute", ipListing}, {"netconf", ipListing}, {"netc", ipListing}, {"stats", ipListing}, {"st", ipListing},
			{"netns", &cmdSpec{readOnly: true, readBare: true, subs: roSub("list", "identify", "pids")}},
			{"monitor", ro}, {"mo", ro}}},
		// Swap areas, block devices and the machine's names and power
		// settings, as listings: bare, or in their query mode. blkid -g
		// rewrites its cache, scutil --set and pmset's -a/-b/-c/-u set.
		"blkid":        {readOnly: true, readBare: true, probe: true, read: &readSpec{notReadWith: []string{"-g", "--garbage-collect"}}},
		"swapon":       {probe: true, read: &readSpec{readWith: []string{"--show", "-s", "--summary"}}},
		"scutil":       {probe: true, read: &readSpec{readWith: []string{"--get", "--dns", "--proxy", "--nwi"}, notReadWith: []string{"--set"}}},
		"pmset":        {probe: true, read: &readSpec{readWith: []string{"-g"}, notReadWith: []string{"-a", "-b", "-c", "-u"}}},
		"xcode-select": {readOnly: true, probe: true, read: &readSpec{notReadWith: []string{"-s", "--switch", "--install", "-r", "--reset"}}},
		"diskutil":     {probe: true, subs: roSub("list", "info")},
		// macOS's other tools, in their query modes: networksetup's
		// -list… and -get… verbs (its -set… ones change the network),
		// the package receipts, Time Machine's and disk images' state,
		// code signatures and Gatekeeper's verdicts, image and property
		// list properties, extended attributes, the keychain's
		// certificates and identities (never its passwords), a binary's
		// architectures.
		"networksetup": {probe: true, rare: &rareSpec{dashOperand: dashVerb}, read: &readSpec{readVerbs: networksetupReads}},
		"pkgutil": {probe: true, read: &readSpec{readWith: []string{"--pkgs", "--pkg-info", "--files", "--file-info", "--pkgs-plist",
			"--pkg-info-plist", "--payload-files", "--check-signature", "--groups", "--group-pkgs", "--regexp"},
			notReadWith: []string{"--forget", "--expand", "--expand-full", "--flatten", "--learn", "--bom"}}},
		// 7z's listing, test, hash, formats and benchmark.
		"7z": sevenZipReads, "7za": sevenZipReads, "7zz": sevenZipReads,
		"tmutil":   {probe: true, read: &readSpec{readVerbs: []string{"listbackups", "latestbackup", "destinationinfo", "machinedirectory", "listlocalsnapshots", "listlocalsnapshotdates", "isexcluded", "version", "status"}}},
		"hdiutil":  {probe: true, read: &readSpec{readVerbs: []string{"info", "imageinfo", "pmap", "help"}}},
		"codesign": {probe: true, read: &readSpec{readWith: []string{"-d", "--display", "-v", "--verify"}, notReadWith: []string{"-s", "--sign", "--remove-signature", "-f", "--force", "--extract-certificates"}}},
		"spctl":    {probe: true, read: &readSpec{readWith: []string{"-a", "--assess", "--status"}, notReadWith: []string{"--add", "--remove", "--enable", "--disable", "--master-enable", "--master-disable", "--global-enable", "--global-disable", "--reset-default"}}},
		"sips":     {probe: true, read: &readSpec{readWith: []string{"-g", "--getProperty"}, notReadWith: []string{"-s", "--setProperty", "-d", "--deleteProperty", "-z", "-Z", "-r", "-c", "-p", "-f", "-i", "-o", "--out", "--resampleHeight", "--resampleWidth", "--resampleHeightWidth", "--rotate", "--flip", "--cropToHeightWidth", "--padToHeightWidth", "--embedProfile", "--matchTo", "-m", "-e", "-E", "-x"}}},
		"plutil":   {probe: true, read: &readSpec{readWith: []string{"-p", "-lint", "-help", "-type"}, notReadWith: []string{"-convert", "-insert", "-replace", "-remove", "-extract", "-o", "-r", "-e"}}},
		"xattr":    {readOnly: true, probe: true, read: &readSpec{notReadWith: []string{"-w", "-d", "-c"}}},
		"textutil": {probe: true, read: &readSpec{readWith: []string{"-info", "-help"}, notReadWith: []string{"-convert", "-cat", "-output"}}},
		"lipo":     {probe: true, read: &readSpec{readWith: []string{"-info", "-detailed_info", "-archs", "-verify_arch"}, notReadWith: []string{"-create", "-output", "-remove", "-extract", "-extract_family", "-thin", "-replace"}}},
		"security": {probe: true, read: &readSpec{notReadWith: []string{"-s"}, readVerbs: []string{"find-identity", "find-certificate", "list-keychains", "show-keychain-info", "dump-trust-settings", "verify-cert"}}},
		"defaults": {probe: true, subs: roSub("read", "read-type", "domains", "find")},

		// What is installed, through the system's package managers: the
		// query modes and listing verbs; installing, removing and
		// refreshing are not listed.
		"apt":       {subs: roSub("list", "show", "search", "policy", "depends", "rdepends", "showsrc")},
		"apt-cache": {probe: true, subs: roSub("policy", "search", "show", "showpkg", "depends", "rdepends", "madison", "stats", "pkgnames", "showsrc")},
		"dpkg": {read: &readSpec{readWith: []string{"-l", "--list", "-L", "--listfiles", "-s", "--status", "-S", "--search", "-p", "--print-avail",
			"--print-architecture", "--print-foreign-architectures", "--get-selections", "-c", "--contents", "-I", "--info", "--audit", "-C", "--verify", "-V"}, notReadWith: []string{"-i", "--install", "-r", "--remove", "-P", "--purge", "--unpack", "--configure", "--set-selections", "--clear-selections"}},
		},
		"dpkg-query": {readOnly: true, probe: true},
		"pacman":     {read: &readSpec{readWith: []string{"-Q", "--query"}}},
		// rpm's query mode; --pipe runs a command on the output and a
		// macro (--define, --eval, a macro or rc file) may run one too.
		"rpm": {probe: true, read: &readSpec{readWith: []string{"-q", "--query"}, notReadWith: []string{"--pipe", "-D", "--define", "-E", "--eval",
			"--macros", "--rcfile", "--load", "--root", "--dbpath"}}},
		"apk":    {subs: roSub("info", "list", "search", "policy", "stats")},
		"dnf":    {subs: roSub("list", "info", "search", "repolist", "provides", "repoquery")},
		"yum":    {subs: roSub("list", "info", "search", "repolist", "provides")},
		"zypper": {subs: roSub("se", "search", "info", "if", "lr", "repos", "ls", "services", "pa", "packages", "pch", "patches", "lu", "list-updates")},
		"brew": {read: &readSpec{readWith: []string{"--prefix", "--cellar", "--repository", "--repo", "--cache", "--caskroom", "--config", "--env", "--taps"}, about: []string{"-v"}},
			subs: append(roSub("list", "ls", "info", "outdated", "deps", "uses", "config", "leaves", "doctor", "dr", "search", "desc", "cat",
				"missing", "options", "tap-info", "formulae", "casks", "log", "commands", "help"),
				// brew tap alone lists the taps; --repair and the others
				// change them.
				namedSpec{"tap", &cmdSpec{readOnly: true, readBare: true, read: &readSpec{notReadWith: []string{"--repair", "--custom-remote", "--force", "--force-auto-update"}}}},
				namedSpec{"services", withSubs("list", "info")})},
		"snap":    {subs: roSub("list", "info", "find", "version", "services", "connections", "changes")},
		"flatpak": {subs: roSub("list", "info", "search", "remotes", "history")},
		"port":    {probe: true, subs: roSub("installed", "outdated", "info", "search", "list", "deps", "contents")},
		"nix-env": {probe: true, read: &readSpec{readWith: []string{"-q", "--query"}}},
		"guix":    {probe: true, subs: subcommands{{"package", &cmdSpec{read: &readSpec{readWith: []string{"-I", "--list-installed", "-A", "--list-available", "--list-generations", "--list-profiles"}}}}}},

		// Archives, binaries, media and documents, read: listing an archive
		// (tar -t, unzip -l, gzip -l) but not extracting it; what writes
		// an output file names it in an option that is not read-only.
		"tar":     {read: &readSpec{readWith: []string{"-t", "--list"}}},
		"unzip":   {read: &readSpec{readWith: []string{"-l", "-v", "-Z", "-t"}}},
		"gzip":    {read: &readSpec{readWith: []string{"-l", "--list", "-t", "--test"}}},
		"xz":      {read: &readSpec{readWith: []string{"-l", "--list", "-t", "--test"}}},
		"zipinfo": roNew,
		"nm":      roNew, "objdump": roNew, "readelf": roNew, "size": roNew, "otool": roNew,
		"ffprobe": roNew, "pdfinfo": roNew,
		"mediainfo": {readOnly: true, probe: true, read: &readSpec{notReadWith: []string{"--LogFile", "--logfile"}}},
		"xmllint":   {readOnly: true, probe: true, read: &readSpec{notReadWith: []string{"-o", "--output", "--shell"}}},
		"csvlook":   roNew,
		"iconv":     {readOnly: true, read: &readSpec{notReadWith: []string{"-o", "--output"}}},
		"fmt":       ro, "expand": ro, "pr": ro,
		"look": roNew, "bc": roNew, "yes": roNew, "uuidgen": roNew,
		"man":     {readOnly: true, read: &readSpec{notReadWith: []string{"-P", "--pager", "-H", "--html", "-X", "--gxditview", "-R", "--recode"}}},
		"info":    {readOnly: true, probe: true, read: &readSpec{notReadWith: []string{"-o", "--output", "--dribble", "--restore"}}},
		"apropos": roNew, "whatis": roNew, "tldr": roNew,

		// Linters and scanners that only report on the files they read;
		// an option that rewrites them (codespell -w) or names a program
		// to run (actionlint -shellcheck) is not read-only.
		"shellcheck": {readOnly: true, probe: true},
		"hadolint":   {readOnly: true, probe: true},
		"yamllint":   roNew,
		"actionlint": {readOnly: true, probe: true, read: &readSpec{notReadWith: []string{"-shellcheck", "-pyflakes"}}},
		"codespell":  {readOnly: true, probe: true, read: &readSpec{notReadWith: []string{"-w", "--write-changes", "-i", "--interactive"}}},
		"tokei":      roNew,
		"scc":        {readOnly: true, probe: true, read: &readSpec{notReadWith: []string{"-o", "--output"}}},
		"tfsec":      {readOnly: true, probe: true, read: &readSpec{notReadWith: []string{"-O", "--out"}}},
		"kubeval":    roNew, "kubeconform": roNew,
		// CI configuration checked where it is, without a server.
		"drone":          {probe: true, subs: roSub("lint")},
		"woodpecker-cli": {probe: true, subs: roSub("lint")},
		"act":            {probe: true, read: &readSpec{readWith: []string{"-l", "--list"}}},

		// Toolchains' and version managers' listings.
		"pipx":   {subs: roSub("list")},
		"poetry": {subs: append(roSub("show", "check", "about"), namedSpec{"env", withSubs("info", "list")}, namedSpec{"version", &cmdSpec{readOnly: true, readBare: true}})},
		"uv":     {subs: subcommands{{"pip", withSubs("list", "show", "freeze", "tree", "check")}, {"tree", ro}, {"python", withSubs("list", "find", "dir")}, {"cache", withSubs("dir")}, {"help", ro}}},
		"pipenv": {subs: roSub("graph")},
		"conda":  {subs: append(roSub("list", "info", "search"), namedSpec{"env", withSubs("list")})},
		"mamba":  {probe: true, subs: append(roSub("list", "info", "search"), namedSpec{"env", withSubs("list")})},
		"gem":    {subs: roSub("list", "env", "which", "dependency", "contents", "search", "info", "specification", "outdated")},
		"asdf":   {probe: true, subs: roSub("list", "current", "where", "which", "plugin-list")},
		"mise":   {subs: roSub("ls", "list", "current", "where", "which", "doctor")},
		"volta":  {probe: true, subs: roSub("list", "which")},
		"rbenv":  {probe: true, subs: roSub("versions", "version", "which", "root")},
		"pyenv":  {probe: true, subs: roSub("versions", "version", "which", "root", "prefix")},
		"goenv":  {probe: true, subs: roSub("versions", "version", "which", "root")},
		"fnm":    {probe: true, subs: roSub("list", "ls", "current", "ls-remote")},
		"n":      {probe: true, subs: roSub("ls", "list", "which")},
		"rustup": {probe: true, subs: append(roSub("show", "which"), namedSpec{"toolchain", withSubs("list")}, namedSpec{"target", withSubs("list")},
			namedSpec{"component", withSubs("list")})},

		// Version control.
		"git": {subs: append(roSub("status", "log", "diff", "show", "blame", "annotate", "ls-files", "ls-tree",
			"rev-parse", "rev-list", "describe", "shortlog", "cat-file", "grep", "reflog", "show-ref",
			"for-each-ref", "merge-base", "name-rev", "whatchanged", "cherry", "check-ignore", "check-attr",
			"count-objects", "diff-tree", "diff-index", "diff-files", "version", "help", "range-diff", "var",
			"verify-commit", "verify-tag", "show-branch"),
			// git hash-object prints a file's object name; -w writes the
			// object. git archive writes to standard output, unless -o
			// or --output name a file or --remote and --exec run the
			// archive on a remote. git apply --check, --stat and their
			// kin only report, unless --apply applies after all.
			namedSpec{"hash-object", &cmdSpec{readOnly: true, read: &readSpec{notReadWith: []string{"-w"}}}},
			namedSpec{"archive", &cmdSpec{readOnly: true, read: &readSpec{notReadWith: []string{"-o", "--output", "--remote", "--exec"}}}},
			namedSpec{"apply", &cmdSpec{read: &readSpec{readWith: []string{"--check", "--stat", "--numstat", "--summary"}, notReadWith: []string{"--apply", "--index", "--cached", "--3way", "-3", "--reject", "--unsafe-paths"}}}},
			namedSpec{"bisect", &cmdSpec{read: &readSpec{readVerbs: []string{"log", "visualize", "view"}}}},
			namedSpec{"bundle", &cmdSpec{read: &readSpec{readVerbs: []string{"verify", "list-heads"}}}},
			namedSpec{"rerere", &cmdSpec{read: &readSpec{readVerbs: []string{"status", "diff", "remaining"}}}},
			namedSpec{"replace", &cmdSpec{read: &readSpec{readWith: []string{"-l", "--list"}}}},
			// ls-remote's -u and --upload-pack name the program run on
			// the remote's side, here for a local or ssh remote.
			namedSpec{"ls-remote", &cmdSpec{readOnly: true, read: &readSpec{notReadWith: []string{"-u", "--upload-pack", "--exec"}}}},
			namedSpec{"submodule", &cmdSpec{read: &readSpec{readVerbs: []string{"status", "summary"}}}},
			namedSpec{"fsck", &cmdSpec{readOnly: true, read: &readSpec{notReadWith: []string{"--lost-found"}}}},
			namedSpec{"notes", withSubs("list", "show")},
			namedSpec{"sparse-checkout", withSubs("list")},
			namedSpec{"lfs", withSubs("ls-files", "status", "env", "version")},
			// git branch -u and its kin set the branch's configuration
			// (--edit-description opens an editor on it).
			namedSpec{"branch", &cmdSpec{readOnly: true, readBare: true, read: &readSpec{readWith: gitListing,
				notReadWith: []string{"-u", "--set-upstream-to", "--unset-upstream", "--edit-description"}}}},
			namedSpec{"tag", &cmdSpec{readOnly: true, readBare: true, read: &readSpec{readWith: gitListing}}},
			namedSpec{"remote", &cmdSpec{readOnly: true, subs: roSub("show", "get-url")}},
			namedSpec{"stash", withSubs("list", "show")},
			// git config KEY prints the key's value; --unset and the
			// other options that change a key write even with one operand.
			namedSpec{"config", &cmdSpec{readOnly: true, readBare: true, read: &readSpec{notReadWith: []string{"-e", "--edit",
				"--unset", "--unset-all", "--add", "--replace-all", "--remove-section", "--rename-section"},
				readWith: []string{"--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list"}, readKey: true},
				subs: roSub("get", "list")}},
			namedSpec{"worktree", withSubs("list")})},

		// Clusters, containers and clouds, through their own clients.
		"kubectl": {read: &readSpec{notReadWith: []string{"-s", "--server", "--kubeconfig"}},
			subs: append(roSub("get", "describe", "logs", "top", "explain", "api-resources", "api-versions",
				"version", "events", "wait"),
				namedSpec{"cluster-info", &cmdSpec{readOnly: true, readBare: true}},
				namedSpec{"config", withSubs("view", "get-contexts", "current-context", "get-clusters", "get-users")},
				namedSpec{"auth", withSubs("can-i", "whoami")},
				namedSpec{"rollout", withSubs("status", "history")},
				namedSpec{"plugin", withSubs("list")})},
		"docker": {read: &readSpec{notReadWith: []string{"-H", "--host", "--config"}}, subs: containerReads},
		// podman reads as docker does; --remote, --url and --connection
		// name the service it talks to.
		"podman": {read: &readSpec{notReadWith: []string{"-r", "--remote", "--url", "-c", "--connection", "--identity"}}, subs: containerReads},
		// docker-compose is docker compose before it was a plugin; -H
		// names the daemon it talks to, as docker's does.
		"docker-compose": {read: &readSpec{notReadWith: []string{"-H", "--host"}}, subs: composeReads.subs},
		"helm": {read: &readSpec{notReadWith: []string{"--kube-apiserver", "--kubeconfig"}},
			subs: append(roSub("list", "ls", "status", "history", "show", "search", "version", "env", "lint", "help"),
				namedSpec{"template", &cmdSpec{readOnly: true, read: &readSpec{notReadWith: []string{"--output-dir", "--post-renderer"}}}},
				namedSpec{"repo", withSubs("list", "ls")},
				namedSpec{"dependency", withSubs("list", "ls")}, namedSpec{"dep", withSubs("list", "ls")},
				namedSpec{"plugin", withSubs("list", "ls")},
				// helm get values, manifest and all print the release's
				// values and Secrets; its hooks, metadata and notes do not.
				namedSpec{"get", withSubs("hooks", "metadata", "notes")},
				namedSpec{"inspect", ro}, namedSpec{"verify", ro})},
		"gh": {subs: subcommands{
			{"pr", withSubs("list", "view", "status", "diff", "checks")},
			{"issue", withSubs("list", "view", "status")},
			{"run", withSubs("list", "view", "watch")},
			{"repo", withSubs("view", "list")},
			{"release", withSubs("list", "view", "verify", "verify-asset")},
			{"workflow", withSubs("list", "view")},
			{"label", withSubs("list")},
			{"cache", withSubs("list")},
			{"secret", withSubs("list")},
			{"variable", withSubs("list", "get")},
			{"gist", withSubs("list", "view")},
			{"search", ro},
			{"ruleset", withSubs("list", "view", "check")}, {"rs", withSubs("list", "view", "check")},
			{"project", withSubs("list", "view", "field-list", "item-list")},
			{"codespace", withSubs("list", "view", "logs", "ports")}, {"cs", withSubs("list", "view", "logs", "ports")},
			{"extension", withSubs("list", "search")}, {"ext", withSubs("list", "search")},
			{"alias", withSubs("list")},
			{"ssh-key", withSubs("list")},
			{"gpg-key", withSubs("list")},
			{"attestation", withSubs("verify")}, {"at", withSubs("verify")},
			{"config", withSubs("list", "get")},
			{"org", withSubs("list")},
			// gh api PATH is a GET: a method, a field, an input body or a
			// header (X-HTTP-Method-Override) makes it a write.
			{"api", &cmdSpec{readOnly: true, read: &readSpec{notReadWith: []string{"-X", "--method", "-f", "--raw-field", "-F", "--field",
				"--input", "-H", "--header"}}}},
			{"status", ro},
			// gh browse opens a browser; with --no-browser it prints the
			// URL it would open.
			{"browse", &cmdSpec{read: &readSpec{readWith: []string{"-n", "--no-browser"}}}},
			{"auth", &cmdSpec{subs: subcommands{{"status", &cmdSpec{readOnly: true, read: &readSpec{notReadWith: []string{"-t", "--show-token"}}}}}}},
		}},
		// aws SERVICE OPERATION with a read operation's name
		// (awsReadVerbs), and a service's other reads, named. The ones
		// that print a secret are classed apart (secretsmanager
		// get-secret-value) or named so (ecr get-login-password:
		// yieldsCredential); s3api get-object writes the file named
		// after it (verbOnly).
		"aws": {read: &readSpec{notReadWith: []string{"--endpoint-url"}, readVerbs: append(awsReadVerbs(), "help"), verbAt: 1, verbOnly: true},
			subs: subcommands{{"sts", awsReads()},
				{"s3", &cmdSpec{read: &readSpec{readVerbs: []string{"ls", "help"}}}},
				// aws configure get KEY prints a setting; the keys that
				// hold credentials are classed apart (specs.go).
				{"configure", &cmdSpec{read: &readSpec{readVerbs: []string{"list", "list-profiles", "get"}}}},
				{"iam", awsReads("simulate-principal-policy", "simulate-custom-policy")},
				{"s3api", awsReads("head-object", "head-bucket")},
				{"dynamodb", awsReads("query", "scan")},
				{"cloudformation", awsReads("validate-template", "estimate-template-cost")},
				{"route53", awsReads("test-dns-answer")},
				// aws logs tail GROUP: the group's name is a path
				// (/aws/lambda/fn), no destination.
				{"logs", &cmdSpec{read: awsReads("filter-log-events").read, subs: subcommands{{"tail", ro}}}},
				{"cloudtrail", awsReads("lookup-events")}}},
		// gcloud GROUP VERB and gcloud GROUP RESOURCE VERB: each group
		// says where its verb stands, so "gcloud functions create list"
		// is create. Groups whose resources hold secret values list only
		// (gcloud secrets versions access is not a verb here).
		"gcloud": {subs: append(subcommands{
			{"config", &cmdSpec{read: &readSpec{readVerbs: []string{"list", "get-value", "get"}},
				subs: subcommands{{"configurations", gcloudRead(0)}}}},
			{"auth", &cmdSpec{read: &readSpec{readVerbs: []string{"list"}}}},
			{"projects", &cmdSpec{read: &readSpec{readVerbs: []string{"list", "describe", "get-iam-policy"}}}},
			// A secret's and its versions' metadata; versions access
			// prints the value.
			{"secrets", &cmdSpec{read: &readSpec{readVerbs: []string{"list", "describe"}}, subs: subcommands{{"versions", gcloudRead(0)}}}},
			{"storage", &cmdSpec{read: &readSpec{readVerbs: []string{"ls", "du", "cat"}}, subs: subcommands{{"buckets", gcloudRead(0)}, {"objects", gcloudRead(0)}}}},
			{"version", ro}, {"info", ro}, {"help", ro}, {"topic", ro},
			// gcloud logging read FILTER reads log entries, as gcloud
			// logging logs list lists the logs.
			{"logging", &cmdSpec{read: gcloudRead(1).read, subs: subcommands{{"read", ro}}}},
		}, gcloudGroups()...)},
		// gsutil VERB [gs://BUCKET/PATH]: listing, sizes and an object's
		// content, read from the service.
		"gsutil": {read: &readSpec{readVerbs: []string{"ls", "du", "cat", "stat", "version", "help"}, notReadWith: []string{"-o"}}},
		// az GROUP… VERB: az's commands take options only, so the verb
		// is the last operand (az vm list, az network vnet subnet show);
		// a path through keys, secrets, credentials or app settings is no
		// read (az acr credential show, az storage account keys list,
		// az webapp config appsettings list: secretWord).
		"az": {read: &readSpec{readVerbs: []string{"list", "show", "list-", "show-", "get-", "exists", "query", "tail", "version"}, verbLast: true},
			subs: subcommands{{"version", ro}}},

		// Hosting and infrastructure clients' listings and status, read
		// from their own service (doctl GROUP RESOURCE list, hcloud
		// RESOURCE list). A preview that runs the project's program
		// (pulumi preview), a secret printed (pulumi --show-secrets, vault
		// read) or a change is not listed.
		"doctl":      {read: &readSpec{readVerbs: []string{"list", "get"}, verbAt: 2}, subs: subcommands{{"account", &cmdSpec{read: &readSpec{readVerbs: []string{"get"}}}}}},
		"hcloud":     {probe: true, read: &readSpec{readVerbs: []string{"list", "describe"}, verbAt: 1}},
		"linode-cli": {probe: true, read: &readSpec{readVerbs: []string{"list", "view"}, verbAt: 1}},
		"oci":        {probe: true, read: &readSpec{readVerbs: []string{"list", "get"}, verbAt: 2}},
		"flyctl":     {subs: append(roSub("status", "logs", "version"), namedSpec{"apps", withSubs("list")})},
		"fly":        {subs: append(roSub("status", "logs", "version"), namedSpec{"apps", withSubs("list")})},
		"vercel":     {probe: true, subs: roSub("ls", "list", "whoami", "inspect")},
		"netlify":    {probe: true, subs: roSub("status")},
		"heroku":     {subs: roSub("apps", "logs", "ps", "releases", "domains")},
		"firebase":   {probe: true, subs: roSub("projects:list", "apps:list", "hosting:channel:list")},
		"wrangler":   {probe: true, subs: roSub("whoami")},
		"pulumi":     {read: &readSpec{notReadWith: []string{"--show-secrets"}}, subs: subcommands{{"stack", &cmdSpec{subs: roSub("ls", "output", "history")}}}},
		"vault":      {read: &readSpec{notReadWith: []string{"-address"}}, subs: append(roSub("status", "version"), namedSpec{"secrets", withSubs("list")})},
		"consul":     {probe: true, read: &readSpec{notReadWith: []string{"-http-addr"}}, subs: append(roSub("members", "info", "version"), namedSpec{"catalog", withSubs("services", "nodes", "datacenters")})},
		"nomad":      {probe: true, read: &readSpec{notReadWith: []string{"-address"}}, subs: append(roSub("status", "version"), namedSpec{"job", withSubs("status")}, namedSpec{"node", withSubs("status")})},
		"argocd":     {probe: true, subs: subcommands{{"app", withSubs("list", "get", "history")}, {"version", ro}}},
		"flux":       {probe: true, read: &readSpec{notReadWith: []string{"--kubeconfig", "--server"}}, subs: subcommands{{"get", ro}, {"version", ro}}},
		"istioctl":   {probe: true, read: &readSpec{notReadWith: []string{"--kubeconfig"}}, subs: roSub("proxy-status", "version", "analyze")},
		"stern":      {readOnly: true, probe: true, read: &readSpec{notReadWith: []string{"--kubeconfig"}}},
		"kubectx":    {readOnly: true, readBare: true, probe: true, read: &readSpec{readWith: []string{"-c", "--current"}}},
		"kubens":     {readOnly: true, readBare: true, probe: true, read: &readSpec{readWith: []string{"-c", "--current"}}},
		"crontab":    {read: &readSpec{readWith: []string{"-l"}}},
		"xcrun":      {probe: true, subs: subcommands{{"simctl", withSubs("list")}, {"--show-sdk-path", ro}, {"--find", ro}}},
		"emulator":   {probe: true, read: &readSpec{readWith: []string{"-list-avds"}}},
		// adb devices, a dump of the device's log and one property read
		// on it; -H, -P and -L name another adb server. logcat without
		// -d follows the log; -c, -G and -P clear or resize it and -f
		// writes a file on the device. What adb shell runs is any
		// command: only getprop with at most one property's name.
		"adb": {probe: true, shortVal: "stHPL", read: &readSpec{notReadWith: []string{"-H", "-P", "-L"}}, subs: subcommands{
			{"devices", ro},
			{"logcat", &cmdSpec{shortVal: "bfrnvtTGPem", read: &readSpec{readWith: []string{"-d"},
				notReadWith: []string{"-c", "--clear", "-G", "--buffer-size", "-P", "--prune", "-f", "--file"}}}},
			{"shell", &cmdSpec{read: &readSpec{readVerbs: []string{"getprop"}}}}}},
		"sdkmanager": {probe: true, read: &readSpec{readWith: []string{"--list", "--list_installed"}}},
		"code":       {read: &readSpec{readWith: []string{"--list-extensions"}}},
		"opam":       {probe: true, subs: roSub("list", "show", "switch")},
		"luarocks":   {probe: true, subs: roSub("list", "show", "search")},

		// Database clients given SQL that only reads (sqlReadsOnly): a
		// query, a catalogue listing. A statement that writes, a function
		// that reads files or runs code, a shell escape, a script file or
		// an output file is not a read, nor is the client with no SQL
		// given (it runs what its input says).
		"psql":              {read: &readSpec{readSQL: []string{"-c", "--command"}, readWith: []string{"-l", "--list"}, notReadWith: []string{"-f", "--file", "-o", "--output", "-L", "--log-file"}}},
		"mysql":             {read: &readSpec{readSQL: []string{"-e", "--execute"}, notReadWith: mysqlNotRead}},
		"mariadb":           {read: &readSpec{readSQL: []string{"-e", "--execute"}, notReadWith: mysqlNotRead}},
		"sqlite3":           {read: &readSpec{readSQL: []string{""}, notReadWith: []string{"-cmd", "-init", "-A", "-archive"}}},
		"clickhouse-client": {read: &readSpec{readSQL: []string{"-q", "--query"}, notReadWith: []string{"--queries-file"}}},
		// fzf prints the lines it is given, or the names under the
		// directory it walks, that the user picks; a key bound to an
		// action that runs a command (--bind 'enter:execute(…)'), a
		// preview command, a server and a history file are no read.
		// Python's linters and formatters whose configuration runs no
		// code: ruff check reports (--fix and --add-noqa rewrite, -o
		// writes a file), ruff format, black and isort only with
		// --check or --diff.
		"ruff": {subs: append(roSub("rule", "linter", "config", "version", "help"),
			namedSpec{"check", ruffCheck}, namedSpec{"lint", ruffCheck},
			namedSpec{"format", &cmdSpec{read: &readSpec{readWith: []string{"--check", "--diff"}}}})},
		"black": {read: &readSpec{readWith: []string{"--check", "--diff"}}},
		// cloc prints counts per language; a report file, a database or
		// its --vcs command is no read.
		"cloc":  {readOnly: true, probe: true, read: &readSpec{notReadWith: []string{"--report-file", "--out", "--sql", "--sql-append", "--write-lang-def", "--write-lang-def-incl-dup", "--vcs"}}},
		"isort": {read: &readSpec{readWith: []string{"--check-only", "--check", "-c", "--diff"}}},
		"fzf": {readOnly: true, readBare: true, shortVal: "qfdn", long: []string{"filter=", "query=", "walker=", "walker-root=", "walker-skip=",
			"height=", "min-height=", "delimiter=", "nth=", "with-nth=", "tiebreak=", "scheme=", "layout=", "border=", "prompt=", "header=",
			"header-lines=", "color=", "margin=", "padding=", "info=", "preview-window=", "preview-label=", "border-label=", "expect=",
			"bind=", "preview=", "history=", "listen=", "listen-unsafe=", "with-shell="}, read: &readSpec{notReadWith: []string{"--bind", "--preview", "--listen", "--listen-unsafe", "--with-shell", "--history"}}},
		// redis-cli's server state and key names, types and sizes; not the
		// values (get, hgetall), which may be sessions and tokens.
		"redis-cli": {read: &readSpec{readVerbs: []string{"ping", "info", "dbsize", "time", "lastsave", "keys", "scan", "type", "ttl", "pttl",
			"exists", "strlen", "llen", "scard", "hlen", "zcard"}, notReadWith: []string{"--rdb", "--pipe", "-x", "--eval", "--functions-rdb"}}},
		// Version managers and the service wrapper's listings.
		"nvm":      {probe: true, subs: roSub("ls", "list", "current", "which", "ls-remote", "version")},
		"sdk":      {probe: true, subs: roSub("list", "current", "version", "home")},
		"service":  {probe: true, read: &readSpec{readVerbs: []string{"status"}, verbAt: 1}},
		"identify": {readOnly: true, probe: true},
		// ssh-keygen -l prints a key's fingerprint, -B its bubble babble.
		"ssh-keygen": {read: &readSpec{readWith: []string{"-l", "-B"}, notReadWith: []string{"-R", "-H", "-p", "-c", "-t", "-N", "-s", "-A", "-u", "-r", "-D", "-Y"}}},
		"xcodebuild": {probe: true, read: &readSpec{readWith: []string{"-showsdks", "-version", "-list", "-showBuildSettings"}, notReadWith: []string{"-exportArchive", "-archivePath", "-resultBundlePath", "-derivedDataPath"}}},

		// Package managers and toolchains: what is installed, and where.
		"npm": {read: &readSpec{notReadWith: []string{"--registry"}, about: []string{"-v"}},
			subs: append(roSub("ls", "list", "ll", "la", "view", "info", "show", "v", "outdated", "why", "explain",
				"prefix", "root", "search", "find", "s", "se", "bin", "whoami", "fund", "help", "help-search", "query", "ping", "stars", "sbom", "get"),
				namedSpec{"owner", withSubs("ls", "list")},
				namedSpec{"access", withSubs("list", "get")},
				namedSpec{"pkg", withSubs("get")},
				namedSpec{"dist-tag", withSubs("ls")},
				namedSpec{"version", &cmdSpec{readOnly: true, readBare: true}},
				namedSpec{"audit", &cmdSpec{readOnly: true, readBare: true}},
				// npm run with no script lists the package's scripts.
				namedSpec{"run", &cmdSpec{readOnly: true, readBare: true}},
				namedSpec{"config", withSubs("get", "list", "ls")}, namedSpec{"c", withSubs("get", "list", "ls")})},
		"pnpm": {read: &readSpec{about: []string{"-v"}}, subs: append(roSub("ls", "list", "outdated", "why"),
			namedSpec{"config", withSubs("get", "list")}, namedSpec{"store", withSubs("path")},
			namedSpec{"audit", &cmdSpec{readOnly: true, readBare: true}})},
		// Tools that read the project before anything else, whose files
		// may load code: mvn's .mvn/jvm.config (-javaagent:), sbt's
		// .jvmopts and .sbtopts, yarn's yarnPath (the repository's own
		// yarn, in JavaScript). Even their version asks.
		"mvn": projectStart, "mvnw": projectStart, "sbt": projectStart, "yarn": projectStart,
		// pip config list and get are not here: an index URL may hold
		// its token (https://__token__:…@host/simple).
		"pip":  {subs: append(roSub("list", "show", "freeze", "check", "help", "debug", "search", "inspect", "hash"), namedSpec{"index", withSubs("versions")}, namedSpec{"cache", withSubs("dir", "info", "list")})},
		"pip3": {subs: append(roSub("list", "show", "freeze", "check", "help", "debug", "search", "inspect", "hash"), namedSpec{"index", withSubs("versions")}, namedSpec{"cache", withSubs("dir", "info", "list")})},
		// cargo tree, and metadata with the dependencies resolved, ask
		// rustc for the target's details: the rustc (or rustc-wrapper) a
		// .cargo/config.toml the repository ships names, any program.
		// metadata --no-deps reads the manifests only.
		"cargo": {subs: append(roSub("version", "search", "locate-project", "pkgid", "help", "read-manifest", "verify-project"),
			namedSpec{"metadata", &cmdSpec{read: &readSpec{readWith: []string{"--no-deps"}}}},
			namedSpec{"install", &cmdSpec{read: &readSpec{readWith: []string{"--list"}}}})},
		// go list takes the build flags: -toolexec and -exec run a program.
		"go": {read: &readSpec{notReadWith: []string{"-toolexec", "-exec", "-overlay", "-modfile"}},
			subs: append(roSub("list", "version", "doc", "help"),
				namedSpec{"mod", withSubs("graph", "why")},
				namedSpec{"env", &cmdSpec{readOnly: true, read: &readSpec{notReadWith: []string{"-w", "-u"}}}})},
	}
}

// gcloudRead is a gcloud group whose read verbs stand at operand at.
func gcloudRead(at int) *cmdSpec {
	return &cmdSpec{read: &readSpec{readVerbs: []string{"list", "describe", "get-"}, verbAt: at}}
}

// gcloudGroups are the gcloud groups by where their verb stands: GROUP
// VERB, or GROUP RESOURCE VERB.
func gcloudGroups() subcommands {
	var out subcommands
	for _, g := range []string{"functions", "builds", "services", "components"} {
		out = append(out, namedSpec{g, gcloudRead(0)})
	}
	for _, g := range []string{"compute", "container", "run", "sql", "iam", "artifacts", "pubsub",
		"monitoring", "redis", "dns", "billing", "app", "scheduler", "tasks", "kms"} {
		out = append(out, namedSpec{g, gcloudRead(1)})
	}
	return out
}

// awsReads is an aws service whose read operations are awsReadVerbs'
// and the ones named.
func awsReads(verbs ...string) *cmdSpec {
	return &cmdSpec{read: &readSpec{readVerbs: append(awsReadVerbs(), verbs...), verbOnly: true}}
}

// awsReadVerbs are the AWS API's read operations, by the prefix its
// naming gives them: Describe, List, Get, BatchGet. An operation whose
// name says it yields a credential is none (yieldsCredential), and one
// that writes its response to a file takes an operand (verbOnly).
func awsReadVerbs() []string { return []string{"describe-", "list-", "get-", "batch-get-"} }

// dashVerb: every word is an operand, the verb included (networksetup
// -getinfo Wi-Fi).
func dashVerb(string) bool { return true }

// networksetupReads are networksetup's verbs that print settings.
var networksetupReads = []string{"-listnetworkserviceorder", "-listallnetworkservices", "-listallhardwareports", "-getmacaddress",
	"-getcomputername", "-getinfo", "-getadditionalroutes", "-getv6additionalroutes", "-getdnsservers", "-getsearchdomains",
	"-getwebproxy", "-getsecurewebproxy", "-getproxyautodiscovery", "-getautoproxyurl", "-getftpproxy", "-getsocksfirewallproxy",
	"-getstreamingproxy", "-getgopherproxy", "-getproxybypassdomains", "-getpassiveftp", "-getairportnetwork", "-getairportpower",
	"-listpreferredwirelessnetworks", "-getnetworkserviceenabled", "-getMTU", "-listValidMTURange", "-getMedia", "-listValidMedia",
	"-listVLANs", "-listdevicesthatsupportVLAN", "-getcurrentlocation", "-listlocations", "-version", "-help", "-printcommands",
	"-showBondStatus", "-isBondSupported"}

// sevenZipReads: 7z l, t, h, i and b only read.
var sevenZipReads = &cmdSpec{probe: true, read: &readSpec{readVerbs: []string{"l", "t", "h", "i", "b"}}}
