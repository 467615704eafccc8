package enginehost

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/toolgate/toolgate"
)

// Message types of the protocol (seed 000). Events go from the engine to
// the host on the engine's stdout; commands from the host to the engine on
// its stdin.
const (
	// Events.
	TypeReady            = "ready"
	TypeToolRequest      = "tool_request"
	TypeToolRunning      = "tool_running"
	TypeToolCancelled    = "tool_cancelled"
	TypeApprovalRequired = "approval_required"
	TypeSuspend          = "suspend"
	// TypeApprovalResume is both a command (the host resumes a suspended
	// call) and an event (the engine echoes the resolution).
	TypeApprovalResume = "approval_resume"
	// TypeError reports a line that could not be used: malformed JSON, an
	// unknown type, a message missing a field. Either side may send it;
	// nobody answers it.
	TypeError = "error"

	// Commands.
	TypeToolApprove = "tool_approve"
	TypeToolDeny    = "tool_deny"
	TypeSetMode     = "set_mode"
)

// CapHITLSuspend is the capability an engine advertises in ready when it
// uses the approval_required / suspend / approval_resume flow.
const CapHITLSuspend = "hitl_suspend"

// QuestionTool is the tool whose approval carries the user's answer as its
// output. The engine gate uses an answer only for this tool name.
const QuestionTool = "AskUserQuestion"

// DefaultMaxLineBytes bounds one protocol line. A longer line is skipped
// with an error event; reading goes on with the next line.
const DefaultMaxLineBytes = 16 << 20

// Categories of tool_request's tool.category.
const (
	CategoryInfo = "info"
	CategoryEdit = "edit"
	CategoryExec = "exec"
	CategoryMCP  = "mcp"
)

// Tool is the tool a tool_request names.
type Tool struct {
	Name string `json:"name"`
	// Category is info, edit, exec or mcp.
	Category    string         `json:"category"`
	Args        map[string]any `json:"args"`
	Description string         `json:"description,omitempty"`
}

// Tier maps the tool's category onto toolgate's tiers: info→read,
// edit→write, exec and mcp→exec. An unknown or missing category is exec.
func (t Tool) Tier() toolgate.Tier {
	tier, err := toolgate.ParseTier(t.Category)
	if err != nil {
		return toolgate.TierExec
	}
	return tier
}

// ToolRequest is the event an engine emits before it runs a tool that
// needs approval.
type ToolRequest struct {
	Type   string `json:"type"`
	MsgID  string `json:"msg_id,omitempty"`
	CallID string `json:"call_id"`
	Tool   Tool   `json:"tool"`
}

// Ready is the engine's first event: its capabilities.
type Ready struct {
	Type string `json:"type"`
	// Capabilities lists capability flags such as hitl_suspend. The host
	// also accepts them as an object of booleans.
	Capabilities Capabilities `json:"capabilities"`
	// Version is the engine's version, if it says.
	Version string `json:"version,omitempty"`
}

// Capabilities is a set of capability flags. It is written as a list of
// names and read from a list or from an object of booleans.
type Capabilities []string

// Has reports whether the set holds name.
func (c Capabilities) Has(name string) bool {
	for _, n := range c {
		if n == name {
			return true
		}
	}
	return false
}

// UnmarshalJSON accepts ["hitl_suspend"] and {"hitl_suspend": true}.
func (c *Capabilities) UnmarshalJSON(b []byte) error {
	var list []string
	if err := json.Unmarshal(b, &list); err == nil {
		*c = list
		return nil
	}
	var set map[string]any
	if err := json.Unmarshal(b, &set); err != nil {
		return fmt.Errorf("capabilities: want a list of names or an object of flags")
	}
	*c = (*c)[:0]
	for k, v := range set {
		if on, ok := v.(bool); !ok || on {
			*c = append(*c, k)
		}
	}
	return nil
}

// ToolRunning is the event an engine emits right before it runs an
// approved tool.
type ToolRunning struct {
	Type     string `json:"type"`
	CallID   string `json:"call_id"`
	ToolName string `json:"tool_name,omitempty"`
}

// ToolCancelled is the event an engine emits when a call was denied; the
// reason is what the model is told.
type ToolCancelled struct {
	Type     string `json:"type"`
	CallID   string `json:"call_id"`
	ToolName string `json:"tool_name,omitempty"`
	Reason   string `json:"reason"`
}

// ApprovalRequired is the event of the hitl_suspend flow: the call waits
// for an out-of-band decision named by ResumeToken.
type ApprovalRequired struct {
	Type          string `json:"type"`
	CallID        string `json:"call_id"`
	ResumeToken   string `json:"resume_token"`
	CorrelationID string `json:"correlation_id,omitempty"`
	Reason        string `json:"reason,omitempty"`
	// Context is "Tool: detail", e.g. "AskUserQuestion: Which deployment
	// target?".
	Context string `json:"context,omitempty"`
}

