package mcpproxy

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate/policy"
)

func TestSchemaPathArgs(t *testing.T) {
	t.Parallel()
	obj := func(props map[string]any) map[string]any {
		return map[string]any{"type": "object", "properties": props}
	}
	str := func(kv ...string) map[string]any {
		m := map[string]any{"type": "string"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	cases := []struct {
		name   string
		schema any
		want   []string
	}{
		{"format", obj(map[string]any{"location": str("format", "uri"), "n": map[string]any{"type": "integer"}}), []string{"location"}},
		{"description", obj(map[string]any{"where": str("description", "Path of the document to open"), "limit": str("description", "how many lines")}), []string{"where"}},
		{"title", obj(map[string]any{"root": str("title", "Directory"), "q": str("title", "Search terms")}), []string{"root"}},
		{"array", obj(map[string]any{"targets": map[string]any{"type": "array", "items": str("format", "path")},
			"tags": map[string]any{"type": "array", "items": str("description", "a label")}}), []string{"targets"}},
		{"array described", obj(map[string]any{"inputs": map[string]any{"type": "array", "description": "the folders to scan", "items": str()}}), []string{"inputs"}},
		{"nullable type list", obj(map[string]any{"out": map[string]any{"type": []any{"string", "null"}, "description": "output file path"}}), []string{"out"}},
		// Text that speaks of files is not a path.
		{"content", obj(map[string]any{"content": str("description", "The text to write at the path"), "message": str("description", "file path to mention")}), nil},
		{"file word only", obj(map[string]any{"summary": str("description", "what the file holds")}), nil},
		{"no schema", nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := schemaPathArgs(tc.schema); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSchemaPathArgsDecided runs a server built with the official SDK whose
// tools name their path arguments only in their input schemas, behind
// the proxy with a workspace that denies reading *.env: the schema's path
// arguments are checked against the file rules like Read's file_path, and
// the others are not.
func TestSchemaPathArgsDecided(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	server := mcp.NewServer(&mcp.Implementation{Name: "docs", Version: "1"}, nil)
	ran := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ran " + req.Params.Name}}}, nil
	}
	server.AddTool(&mcp.Tool{Name: "open_doc", InputSchema: map[string]any{"type": "object", "properties": map[string]any{
		"location": map[string]any{"type": "string", "description": "Path of the document to open"}}}}, ran)
	server.AddTool(&mcp.Tool{Name: "fetch_many", InputSchema: map[string]any{"type": "object", "properties": map[string]any{
		"targets": map[string]any{"type": "array", "items": map[string]any{"type": "string", "format": "uri"}}}}}, ran)
	server.AddTool(&mcp.Tool{Name: "note", InputSchema: map[string]any{"type": "object", "properties": map[string]any{
		"message": map[string]any{"type": "string", "description": "text to add to the notes file"}}}}, ran)

	doc, err := policy.ParseWorkspace("rules.jsonc", []byte(`{"*": "allow", "read_file": {"*": "allow", "*.env": "deny"}}`))
	if err != nil {
		t.Fatal(err)
	}
	e, err := policy.New([]*policy.Document{doc})
	if err != nil {
		t.Fatal(err)
	}
	up := Upstream{Describe: "in memory", Transport: func() mcp.Transport {
		ct, st := mcp.NewInMemoryTransports()
		if _, err := server.Connect(ctx, st, nil); err != nil {
			t.Error(err)
		}
		return ct
	}}
	p, err := New(Config{Name: "docs", Upstream: up, Engine: e, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ct, st := mcp.NewInMemoryTransports()
	go p.Serve(ctx, st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	for _, tc := range []struct {
		tool    string
		args    map[string]any
		allowed bool
	}{
		// attacker: a protected file through an argument only the
		// schema calls a path
		{"open_doc", map[string]any{"location": "config/.env"}, false},
		{"fetch_many", map[string]any{"targets": []any{"docs/a.md", "file:///srv/app/.env"}}, false},
		// benign twins
		{"open_doc", map[string]any{"location": "docs/guide.md"}, true},
		{"fetch_many", map[string]any{"targets": []any{"docs/a.md", "https://example.com/x.env"}}, true},
		{"note", map[string]any{"message": "rotate the keys in .env"}, true},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
		if err != nil {
			t.Fatalf("%s %v: %v", tc.tool, tc.args, err)
		}
		text := ""
		if len(res.Content) > 0 {
			if tx, ok := res.Content[0].(*mcp.TextContent); ok {
				text = tx.Text
			}
		}
		if got := strings.HasPrefix(text, "ran "); got != tc.allowed {
			t.Errorf("%s %v: allowed %v, want %v (%s)", tc.tool, tc.args, got, tc.allowed, text)
		}
	}
}
