package cli_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/cli"
	"github.com/toolgate/toolgate/internal/stacktest"
)

// TestDoctorNamesTheRole: against a running gateway, doctor names the
// credential's role, and a revoked or unknown one is something to fix.
func TestDoctorNamesTheRole(t *testing.T) {
	s := stacktest.New(t)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TOOLGATE_URL", s.Server.URL)
	for _, c := range []struct{ token, want string }{
		{s.Agent, "ok    TOOLGATE_TOKEN is an agent credential"},
		{s.Approver, "ok    TOOLGATE_TOKEN is an approver credential"},
		{s.Admin, "ok    TOOLGATE_TOKEN is an admin credential"},
		{"tg_unknown", "FIX   the gateway does not know TOOLGATE_TOKEN"},
	} {
		t.Setenv("TOOLGATE_TOKEN", c.token)
		var out bytes.Buffer
		_ = cli.Run(context.Background(), []string{"doctor"}, strings.NewReader(""), &out, &out)
		if !strings.Contains(out.String(), "ok    gateway "+s.Server.URL+" is up and healthy") || !strings.Contains(out.String(), c.want) {
			t.Errorf("doctor with %s:\n%s", c.want, out.String())
		}
	}
}
