package server_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/server"
	"github.com/toolgate/toolgate/store"
)

// syncBuffer is a bytes.Buffer safe for the handler's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// brokenRules fails every read with an error whose text must not reach
// the client.
type brokenRules struct{ store.Rules }

func (brokenRules) Document(context.Context, string) ([]byte, string, error) {
	return nil, "", errors.New("disk on fire at /secret/path")
}

// One log line per request names the token, never the token itself;
// internal errors are logged with their cause and shown only as
// "internal error".
func TestRequestLogAndInternalErrors(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	s := stacktest.New(t,
		stacktest.Rules(func(dir string) store.Rules { return brokenRules{newRules(t, dir)} }),
		stacktest.Deps(func(_ *stacktest.Stack, d *server.Deps) {
			d.Limits = server.Limits{RatePerSecond: -1}
			d.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
		}))
	e := &env{Stack: s, t: t, clock: &clock{t: time.Now()}}
	e.must(200, "GET", "/v1/approvals", e.Approver, nil, nil)
	out := logs.String()
	if !strings.Contains(out, `"msg":"request"`) || !strings.Contains(out, `"route":"/v1/approvals"`) || !strings.Contains(out, `"token":"alice"`) || !strings.Contains(out, `"status":200`) {
		t.Fatalf("request log: %s", out)
	}
	r := e.do("GET", "/v1/workspaces/default/rules", e.Admin, nil)
	if r.status != 500 || r.errMessage() != "internal: internal error" || strings.Contains(string(r.body), "secret") {
		t.Fatalf("internal error: %d %s", r.status, r.body)
	}
	out = logs.String()
	if !strings.Contains(out, "disk on fire") {
		t.Fatalf("cause not logged: %s", out)
	}
	for _, tok := range []string{e.Agent, e.Approver, e.Admin} {
		if strings.Contains(out, tok[3:]) {
			t.Fatal("a token was logged")
		}
	}
}
