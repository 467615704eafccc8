package policy

import (
	"strconv"

	"github.com/toolgate/toolgate"
)

// Source says where a rule, test or declaration was written.
type Source struct {
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
}

func (s Source) String() string {
	if s.Line == 0 {
		return s.File
	}
	return s.File + ":" + strconv.Itoa(s.Line)
}

// Rule is one rule as written, before compilation.
type Rule struct {
	// Tool is a tool name or a glob over tool names; "*" is the catch-all.
	// A name known to a tool profile stands for every tool of its family
	// (read_file, Read and read are one family), so switching tools is never
	// a way around a rule.
	Tool string
	// Exact limits the rule to calls of the tool itself, or of a name the
	// alias table says is the same tool in another agent (Write and
	// write_file), never the rest of its family (Write and Edit). Grants are
	// exact (seed 000's H-2 fix: "always" registers the tool name); in a
	// rules document a tool key written "=Write" is exact.
	Exact bool
	// Pattern is a glob over the call's subjects; "" and "*" match every
	// subject. For shell subjects a trailing " *" also matches the bare
	// command. "~/" and "$HOME/" at its start expand at compile time.
	Pattern string
	// Prefix makes Pattern a literal prefix (the seed's always_prefix).
	Prefix bool
	// Action is what the rule does when it matches.
	Action toolgate.Action
	// Sandbox marks the action "sandbox" (Action is Ask): a shell call the
	// rule decides may run confined in the kernel sandbox (DESIGN §3.7),
	// as a workspace's "$sandbox": "auto" offers for calls no rule
	// decides; everywhere else it is an ask.
	Sandbox bool
	// When holds conditions on the call's arguments; all must hold.
	When []Cond
	// Reason is shown to the human and the agent when the rule decides.
	Reason string
	// Source is where the rule was written (or "grant:ID", "builtin:NAME").
	Source Source
	// Default marks a built-in default (toolgate's defaults, and the
	// "$defaults" block seeded into a workspace document): the mode applies
	// over it, except over a deny, which protects secrets in every mode
	// (DESIGN §2 step 4). Rules a person wrote are never Default.
	Default bool
}

// Cond is a condition on one argument of a call: the argument, rendered as
// text, must match the glob.
type Cond struct {
	Arg     string
	Pattern string
}

// Kind says how subjects are extracted from a tool's arguments (DESIGN §3).
type Kind string

// Tool kinds.
const (
	// KindNone tools have no subjects: the tool name alone is matched.
	KindNone Kind = "none"
	// KindShell tools run a shell command: full shell analysis.
	KindShell Kind = "shell"
	// KindRead tools read the file named by a path argument.
	KindRead Kind = "read"
	// KindWrite tools write or edit the file named by a path argument.
	KindWrite Kind = "write"
	// KindGlob tools match a pattern argument, else a path argument.
	KindGlob Kind = "glob"
	// KindGrep tools search a path argument.
	KindGrep Kind = "grep"
	// KindSkill tools run a named skill.
	KindSkill Kind = "skill"
	// KindURL tools fetch a URL; the subject is "domain:HOST".
	KindURL Kind = "url"
)

// ToolSpec declares a tool: how its subjects are found and its tier.
type ToolSpec struct {
	Kind Kind
	Tier toolgate.Tier
	// Args names the arguments that hold the subject, in order of
	// preference; empty means the kind's usual names.
	Args []string
	// Family makes the tool answer to the rules written for another tool
	// (e.g. "read_file"). A declared shell tool always answers to the
	// shell rules; other declared tools are their own family unless this
	// says otherwise.
	Family string
	// Question marks a question tool (AskUserQuestion): the approver's
	// answer becomes its output.
	Question bool
	// InCwd marks a reader whose path is optional and defaults to the
	// working directory (LS, list_files): a call with no argument that
	// could name a path is decided as acting on the working directory,
	// where any other reader's is undecidable and asks.
	InCwd bool
	// Source is where the declaration was written.
	Source Source
}

// Test is an example a rules document says must hold, checked on load.
type Test struct {
	Name   string
	Call   toolgate.Call
	Mode   *toolgate.Mode
	Expect toolgate.Action
	Source Source
}

// Document is one loaded rules document or config file.
type Document struct {
	// Path is the file the document came from, or "builtin:NAME".
	Path string
	// Workspace is true for a workspace rules document (JSONC), false for a
	// config file (YAML) or imported Claude Code settings.
	Workspace bool
	// Rules are the document's static rules, in order: last match wins.
	Rules []Rule
	// Managed rules form the admin veto layer.
	Managed []Rule
	// Agents are agent layers by subagent type.
	Agents map[string][]Rule
	// Tools are user tool declarations by tool name.
	Tools map[string]ToolSpec
	// Arity adds entries to the arity table used for suggestions.
	Arity map[string]int
	// QuestionTools names tools whose approval carries an answer.
	QuestionTools []string
	// Mode is the approval mode the document sets, if any.
	Mode *toolgate.Mode
	// Roots are directories that count as inside the workspace besides the
	// call's cwd (Claude Code's permissions.additionalDirectories).
	Roots []string
	// Sandbox is the workspace's "$sandbox" setting: "auto" offers a
	// confined allow for shell calls that ask only because their effects
	// are unknown (DESIGN §3.7); "off" or "" does not. The last document
	// that sets it wins.
	Sandbox string
	// Tests are examples that must hold.
	Tests []Test
}
