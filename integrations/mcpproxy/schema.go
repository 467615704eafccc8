package mcpproxy

import (
	"encoding/json"
	"slices"
	"strings"
)

// propSchema is the part of a JSON Schema property that says whether it
// holds a file path.
type propSchema struct {
	Type        any         `json:"type"`
	Format      string      `json:"format"`
	Title       string      `json:"title"`
	Description string      `json:"description"`
	Items       *propSchema `json:"items"`
}

// pathFormats are the JSON Schema formats of a string that names a file.
var pathFormats = []string{"uri", "uri-reference", "iri", "iri-reference", "path", "file-path", "filepath", "file", "directory", "dir"}

// pathWords are the words of a property's title or description that say
// it names a file ("The path of the file to read", "Directory to list").
var pathWords = []string{"path", "paths", "filename", "filenames", "directory", "directories", "folder", "folders", "pathname"}

// textNames are properties that hold text, never a path, whatever their
// description says of files ("content: the text to write to the file").
var textNames = []string{"content", "contents", "text", "body", "data", "message", "query", "command", "code", "edits", "newtext", "oldtext", "description", "title"}

// schemaPathArgs returns the top-level properties of a tool's input schema
// that hold a file path, or an array of them, by the schema's own words:
// a path or URI format, or a title or description that speaks of a path,
// a directory or a folder. They are file subjects of the call
// (toolgate.Call.PathArgs) besides the arguments named like paths. The
// schema comes from the server and is not trusted: a path argument only
// adds checks.
func schemaPathArgs(schema any) []string {
	if schema == nil {
		return nil
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	var s struct {
		Properties map[string]*propSchema `json:"properties"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	var out []string
	for name, p := range s.Properties {
		if p != nil && pathProperty(name, p) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// pathProperty reports whether property name, with schema p, holds a path
// or an array of paths.
func pathProperty(name string, p *propSchema) bool {
	if slices.Contains(textNames, strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(name))) {
		return false
	}
	switch {
	case hasType(p.Type, "string"):
		return describesPath(p)
	case hasType(p.Type, "array") && p.Items != nil && hasType(p.Items.Type, "string"):
		return describesPath(p.Items) || describesPath(p)
	}
	return false
}

// describesPath reports whether a string property's format, title or
// description says it names a file.
func describesPath(p *propSchema) bool {
	if slices.Contains(pathFormats, strings.ToLower(p.Format)) {
		return true
	}
	for _, text := range [2]string{p.Title, p.Description} {
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
			return !(r >= 'a' && r <= 'z')
		}) {
			if slices.Contains(pathWords, w) {
				return true
			}
		}
	}
	return false
}

// hasType reports whether a schema's type (a name or a list of names) is
// or includes want.
func hasType(t any, want string) bool {
	switch t := t.(type) {
	case string:
		return t == want
	case []any:
		for _, x := range t {
			if x == want {
				return true
			}
		}
	}
	return false
}
