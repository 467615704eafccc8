package trpc_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate/integrations/trpc"
	"github.com/toolgate/toolgate/tokens"
)

// The wire format byte for byte, as @trpc/server 11 writes it, without a
// client in between.
func TestWireFormat(t *testing.T) {
	t.Parallel()
	s := newStack(t, trpc.Config{})
	a := s.shell("sess-1", "c1", "git fetch")
	const js = "application/json"
	errBody := func(msg string, rpc int, code string, status int, path string) string {
		p := ""
		if path != "" {
			p = fmt.Sprintf(`,"path":%q`, path)
		}
		return fmt.Sprintf(`{"error":{"message":%q,"code":%d,"data":{"code":%q,"httpStatus":%d%s}}}`, msg, rpc, code, status, p)
	}
	for _, tc := range []struct {
		name, method, path, ctype, body string
		status                          int
		want                            string
	}{
		{"unknown approval", "POST", "/trpc/tool.approve", js, `{"sessionId":"sess-1","approvalId":"ap_nope"}`,
			200, `{"result":{"data":{"applied":false}}}`},
		{"other session", "POST", "/trpc/tool.deny", js, `{"sessionId":"sess-2","approvalId":"` + a.ID + `"}`,
			200, `{"result":{"data":{"applied":false}}}`},
		{"batch of two", "POST", "/trpc/tool.approve,tool.deny?batch=1", js,
			`{"0":{"sessionId":"sess-1","approvalId":"` + a.ID + `"},"1":{"sessionId":"sess-1","approvalId":"` + a.ID + `","feedback":"no"}}`,
			200, `[{"result":{"data":{"applied":true}}},{"result":{"data":{"applied":false}}}]`},
		{"batch with an error", "POST", "/trpc/tool.approve,tool.nope?batch=1", js, `{"0":{"sessionId":"s","approvalId":"x"}}`,
			207, `[{"result":{"data":{"applied":false}}},` + errBody(`No procedure found on path "tool.nope"`, -32004, "NOT_FOUND", 404, "tool.nope") + `]`},
		{"missing field", "POST", "/trpc/tool.approve", js, `{"sessionId":"sess-1"}`,
			400, errBody("Invalid input: approvalId is required", -32600, "BAD_REQUEST", 400, "tool.approve")},
		{"no input", "POST", "/trpc/tool.deny", js, ``,
			400, errBody("Invalid input: expected an object, received undefined", -32600, "BAD_REQUEST", 400, "tool.deny")},
		{"wrong type", "POST", "/trpc/tool.approve", js, `{"sessionId":"s","approvalId":"x","always":"yes"}`,
			400, errBody("Invalid input: always: expected a boolean", -32600, "BAD_REQUEST", 400, "tool.approve")},
		{"malformed JSON", "POST", "/trpc/tool.approve", js, `{"sessionId":`,
			400, errBody("the input is not valid JSON", -32700, "PARSE_ERROR", 400, "tool.approve")},
		{"batch input not an object", "POST", "/trpc/tool.approve?batch=1", js, `[1]`,
			400, `[` + errBody(`"input" needs to be an object when doing a batch call`, -32600, "BAD_REQUEST", 400, "tool.approve") + `]`},
		{"mutation over GET", "GET", "/trpc/tool.approve?input=" + url.QueryEscape(`{"sessionId":"s","approvalId":"x"}`), "", "",
			405, errBody(`Unsupported GET-request to mutation procedure at path "tool.approve"`, -32005, "METHOD_NOT_SUPPORTED", 405, "tool.approve")},
		{"unknown procedure", "POST", "/trpc/tool.nope", js, `{}`,
			404, errBody(`No procedure found on path "tool.nope"`, -32004, "NOT_FOUND", 404, "tool.nope")},
		{"mixed types", "POST", "/trpc/tool.approve,agent.onEvents?batch=1", js, `{}`,
			400, errBody("Cannot mix procedure types in call: mutation, subscription", -32600, "BAD_REQUEST", 400, "")},
		{"no content type", "POST", "/trpc/tool.approve", "", `{}`,
			415, errBody("Missing content-type header", -32015, "UNSUPPORTED_MEDIA_TYPE", 415, "")},
	} {
		r := s.do(tc.method, tc.path, tc.ctype, tc.body)
		if r.status != tc.status || strings.TrimSpace(string(r.body)) != tc.want {
			t.Errorf("%s: %d %s\nwant %d %s", tc.name, r.status, r.body, tc.status, tc.want)
		}
		if ct := r.header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s: Content-Type %q", tc.name, ct)
		}
		if tc.status == 405 && r.header.Get("Allow") != "POST" {
			t.Errorf("%s: Allow %q", tc.name, r.header.Get("Allow"))
		}
	}

	// The routes need an approver: an agent token is refused.
	if r := s.do("POST", "/trpc/tool.approve", js, `{"sessionId":"s","approvalId":"x"}`, s.Agent); r.status != http.StatusForbidden {
		t.Errorf("agent token: %d %s", r.status, r.body)
	}
	for _, m := range trpc.Mounts(s.Broker, trpc.Config{}) {
		if m.Role != tokens.RoleApprover || !strings.HasPrefix(m.Path, "/trpc/") {
			t.Errorf("mount %+v", m)
		}
	}
}

// The subscription's Server-Sent Events, byte for byte: connected, the
// replayed prompt, pings; a bad input is a serialized-error event.
func TestWireSubscription(t *testing.T) {
	t.Parallel()
	s := newStack(t, trpc.Config{Heartbeat: 50 * time.Millisecond})
	a := s.shell("sess-1", "c1", "git fetch")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	open := func(query string) (*http.Response, *bufio.Reader) {
		req, _ := http.NewRequestWithContext(ctx, "GET", s.Server.URL+"/trpc/agent.onEvents"+query, nil)
		req.Header.Set("Authorization", "Bearer "+s.Approver)
		resp, err := s.Server.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp, bufio.NewReader(resp.Body)
	}
	readN := func(br *bufio.Reader, n int) string {
		var b strings.Builder
		for range n {
			line, err := br.ReadString('\n')
			if err != nil {
				t.Fatalf("read stream: %v after %q", err, b.String())
			}
			b.WriteString(line)
		}
		return b.String()
	}

	resp, br := open("?input=" + url.QueryEscape(`{"sessionId":"sess-1"}`))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" || resp.Header.Get("Cache-Control") != "no-cache, no-transform" {
		t.Fatalf("stream: %d %v", resp.StatusCode, resp.Header)
	}
	ev := `{"type":"tool_approval_required","approvalId":"` + a.ID + `","toolName":"shell_exec","arguments":"{\"command\":\"git fetch\"}","sessionId":"sess-1"}`
	want := "event: connected\ndata: {}\n\n\n" + "data: " + ev + "\n\n\n" + "event: ping\ndata: \n\n\n"
	if got := readN(br, 11); got != want {
		t.Errorf("stream:\n%q\nwant\n%q", got, want)
	}
	resp.Body.Close()

	resp, br = open("?input=" + url.QueryEscape(`{"sessionId":7}`))
	want = "event: connected\ndata: {}\n\n\n" +
		`event: serialized-error` + "\n" + `data: {"message":"Invalid input: sessionId: expected a string","code":-32600,"data":{"code":"BAD_REQUEST","httpStatus":400,"path":"agent.onEvents"}}` + "\n\n\n"
	if got := readN(br, 8); resp.StatusCode != 200 || got != want {
		t.Errorf("bad input stream %d:\n%q\nwant\n%q", resp.StatusCode, got, want)
	}
	resp.Body.Close()
}
