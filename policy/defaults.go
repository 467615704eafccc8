package policy

import (
	_ "embed"
	"sync"
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

var defaultDoc = sync.OnceValue(func() *Document {
	d, err := ParseWorkspace(DefaultPath, defaultRulesJSONC)
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
