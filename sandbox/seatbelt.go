package sandbox

import (
	"fmt"
	"regexp"
	"strings"
)

// seatbeltBase is what every process on macOS needs to start and run:
// its own processes, signals among them, the system's read-only
// services, and the null, zero and terminal devices. Everything else
// is denied unless the profile's rules below allow it.
const seatbeltBase = `(version 1)
(deny default)
(allow process-exec process-fork)
(allow signal (target same-sandbox))
(allow process-info* (target same-sandbox))
(allow sysctl-read)
(allow mach-lookup
  (global-name "com.apple.system.opendirectoryd.libinfo")
  (global-name "com.apple.system.notification_center")
  (global-name "com.apple.system.logger")
  (global-name "com.apple.logd")
  (global-name "com.apple.trustd.agent")
  (global-name "com.apple.SecurityServer")
  (global-name "com.apple.coreservices.launchservicesd"))
(allow ipc-posix-sem)
(allow ipc-posix-shm-read-data ipc-posix-shm-write-data ipc-posix-shm-write-create)
(allow pseudo-tty)
(allow file-ioctl (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$"))
(allow file-write-data
  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper")
  (regex #"^/dev/ttys[0-9]+$"))
`

// Seatbelt renders the profile as a macOS sandbox profile (SBPL, for
// sandbox-exec -p): read everything, then deny what DenyRead names (and
// allow its exceptions again); write the Write roots, except NoWrite,
// DenyRead and Protect; network only to the proxy on loopback port
// proxyPort (0: none). Later rules win in SBPL, so the order below is the
// precedence. Unlike Landlock, Seatbelt matches paths, so protected paths
// that do not exist yet are covered too.
//
// It is generated and tested against golden text only: it has not been
// run on a Mac.
func Seatbelt(p *Profile, proxyPort uint16) string {
	var b strings.Builder
	b.WriteString(seatbeltBase)
	b.WriteString("\n; Read everything except secrets, the agents' configuration and toolgate's state.\n")
	b.WriteString("(allow file-read* file-test-existence)\n")
	writeFilters(&b, "deny file-read*", p.DenyRead)
	writeExcepts(&b, "allow file-read*", p.DenyRead)

	b.WriteString("\n; Write the workspace roots and the temporary directory.\n")
	if len(p.Write) > 0 {
		b.WriteString("(allow file-write*")
		for _, w := range p.Write {
			fmt.Fprintf(&b, "\n  (subpath %s)", sbplString(w))
		}
		b.WriteString(")\n")
	}
	if len(p.NoWrite) > 0 {
		b.WriteString("(deny file-write*")
		for _, d := range p.NoWrite {
			fmt.Fprintf(&b, "\n  (subpath %s)", sbplString(d))
		}
		b.WriteString(")\n")
		var again []string
		for _, w := range p.Write {
			for _, d := range p.NoWrite {
				if within(w, d) {
					again = append(again, w)
				}
			}
		}
		if len(again) > 0 {
			b.WriteString("(allow file-write*")
			for _, w := range again {
				fmt.Fprintf(&b, "\n  (subpath %s)", sbplString(w))
			}
			b.WriteString(")\n")
		}
	}
	b.WriteString("\n; Never the agents' configuration, repository hooks and configuration, start-up files.\n")
	writeFilters(&b, "deny file-write*", append(append([]Spec(nil), p.Protect...), p.DenyRead...))

	b.WriteString("\n; Network.\n")
	if proxyPort != 0 {
		fmt.Fprintf(&b, "(allow network-outbound (remote tcp \"localhost:%d\"))\n", proxyPort)
	} else {
		b.WriteString("(deny network*)\n")
	}
	return b.String()
}

// writeFilters writes one rule of action over the specs' paths.
func writeFilters(b *strings.Builder, action string, specs []Spec) {
	if len(specs) == 0 {
		return
	}
	fmt.Fprintf(b, "(%s", action)
	for _, s := range specs {
		fmt.Fprintf(b, "\n  %s", sbplFilter(s))
	}
	b.WriteString(")\n")
}

// writeExcepts allows again what the specs' Except patterns free.
func writeExcepts(b *strings.Builder, action string, specs []Spec) {
	var filters []string
	for _, s := range specs {
		for _, e := range s.Except {
			dir := s.Parent
			if s.Dir {
				dir = s.Path()
			}
			filters = append(filters, fmt.Sprintf("(regex #\"^%s/%s$\")", caseFold(sbplRegexQuote(dir)), caseFold(globRegex(e))))
		}
	}
	if len(filters) == 0 {
		return
	}
	fmt.Fprintf(b, "(%s\n  %s)\n", action, strings.Join(filters, "\n  "))
}

// sbplFilter is the path filter for a spec: a regex over the whole path,
// with everything below it for a directory, '*' as any run of characters
// within a name, and letters in either case (the default macOS file
// system ignores case: ~/.SSH is ~/.ssh).
func sbplFilter(s Spec) string {
	re := "^" + caseFold(sbplRegexQuote(s.Parent)) + "/" + caseFold(globRegex(s.Name))
	if s.Parent == "/" {
		re = "^/" + caseFold(globRegex(s.Name))
	}
	if s.Dir {
		re += "(/.*)?"
	}
	return fmt.Sprintf("(regex #\"%s$\")", re)
}

// caseFold makes each ASCII letter of a regex match either case.
func caseFold(re string) string {
	var b strings.Builder
	for _, r := range re {
		lo, up := strings.ToLower(string(r)), strings.ToUpper(string(r))
		if lo != up {
			fmt.Fprintf(&b, "[%s%s]", lo, up)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// globRegex turns a name pattern with '*' into a regex for one element.
func globRegex(pat string) string {
	parts := strings.Split(pat, "*")
	for i, p := range parts {
		parts[i] = sbplRegexQuote(p)
	}
	return strings.Join(parts, "[^/]*")
}

// sbplRegexQuote quotes s for an SBPL regex literal (#"…").
func sbplRegexQuote(s string) string {
	return strings.ReplaceAll(regexp.QuoteMeta(s), `"`, `\"`)
}

// sbplString is s as an SBPL string literal.
func sbplString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
