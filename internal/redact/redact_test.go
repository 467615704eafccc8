package redact

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

// Test secrets are assembled at run time so the source holds no string a
// secret scanner would flag.
var (
	awsID     = "AKIA" + "IOSFODNN7" + "EXAMPLQ"
	awsSecret = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
	ghToken   = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
	glToken   = "glpat-" + "Xy9Zk2Lm4Np6Qr8St0Uv"
	slackTok  = "xoxb-" + "1234567890-0987654321-AbCdEfGhIjKlMnOp"
	stripeKey = "sk_live_" + "51HqLyjWDarjtT1zdp7dcXYZ"
	openaiKey = "sk-proj-" + "Q8f3Jx0LmZt7Vb2Nc5Rw9Yh4Ke6"
	antKey    = "sk-ant-api03-" + "Zq7Xw3Vb9Nm2Lk5Jh8Gf1Dс4Sa6Po0Iu"
	googleKey = "AIza" + "SyD3f8Gh2Jk5Lm9Np4Qr7St1Vw6Xy0Za3B"
	jwt       = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0" + ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	pemBody   = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n"
	pemKey    = "-----BEGIN RSA " + "PRIVATE KEY-----\n" + pemBody + "-----END RSA " + "PRIVATE KEY-----"
)

func TestRulesParse(t *testing.T) {
	if _, err := parse(rulesYAML); err != nil {
		t.Fatal(err)
	}
	if _, err := parse([]byte("rules:\n  - id: x\n    what: y\n    regex: '('\n")); err == nil {
		t.Error("a rule with a bad regex parsed")
	}
	if _, err := parse([]byte("rules:\n  - id: x\n    regex: 'a'\n")); err == nil {
		t.Error("a rule without what parsed")
	}
}

func TestFind(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text, secret, rule string
	}{
		{"aws id", "aws s3 ls --profile x # " + awsID, awsID, "aws-access-key-id"},
		{"aws env", "AWS_ACCESS_KEY_ID=" + awsID + " aws s3 ls", awsID, "aws-access-key-id"},
		{"aws secret env", "export AWS_SECRET_ACCESS_KEY=" + awsSecret, awsSecret, "aws-secret-access-key"},
		{"aws configure", "aws configure set aws_secret_access_key " + awsSecret, awsSecret, "aws-secret-access-key"},
		{"github", "git clone https://x-access-token:" + ghToken + "@github.com/o/r", ghToken, ""},
		{"github header", `curl -H "Authorization: token ` + ghToken + `" https://api.github.com`, ghToken, ""},
		{"gitlab", "glab auth login --token " + glToken, glToken, ""},
		{"slack", "curl -d token=" + slackTok + " https://slack.com/api/chat.postMessage", slackTok, ""},
		{"stripe", "stripe --api-key " + stripeKey + " charges list", stripeKey, ""},
		{"openai", "OPENAI_API_KEY=" + openaiKey + " python run.py", openaiKey, ""},
		{"anthropic", "curl -H 'x-api-key: " + antKey + "' https://api.anthropic.com", antKey, ""},
		{"google", "curl 'https://maps.googleapis.com/x?key=" + googleKey + "'", googleKey, ""},
		{"jwt", "curl -H 'Authorization: Bearer " + jwt + "' http://localhost", jwt, ""},
		{"private key", "cat > id_rsa <<EOF\n" + pemKey + "\nEOF", pemBody, "private-key"},
		{"password assignment", "PGPASSWORD=hunter2 psql -h db", "hunter2", "secret-assignment"},
		{"url query", "curl 'https://x.test/api?token=abc123def'", "abc123def", "secret-assignment"},
		{"password option", "vault login --password s3cretpw", "s3cretpw", "password-option"},
		{"password option eq", "tool --password=s3cretpw", "s3cretpw", ""},
		{"quoted option", `tool --token "two words"`, "two words", "password-option"},
		{"mysql", "mysql -u root -phunter22 db", "hunter22", "mysql-password-option"},
		{"url password", "psql postgres://app:pa55word@db/app", "pa55word", "url-password"},
		{"curl user", "curl -u admin:pa55word https://x.test", "pa55word", "user-password-option"},
		{"json literal", `{"password": "correct horse"}`, "correct horse", "secret-literal"},
		{"code literal", `API_KEY = "q9w8e7r6"`, "q9w8e7r6", "secret-literal"},
		{"yaml", "db:\n  password: hunter2\n", "hunter2", "secret-yaml"},
		{"telegram", "curl https://api.telegram.org/bot" + "123456789:AA" + "Hx9Lm2Qr7Tz4Vb6Nc1Jk8Wp3Ys5Df0GhI" + "/getMe", "123456789:AA" + "Hx9Lm2Qr7Tz4Vb6Nc1Jk8Wp3Ys5Df0GhI", "telegram-bot-token"},
		{"discord", "curl -d '{}' https://discord.com/api/webhooks/1234567890/" + "Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5", "Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5", "discord-webhook"},
		{"twilio", "twilio api:core:messages:create --api-key " + "SK" + "0123456789abcdef0123456789abcdef", "SK" + "0123456789abcdef0123456789abcdef", ""},
		{"shopify", "curl -H 'X-Shopify-Access-Token: " + "shpat_" + "0123456789abcdef0123456789abcdef" + "'", "shpat_" + "0123456789abcdef0123456789abcdef", ""},
		{"entropy", "export SIGNING_SEED=Zx8Qp3Lr7Tn2Wv9Ks4Hd", "Zx8Qp3Lr7Tn2Wv9Ks4Hd", "high-entropy-assignment"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ms := Find(c.text)
			masked := Mask(c.text, ms)
			if strings.Contains(masked, c.secret) {
				t.Fatalf("Text(%q) = %q, still holds %q", c.text, masked, c.secret)
			}
			if !strings.Contains(masked, Marker) {
				t.Fatalf("Text(%q) = %q, no marker", c.text, masked)
			}
			if c.rule != "" {
				ok := false
				for _, m := range ms {
					ok = ok || m.Rule.ID == c.rule
				}
				if !ok {
					t.Errorf("Find(%q): no match by rule %s (%v)", c.text, c.rule, ms)
				}
			}
			if again := Text(masked); again != masked {
				t.Errorf("masking is not idempotent: %q then %q", masked, again)
			}
		})
	}
}

