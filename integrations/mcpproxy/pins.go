package mcpproxy

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate/integrations/mcpproxy/pins"
)

// Definition returns a tool's canonical definition — what the model reads
// and what decides how it is called: title, description, input and output
// schemas and annotations, as compact JSON with sorted keys — and its
// hash. The name is the pin's key, and _meta is left out.
func Definition(t *mcp.Tool) (def []byte, hash string, err error) {
	raw, err := json.Marshal(struct {
		Title        string               `json:"title,omitempty"`
		Description  string               `json:"description"`
		InputSchema  any                  `json:"inputSchema"`
		OutputSchema any                  `json:"outputSchema,omitempty"`
		Annotations  *mcp.ToolAnnotations `json:"annotations,omitempty"`
	}{t.Title, t.Description, t.InputSchema, t.OutputSchema, t.Annotations})
	if err != nil {
		return nil, "", fmt.Errorf("definition of tool %s: %w", t.Name, err)
	}
	var v any // through any: map keys come out sorted, whatever the server's order
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, "", fmt.Errorf("definition of tool %s: %w", t.Name, err)
	}
	def, err = json.Marshal(v)
	if err != nil {
		return nil, "", fmt.Errorf("definition of tool %s: %w", t.Name, err)
	}
	return def, pins.Hash(def), nil
}

// ListTools connects to an upstream server as a client and lists its
// tools (every page): what `toolgate mcp pin` pins.
func ListTools(ctx context.Context, up Upstream) ([]*mcp.Tool, error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "toolgate-mcp-pin", Version: "1"}, nil)
	cs, err := c.Connect(ctx, up.Transport(), nil)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", up.Describe, err)
	}
	defer cs.Close()
	var tools []*mcp.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list the tools of %s: %w", up.Describe, err)
		}
		tools = append(tools, t)
	}
	return tools, nil
}
