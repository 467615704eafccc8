package mcpproxy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/store"
)

// TestUnknownTool: a call to a tool the server does not list is answered
// as the server answers it (a JSON-RPC error "unknown tool"), without a
// question in the client or on the gateway; a listed tool that asks is
// still asked about (the user's twin).
func TestUnknownTool(t *testing.T) {
	buildPrograms(t)
	// The server's own answer, without the proxy.
	direct := transports[0].direct(t).do(call("d", "no_such_tool", nil))
	if !strings.Contains(direct.Error, `unknown tool "no_such_tool"`) {
		t.Fatalf("the server itself answered %+v", direct)
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			c := tr.start(t, localConf(), "once,once,once")
			for _, name := range []string{"no_such_tool", "write_note ", "Write_note", "demo_write_note", "mcp__demo__write_note"} {
				m := c.do(call("u-"+name, name, nil))
				if m.Error != direct.Error && m.Error != strings.ReplaceAll(direct.Error, "no_such_tool", name) {
					t.Fatalf("%q: got %+v, want the server's error %q", name, m, direct.Error)
				}
			}
			if n := c.count(isEvent("elicit")); n != 0 {
				t.Fatalf("unknown tools were put to the user: %d questions", n)
			}
			if r := c.do(call("w", "write_note", map[string]any{"note": "x"})).tool(t); r.IsError || r.text() != "wrote x" {
				t.Fatalf("write_note: %+v", r)
			}
			if n := c.count(isEvent("elicit")); n != 1 {
				t.Fatalf("write_note asks: %d questions, want 1", n)
			}
		})
	}
	t.Run("gateway", func(t *testing.T) {
		gw := newTestGateway(t)
		c := transports[0].start(t, proxyConf{Name: "demo", Gateway: gw.URL(), Token: gw.agent}, "")
		if m := c.do(call("u", "no_such_tool", nil)); !strings.Contains(m.Error, `unknown tool "no_such_tool"`) {
			t.Fatalf("got %+v", m)
		}
		entries, err := gw.stack.Broker.Audit(context.Background(), store.AuditFilter{Tool: "mcp__demo__no_such_tool"})
		if err != nil || len(entries) != 0 {
			t.Fatalf("an unknown tool reached the gateway: %+v, %v", entries, err)
		}
	})
}

// elicitSchema is the decision field of an elicitation form.
type elicitSchema struct {
	Properties struct {
		Decision struct {
			Enum      []string `json:"enum"`
			EnumNames []string `json:"enumNames"`
			OneOf     []struct {
				Const string `json:"const"`
				Title string `json:"title"`
			} `json:"oneOf"`
		} `json:"decision"`
	} `json:"properties"`
}

// TestElicitationSchema: a client of MCP 2025-11-25 gets titled choices as
// oneOf; a client of an older version the deprecated enum with enumNames,
// which is all it knows. Either way the answer is understood.
func TestElicitationSchema(t *testing.T) {
	buildPrograms(t)
	want := []string{"once", "session", "always", "deny"}
	titles := []string{"Allow once", "Allow for this session", "Always allow", "Deny"}
	for _, tc := range []struct {
		protocol string
		titled   bool
	}{
		{"", true}, // the SDK's newest
		{"2025-11-25", true},
		{"2025-06-18", false},
		{"2025-03-26", false},
	} {
		t.Run("protocol "+tc.protocol, func(t *testing.T) {
			t.Parallel()
			argv, env := proxyCommand(t, proxyConf{Name: "demo", Rules: rules, Command: []string{serverBin}})
			data, _ := json.Marshal(argv)
			args := []string{"-cmd", string(data), "-elicit", "once"}
			if tc.protocol != "" {
				args = append(args, "-protocol", tc.protocol)
			}
			c := startClient(t, env, args...)
			if r := c.do(call("w", "write_note", map[string]any{"note": "x"})).tool(t); r.IsError || r.text() != "wrote x" {
				t.Fatalf("write_note answered once: %+v", r)
			}
			var s elicitSchema
			if err := json.Unmarshal(c.waitFor(isEvent("elicit")).Schema, &s); err != nil {
				t.Fatal(err)
			}
			d := s.Properties.Decision
			var values, names []string
			if tc.titled {
				if len(d.Enum) != 0 || len(d.EnumNames) != 0 {
					t.Fatalf("titled form also carries enum %v / enumNames %v", d.Enum, d.EnumNames)
				}
				for _, o := range d.OneOf {
					values, names = append(values, o.Const), append(names, o.Title)
				}
			} else {
				if len(d.OneOf) != 0 {
					t.Fatalf("legacy form carries oneOf %+v", d.OneOf)
				}
				values, names = d.Enum, d.EnumNames
			}
			if strings.Join(values, ",") != strings.Join(want, ",") || strings.Join(names, ",") != strings.Join(titles, ",") {
				t.Fatalf("choices %v titled %v, want %v %v", values, names, want, titles)
			}
		})
	}
}

