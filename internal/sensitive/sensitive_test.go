package sensitive_test

import (
	"path"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/glob"
	"github.com/toolgate/toolgate/internal/sensitive"
)

func TestLookup(t *testing.T) {
	t.Parallel()
	const home = "/home/ann"
	tests := []struct {
		path string
		kind sensitive.Kind // 0: not sensitive
	}{
		{"~/.ssh/id_rsa", sensitive.Credential},
		{"$HOME/.ssh/id_ed25519", sensitive.Credential},
		{"${HOME}/.ssh/id_ed25519", sensitive.Credential},
		{"/home/ann/.ssh/id_rsa", sensitive.Credential},
		{"/home/bob/.ssh/id_rsa", sensitive.Credential},
		{"/root/.ssh/id_rsa", sensitive.Credential},
		{"/Users/bob/.ssh/id_rsa", sensitive.Credential},
		{"~/.ssh", sensitive.Credential},
		{"~/.ssh/", sensitive.Credential},
		{"~/.ssh/../.ssh/id_rsa", sensitive.Credential},
		{"backup/.ssh/id_rsa", sensitive.Credential},
		{"~/.aws/credentials", sensitive.Credential},
		{"proj/.aws/credentials", sensitive.Credential},
		{"~/.kube/config", sensitive.Credential},
		{"~/.docker/config.json", sensitive.Credential},
		{"~/.netrc", sensitive.Credential},
		{"~/.npmrc", sensitive.Credential},
		{"~/.pypirc", sensitive.Credential},
		{"~/.gnupg/private-keys-v1.d/x.key", sensitive.Credential},
		{"~/.password-store/mail.gpg", sensitive.Credential},
		{"~/.config/google-chrome/Default/Login Data", sensitive.Credential},
		{"~/Library/Keychains/login.keychain-db", sensitive.Credential},
		{"~/.bash_history", sensitive.Credential},
		{"~/.config/gcloud/credentials.db", sensitive.Credential},
		{"vault.kdbx", sensitive.Credential},
		{".claude/settings.json", sensitive.AgentConfig},
		{"/home/ann/.claude/settings.json", sensitive.AgentConfig},
		{"~/.claude", sensitive.AgentConfig},
		{".codex/config.toml", sensitive.AgentConfig},
		{".gemini/settings.json", sensitive.AgentConfig},
		{".cursor/rules", sensitive.AgentConfig},
		{".mcp.json", sensitive.AgentConfig},
		{"sub/.mcp.json", sensitive.AgentConfig},
		{".vscode/tasks.json", sensitive.AgentConfig},
		{".vscode/settings.json", sensitive.AgentConfig},
		{".git/config", sensitive.AgentConfig},
		{"./.git/hooks/pre-commit", sensitive.AgentConfig},
		{".git/hooks", sensitive.AgentConfig},
		{".envrc", sensitive.AgentConfig},
		// Root: absolute paths only.
		{"/etc/shadow", sensitive.Credential},
		{"/proc/self/environ", sensitive.Credential},
		{"/proc/1/environ", sensitive.Credential},
		{"/var/run/secrets/kubernetes.io/serviceaccount/token", sensitive.Credential},
		{"/etc/ssl/private/server.key", sensitive.Credential},
		{"/etc/cron.d/job", sensitive.Autostart},
		{"/var/spool/cron/crontabs/ann", sensitive.Autostart},
		{"/etc/systemd/system/x.service", sensitive.Autostart},
		{"~/.config/systemd/user/x.service", sensitive.Autostart},
		{"/home/ann/Library/LaunchAgents/x.plist", sensitive.Autostart},
		{"/usr/local/bin/ls", sensitive.Autostart},
		{"/proc/sys/kernel/yama/ptrace_scope", sensitive.SecuritySetting},
		{"/etc/pam.d/sshd", sensitive.SecuritySetting},
		{"/var/log/auth.log", sensitive.AuditLog},

		// Not sensitive.
		{"~/.ssh/id_rsa.pub", 0},
		{"~/.ssh/known_hosts", 0},
		{"~/.ssh/config", 0},
		{"~", 0},
		{"/home/ann", 0},
		{"~/.config", 0},
		{"src/main.go", 0},
		{"README.md", 0},
		{".npmrc", sensitive.Autostart},
		{"~/.npmrc", sensitive.Credential},
		{"CLAUDE.md", sensitive.Autostart},
		{"src/Claude.md", sensitive.Autostart},
		{"docs/claude-code.md", 0},
		{"Makefile", 0},
		{"package.json", 0},
		{".github/ISSUE_TEMPLATE/bug.md", 0},
		{".husky/pre-commit", sensitive.Autostart},
		{"~/.vimrc", sensitive.Autostart},
		{"proj/.vimrc", 0},
		{"docs/ssh.md", 0},
		{".sshfoo/id_rsa", 0},
		{".vscode/extensions.json", 0},
		{".git/HEAD", 0},
		{".github/workflows/ci.yml", sensitive.Autostart},
		{"my.claude/x", 0},
		{"etc/shadow", 0},
		{"backup/etc/shadow", 0},
		{"/proc/self/status", 0},
		{"/proc/self", 0},
		{"/etc/passwd", 0},
		{"/etc/hosts", sensitive.SecuritySetting},
		{"/etc/hostname", 0},
		{"/etc/apt/sources.list.d/x.list", sensitive.SecuritySetting},
		{"/home/me/.pip/pip.conf", sensitive.Autostart},
		{"proj/.cargo/config.toml", sensitive.Autostart},
		{"proj/cargo/config.toml", 0},
		{"src/usr/local/bin/x", 0},
		{"", 0},
	}
	for _, tt := range tests {
		e, ok := sensitive.Lookup(tt.path, home)
		if got := sensitive.Kind(0); ok {
			got = e.Kind
			if got != tt.kind {
				t.Errorf("Lookup(%q) = %v (%s), want %v", tt.path, got, e.Path, tt.kind)
			}
			if e.Reason == "" {
				t.Errorf("Lookup(%q): entry %s has no reason", tt.path, e.Path)
			}
		} else if tt.kind != 0 {
			t.Errorf("Lookup(%q) = not sensitive, want %v", tt.path, tt.kind)
		}
	}
}

