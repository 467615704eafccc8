package toolgate

import "github.com/toolgate/toolgate/internal/jsonstr"

// Decision is the gate's answer for one call.
type Decision struct {
	// Action is allow, ask or deny; never NoAction.
	Action Action `json:"action"`
	// Reason says why, in words a person reads in an approval prompt.
	Reason string `json:"reason"`
	// Rule is the rule or grant that decided, nil when no rule did (an
	// unmatched subject, a mode, a safety override, a parse failure).
	Rule *RuleRef `json:"rule,omitempty"`
	// Tier is the tier the call was decided at.
	Tier Tier `json:"tier"`
	// Mode is the mode the call was decided in.
	Mode Mode `json:"mode"`
	// Subjects holds the result for every subject extracted from the call.
	Subjects []SubjectResult `json:"subjects"`
	// Risks are the critical risks and unprefixable constructs found.
	Risks []Risk `json:"risks"`
	// Suggestions are patterns a human may grant with "always".
	Suggestions []Suggestion `json:"suggestions"`
	// Redactions says which secrets the call carried and where: each is
	// masked in everything stored, shown, notified or searched, while the
	// call's digest binds its exact arguments.
	Redactions []Redaction `json:"redactions,omitempty"`
	// Sandbox, set on an ask, offers a confined allow (DESIGN §3.7): the
	// workspace opted in and the call asks only because what it runs is
	// unknown or stays inside the sandbox's profile. A surface that runs
	// the command under `toolgate sandbox` may allow it so; every other
	// surface asks, as Action says.
	Sandbox *Confinement `json:"sandbox,omitempty"`
	// Confirm is set when the submitter required a person's answer
	// (SubmitRequest.Confirm): why, e.g. what changed in an MCP tool's
	// definition. Only a person's approval resolves such a call: no
	// grant, mode or cascade does.
	Confirm string `json:"confirm,omitempty"`
}

// Confinement is the sandbox a confined allow runs the command in.
type Confinement struct {
	// Profile names the sandbox profile: "default" is package sandbox's
	// (read all but secrets, agent configuration and toolgate's state;
	// write the workspaces and the temporary directory; no network).
	Profile string `json:"profile"`
	// Workspaces are the writable roots: the call's working directory and
	// the workspace's other roots.
	Workspaces []string `json:"workspaces"`
}

// Redaction is one secret found in a call's arguments and masked.
type Redaction struct {
	// Arg names the argument that held it (command, env.TOKEN, headers[0]).
	Arg string `json:"arg"`
	// Rule is the id of the detection rule that found it.
	Rule string `json:"rule"`
	// What the secret is, in words (AWS access key ID, password in a URL).
	What string `json:"what"`
	// Shown is the secret as masked ("AKIA…[redacted]").
	Shown string `json:"shown"`
}

// MarshalJSON writes d with empty lists as [] rather than null, so every
// surface (CLI, HTTP, events) gives a decision one JSON shape and consumers
// can index it without checking for null. It writes what json.Marshal
// would write for the struct (field order, omitempty, HTML escaping;
// FuzzDecisionJSON holds it to that) by hand: a command that prints one
// decision and exits (toolgate check) spent a third of its own work
// building encoding/json's encoders for these types (docs/BENCHMARKS.md).
func (d Decision) MarshalJSON() ([]byte, error) { return d.appendJSON(make([]byte, 0, 512)), nil }

