package yamltree

import (
	"errors"
	"fmt"
)

// Kind is the kind of a node.
type Kind uint8

// The kinds of node.
const (
	// Scalar is a scalar; Tag says how it resolved.
	Scalar Kind = iota + 1
	// Map is a mapping; Content alternates keys and values.
	Map
	// List is a sequence; Content holds its items.
	List
	// Alias refers to the anchored node Alias (nil when the full reader
	// could not resolve it). Only the full reader makes aliases.
	Alias
)

// Node is a YAML node.
type Node struct {
	Kind Kind
	// Tag is how a scalar resolved, in YAML's short form without "!!":
	// "str", "int", "float", "bool", "null", "merge" (a "<<" key), or
	// another tag the document gave ("timestamp", "binary", "!custom").
	// Quoted scalars are "str".
	Tag string
	// Value is a scalar's text (quotes and escapes resolved), or an
	// alias's anchor name.
	Value string
	// Anchor is the anchor ("&name") the node is defined with, if any.
	Anchor string
	// Line and Col are where the node starts, from 1; Col counts
	// characters, not bytes. A mapping starts at its first key, a block
	// sequence at its first "-", an empty value just after its ":" or "-".
	Line, Col int
	// Content is a mapping's keys and values, alternating, or a
	// sequence's items.
	Content []*Node
	// Alias is the node an alias refers to.
	Alias *Node
}

// ErrOutsideSubset is the error ReadSubset returns for a document that
// may be valid YAML but is not in the subset it reads.
var ErrOutsideSubset = errors.New("YAML outside the subset the lean reader reads")

// Error is an error at a place in a document, from a reader.
type Error struct {
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// Reader reads a whole YAML document. It returns nil for an empty
// document (or one of comments only), and an error for anything that is
// not one valid YAML document.
type Reader func(src []byte) (*Node, error)

// full is the full reader a binary registered, or nil.
var full Reader

// RegisterFull makes r the reader for documents outside the subset. It
// is meant to be called once, from the init function of the package
// providing r (as database/sql drivers register), so that only binaries
// importing that package link a full YAML parser.
func RegisterFull(r Reader) {
	if full != nil {
		panic("yamltree: RegisterFull called twice")
	}
	full = r
}

// Read reads a YAML document: with ReadSubset, and with the registered
// full reader when the document is outside the subset. Without a full
// reader, such a document is an error wrapping ErrOutsideSubset.
func Read(src []byte) (*Node, error) {
	n, err := ReadSubset(src)
	if err != nil && full != nil && errors.Is(err, ErrOutsideSubset) {
		return full(src)
	}
	return n, err
}