// TestPatterns checks that the rule patterns rendered from each entry
// compile and match the entry's own path, so default rules built from them
// protect what Lookup reports.
func TestPatterns(t *testing.T) {
	t.Parallel()
	for _, e := range sensitive.Entries() {
		if e.Reason == "" || e.Kind == 0 || e.Anchor == 0 {
			t.Errorf("%s: incomplete entry %+v", e.Path, e)
		}
		if strings.ContainsAny(e.Path, "?[{\\") {
			t.Errorf("%s: only '*' is supported in entry paths", e.Path)
		}
		pats := e.Patterns()
		if len(pats) == 0 {
			t.Fatalf("%s: no patterns", e.Path)
		}
		for _, p := range pats {
			if _, err := glob.Compile(p); err != nil {
				t.Errorf("%s: pattern %q: %v", e.Path, p, err)
			}
		}
	}
}

func TestEntriesIsACopy(t *testing.T) {
	t.Parallel()
	a := sensitive.Entries()
	a[0].Path = "changed"
	if b := sensitive.Entries(); b[0].Path == "changed" {
		t.Fatal("Entries shares its table with the caller")
	}
	if len(sensitive.Of(sensitive.Credential)) == 0 || len(sensitive.Of(sensitive.AgentConfig)) == 0 {
		t.Fatal("Of returns nothing")
	}
}

func BenchmarkLookup(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sensitive.Lookup("src/internal/server/handler.go", "/home/ann")
		sensitive.Lookup("~/.ssh/id_rsa", "/home/ann")
	}
}

