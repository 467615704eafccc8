package toolgate

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// riskHeadline words the risks whose code says all there is to say, as a
// person reads them at the top of an approval prompt. Risks not listed
// here (those whose reason names the file they touch, and classes added
// later) lead with their own Reason.
func riskHeadline(code string) (string, bool) {
	switch code {
	case "fork-bomb":
		return "Starts a fork bomb that exhausts the machine's processes", true
	case "remote-fetch-exec":
		return "Runs code downloaded from the network without review", true
	case "format-filesystem":
		return "Formats a file system, destroying its data", true
	case "block-device-write":
		return "Writes directly to a disk device, destroying its data", true
	case "system-shutdown":
		return "Shuts down or reboots the machine", true
	case "dev-tcp":
		return "Opens a raw network connection through /dev/tcp", true
	case "command-substitution", "process-substitution":
		return "Runs a command inside another, whose output is known only when it runs", true
	case "background":
		return "Runs a command in the background", true
	}
	return "", false
}

// severityRank orders severities for Explain: critical first, unknown
// (newer) severities next, unprefixable constructs last.
func severityRank(s Severity) int {
	switch s {
	case SeverityCritical:
		return 0
	case SeverityUnprefixable:
		return 2
	}
	return 1
}

// Explain words why a call needs a person, for every surface that shows a
// reason (hook permissionDecisionReason, MCP elicitation, web card, TUI,
// notifications): the most serious risk first in plain language with the
// command or path it was found in ("Deletes / (the whole file system):
// `rm -rf /`"), a count of further risks, then reason, the rule
// reference. Without risks it returns reason unchanged.
func Explain(risks []Risk, reason string) string {
	if len(risks) == 0 {
		return reason
	}
	top := 0
	for i := range risks {
		if severityRank(risks[i].Severity) < severityRank(risks[top].Severity) {
			top = i
		}
	}
	r := &risks[top]
	var b strings.Builder
	b.WriteString(Headline(r))
	if n := len(risks) - 1; n > 0 {
		b.WriteString(" (and ")
		b.WriteString(strconv.Itoa(n))
		if n == 1 {
			b.WriteString(" more risk)")
		} else {
			b.WriteString(" more risks)")
		}
	}
	if reason = dropRepeat(reason, b.String()); reason != "" {
		b.WriteString(". ")
		b.WriteString(capitalize(reason))
	}
	return b.String()
}

// dropRepeat drops reason's first sentence when the headline already says
// it (a rule that denies a secret and the risk class of reading it word
// the same thing).
func dropRepeat(reason, headline string) string {
	first, rest, ok := strings.Cut(reason, ". ")
	if ok && len(first) > 10 && strings.Contains(strings.ToLower(headline), strings.ToLower(first)) {
		return rest
	}
	return reason
}

// Headline is one risk in plain language, followed by the command or path
// it was found in.
func Headline(r *Risk) string {
	h, ok := riskHeadline(r.Code)
	switch {
	case r.Code == "recursive-delete":
		h = deleteHeadline(r.Reason)
	case !ok:
		h = capitalize(strings.TrimSuffix(r.Reason, "."))
	}
	if r.Subject != "" && !strings.Contains(h, r.Subject) {
		h += ": `" + strings.ReplaceAll(r.Subject, "`", "'") + "`"
	}
	return h
}

// deleteHeadline words a recursive delete by its target, which the risk's
// reason names ("recursive rm of WHAT deletes it entirely").
func deleteHeadline(reason string) string {
	for _, pre := range []string{" of ", " under "} {
		if _, rest, ok := strings.Cut(reason, pre); ok {
			if what, ok := strings.CutSuffix(rest, " deletes it entirely"); ok {
				if what == "/ (the whole file system)" {
					return "Deletes the whole file system"
				}
				return "Deletes " + what
			}
		}
	}
	return capitalize(reason)
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || unicode.IsUpper(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
