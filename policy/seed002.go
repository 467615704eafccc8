package policy

import (
	"bytes"
	_ "embed"
	"sync"
)

// seed002ProfileJSONC is seed 002's tool classification as workspace
// document members: its SAFE tools allowed, its DANGEROUS tools asked,
// each by its exact (lowercase) name. Unknown tools still ask: toolgate
// fails closed where the seed treats them as safe.
//
//go:embed seed002.jsonc
var seed002ProfileJSONC []byte

// Seed002Path is the Path of the document Seed002RulesJSONC parses to.
const Seed002Path = "builtin:seed002"

var seed002Rules = sync.OnceValue(func() []byte {
	// The defaults' closing brace is their last; the profile goes
	// before it, so its rules come after the defaults' and win.
	d := bytes.TrimRight(defaultRulesJSONC, " \t\r\n")
	if len(d) == 0 || d[len(d)-1] != '}' {
		panic("policy: defaults.jsonc does not end with }")
	}
	var b bytes.Buffer
	b.Write(bytes.TrimRight(d[:len(d)-1], " \t\r\n,"))
	b.WriteString(",\n\n")
	b.Write(bytes.TrimRight(seed002ProfileJSONC, " \t\r\n"))
	b.WriteString("\n}\n")
	if _, err := ParseWorkspace(Seed002Path, b.Bytes()); err != nil {
		panic("policy: invalid seed002.jsonc: " + err.Error())
	}
	return b.Bytes()
})

// Seed002RulesJSONC returns the default workspace document followed by
// seed 002's tool profile: what a gateway serving seed 002's WebSocket
// clients seeds new workspace documents with. Each call returns a copy.
func Seed002RulesJSONC() []byte { return append([]byte(nil), seed002Rules()...) }