func TestWithin(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		dir  string
		want bool
	}{
		{"/", true},
		{"/home", true},
		{"/Users/", true},
		{"/home/u", true},
		{"/home/u/", true},
		{"/Users/u", true},
		{"/root", true},
		{"~", true},
		{"~/", true},
		{"$HOME", true},
		{"/home/me", true}, // the home given
		{"/home/me/.config", true},
		{"~/.config", true},
		{"~/.local/share", true},
		{"/etc", true},
		{"/var/run", true},
		{"/proc", true},
		// A credential directory itself is Lookup's, not Within's, but it
		// holds its own entry too.
		{"/home/me/proj", false},
		{"/home/me/proj/src", false},
		{"~/proj", false},
		{"/etc/nginx", false},
		{"/usr/share/doc", false},
		{"/tmp", false},
		{".", false},
		{"src", false},
		{"../x", false},
		{"", false},
	} {
		_, got := sensitive.Within(tc.dir, "/home/me", sensitive.Credential)
		if got != tc.want {
			t.Errorf("Within(%q) = %v, want %v", tc.dir, got, tc.want)
		}
	}
}

func TestWithinAnyKind(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		dir  string
		want bool
	}{
		{"/usr", true},             // usr/local/bin: autostart
		{"/home/me/Library", true}, // LaunchAgents
		{"/home/me/.local", true},  // .local/bin and keyrings
		{"/tmp", false},
		{"/opt", false},
		{"/home/me/proj/vendor", false},
	} {
		_, got := sensitive.Within(tc.dir, "/home/me", 0)
		if got != tc.want {
			t.Errorf("Within(%q, any kind) = %v, want %v", tc.dir, got, tc.want)
		}
	}
	if _, ok := sensitive.Within("/usr", "/home/me", sensitive.Credential); ok {
		t.Errorf("Within(/usr, credentials) reports a credential; /usr holds none")
	}
}

func TestMayMatch(t *testing.T) {
	t.Parallel()
	const home = "/var/lib/ann" // not under /home: the "~/" form must count
	tests := []struct {
		pattern string
		kind    sensitive.Kind
		found   bool
		every   bool
	}{
		{"~/.ssh/id_*", sensitive.Credential, true, false}, // id_rsa.pub is an exception
		{"/var/lib/ann/.ssh/id_*", sensitive.Credential, true, false},
		{"/var/lib/ann/.ss?/id_rsa", sensitive.Credential, true, false},
		{"/home/bob/.ssh/*", sensitive.Credential, true, false},
		{"/home/bob/.aws/*", sensitive.Credential, true, true},
		{"/etc/sha*", sensitive.Credential, true, false},
		{"/proj/*.kdbx", sensitive.Credential, true, true},
		{"/proj/logs/kube*", sensitive.Credential, true, false}, // may be logs/kubeconfig
		{"/proj/*.kd*", sensitive.Credential, true, false},      // spells 3 of .kdbx's 5 bytes
		{"/proj/.k*", sensitive.Credential, true, false},        // hidden: may be .k.kdbx
		{"/proj/.git/hook*/*", sensitive.AgentConfig, true, false},
		{"/proj/.claude/*", sensitive.AgentConfig, true, true},
		{"/proj/.en*", sensitive.AgentConfig, true, false}, // .envrc
		{"/var/lib/ann/.config/autostar*/x.desktop", sensitive.Autostart, true, false},
		{"/var/lib/ann/.config/systemd/user/*.service", sensitive.Autostart, true, true},
		{"/var/lib/ann/*", sensitive.Credential, true, false}, // ~/.bash_history
		// Benign twins.
		{"~/.ssh/*.pub", sensitive.Credential, false, false},
		// A name found anywhere counts for a word that aims at it
		// (glob.Path.Aims), not every glob that may expand to it.
		{"/proj/logs/*", sensitive.Credential, false, false}, // logs/kubeconfig
		{"/proj/*.json", sensitive.Credential, false, false}, // application_default_credentials.json
		{"/proj/src/*", sensitive.AgentConfig, false, false}, // src/opencode.json
		{"/proj/*.log", sensitive.Credential, false, false},
		{"/proj/src/*.go", sensitive.AgentConfig, false, false},
		{"/proj/docs/*.md", sensitive.AgentConfig, false, false},
		{"/etc/host*", sensitive.Autostart, false, false},
		{"/var/lib/ann/.loc*", sensitive.Autostart, false, false}, // holds ~/.local/bin, is not it
		{"/var/lib/ann/.con*", sensitive.Autostart, true, false},  // ~/.condarc
		{"/var/lib/ann/proj/*.o", sensitive.Autostart, false, false},
	}
	for _, tt := range tests {
		e, every, ok := sensitive.MayMatch(tt.pattern, home, tt.kind)
		if ok != tt.found || every != tt.every {
			t.Errorf("MayMatch(%q, %s) = %q every=%v ok=%v, want ok=%v every=%v", tt.pattern, tt.kind, e.Path, every, ok, tt.found, tt.every)
		}
	}
}

