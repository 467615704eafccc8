package shell

import (
	"slices"
	"strings"
)

// uploadsInput reports whether a network client sends what comes on its
// standard input: curl's -d @-, --data-binary @-, -T -, -F f=@-; wget's
// --post-file=/dev/stdin; nc, ncat and netcat, which send their input
// to the peer (unless they only scan, -z); socat joining its input (-,
// STDIN, STDIO) to an address; HTTPie and xh, which send a piped input
// as the request's body (unless told to ignore it).
func uploadsInput(name string, args []string) bool {
	switch name {
	case "curl":
		for i, a := range args {
			next := ""
			if i+1 < len(args) {
				next = args[i+1]
			}
			switch {
			case curlStdinValue(a):
				return true
			case curlDataOpt(a) && (strings.HasSuffix(next, "@-") || strings.HasSuffix(next, "<-")):
				return true
			case (a == "-T" || a == "--upload-file") && (next == "-" || next == "."):
				return true
			case a == "-T-" || a == "-T." || a == "--upload-file=-" || a == "--upload-file=.":
				return true
			}
		}
	case "wget":
		for i, a := range args {
			if k, v, ok := strings.Cut(a, "="); ok && (k == "--post-file" || k == "--body-file") && stdinPath(v) {
				return true
			}
			if (a == "--post-file" || a == "--body-file") && i+1 < len(args) && stdinPath(args[i+1]) {
				return true
			}
		}
	case "nc", "ncat", "netcat":
		for _, a := range args {
			if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "z") {
				return false
			}
		}
		return true
	case "socat":
		for _, a := range args {
			u := strings.ToUpper(a)
			if a == "-" || strings.HasPrefix(u, "STDIN") || strings.HasPrefix(u, "STDIO") || strings.HasPrefix(u, "-,") || strings.HasPrefix(u, "-!!") {
				return true
			}
		}
	case "http", "https", "httpie", "xh", "xhs":
		for _, a := range args {
			if a == "--ignore-stdin" || a == "-I" {
				return false
			}
		}
		return true
	}
	return false
}

// curlDataOpt reports whether a curl option takes the data it sends as
// its value (whose "@-" or "<-" reads the input).
func curlDataOpt(a string) bool {
	switch a {
	case "-d", "--data", "--data-binary", "--data-ascii", "--data-urlencode", "--json", "-F", "--form":
		return true
	}
	return false
}

// curlStdinValue reports whether one word is a curl data option with its
// value glued on that reads the input: -d@-, --data-binary=@-, -Ffile=@-.
func curlStdinValue(a string) bool {
	if !strings.HasSuffix(a, "@-") && !strings.HasSuffix(a, "<-") {
		return false
	}
	for _, p := range [...]string{"-d", "-F", "--data", "--json", "--form"} {
		if strings.HasPrefix(a, p) && len(a) > len(p) {
			return true
		}
	}
	return false
}

// stdinPath reports whether a file name is the standard input.
func stdinPath(p string) bool {
	return p == "-" || p == "/dev/stdin" || p == "/dev/fd/0" || p == "/proc/self/fd/0"
}

// uploadsLocally reports whether every address a network client that
// sends its input names is this machine ("curl -d @- http://localhost:8080/",
// "nc 127.0.0.1 9000"), with nothing that routes it elsewhere (a proxy,
// --connect-to, --resolve, a config file). An operand it cannot read as
// an address, or none at all, is not local.
func uploadsLocally(name string, args []string) bool {
	var skip []string
	switch name {
	case "curl":
		skip = curlValueOpts
	case "nc", "ncat", "netcat":
		skip = ncValueOpts
	default:
		return false
	}
	local := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if routesElsewhere(a) {
			return false
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			if slices.Contains(skip, a) || curlDataOpt(a) && name == "curl" || (a == "-T" || a == "--upload-file") && name == "curl" {
				i++
			}
			continue
		}
		if name == "curl" || !local {
			if ClassifyHost(URLHost(a)) != HostLoopback {
				return false
			}
			local = true
			continue
		}
		// nc HOST PORT: what follows the host is its port.
	}
	return local
}

// routesElsewhere reports whether an option of curl or nc may send the
// connection somewhere other than the address it names.
func routesElsewhere(a string) bool {
	for _, p := range [...]string{"-x", "--proxy", "--preproxy", "--socks", "--connect-to", "--resolve", "-K", "--config", "--proxy-type"} {
		if a == p || strings.HasPrefix(a, p+"=") || len(p) == 2 && strings.HasPrefix(a, p) {
			return true
		}
	}
	return false
}

// curlValueOpts and ncValueOpts are the options whose value is the next
// word (not an address) that uploadsLocally steps over.
var (
	curlValueOpts = []string{"-H", "--header", "-A", "--user-agent", "-e", "--referer",
		"-X", "--request", "-u", "--user", "-m", "--max-time", "--connect-timeout", "-o", "--output", "-w", "--write-out"}
	ncValueOpts = []string{"-p", "-s", "-w", "-q", "-i", "-W", "-T", "-O", "-I"}
)

// inputFilter reports whether a command only rewrites its standard input
// onto its output, reading no file (tr, rev, column): what it prints of
// a pipe is that pipe's content, respelled.
func inputFilter(name string) bool {
	switch name {
	case "tr", "rev", "column", "fold", "fmt", "expand", "unexpand", "iconv", "dos2unix", "unix2dos":
		return true
	}
	return false
}

// readsFiles reports whether the tables say which files a command reads
// or writes (cat, tar, gzip, grep): what it prints is made of those files
// or of its input. A command whose subcommands say (git, go) may print
// anything.
func readsFiles(name string) bool {
	s := commandSpec(name)
	return s != nil && s.files != noFiles && s.files != bySub
}