// TestBenign holds the everyday twins of the cases above: nothing in
// them is a secret and nothing may be masked.
func TestBenign(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"git status",
		"ls -la /tmp",
		"aws s3 ls s3://bucket --profile dev",
		"echo $AWS_SECRET_ACCESS_KEY | wc -c",
		"export GITHUB_TOKEN=$(gh auth token)",
		`PGPASSWORD="$DB_PASSWORD" psql -h db`,
		"docker login --password-stdin ghcr.io",
		"gh auth login --with-token < token.txt",
		"python train.py --max-tokens 4096 --max_tokens=100",
		"TOKENIZERS_PARALLELISM=false python x.py",
		"kubectl get secret my-secret -o yaml",
		"secret_name=db-creds ./deploy.sh",
		"self.token = token",
		"def login(user, password: str) -> Token:",
		"curl -u admin https://x.test",
		"git clone git@github.com:o/r.git",
		"grep -rn 'BEGIN RSA PRIVATE KEY' .",
		"ssh-keygen -t ed25519 -f ~/.ssh/id_ed25519 -N ''",
		"mysql -u root -p db",
		"npm run build -- --sort-key name",
		"https://example.com/search?q=token&page=2",
		"password: ${DB_PASSWORD}",
		"task-skeleton --keep",
		"echo SKIPPED_TESTS=3",
		"date +%H:%M:%S",
		"curl https://discord.com/api/webhooks",
	} {
		if got := Text(text); got != text {
			t.Errorf("Text(%q) = %q, want it unchanged", text, got)
		}
	}
}

