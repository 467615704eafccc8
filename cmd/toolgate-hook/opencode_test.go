package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// TestOpencode drives the real opencode (opencode-ai, the opencode program
// named by $TOOLGATE_TEST_OPENCODE) with opencode run, the plugin written
// as "toolgate hook install opencode" writes it, against a stand-in of an
// OpenAI-compatible chat completions API configured as a provider of its
// own. A plugin's throw blocks the call and becomes the tool's error,
// which the stand-in hands back as "FINAL …".
func TestOpencode(t *testing.T) {
	// opencode installs its plugin SDK from npm into every config
	// directory it loads a plugin from, and rewrites it at every run: the
	// first run installs it alone, into shared, and the others, in
	// parallel, each start from a copy of shared (without the first's
	// plugin file), so the install happens once, not per run.
	shared := t.TempDir()
	var runs atomic.Int32
	testRealAgent(t, realAgent{
		host:       "opencode",
		env:        "TOOLGATE_TEST_OPENCODE",
		model:      chatStub,
		firstAlone: true,
		settings: func(t *testing.T, home, hook string) []string {
			dir := filepath.Join(home, ".config", "opencode")
			if runs.Add(1) == 1 {
				if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(shared, dir); err != nil {
					t.Fatal(err)
				}
			} else {
				if err := os.CopyFS(dir, os.DirFS(shared)); err != nil {
					t.Fatal(err)
				}
				if err := os.RemoveAll(filepath.Join(dir, "plugins")); err != nil {
					t.Fatal(err)
				}
			}
			installHook(t, "opencode", home, hook, 90*time.Second, 10*time.Second)
			return nil
		},
		args: []string{"run", "do the task"},
		environ: func(model string) []string {
			config, _ := json.Marshal(map[string]any{
				"provider": map[string]any{"stub": map[string]any{
					"npm": "@ai-sdk/openai-compatible", "name": "stub",
					"options": map[string]any{"baseURL": model + "/v1", "apiKey": "test"},
					"models":  map[string]any{"m": map[string]any{"name": "m", "tool_call": true}},
				}},
				"model": "stub/m", "small_model": "stub/m", "autoupdate": false, "share": "disabled",
			})
			return []string{"OPENCODE_CONFIG_CONTENT=" + string(config),
				"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1"}
		},
		blocked: "FINAL toolgate: ",
	})
}

// chatStub is a stand-in of an OpenAI-compatible chat completions API
// (streamed with SSE) that asks for one bash call (opencode's shell tool)
// and then answers with its result; a request without tools (opencode's
// title) gets a word.
func chatStub(t *testing.T, command string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || filepath.Base(r.URL.Path) != "completions" {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
			Tools []struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tools"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &req)
		bash := false
		for _, tl := range req.Tools {
			bash = bash || tl.Function.Name == "bash"
		}
		delta := map[string]any{"role": "assistant", "content": "a title"}
		finish := "stop"
		switch n := len(req.Messages); {
		case n > 0 && req.Messages[n-1].Role == "tool":
			var text string
			if json.Unmarshal(req.Messages[n-1].Content, &text) != nil {
				text = string(req.Messages[n-1].Content)
			}
			delta["content"] = "FINAL " + text
		case bash:
			args, _ := json.Marshal(map[string]string{"command": command, "description": "runs the task"})
			delta = map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{
				"index": 0, "id": "call_1", "type": "function",
				"function": map[string]any{"name": "bash", "arguments": string(args)},
			}}}
			finish = "tool_calls"
		}
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(delta map[string]any, finish any) {
			data, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
				"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
				"usage":   map[string]int{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
			fmt.Fprintf(w, "data: %s\n\n", data)
		}
		chunk(delta, nil)
		chunk(map[string]any{}, finish)
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}
