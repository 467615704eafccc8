package policy

import (
	"strings"

	"github.com/toolgate/toolgate"
)

// Reserved keys of a workspace document.
const (
	// testsKey holds examples that must hold.
	testsKey = "$tests"
	// defaultsKey holds built-in default rules: toolgate's defaults, as
	// seeded into a new workspace document. The mode applies over them
	// (DESIGN §2 step 4); rules outside the block are the person's own.
	defaultsKey = "$defaults"
	sandboxKey  = "$sandbox"
)

// defaultKey names a built-in default rule.
type defaultKey struct {
	tool, pattern string
	action        toolgate.Action
}

// defaultReasons words, in plain language, why a built-in default asks or
// denies; the rule reference follows it in the decision's reason. A
// workspace document cannot carry reasons, so the ones in "$defaults" get
// theirs here, the seeded copies included.
var defaultReasons = [...]struct {
	key    defaultKey
	reason string
}{
	{defaultKey{"*", "*", toolgate.Ask}, "Uses a tool no rule allows yet"},
	{defaultKey{"shell_exec", "*", toolgate.Ask}, "Runs a shell command no rule allows yet"},
	{defaultKey{"skill", "*", toolgate.Ask}, "Runs a skill no rule allows yet"},
	{defaultKey{"write_file", "*", toolgate.Ask}, "Writes a file outside the project"},
	{defaultKey{"read_file", "*.env", toolgate.Deny}, "Reads an env file, which usually holds secrets"},
	{defaultKey{"read_file", "*.env.*", toolgate.Deny}, "Reads an env file, which usually holds secrets"},
	{defaultKey{"write_file", "*.env", toolgate.Deny}, "Writes an env file, which usually holds secrets"},
	{defaultKey{"write_file", "*.env.*", toolgate.Deny}, "Writes an env file, which usually holds secrets"},
	{defaultKey{"read_file", "*credentials*", toolgate.Deny}, "Reads a file whose name says it holds credentials"},
	{defaultKey{"read_file", "*secret*", toolgate.Deny}, "Reads a file whose name says it holds secrets"},
}

// defaultReason returns the reason of a built-in default, "" if none.
func defaultReason(k defaultKey) string {
	for i := range defaultReasons {
		if defaultReasons[i].key == k {
			return defaultReasons[i].reason
		}
	}
	return ""
}

// ParseWorkspace parses a workspace rules document (the seed's
// permissions.jsonc): JSON with // and /* */ comments and trailing commas,
// whose top-level object maps tool names to an action ("tool": "allow",
// the same as {"*": "allow"}) or to an object of "pattern": "action" pairs.
// Rules keep document order, and a tool key may appear more than once (each
// occurrence adds rules at its place): last match wins. Each rule's Source
// is name and the line of its pattern key (of the tool key for the simple
// form). The reserved key "$tests" holds examples that must hold, and
// "$defaults" holds an object of rules in the same form that are built-in
// defaults (Rule.Default): they keep their place in the document order, but
// the mode applies over them. Any other key starting with "$" is an error.
// name is used in Sources and errors.
func ParseWorkspace(name string, src []byte) (*Document, error) {
	root, _, err := parseJSONC(name, src)
	if err != nil {
		return nil, err
	}
	r := &reader{file: name}
	if root.kind != kMap {
		return nil, r.errAt(root, "top level: want an object mapping tool names to actions, got %s", root.describe())
	}
	doc := &Document{Path: name, Workspace: true}
	for i, k := range root.keys {
		if !strings.HasPrefix(k.text, "$") {
			rules, err := r.ruleMap(&docNode{kind: kMap, keys: root.keys[i : i+1], vals: root.vals[i : i+1]}, "", nil)
			if err != nil {
				return nil, err
			}
			doc.Rules = append(doc.Rules, rules...)
			continue
		}
		switch k.text {
		case testsKey:
		case sandboxKey:
			v := root.vals[i]
			if v.kind != kScalar || v.tag != "str" || (v.text != "auto" && v.text != "off") {
				return nil, r.errAt(v, "%s: want \"auto\" (shell calls that ask only because their effects are unknown run in the kernel sandbox) or \"off\", got %s", sandboxKey, v.describe())
			}
			doc.Sandbox = v.text
		case defaultsKey:
			rules, err := r.ruleMap(root.vals[i], defaultsKey, func(k *docNode) (bool, error) {
				if strings.HasPrefix(k.text, "$") {
					return false, r.errAt(k, "%s: reserved key %q inside %s", defaultsKey, k.text, defaultsKey)
				}
				return false, nil
			})
			if err != nil {
				return nil, err
			}
			for j := range rules {
				rules[j].Default = true
				if rules[j].Reason == "" {
					rules[j].Reason = defaultReason(defaultKey{rules[j].Tool, rules[j].Pattern, rules[j].Action})
				}
			}
			doc.Rules = append(doc.Rules, rules...)
		default:
			return nil, r.errAt(k, "unknown reserved key %q (the \"$\" keys are %q, %q and %q; tool names do not start with \"$\")", k.text, testsKey, defaultsKey, sandboxKey)
		}
	}
	for i, k := range root.keys {
		if k.text == testsKey {
			ts, err := r.tests(root.vals[i], testsKey)
			if err != nil {
				return nil, err
			}
			doc.Tests = append(doc.Tests, ts...)
		}
	}
	return doc, nil
}
