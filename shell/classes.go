package shell

import "strings"

// Class is a risk class of the safety floor (DESIGN §3.5): a subject of
// such a class is not covered by a wildcard allow ("*", "git *", a
// tool-wide allow); it asks with the class and a reason unless a rule
// spells the risky form out, and a deny still denies.
type Class string

// The risk classes. docs/risks.md lists them with examples.
const (
	ClassDestructive Class = "destructive"
	ClassCredential  Class = "credential-access"
	ClassExfiltrate  Class = "exfiltration"
	ClassPersistence Class = "persistence"
	ClassPrivilege   Class = "privilege-escalation"
	ClassSupplyChain Class = "supply-chain"
	ClassInlineCode  Class = "inline-code"
	// ClassTampering is toolgate's own files and the agents' configuration:
	// the managed layer denies it in every mode.
	ClassTampering Class = "tampering"
)

// classes is the one place the classes are described: the label a reason
// starts with and what the class means.
var classes = []struct {
	class Class
	label string
	means string
}{
	{ClassDestructive, "destructive", "destroys data that cannot be restored from the workspace (history, files outside it, disks, databases)"},
	{ClassCredential, "credential access", "reads secrets: keys, tokens, passwords, sessions"},
	{ClassExfiltrate, "exfiltration", "sends a secret or protected file to the network"},
	{ClassPersistence, "persistence", "installs something that runs later by itself (scheduled jobs, services, start-up files, hooks, login keys)"},
	{ClassPrivilege, "privilege escalation", "gains root or another user's rights, or lets a later program gain them"},
	{ClassSupplyChain, "supply chain", "installs or runs code fetched from a URL or a git remote instead of a registry package"},
	{ClassInlineCode, "inline code", "runs a program given inline to an interpreter, which no rule can read"},
	{ClassTampering, "tampering", "changes toolgate or the agent's own configuration, which would let the agent approve itself"},
}

// Label returns the class as a person reads it ("credential access").
func (c Class) Label() string {
	for _, x := range classes {
		if x.class == c {
			return x.label
		}
	}
	return string(c)
}

// Means returns a sentence saying what the class is about.
func (c Class) Means() string {
	for _, x := range classes {
		if x.class == c {
			return x.means
		}
	}
	return ""
}

// Classes returns every risk class in a fixed order.
func Classes() []Class {
	out := make([]Class, len(classes))
	for i, x := range classes {
		out[i] = x.class
	}
	return out
}

// ClassRisk is a risk class found on a subject.
type ClassRisk struct {
	Class Class
	// Reason says what the subject does, in plain words ("git push --force
	// overwrites the remote branch's history").
	Reason string
	// Token is the word an allow rule must name to cover the subject
	// ("--force", "crontab"): a rule that spells the risky form out.
	Token string
}

// Effect is a set of effects a command has (DESIGN §3.5).
type Effect uint8

// Effects.
const (
	EffectRuns        Effect = 1 << iota // runs a command or script
	EffectReads                          // reads files
	EffectWrites                         // writes files
	EffectDeletes                        // deletes or destroys files
	EffectNetwork                        // talks to the network
	EffectPrivilege                      // changes privileges
	EffectPersistence                    // installs something that runs later
)

var effectNames = [...]string{"runs", "reads", "writes", "deletes", "network", "privilege", "persistence"}

// String lists the effects separated by commas ("reads,network").
func (e Effect) String() string {
	var b strings.Builder
	for i, n := range effectNames {
		if e&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte(',')
			}
			b.WriteString(n)
		}
	}
	return b.String()
}

// addClass records a class on a command once per class.
func addClass(cmd *Command, r ClassRisk) {
	if strings.TrimSpace(r.Token) == "" {
		// An empty word ("pkill -f ''") is in every pattern: the rule
		// must name the command instead.
		r.Token = cmd.Name
		if r.Token == "" {
			r.Token = cmd.Text
		}
	}
	for _, x := range cmd.Classes {
		if x.Class == r.Class {
			return
		}
	}
	cmd.Classes = append(cmd.Classes, r)
}
