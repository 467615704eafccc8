package main

import (
	"context"
	"crypto/sha256"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgate/toolgate/integrations/hosts"
)

// TestClaudeCodeHookTimeout drives the real Claude Code with the hook
// install writes, but with a timeout of 3 s in its tool entry, against a
// gateway that takes the hook's call and never answers, so Claude Code
// kills the hook at its timeout. With the entry's "onFailure":
// "block" (as install writes it) the call does not run; without it
// Claude Code runs the call, which is why install writes the key.
func TestClaudeCodeHookTimeout(t *testing.T) {
	program := os.Getenv("TOOLGATE_TEST_CLAUDE")
	if program == "" {
		t.Skip("TOOLGATE_TEST_CLAUDE is unset: the real Claude Code is not driven (.ci/run installs it from npm)")
	}
	// Each run waits out a hook's timeout or a refused connection, which
	// costs a core little: the runs overlap.
	t.Parallel()
	done := make(chan struct{})
	var asked atomic.Bool
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/calls" {
			// The prompt hook's turn-end: a session the gateway has not
			// seen (404), which the hook ignores; held, it would wait
			// out its own 10 s first.
			http.NotFound(w, r)
			return
		}
		asked.Store(true)
		select { // never answer
		case <-r.Context().Done():
		case <-done:
		}
	}))
	t.Cleanup(gw.Close)
	t.Cleanup(func() { close(done) }) // before gw.Close, which waits for the handlers
	t.Cleanup(func() {                // after the parallel subtests
		if !asked.Load() {
			t.Error("the hook never asked the gateway about the call: it was not killed waiting for an answer")
		}
	})
	host, err := hosts.Lookup("claude-code")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		onFailure bool
		want, not []string
	}{
		{name: "onFailure block", onFailure: true, want: []string{"FINAL", "timed out"}, not: []string{"notes.txt"}},
		{name: "no onFailure", want: []string{"FINAL", "notes.txt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home, project := notesProject(t)
			hook := sharedHookBin(t) + " claude-code --server " + gw.URL
			entries := host.Entries(hook, "", "", 60*time.Second, 10*time.Second)
			for i, e := range entries {
				if e.Event != host.PromptEvent {
					if e.OnFailure != "block" {
						t.Fatalf("install's %s entry has onFailure %q, want block", e.Event, e.OnFailure)
					}
					entries[i].Timeout = 3
					if !tc.onFailure {
						entries[i].OnFailure = ""
					}
				}
			}
			path := filepath.Join(home, ".claude", "settings.json")
			if _, err := host.Install(hosts.TrustEnv{Home: home, SHA256: sha256.Sum256}, path, entries); err != nil {
				t.Fatal(err)
			}
			model := anthropicStub(t, "ls")
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			claude := claudeAgent()
			out := runAgent(ctx, t, program, home, project, claude.args,
				append([]string{"TOOLGATE_URL=", "TOOLGATE_TOKEN=test"}, claude.environ(model.URL)...))
			checkOutput(t, out, tc.want, tc.not)
		})
	}
}

// TestClaudeCodeHTTPHookUnreachable drives the real Claude Code with an
// HTTP hook (the gateway's POST /hooks/claude-code, as docs/claude-code.md
// shows it) at an address where nothing listens: with "onFailure":
// "block" the call does not run; without it Claude Code runs the call.
func TestClaudeCodeHTTPHookUnreachable(t *testing.T) {
	program := os.Getenv("TOOLGATE_TEST_CLAUDE")
	if program == "" {
		t.Skip("TOOLGATE_TEST_CLAUDE is unset: the real Claude Code is not driven (.ci/run installs it from npm)")
	}
	// Each run waits out a hook's timeout or a refused connection, which
	// costs a core little: the runs overlap.
	t.Parallel()
	for _, tc := range []struct {
		name      string
		onFailure bool
		want, not []string
	}{
		{name: "onFailure block", onFailure: true, want: []string{"FINAL", "ECONNREFUSED"}, not: []string{"notes.txt"}},
		{name: "no onFailure", want: []string{"FINAL", "notes.txt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home, project := notesProject(t)
			entry := map[string]any{"type": "http", "url": "http://127.0.0.1:1/hooks/claude-code",
				"headers": map[string]string{"Authorization": "Bearer $TOOLGATE_TOKEN"}, "allowedEnvVars": []string{"TOOLGATE_TOKEN"}, "timeout": 30}
			if tc.onFailure {
				entry["onFailure"] = "block"
			}
			writeJSON(t, filepath.Join(home, ".claude", "settings.json"), map[string]any{"hooks": map[string]any{
				"PreToolUse": []any{map[string]any{"matcher": "*", "hooks": []any{entry}}}}})
			model := anthropicStub(t, "ls")
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			claude := claudeAgent()
			out := runAgent(ctx, t, program, home, project, claude.args,
				append([]string{"TOOLGATE_TOKEN=test"}, claude.environ(model.URL)...))
			checkOutput(t, out, tc.want, tc.not)
		})
	}
}

// notesProject is a home with a project holding notes.txt, which the
// model stand-in's "ls" shows when the call runs.
func notesProject(t *testing.T) (home, project string) {
	t.Helper()
	home = t.TempDir()
	project = filepath.Join(home, "proj")
	if err := os.MkdirAll(project, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "notes.txt"), []byte("notes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return home, project
}
