package cli_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

// TestTokensOverAPI: with $TOOLGATE_URL, toolgate tokens manages the
// running gateway's credentials over /v1/tokens as an admin; a revoked
// token stops working there at once. Only an admin may.
func TestTokensOverAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a gateway process")
	}
	t.Parallel()
	ctx := context.Background()
	bin := toolgateBinary(t)
	data := t.TempDir()
	g := startGateway(t, bin, data)
	run := func(token string, args ...string) (string, error) {
		cmd := exec.Command(bin, append([]string{"tokens"}, args...)...)
		// No --data: the URL decides, and the data directory given in
		// the environment must not be used.
		cmd.Env = append(os.Environ(), "TOOLGATE_URL="+g.url, "TOOLGATE_TOKEN="+token, "TOOLGATE_DATA="+t.TempDir())
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run(g.token, "create", "--role", "agent", "--name", "bot")
	if err != nil {
		t.Fatalf("tokens create: %v\n%s", err, out)
	}
	bot := strings.TrimSpace(out)
	agent := newClient(t, g.url, bot)
	if out, err := run(g.token, "list"); err != nil || !strings.Contains(out, "bot") || !strings.Contains(out, "agent") || strings.Contains(out, bot) {
		t.Fatalf("tokens list: %v\n%s", err, out)
	}
	// An agent token cannot manage credentials.
	if out, err := run(bot, "create", "--role", "admin", "--name", "evil"); err == nil || !strings.Contains(out, "admin") {
		t.Fatalf("agent creating an admin: %v\n%s", err, out)
	}
	if out, err := run(g.token, "revoke", "bot"); err != nil {
		t.Fatalf("tokens revoke: %v\n%s", err, out)
	}
	if _, err := agent.Submit(ctx, bash("s1", "c1", "ls")); toolgate.ErrorCodeOf(err) != toolgate.EUnauthorized {
		t.Fatalf("the revoked token right after revoke: %v", err)
	}
}