// Suspend is the event that follows approval_required.
type Suspend struct {
	Type        string `json:"type"`
	Reason      string `json:"reason,omitempty"`
	ResumeToken string `json:"resume_token"`
}

// ApprovalResume resumes a suspended call (command) or echoes that it was
// resumed (event).
type ApprovalResume struct {
	Type        string `json:"type"`
	ResumeToken string `json:"resume_token"`
	Approved    bool   `json:"approved"`
	// Modifications is optional; for AskUserQuestion it carries
	// {"answer": …}.
	Modifications json.RawMessage `json:"modifications,omitempty"`
}

// ToolApprove approves a pending call.
type ToolApprove struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	Scope  Scope  `json:"scope"`
	// Answer is the user's answer to an AskUserQuestion call.
	Answer json.RawMessage `json:"answer,omitempty"`
}

// ToolDeny denies a pending call.
type ToolDeny struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	Reason string `json:"reason"`
}

// SetMode changes the engine's approval mode: Default, AutoEdit or Force.
type SetMode struct {
	Type string `json:"type"`
	Mode string `json:"mode"`
}

// ErrorEvent reports a line that could not be used.
type ErrorEvent struct {
	Type string `json:"type"`
	// Source names who reports: "toolgate" (the host) or "engine".
	Source string `json:"source,omitempty"`
	// Code is malformed, unknown_type, invalid, too_long, refused or
	// unavailable.
	Code    string `json:"code"`
	Message string `json:"message"`
	// Line is the 1-based number of the offending line on its stream.
	Line int `json:"line,omitempty"`
	// CallID is set when the error is about one call.
	CallID string `json:"call_id,omitempty"`
}

// Error codes of ErrorEvent.
const (
	ErrMalformed   = "malformed"
	ErrUnknownType = "unknown_type"
	ErrInvalid     = "invalid"
	ErrTooLong     = "too_long"
	ErrRefused     = "refused"
	ErrUnavailable = "unavailable"
)

// ScopeKind is how far an approval reaches.
type ScopeKind string

// Scope kinds.
const (
	// ScopeOnce approves this call only (the default).
	ScopeOnce ScopeKind = "once"
	// ScopeAlways approves this tool name from now on: never its category.
	ScopeAlways ScopeKind = "always"
	// ScopeAlwaysPrefix approves exec calls every one of whose commands
	// starts with Prefix.
	ScopeAlwaysPrefix ScopeKind = "always_prefix"
)

// Scope is tool_approve's scope: "once", "always" or
// {"always_prefix":{"prefix":"cargo "}}.
type Scope struct {
	Kind   ScopeKind
	Prefix string
}

// Once, Always and AlwaysPrefix build scopes.
var (
	Once   = Scope{Kind: ScopeOnce}
	Always = Scope{Kind: ScopeAlways}
)

// AlwaysPrefix returns the scope granting a command prefix.
func AlwaysPrefix(prefix string) Scope { return Scope{Kind: ScopeAlwaysPrefix, Prefix: prefix} }

func (s Scope) String() string {
	if s.Kind == ScopeAlwaysPrefix {
		return fmt.Sprintf("always_prefix %q", s.Prefix)
	}
	if s.Kind == "" {
		return string(ScopeOnce)
	}
	return string(s.Kind)
}

// MarshalJSON writes the wire form.
func (s Scope) MarshalJSON() ([]byte, error) {
	switch s.Kind {
	case "", ScopeOnce:
		return []byte(`"once"`), nil
	case ScopeAlways:
		return []byte(`"always"`), nil
	case ScopeAlwaysPrefix:
		return json.Marshal(map[string]map[string]string{"always_prefix": {"prefix": s.Prefix}})
	}
	return nil, fmt.Errorf("unknown scope %q", s.Kind)
}

// UnmarshalJSON reads the wire form; null is once.
func (s *Scope) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		*s = Once
		return nil
	}
	var name string
	if err := json.Unmarshal(b, &name); err == nil {
		switch ScopeKind(name) {
		case ScopeOnce:
			*s = Once
		case ScopeAlways:
			*s = Always
		default:
			return fmt.Errorf("unknown scope %q (want \"once\", \"always\" or {\"always_prefix\":{\"prefix\":…}})", name)
		}
		return nil
	}
	var obj struct {
		AlwaysPrefix *struct {
			Prefix *string `json:"prefix"`
		} `json:"always_prefix"`
	}
	if err := json.Unmarshal(b, &obj); err != nil || obj.AlwaysPrefix == nil || obj.AlwaysPrefix.Prefix == nil {
		return fmt.Errorf("scope %s: want \"once\", \"always\" or {\"always_prefix\":{\"prefix\":…}}", truncate(string(b), 80))
	}
	*s = AlwaysPrefix(*obj.AlwaysPrefix.Prefix)
	return nil
}

