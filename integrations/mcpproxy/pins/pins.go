// Package pins keeps the pinned definitions of MCP servers' tools: the
// JSON file every toolgate mcp-proxy and `toolgate mcp pin` share, and
// what changed between two definitions. It does not speak MCP, so
// toolgate doctor reads the pins without linking the MCP SDK.
package pins

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/toolgate/toolgate/internal/atomicfile"
	"github.com/toolgate/toolgate/internal/clibase"
)

// Who pinned a definition, as File records it.
const (
	ByFirstCall = "first allowed call"
	ByClient    = "accepted in the MCP client"
	ByCommand   = "toolgate mcp pin"
	// ByGateway leads the pins made when a gateway's approver
	// accepted a changed definition: "approved on the toolgate gateway by
	// NAME via VIA (approval ID)".
	ByGateway = "approved on the toolgate gateway"
)

// DefaultPath is where the pins are kept unless told otherwise:
// $XDG_CONFIG_HOME/toolgate/mcp-pins.json; "" when there is no config
// directory.
func DefaultPath() string {
	dir := clibase.ConfigDir()
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "mcp-pins.json")
}

// Short is a pin's hash as shown: its first 12 hex digits.
func Short(hash string) string {
	h := strings.TrimPrefix(hash, "sha256:")
	if len(h) > 12 {
		h = h[:12]
	}
	return h
}

// Pin is the definition of one tool as it was when it was pinned.
type Pin struct {
	// Hash is "sha256:" and the hex SHA-256 of the canonical definition.
	Hash string `json:"hash"`
	// Definition is the canonical definition (title, description, input
	// and output schemas, annotations), kept to show what changed.
	Definition json.RawMessage `json:"definition"`
	PinnedAt   time.Time       `json:"pinned_at"`
	PinnedBy   string          `json:"pinned_by"`
}

// Hash is a definition's hash: of its compact form, however it is
// indented.
func Hash(def []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, def); err == nil {
		def = b.Bytes()
	}
	sum := sha256.Sum256(def)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// File keeps the pinned definitions of MCP servers' tools in a JSON
// file shared by every proxy and by `toolgate mcp pin`. It is read on
// every check, so a pin made while a proxy runs applies at once; it is
// written whole through a rename, so a crash leaves the old or the new.
type File struct {
	path string
	mu   sync.Mutex
}

// pinDoc is the file's content: server name, then tool name.
type pinDoc struct {
	Servers map[string]map[string]Pin `json:"servers"`
}

// Open returns the pin file at path; it need not exist yet.
func Open(path string) *File { return &File{path: path} }

// Path is the file's path.
func (p *File) Path() string { return p.path }

// read reads the file; a missing file holds no pins, one that does not
// parse is an error (nothing is trusted from a file the proxy cannot read).
func (p *File) read() (*pinDoc, error) {
	doc := &pinDoc{}
	src, err := os.ReadFile(p.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("tool pins: %w", err)
	default:
		if err := json.Unmarshal(src, doc); err != nil {
			return nil, fmt.Errorf("tool pins %s: %w", p.path, err)
		}
	}
	if doc.Servers == nil {
		doc.Servers = map[string]map[string]Pin{}
	}
	return doc, nil
}

// All returns every pin by server and tool.
func (p *File) All() (map[string]map[string]Pin, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	doc, err := p.read()
	if err != nil {
		return nil, err
	}
	return doc.Servers, nil
}

// Get returns the pin of a server's tool.
func (p *File) Get(server, tool string) (Pin, bool, error) {
	all, err := p.All()
	if err != nil {
		return Pin{}, false, err
	}
	pin, ok := all[server][tool]
	return pin, ok, nil
}

// Set pins tools of a server (tool name to definition), replacing their
// pins; unless replace is set, a tool already pinned keeps its pin.
func (p *File) Set(server string, defs map[string][]byte, by string, now time.Time, replace bool) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	doc, err := p.read()
	if err != nil {
		return err
	}
	pins := doc.Servers[server]
	if pins == nil {
		pins = map[string]Pin{}
		doc.Servers[server] = pins
	}
	for tool, def := range defs {
		if _, ok := pins[tool]; ok && !replace {
			continue
		}
		pins[tool] = Pin{Hash: Hash(def), Definition: json.RawMessage(def), PinnedAt: now.UTC(), PinnedBy: by}
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("tool pins: %w", err)
	}
	if err := atomicfile.Write(p.path, append(out, '\n')); err != nil {
		return fmt.Errorf("tool pins: %w", err)
	}
	return nil
}

// Diff shows what changed between two definitions (JSON, shown indented),
// line by line: lines
// only in old start with "- ", lines only in new with "+ ", and runs of
// unchanged lines are left out but for one line of context each side.
func Diff(old, new []byte) string {
	a, b := lines(old), lines(new)
	const most = 400
	if len(a) > most || len(b) > most {
		return "- " + strings.Join(a, "\n- ") + "\n+ " + strings.Join(b, "\n+ ")
	}
	// Longest common subsequence of lines.
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var ops []line
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, line{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, line{'-', a[i]})
			i++
		default:
			ops = append(ops, line{'+', b[j]})
			j++
		}
	}
	var out bytes.Buffer
	gap := false
	for k, l := range ops {
		near := l.op != ' ' || (k > 0 && ops[k-1].op != ' ') || (k+1 < len(ops) && ops[k+1].op != ' ')
		if !near {
			gap = true
			continue
		}
		if gap && out.Len() > 0 {
			out.WriteString("  …\n")
		}
		gap = false
		fmt.Fprintf(&out, "%c %s\n", l.op, l.text)
	}
	return strings.TrimRight(out.String(), "\n")
}

// lines splits a definition into lines, indented the same way whatever
// its stored form.
func lines(b []byte) []string {
	var compact, out bytes.Buffer
	if json.Compact(&compact, b) == nil && json.Indent(&out, compact.Bytes(), "", "  ") == nil {
		b = out.Bytes()
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}

// Tools lists a server's pinned tool names, sorted.
func Tools(pins map[string]Pin) []string {
	names := make([]string, 0, len(pins))
	for n := range pins {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
