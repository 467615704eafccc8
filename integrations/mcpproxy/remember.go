package mcpproxy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/atomicfile"
	"github.com/toolgate/toolgate/policy"
)

// rememberFile keeps the "always" answers a user gave in the client when
// there is no gateway: a rules document (JSONC, like the seeds') that each
// answer appends an allow rule to with policy.AppendRule, so the user's
// comments and edits survive. It is read when the proxy starts.
//
// Its rules are consulted only for calls the proxy's rules ask about: a
// remembered allow turns that ask into an allow, a deny written there into
// a deny; they never undo a deny (or allow) of the rules, as an appended
// "tool: *" allow read as a later layer would.
type rememberFile struct {
	path string

	mu sync.Mutex
	// src is the document's text; engine decides with its rules.
	src    []byte
	engine *policy.Engine
}

// openRemember reads the document at path; a missing file is an empty
// document, one that does not parse is an error (nothing is allowed from
// a document the proxy cannot read).
func openRemember(path string) (*rememberFile, error) {
	r := &rememberFile{path: path}
	src, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("remembered answers: %w", err)
	}
	if err := r.load(src); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *rememberFile) load(src []byte) error {
	var docs []*policy.Document
	if len(src) > 0 {
		d, err := policy.ParseWorkspace(r.path, src)
		if err != nil {
			return fmt.Errorf("remembered answers: %w", err)
		}
		docs = append(docs, d)
	}
	e, err := policy.New(docs)
	if err != nil {
		return fmt.Errorf("remembered answers %s: %w", r.path, err)
	}
	r.src, r.engine = src, e
	return nil
}

// decide returns what the remembered rules say about a call the proxy's
// rules ask about: allow, deny, or ask when no remembered rule decides.
func (r *rememberFile) decide(c *toolgate.Call) toolgate.Action {
	r.mu.Lock()
	e := r.engine
	r.mu.Unlock()
	var d toolgate.Decision
	e.Decide(c, policy.Env{}, &d)
	if d.Rule == nil {
		return toolgate.Ask
	}
	return d.Action
}

// allow appends an allow rule for every call of tool and writes the
// document, replacing it whole so a crash leaves the old or the new text.
// It appends to the text on disk, not the one read at start: the user (or
// the proxy of another server sharing the file) may have changed it since.
func (r *rememberFile) allow(tool string, now time.Time) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	src, err := os.ReadFile(r.path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remember %s: %w", tool, err)
	}
	if len(src) == 0 {
		src = []byte("// Tools you allowed \"always\" in an MCP client through toolgate mcp-proxy.\n// Edit freely: these rules apply only where the proxy's rules ask.\n{\n}\n")
	}
	out, err := policy.AppendRule(src, policy.Rule{Tool: tool, Pattern: "*", Action: toolgate.Allow},
		"allowed always in the MCP client, "+now.UTC().Format(time.DateOnly))
	if err != nil {
		return fmt.Errorf("remember %s: %w", tool, err)
	}
	if err := atomicfile.Write(r.path, out); err != nil {
		return fmt.Errorf("remember %s: %w", tool, err)
	}
	return r.load(out)
}