// SessionMode is the engine's approval mode (seed 000): which categories
// run without a tool_request.
type SessionMode string

// Session modes.
const (
	// ModeDefault auto-approves nothing.
	ModeDefault SessionMode = "Default"
	// ModeAutoEdit auto-approves info and edit.
	ModeAutoEdit SessionMode = "AutoEdit"
	// ModeForce auto-approves every category.
	ModeForce SessionMode = "Force"
)

// ParseSessionMode reads Default, AutoEdit or Force (any case), or the
// toolgate mode each stands for (default, auto-edit, yolo and their
// aliases).
func ParseSessionMode(s string) (SessionMode, error) {
	m, err := toolgate.ParseMode(s)
	if err == nil {
		switch m {
		case toolgate.ModeDefault:
			return ModeDefault, nil
		case toolgate.ModeAutoEdit:
			return ModeAutoEdit, nil
		case toolgate.ModeYolo:
			return ModeForce, nil
		}
	}
	return "", fmt.Errorf("unknown mode %q (want Default, AutoEdit or Force)", s)
}

// AutoApproves reports whether the mode runs a category without asking.
func (m SessionMode) AutoApproves(category string) bool {
	switch m {
	case ModeForce:
		return true
	case ModeAutoEdit:
		return category == CategoryInfo || category == CategoryEdit
	}
	return false
}

// ToolgateMode is the toolgate mode the session mode maps to: Default →
// default, AutoEdit → auto-edit, Force → yolo.
func (m SessionMode) ToolgateMode() toolgate.Mode {
	switch m {
	case ModeAutoEdit:
		return toolgate.ModeAutoEdit
	case ModeForce:
		return toolgate.ModeYolo
	}
	return toolgate.ModeDefault
}

// envelope is what every line is first read as.
type envelope struct {
	Type *string `json:"type"`
}

// messageType returns a line's type, or an error saying why the line is
// not a protocol message.
func messageType(line []byte) (string, error) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return "", errors.New("not a JSON object")
	}
	var env envelope
	if err := json.Unmarshal(line, &env); err != nil {
		return "", fmt.Errorf("not valid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if env.Type == nil || *env.Type == "" {
		return "", errors.New(`no "type" field`)
	}
	return *env.Type, nil
}

// errLineTooLong is returned for a line longer than the reader's limit;
// the line has been skipped.
var errLineTooLong = errors.New("line too long")

// lineReader reads newline-delimited lines of any length up to a limit. A
// longer line is skipped and reported; reading goes on with the next line,
// so neither side wedges on one bad line.
type lineReader struct {
	r   *bufio.Reader
	max int
	n   int
	buf []byte
}

func newLineReader(r io.Reader, max int) *lineReader {
	if max <= 0 {
		max = DefaultMaxLineBytes
	}
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line without its line ending and its number. At
// the end of input it returns io.EOF (after a last unterminated line).
// The line is valid until the next call.
func (l *lineReader) next() ([]byte, int, error) {
	l.buf = l.buf[:0]
	tooLong := false
	for {
		chunk, err := l.r.ReadSlice('\n')
		if !tooLong {
			if len(l.buf)+len(chunk) > l.max+1 {
				tooLong = true
				l.buf = l.buf[:0]
			} else {
				l.buf = append(l.buf, chunk...)
			}
		}
		switch {
		case err == nil:
			l.n++
			if tooLong {
				return nil, l.n, errLineTooLong
			}
			return bytes.TrimRight(l.buf, "\r\n"), l.n, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if tooLong {
				l.n++
				return nil, l.n, errLineTooLong
			}
			if len(l.buf) > 0 {
				l.n++
				return bytes.TrimRight(l.buf, "\r\n"), l.n, nil
			}
			return nil, l.n, io.EOF
		default:
			return nil, l.n, err
		}
	}
}

// lineWriter writes one JSON value or raw line per line; lines from
// different goroutines never interleave.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
	// buf is reused under mu.
	buf bytes.Buffer
}

func newLineWriter(w io.Writer) *lineWriter { return &lineWriter{w: w} }

// writeJSON writes v as one line of JSON (no HTML escaping).
func (lw *lineWriter) writeJSON(v any) error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.buf.Reset()
	enc := json.NewEncoder(&lw.buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil { // Encode ends the value with '\n'
		return fmt.Errorf("encode %T: %w", v, err)
	}
	if _, err := lw.w.Write(lw.buf.Bytes()); err != nil {
		return fmt.Errorf("write line: %w", err)
	}
	return nil
}

// writeLine writes a raw line, adding the newline.
func (lw *lineWriter) writeLine(line []byte) error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.buf.Reset()
	lw.buf.Write(line)
	lw.buf.WriteByte('\n')
	if _, err := lw.w.Write(lw.buf.Bytes()); err != nil {
		return fmt.Errorf("write line: %w", err)
	}
	return nil
}

// truncate shortens s for an error message.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
