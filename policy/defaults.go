package policy

import (
	_ "embed"
)

// defaultRulesJSONC is the text of the default workspace rules document
// (the seed's default rules, with explanatory comments).
//
//go:embed defaults.jsonc
var defaultRulesJSONC []byte

// DefaultRulesJSONC returns the text of the default workspace rules
// document; new workspace documents are seeded with it. Each call returns
// a copy, so no caller can change the defaults of another.
func DefaultRulesJSONC() []byte { return append([]byte(nil), defaultRulesJSONC...) }

// DefaultPath is the Path of DefaultDocument and the File of its Sources.
const DefaultPath = "builtin:default"

// DefaultDocument returns the default workspace rules, DefaultRulesJSONC
// as ParseWorkspace reads it, with Path "builtin:default". The rules are
// kept parsed, as Go data (defaults_data.go, checked against the text by
// TestDefaultsData): the hook builds its engine on every call. Each call
// returns a fresh deep copy, so callers may modify it.
func DefaultDocument() *Document {
	return &Document{Path: DefaultPath, Workspace: true, Rules: cloneRules(defaultRules[:])}
}
