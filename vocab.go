package toolgate

import (
	"fmt"
	"strings"
)

// Action is what the gate does with a call or a subject.
type Action uint8

// Actions, ordered by strictness: a larger value is stricter.
const (
	// NoAction means no rule matched. It never leaves the policy package as
	// a decision: an unmatched subject is decided as Ask.
	NoAction Action = iota
	Allow
	Ask
	Deny
)

var actionNames = [...]string{NoAction: "none", Allow: "allow", Ask: "ask", Deny: "deny"}

func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return fmt.Sprintf("Action(%d)", a)
}

// ParseAction reads an action as written in rule documents and configs.
// "prompt" (the seed tier-mode policy word) is an alias of ask.
func ParseAction(s string) (Action, error) {
	switch s {
	case "allow":
		return Allow, nil
	case "ask", "prompt":
		return Ask, nil
	case "deny":
		return Deny, nil
	}
	return NoAction, fmt.Errorf("unknown action %q (want allow, ask or deny)", s)
}

// MarshalText implements encoding.TextMarshaler.
func (a Action) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler. It accepts "none",
// which a read subject that restricts nothing carries, so stored decisions
// read back; ParseAction, for rules, does not.
func (a *Action) UnmarshalText(b []byte) error {
	if string(b) == "none" {
		*a = NoAction
		return nil
	}
	v, err := ParseAction(string(b))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// Tier is how much a tool can do: read, write or exec. A tool that declares
// nothing is exec.
type Tier uint8

// Tiers. TierUnset is the zero value of an undeclared tier and counts as exec.
const (
	TierUnset Tier = iota
	TierRead
	TierWrite
	TierExec
)

var tierNames = [...]string{TierUnset: "", TierRead: "read", TierWrite: "write", TierExec: "exec"}

func (t Tier) String() string {
	if int(t) < len(tierNames) {
		return tierNames[t]
	}
	return fmt.Sprintf("Tier(%d)", t)
}

// Effective returns the tier used for decisions: unset counts as exec.
func (t Tier) Effective() Tier {
	if t == TierUnset || t > TierExec {
		return TierExec
	}
	return t
}

// ParseTier reads a tier. The seed engine's categories are aliases:
// info→read, edit→write, mcp→exec.
func ParseTier(s string) (Tier, error) {
	switch s {
	case "read", "info":
		return TierRead, nil
	case "write", "edit":
		return TierWrite, nil
	case "exec", "mcp":
		return TierExec, nil
	}
	return TierUnset, fmt.Errorf("unknown tier %q (want read, write or exec)", s)
}

// MarshalText implements encoding.TextMarshaler.
func (t Tier) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler. An empty text is unset.
func (t *Tier) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*t = TierUnset
		return nil
	}
	v, err := ParseTier(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// Mode is a session's approval mode. It decides open subjects by tier: no
// rule, a catch-all or a built-in default (DESIGN §2 step 4); rules a
// person wrote are never changed by it, except by auto-deny and dont-ask.
type Mode uint8

// Modes.
const (
	// ModeDefault keeps the answers of the rules and defaults.
	ModeDefault Mode = iota
	// ModeReadOnly allows open read-tier subjects and asks before open
	// write- and exec-tier ones, even where a default would allow.
	ModeReadOnly
	// ModeAutoEdit allows open read- and write-tier subjects and asks
	// before open exec-tier ones.
	ModeAutoEdit
	// ModeYolo allows every open subject, and lets critical risks through
	// unless an explicit rule says ask or deny.
	ModeYolo
	// ModeAutoDeny denies every call, explicit allows included (seed 004's
	// kill switch).
	ModeAutoDeny
	// ModeDontAsk never asks: what would ask is denied, what the rules and
	// defaults allow runs (Claude Code's dontAsk).
	ModeDontAsk
)

var modeNames = [...]string{
	ModeDefault:  "default",
	ModeReadOnly: "read-only",
	ModeAutoEdit: "auto-edit",
	ModeYolo:     "yolo",
	ModeAutoDeny: "auto-deny",
	ModeDontAsk:  "dont-ask",
}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", m)
}

// modeAliases maps every accepted spelling, lower-cased, to its mode: the
// canonical names, the seeds' names and Claude Code's permission modes. A
// table, not a map, so no process builds it at start-up.
var modeAliases = [...]struct {
	name string
	mode Mode
}{
	{"default", ModeDefault},
	{"event-based", ModeDefault}, // seed 004
	{"read-only", ModeReadOnly},
	{"readonly", ModeReadOnly},
	{"always-ask", ModeReadOnly}, // seed 003
	{"plan", ModeReadOnly},       // Claude Code: no edits, no commands
	{"auto-edit", ModeAutoEdit},
	{"autoedit", ModeAutoEdit},    // seed 000 "AutoEdit"
	{"write", ModeAutoEdit},       // seed 003
	{"acceptedits", ModeAutoEdit}, // Claude Code
	{"yolo", ModeYolo},
	{"--yolo", ModeYolo},
	{"force", ModeYolo},        // seed 000 "Force"
	{"auto-approve", ModeYolo}, // seed 003 flag, seed 004 mode
	{"--auto-approve", ModeYolo},
	{"bypasspermissions", ModeYolo}, // Claude Code
	{"auto-deny", ModeAutoDeny},
	{"dont-ask", ModeDontAsk},
	{"dontask", ModeDontAsk}, // Claude Code: deny what is not pre-approved
}

// ParseMode reads a mode by its name or any alias from the seeds or Claude
// Code, ignoring case.
func ParseMode(s string) (Mode, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for _, a := range modeAliases {
		if a.name == name {
			return a.mode, nil
		}
	}
	return ModeDefault, fmt.Errorf("unknown mode %q (want default, read-only, auto-edit, yolo, auto-deny or dont-ask)", s)
}

// MarshalText implements encoding.TextMarshaler.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (m *Mode) UnmarshalText(b []byte) error {
	v, err := ParseMode(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}