func TestCall(t *testing.T) {
	t.Parallel()
	c := toolgate.Call{Tool: "Bash", Args: map[string]any{
		"command": "AWS_SECRET_ACCESS_KEY=" + awsSecret + " aws s3 cp x s3://b/ # " + awsID,
		"env":     map[string]any{"GH": ghToken, "N": 3.0},
		"list":    []any{"ok", "token=" + slackTok},
		"plain":   "nothing here",
	}}
	orig, _ := json.Marshal(c.Args)
	shown, s := Call(&c)
	if s == nil {
		t.Fatal("no secrets found")
	}
	after, _ := json.Marshal(c.Args)
	if string(orig) != string(after) {
		t.Fatal("Call changed the call it scanned")
	}
	out, _ := json.Marshal(shown.Args)
	for _, secret := range []string{awsSecret, awsID, ghToken, slackTok} {
		if strings.Contains(string(out), secret) {
			t.Errorf("shown args hold %q: %s", secret, out)
		}
	}
	if !strings.Contains(string(out), "AKIA…[redacted]") || !strings.Contains(string(out), "nothing here") {
		t.Errorf("shown args: %s", out)
	}
	where := map[string]bool{}
	for _, r := range s.Found() {
		where[r.Arg] = true
	}
	for _, arg := range []string{"command", "env.GH", "list[1]"} {
		if !where[arg] {
			t.Errorf("no redaction recorded at %s: %+v", arg, s.Found())
		}
	}
	d := toolgate.Decision{
		Reason:      "runs aws with " + awsID,
		Subjects:    []toolgate.SubjectResult{{Text: "aws s3 cp x s3://b/ " + awsID}},
		Risks:       []toolgate.Risk{{Reason: "credential " + ghToken}},
		Suggestions: []toolgate.Suggestion{{Tool: "Bash", Pattern: "aws s3 cp x " + awsID}, {Tool: "Bash", Pattern: "aws s3 cp:*"}},
	}
	s.Decision(&d)
	dj, _ := json.Marshal(d)
	for _, secret := range []string{awsID, ghToken} {
		if strings.Contains(string(dj), secret) {
			t.Errorf("decision holds %q: %s", secret, dj)
		}
	}
	if len(d.Suggestions) != 1 || d.Suggestions[0].Pattern != "aws s3 cp:*" {
		t.Errorf("suggestions = %+v, want only the one without a secret", d.Suggestions)
	}
	if len(d.Redactions) != len(s.Found()) {
		t.Errorf("decision redactions = %+v", d.Redactions)
	}

	clean := toolgate.Call{Tool: "Bash", Args: map[string]any{"command": "git status"}}
	if _, s := Call(&clean); s != nil {
		t.Errorf("secrets found in git status: %+v", s.Found())
	}
}

// TestNoSecretsInSource keeps this package's own files free of the
// secrets its tests build.
func TestNoSecretsInSource(t *testing.T) {
	for _, f := range []string{"redact_test.go", "rules.yaml"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{awsID, ghToken, stripeKey} {
			if strings.Contains(string(b), secret) {
				t.Errorf("%s holds %q", f, secret)
			}
		}
	}
}

func BenchmarkFindClean(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Find("git log --oneline -20 -- internal/redact/redact.go | head")
	}
}

func BenchmarkFindSecret(b *testing.B) {
	s := "AWS_SECRET_ACCESS_KEY=" + awsSecret + " aws s3 cp x s3://b/"
	b.ReportAllocs()
	for b.Loop() {
		Find(s)
	}
}

// TestJSON: an approver's JSON (a question's answer, edited arguments) is
// masked in its strings and keys and keeps its numbers as written; one
// without secrets comes back byte for byte.
func TestJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, path string
		want           []string // substrings of the result
		found          int
	}{
		{"string", `"use ` + awsID + `"`, "answer", []string{`"use AKIA…[redacted]"`}, 1},
		{"nested", `{"command":"curl -H 'Authorization: Bearer ` + ghToken + `' x","n":12345678901234567890}`, "modifications",
			[]string{`ghp_…[redacted]`, `12345678901234567890`}, 1},
		{"key", `{"` + stripeKey + `":1}`, "answer", []string{`sk_live_…[redacted]`}, 1},
		{"none", `{"answer": "staging", "n": 1.50}`, "answer", []string{`{"answer": "staging", "n": 1.50}`}, 0},
		{"invalid", `{"a":`, "answer", []string{`{"a":`}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, found := JSON(json.RawMessage(tc.in), tc.path)
			for _, w := range tc.want {
				if !strings.Contains(string(got), w) {
					t.Errorf("JSON(%s) = %s, want it to hold %s", tc.in, got, w)
				}
			}
			if len(found) != tc.found {
				t.Errorf("found %+v, want %d", found, tc.found)
			}
			for _, f := range found {
				if !strings.HasPrefix(f.Arg, tc.path) {
					t.Errorf("found at %q, want under %q", f.Arg, tc.path)
				}
			}
			for _, secret := range []string{awsID, ghToken, stripeKey} {
				if strings.Contains(string(got), secret) {
					t.Errorf("JSON(%s) keeps a secret: %s", tc.in, got)
				}
			}
		})
	}
}
