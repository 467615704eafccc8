package policy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tailscale/hujson"
	"go.yaml.in/yaml/v3"
)

// hujsonErr matches the position hujson puts in its parse errors. The
// error-path regexps are compiled on first use: every process that loads
// rules (the per-call hook above all) would pay for them at start.
var hujsonErr = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^hujson: line (\d+), column (\d+): (.*)$`)
})

// parseJSONC parses JSONC (JSON with comments and trailing commas) into a
// node tree. It also returns the hujson tree, whose offsets index src.
func parseJSONC(file string, src []byte) (*docNode, hujson.Value, error) {
	if !utf8.Valid(src) {
		// hujson lets invalid bytes through in strings and comments; a
		// rule could then match what no editor shows.
		line, col := 1, 1
		for i := 0; i < len(src); {
			r, n := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			if src[i] == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
			i += n
		}
		return nil, hujson.Value{}, &LoadError{File: file, Line: line, Col: col, Msg: "invalid UTF-8 (save the document as UTF-8)"}
	}
	if skipExtra(src, 0) == len(src) {
		return nil, hujson.Value{}, &LoadError{File: file, Msg: "empty document (want an object such as {\"*\": \"ask\"})"}
	}
	v, _, err := parseHuJSON(src)
	if err != nil {
		e := &LoadError{File: file, Msg: "invalid JSONC: " + err.Error()}
		if m := hujsonErr().FindStringSubmatch(err.Error()); m != nil {
			e.Line, _ = strconv.Atoi(m[1])
			e.Col, _ = strconv.Atoi(m[2])
			e.Msg = "invalid JSONC: " + m[3]
			if e.Line > 0 && e.Col > 0 {
				// hujson counts columns in bytes; count characters.
				li := newLineIndex(src)
				if e.Line <= len(li.start) {
					off := li.start[e.Line-1] + e.Col - 1
					if off <= len(src) {
						_, e.Col = li.pos(off)
					}
				}
			}
			if strings.Contains(m[3], "unexpected EOF") {
				e.Msg = "invalid JSONC: unexpected end of file (unclosed object, array or string?)"
			}
		}
		return nil, v, e
	}
	conv := jsoncConv{file: file, li: newLineIndex(src)}
	n, err := conv.convert(&v, 0)
	if err != nil {
		return nil, v, err
	}
	return n, v, nil
}

// parseHuJSON parses JSONC with hujson, and returns the source its
// offsets index: src, or src and a newline when src ends in a line comment
// with no newline after it (hujson wants one; the comment is a comment
// all the same). Every reader and editor of rules documents parses them
// with it, so they agree on what a document is.
func parseHuJSON(src []byte) (hujson.Value, []byte, error) {
	v, err := hujson.Parse(src)
	if err != nil && len(src) > 0 && src[len(src)-1] != '\n' {
		fixed := append(bytes.Clone(src), '\n')
		if v2, err2 := hujson.Parse(fixed); err2 == nil {
			return v2, fixed, nil
		}
	}
	return v, src, err
}

type jsoncConv struct {
	file string
	li   *lineIndex
}

func (c *jsoncConv) convert(v *hujson.Value, depth int) (*docNode, error) {
	n := &docNode{}
	n.line, n.col = c.li.pos(v.StartOffset)
	if depth > maxDepth {
		return nil, &LoadError{File: c.file, Line: n.line, Col: n.col, Msg: fmt.Sprintf("document nested deeper than %d levels", maxDepth)}
	}
	switch t := v.Value.(type) {
	case *hujson.Object:
		n.kind = kMap
		for i := range t.Members {
			m := &t.Members[i]
			k, err := c.convert(&m.Name, depth+1)
			if err != nil {
				return nil, err
			}
			val, err := c.convert(&m.Value, depth+1)
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, k)
			n.vals = append(n.vals, val)
		}
	case *hujson.Array:
		n.kind = kList
		for i := range t.Elements {
			it, err := c.convert(&t.Elements[i], depth+1)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, it)
		}
	case hujson.Literal:
		switch t.Kind() {
		case 'n':
			n.kind = kNull
		case '"':
			n.kind, n.tag, n.text = kScalar, "str", t.String()
		case 't', 'f':
			n.kind, n.tag, n.text = kScalar, "bool", string(t)
		default:
			n.kind, n.tag, n.text = kScalar, "num", string(t)
		}
	}
	return n, nil
}

// yamlErr matches the line yaml.v3 puts in its parse errors.
var yamlErr = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// parseYAML parses one YAML document into a node tree with yaml.v3. An
// empty document (or one of comments only) gives nil; a second document
// ("---") is an error, as a config file holds one.
func parseYAML(file string, src []byte) (*docNode, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, yamlError(file, src, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &LoadError{File: file, Line: extra.Line, Msg: "more than one YAML document (\"---\"); a config file holds one"}
	} else if !errors.Is(err, io.EOF) {
		return nil, yamlError(file, src, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, nil
	}
	conv := yamlConv{file: file}
	return conv.convert(doc.Content[0], 0)
}

// yamlError turns a yaml.v3 error into a *LoadError, with a hint for the
// classic mistake of an unquoted "*" (which YAML reads as an alias).
func yamlError(file string, src []byte, err error) *LoadError {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	e := &LoadError{File: file, Msg: "invalid YAML: " + msg}
	if m := yamlErr().FindStringSubmatch(err.Error()); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Msg = "invalid YAML: " + m[2]
		msg = m[2]
	}
	if strings.Contains(msg, "did not find expected alphabetic or numeric character") ||
		strings.Contains(msg, "unknown anchor") {
		if e.Line == 0 {
			e.Line = lineOfBareStar(src)
		}
		e.Msg += ` (a "*" at the start of an unquoted YAML value or key starts an alias: quote it, as "*": deny or "*.env": deny)`
	}
	return e
}

var bareStar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[\s\[{,:-])\*`) })