// TestRememberAlways: without a gateway, an "always" answer is appended to
// the remembered answers' document (keeping what the user wrote there)
// and holds after a restart; a remembered allow never undoes the rules'
// deny, and a tool nobody answered "always" for still asks.
func TestRememberAlways(t *testing.T) {
	buildPrograms(t)
	file := filepath.Join(t.TempDir(), "cfg", "toolgate", "mcp-always.jsonc")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	// The user's own note, and an allow for delete_all that must not undo
	// the rules' deny.
	const mine = "// my own note\n{\n  \"mcp__demo__delete_all\": \"allow\",\n}\n"
	if err := os.WriteFile(file, []byte(mine), 0o600); err != nil {
		t.Fatal(err)
	}
	conf := localConf()
	conf.Remember = file

	first := transports[0].start(t, conf, "always")
	if r := first.do(call("1", "write_note", map[string]any{"note": "one"})).tool(t); r.IsError || r.text() != "wrote one" {
		t.Fatalf("answered always: %+v", r)
	}
	if r := first.do(call("d", "delete_all", nil)).tool(t); !r.IsError {
		t.Fatalf("delete_all is denied by the rules; the remembered allow let it through: %+v", r)
	}
	first.send(map[string]any{"id": "x", "op": "close"})
	first.waitFor(isEvent("closed"))

	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	if !strings.HasPrefix(doc, "// my own note\n") || !strings.Contains(doc, `"mcp__demo__write_note"`) || !strings.Contains(doc, "allowed always in the MCP client") {
		t.Fatalf("remembered document:\n%s", doc)
	}

	// A new proxy process, a new client that cannot be asked: write_note
	// is allowed from the document; status (asks in default mode) is not.
	second := transports[0].start(t, conf, "")
	if r := second.do(call("2", "write_note", map[string]any{"note": "two"})).tool(t); r.IsError || r.text() != "wrote two" {
		t.Fatalf("after a restart: %+v", r)
	}
	if r := second.do(call("s", "status", nil)).tool(t); !r.IsError || !strings.Contains(r.text(), "cannot ask you") {
		t.Fatalf("status was never answered always: %+v", r)
	}
	if r := second.do(call("d", "delete_all", nil)).tool(t); !r.IsError {
		t.Fatalf("delete_all after a restart: %+v", r)
	}

	// A document that does not parse stops the proxy with a message, never
	// a proxy that allows anything.
	if err := os.WriteFile(file, []byte("{ broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	argv, env := proxyCommand(t, proxyConf{Name: "demo", Rules: rules, Command: []string{serverBin}, Remember: file})
	data, _ = json.Marshal(argv)
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	cmd := exec.CommandContext(ctx, clientBin, "-cmd", string(data))
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err == nil || !strings.Contains(stdout.String(), "connect_error") || !strings.Contains(stderr.String(), "remembered answers") {
		t.Fatalf("a broken remembered document: client %v\nstdout %s\nstderr %s", err, stdout.String(), stderr.String())
	}
}

// TestRememberSharedFile: two proxies (two servers, or two clients) share
// the remembered answers' document; each "always" is added to what is on
// disk, so neither loses the other's.
func TestRememberSharedFile(t *testing.T) {
	buildPrograms(t)
	file := filepath.Join(t.TempDir(), "mcp-always.jsonc")
	conf := localConf()
	conf.Remember = file
	a := transports[0].start(t, conf, "always")
	b := transports[0].start(t, conf, "always")
	if r := a.do(call("1", "write_note", map[string]any{"note": "a"})).tool(t); r.IsError {
		t.Fatalf("a: %+v", r)
	}
	if r := b.do(call("2", "status", nil)).tool(t); r.IsError {
		t.Fatalf("b: %+v", r)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"mcp__demo__write_note"`) || !strings.Contains(string(data), `"mcp__demo__status"`) {
		t.Fatalf("a proxy lost the other's answer:\n%s", data)
	}
}
