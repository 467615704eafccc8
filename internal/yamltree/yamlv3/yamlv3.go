// Package yamlv3 registers go.yaml.in/yaml/v3 as the full reader of
// package yamltree. Binaries that read configs outside yamltree's subset
// (toolgate itself) import it for its side effect:
//
//	import _ "github.com/toolgate/toolgate/internal/yamltree/yamlv3"
//
// The lean hook does not, and so does not pay for yaml.v3's start-up.
package yamlv3

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/toolgate/toolgate/internal/yamltree"
)

func init() { yamltree.RegisterFull(Read) }

// Read reads one YAML document with yaml.v3. Syntax errors are yaml.v3's
// own ("yaml: line N: …"); a second document is a *yamltree.Error. An
// alias refers to the converted node of its anchor, or is nil when the
// anchor is not converted yet (an alias inside its own anchor).
func Read(src []byte) (*yamltree.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &yamltree.Error{Line: extra.Line, Msg: "more than one YAML document (\"---\"); a config file holds one"}
	} else if !errors.Is(err, io.EOF) {
		return nil, err
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil
	}
	c := converter{done: make(map[*yaml.Node]*yamltree.Node)}
	return c.node(doc.Content[0]), nil
}

type converter struct {
	// done maps every converted node to its conversion, so an alias
	// shares its anchor's node and costs nothing however often it is used.
	done map[*yaml.Node]*yamltree.Node
}

func (c *converter) node(y *yaml.Node) *yamltree.Node {
	n := &yamltree.Node{Value: y.Value, Anchor: y.Anchor, Line: y.Line, Col: y.Column}
	switch y.Kind {
	case yaml.DocumentNode:
		if len(y.Content) == 0 {
			n.Kind, n.Tag = yamltree.Scalar, "null"
			return n
		}
		return c.node(y.Content[0])
	case yaml.AliasNode:
		n.Kind = yamltree.Alias
		if y.Alias != nil {
			n.Alias = c.done[y.Alias]
		}
		return n
	case yaml.MappingNode:
		n.Kind = yamltree.Map
	case yaml.SequenceNode:
		n.Kind = yamltree.List
	default:
		n.Kind = yamltree.Scalar
		n.Tag = strings.TrimPrefix(y.ShortTag(), "!!")
	}
	for _, ch := range y.Content {
		n.Content = append(n.Content, c.node(ch))
	}
	c.done[y] = n
	return n
}
