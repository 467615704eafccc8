package policy

import (
	_ "embed"
	"sync"
)

// DefaultRulesJSONC is the text of the default workspace rules document
// (the seed's default rules, with explanatory comments). New workspace
// documents are seeded with it.
//
//go:embed defaults.jsonc
var DefaultRulesJSONC []byte

// DefaultPath is the Path of DefaultDocument and the File of its Sources.
const DefaultPath = "builtin:default"

var defaultDoc = sync.OnceValue(func() *Document {
	d, err := ParseWorkspace(DefaultPath, DefaultRulesJSONC)
	if err != nil {
		panic("policy: invalid embedded defaults.jsonc: " + err.Error())
	}
	return d
})

// DefaultDocument returns the default workspace rules, parsed from
// DefaultRulesJSONC, with Path "builtin:default". The text is parsed once;
// each call returns a fresh deep copy, so callers may modify it.
func DefaultDocument() *Document {
	return defaultDoc().Clone()
}