// FuzzMayMatchAgainstLookup checks MayMatch against Lookup: a pattern
// made from a sensitive path by turning bytes into wildcards still
// expands to that path (path.Match), so MayMatch must report an entry of
// the kind Lookup gives the path, unless the entry is a name found
// anywhere the pattern does not aim at: it keeps less than a third of
// the entry's literal bytes, and its last element is not hidden.
func FuzzMayMatchAgainstLookup(f *testing.F) {
	const home = "/home/ann"
	paths := []string{
		"/home/ann/.ssh/id_rsa", "/home/bob/.ssh/id_ed25519", "/root/.aws/credentials", "~/.gnupg/x",
		"/etc/shadow", "/proc/12/environ", "/home/ann/proj/.claude/settings.json", "proj/.git/hooks/pre-commit",
		"a/b.kdbx", "/home/ann/.config/systemd/user/x.service", "/etc/cron.d/job", "/var/log/syslog",
		"/home/ann/.bash_history", "/Users/bob/Library/Keychains/login.keychain", "/proc/sys/kernel/x",
		"src/.envrc", "/home/ann/.local/bin/ls", "/usr/local/bin/tool", "x/kubeconfig",
	}
	for i := range paths {
		f.Add(i, uint16(1), uint16(5))
	}
	f.Fuzz(func(t *testing.T, which int, at, width uint16) {
		if which < 0 {
			which = -which
		}
		p := paths[which%len(paths)]
		e, ok := sensitive.Lookup(p, home)
		if !ok {
			t.Fatalf("%s is not sensitive", p)
		}
		// Replace p[i:j] by '*' (or '?' for one byte) unless it holds a '/'.
		i := int(at) % len(p)
		j := i + int(width)%6
		if j > len(p) {
			j = len(p)
		}
		star := "*"
		if j-i == 1 {
			star = "?"
		}
		if j == i || strings.ContainsAny(p[i:j], "/~") {
			return // an empty element ("*/proc") never expands to "/proc"; a glob never makes a ~
		}
		g := p[:i] + star + p[j:]
		if m, err := path.Match(g, p); err != nil || !m {
			return
		}
		if e.Anchor == sensitive.Anywhere && !strings.HasPrefix(path.Base(g), ".") {
			kept, total := 0, 0
			for _, piece := range strings.Split(e.Path, "*") {
				at := strings.LastIndex(p, piece)
				for k := 0; k < len(piece) && at >= 0; k++ {
					if piece[k] != '/' {
						total++
						if at+k < i || at+k >= j {
							kept++
						}
					}
				}
			}
			if 3*kept < total {
				return
			}
		}
		if _, _, ok := sensitive.MayMatch(g, home, e.Kind); !ok {
			t.Fatalf("MayMatch(%q, %s) = none, but it expands to %s (%s)", g, e.Kind, p, e.Path)
		}
	})
}

func TestSecretName(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]bool{
		".env": true, "prod.env": true, ".env.local": true, "app/.env.production": true, "config/secrets.yml": true,
		"credentials.json": true, "SECRET_KEY.txt": true, "/home/dev/.aws/credentials": true,
		".env.example": false, ".env.sample": false, "secrets.yml.template": false, ".env.dist": false,
		"environment.ts": false, "package.json": false, "envoy.yaml": false, "src/env.go": false, "": false,
	} {
		if got := sensitive.SecretName(p); got != want {
			t.Errorf("SecretName(%q) = %v, want %v", p, got, want)
		}
	}
}