// lineOfBareStar finds the first line with an unquoted "*" where YAML
// expects a value or key.
func lineOfBareStar(src []byte) int {
	for i, l := range strings.Split(string(src), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "#") {
			continue
		}
		if bareStar().MatchString(l) {
			return i + 1
		}
	}
	return 0
}

type yamlConv struct {
	file string
	// anchors holds the converted value of every anchored node, so an
	// alias costs nothing to convert however often it is used.
	anchors map[*yaml.Node]*docNode
}

func (c *yamlConv) errAt(y *yaml.Node, format string, args ...any) *LoadError {
	return &LoadError{File: c.file, Line: y.Line, Col: y.Column, Msg: fmt.Sprintf(format, args...)}
}

// convert converts a YAML node. Aliases share the converted value of their
// anchor; the size and height a consumer would see once aliases are
// expanded are bounded by maxNodes and maxDepth.
func (c *yamlConv) convert(y *yaml.Node, depth int) (*docNode, error) {
	if depth > maxDepth {
		return nil, c.errAt(y, "document nested deeper than %d levels", maxDepth)
	}
	if y.Kind == yaml.AliasNode {
		a, ok := c.anchors[y.Alias]
		if y.Alias == nil || !ok || a == nil {
			return nil, c.errAt(y, "invalid YAML alias %q (an alias must follow its anchor and not be inside it)", y.Value)
		}
		// Report positions where the alias is used.
		cp := *a
		cp.line, cp.col = y.Line, y.Column
		return &cp, nil
	}
	if y.Anchor != "" {
		if c.anchors == nil {
			c.anchors = make(map[*yaml.Node]*docNode)
		}
		c.anchors[y] = nil // in progress
	}
	n, err := c.convertValue(y, depth)
	if err != nil {
		return nil, err
	}
	n.size, n.height = 1, 1
	for _, group := range [][]*docNode{n.keys, n.vals, n.items} {
		for _, ch := range group {
			n.size += ch.size
			n.height = max(n.height, ch.height+1)
		}
	}
	if n.size > maxNodes {
		return nil, c.errAt(y, "document too large (more than %d values once YAML aliases are expanded)", maxNodes)
	}
	if n.height > maxDepth {
		return nil, c.errAt(y, "document nested deeper than %d levels once YAML aliases are expanded", maxDepth)
	}
	if y.Anchor != "" {
		c.anchors[y] = n
	}
	return n, nil
}

func (c *yamlConv) convertValue(y *yaml.Node, depth int) (*docNode, error) {
	n := &docNode{line: y.Line, col: y.Column}
	switch y.Kind {
	case yaml.MappingNode:
		n.kind = kMap
		for i := 0; i+1 < len(y.Content); i += 2 {
			ky, vy := y.Content[i], y.Content[i+1]
			if ky.ShortTag() == "!!merge" {
				return nil, c.errAt(ky, "YAML merge keys (<<) are not supported here: write the entries out")
			}
			k, err := c.convert(ky, depth+1)
			if err != nil {
				return nil, err
			}
			v, err := c.convert(vy, depth+1)
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, k)
			n.vals = append(n.vals, v)
		}
	case yaml.SequenceNode:
		n.kind = kList
		for _, it := range y.Content {
			v, err := c.convert(it, depth+1)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, v)
		}
	case yaml.ScalarNode:
		n.kind, n.text = kScalar, y.Value
		switch strings.TrimPrefix(y.ShortTag(), "!!") {
		case "null":
			n.kind = kNull
		case "bool":
			n.tag = "bool"
			// YAML 1.2 booleans only: true/false in any case.
			n.text = strings.ToLower(y.Value)
		case "int":
			n.tag = "int"
		case "float":
			n.tag = "float"
		default:
			n.tag = "str"
		}
	default:
		return nil, c.errAt(y, "unsupported YAML node")
	}
	return n, nil
}
