package policy

import (
	"strings"
)

// testsKey is the reserved key of a workspace document that holds tests.
const testsKey = "$tests"

// ParseWorkspace parses a workspace rules document (the seed's
// permissions.jsonc): JSON with // and /* */ comments and trailing commas,
// whose top-level object maps tool names to an action ("tool": "allow",
// the same as {"*": "allow"}) or to an object of "pattern": "action" pairs.
// Rules keep document order, and a tool key may appear more than once (each
// occurrence adds rules at its place): last match wins. Each rule's Source
// is name and the line of its pattern key (of the tool key for the simple
// form). The reserved key "$tests" holds examples that must hold; any other
// key starting with "$" is an error. name is used in Sources and errors.
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
	skip := func(k *docNode) (bool, error) {
		if !strings.HasPrefix(k.text, "$") {
			return false, nil
		}
		if k.text != testsKey {
			return false, r.errAt(k, "unknown reserved key %q (the only \"$\" key is %q; tool names do not start with \"$\")", k.text, testsKey)
		}
		return true, nil
	}
	if doc.Rules, err = r.ruleMap(root, "", skip); err != nil {
		return nil, err
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
