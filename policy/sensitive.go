package policy

import (
	"github.com/toolgate/toolgate/internal/sensitive"
)

// Pattern keywords that stand for a class of sensitive paths, the one list
// internal/sensitive keeps and the shell's risk classes use too: a rule
// written with one matches every path sensitive.Lookup puts in the class,
// in any spelling (~/, $HOME, /home/USER, a project's own copy), with the
// list's exceptions (public keys).
const (
	// CredentialsPattern matches files that hold secrets: SSH keys, cloud
	// and cluster credentials, .netrc, registry tokens, GnuPG, keychains,
	// password stores, browser profiles, shell history.
	CredentialsPattern = "$CREDENTIALS"
	// AgentConfigPattern matches files that configure an agent or run code
	// later: ~/.claude, .claude/, .codex/, .gemini/, .cursor/, .mcp.json,
	// .vscode tasks, .git/config and hooks, .envrc, toolgate's own config.
	AgentConfigPattern = "$AGENT_CONFIG"
	// ReadOnlyPattern matches a shell command that only reads, as the
	// command table says (ls, cat, git status, grep, kubectl get), on
	// paths no secret can be under (DESIGN §3.6): the built-in defaults
	// allow it.
	ReadOnlyPattern = "$READ_ONLY"
)

// sensitiveClass returns the class a pattern keyword stands for.
func sensitiveClass(pattern string) (sensitive.Kind, bool) {
	switch pattern {
	case CredentialsPattern:
		return sensitive.Credential, true
	case AgentConfigPattern:
		return sensitive.AgentConfig, true
	}
	return 0, false
}

// sensitiveVerb is how a class rule's reason starts, by the tool family
// it names.
func sensitiveVerb(tool string) string {
	switch tool {
	case "read_file", "Read", "read", "grep", "Grep":
		return "Reads "
	case "write_file", "Write", "write", "edit_file", "Edit", "edit":
		return "Writes "
	}
	return "Uses "
}

// reasonFor is the reason rule r gives for subject s. A class rule names
// the file and what it holds ("Reads /home/u/.ssh/id_rsa, which holds SSH
// private keys"), then the rule's own reason and reference.
func (r *compiledRule) reasonFor(s *subject) string {
	if r.sens == 0 {
		return r.reasonText()
	}
	for k := 0; k < s.n; k++ {
		if e, ok := sensitive.Lookup(s.texts[k], r.home); ok && e.Kind == r.sens {
			return sensitiveVerb(r.ref.Tool) + s.texts[0] + ", which " + e.Reason + ". " + capitalize(r.reasonText())
		}
	}
	return r.reasonText()
}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