func (d *Decision) appendJSON(b []byte) []byte {
	b = appendString(append(b, `{"action":`...), d.Action.String())
	b = appendString(append(b, `,"reason":`...), d.Reason)
	if d.Rule != nil {
		b = d.Rule.appendJSON(append(b, `,"rule":`...))
	}
	b = appendString(append(b, `,"tier":`...), d.Tier.String())
	b = appendString(append(b, `,"mode":`...), d.Mode.String())
	b = append(b, `,"subjects":[`...)
	for i := range d.Subjects {
		if i > 0 {
			b = append(b, ',')
		}
		b = d.Subjects[i].appendJSON(b)
	}
	b = append(b, `],"risks":[`...)
	for i, r := range d.Risks {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(append(b, `{"code":`...), r.Code)
		b = appendString(append(b, `,"severity":`...), string(r.Severity))
		b = appendString(append(b, `,"reason":`...), r.Reason)
		if r.Subject != "" {
			b = appendString(append(b, `,"subject":`...), r.Subject)
		}
		b = append(b, '}')
	}
	b = append(b, `],"suggestions":[`...)
	for i, s := range d.Suggestions {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(append(b, `{"tool":`...), s.Tool)
		b = appendString(append(b, `,"pattern":`...), s.Pattern)
		if s.Exact != "" {
			b = appendString(append(b, `,"exact":`...), s.Exact)
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	if len(d.Redactions) > 0 {
		b = append(b, `,"redactions":[`...)
		for i, r := range d.Redactions {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(append(b, `{"arg":`...), r.Arg)
			b = appendString(append(b, `,"rule":`...), r.Rule)
			b = appendString(append(b, `,"what":`...), r.What)
			b = appendString(append(b, `,"shown":`...), r.Shown)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if c := d.Sandbox; c != nil {
		b = appendString(append(b, `,"sandbox":{"profile":`...), c.Profile)
		b = append(b, `,"workspaces":`...)
		if c.Workspaces == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for i, w := range c.Workspaces {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendString(b, w)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	if d.Confirm != "" {
		b = appendString(append(b, `,"confirm":`...), d.Confirm)
	}
	return append(b, '}')
}

func (r *RuleRef) appendJSON(b []byte) []byte {
	b = appendString(append(b, `{"layer":`...), string(r.Layer))
	b = appendString(append(b, `,"source":`...), r.Source)
	b = appendString(append(b, `,"tool":`...), r.Tool)
	if r.Pattern != "" {
		b = appendString(append(b, `,"pattern":`...), r.Pattern)
	}
	b = appendString(append(b, `,"action":`...), r.Action.String())
	if r.Sandbox {
		b = append(b, `,"sandbox":true`...)
	}
	if r.Reason != "" {
		b = appendString(append(b, `,"reason":`...), r.Reason)
	}
	return append(b, '}')
}

func (s *SubjectResult) appendJSON(b []byte) []byte {
	b = appendString(append(b, `{"kind":`...), string(s.Kind))
	b = appendString(append(b, `,"text":`...), s.Text)
	b = appendString(append(b, `,"action":`...), s.Action.String())
	if s.Open {
		b = append(b, `,"open":true`...)
	}
	if s.Rule != nil {
		b = s.Rule.appendJSON(append(b, `,"rule":`...))
	}
	return append(b, '}')
}

// appendString appends s as json.Marshal writes a string: HTML escaped.
func appendString(b []byte, s string) []byte { return jsonstr.Append(b, s, true) }

// Reset empties d for reuse, keeping the capacity of its slices so that a
// caller deciding many calls does not allocate.
func (d *Decision) Reset() {
	*d = Decision{
		Subjects:    d.Subjects[:0],
		Risks:       d.Risks[:0],
		Suggestions: d.Suggestions[:0],
	}
}

// Layer names where a rule comes from, in evaluation order.
type Layer string

// Layers. Managed and agent layers can veto; the rest merge with last match
// winning (DESIGN §2).
const (
	LayerManaged   Layer = "managed"
	LayerAgent     Layer = "agent"
	LayerStatic    Layer = "static"
	LayerGlobal    Layer = "global"
	LayerWorkspace Layer = "workspace"
	LayerSession   Layer = "session"
	LayerTurn      Layer = "turn"
)

// RuleRef identifies the rule or grant behind a result.
type RuleRef struct {
	Layer Layer `json:"layer"`
	// Source is file:line for a rule from a document, "grant:ID" for a grant,
	// or "builtin:NAME" for a built-in rule.
	Source  string `json:"source"`
	Tool    string `json:"tool"`
	Pattern string `json:"pattern,omitempty"`
	Action  Action `json:"action"`
	// Sandbox marks a rule written with the action "sandbox": it asks, and
	// offers the subjects it decides a confined allow (Decision.Sandbox).
	Sandbox bool `json:"sandbox,omitempty"`
	// Reason is the rule's own reason, when it gives one.
	Reason string `json:"reason,omitempty"`
}

// SubjectKind says what a subject is.
type SubjectKind string

// Subject kinds.
const (
	// SubjectCommand is one simple command of a shell call.
	SubjectCommand SubjectKind = "command"
	// SubjectRead is a file a shell command reads, checked against read rules.
	SubjectRead SubjectKind = "read"
	// SubjectWrite is a file a shell command writes, checked against write rules.
	SubjectWrite SubjectKind = "write"
	// SubjectPath is the path, pattern or name argument of a non-shell tool.
	SubjectPath SubjectKind = "path"
	// SubjectTool stands for a call with no subjects: the tool name alone.
	SubjectTool SubjectKind = "tool"
)

// SubjectResult is the decision for one subject.
type SubjectResult struct {
	Kind SubjectKind `json:"kind"`
	Text string      `json:"text"`
	// Action is the subject's own result after the mode. For a read subject
	// with an open result it is NoAction: reads only restrict.
	Action Action `json:"action"`
	// Open is true when the mode decided or could have: no rule matched,
	// or only a catch-all or a built-in default did.
	Open bool     `json:"open,omitempty"`
	Rule *RuleRef `json:"rule,omitempty"`
}

// Severity grades a risk.
type Severity string

// Severities. Critical and unprefixable force a human (DESIGN §2 step 6),
// except in yolo mode; a risk class only keeps a wildcard allow from
// covering its subject (§3.5).
const (
	// SeverityCritical is a destructive pattern (DESIGN §3.4).
	SeverityCritical Severity = "critical"
	// SeverityUnprefixable is a construct no prefix grant can vet (§3.2).
	SeverityUnprefixable Severity = "unprefixable"
	// SeverityClass is a risk class (destructive, credential access, …):
	// the Code names the class.
	SeverityClass Severity = "class"
)

// Risk is a dangerous pattern found in a call, with a reason a person reads.
type Risk struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	Reason   string   `json:"reason"`
	// Subject is the command or path the risk was found in.
	Subject string `json:"subject,omitempty"`
}

// Suggestion is a pattern a human may grant with "always" for a tool.
type Suggestion struct {
	Tool    string `json:"tool"`
	Pattern string `json:"pattern"`
	// Exact is the pattern that allows only this subject as it was
	// written: what an answer beyond once grants unless the person
	// widens it to Pattern or another pattern of their own.
	Exact string `json:"exact,omitempty"`
}
