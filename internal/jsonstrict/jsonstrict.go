// Package jsonstrict checks JSON request bodies for what encoding/json
// lets through: a key given twice in one object (the last silently wins,
// so {"tool":"Read","tool":"Bash"} is decided as Bash while a log shows
// Read) and a key whose case differs from the field it fills ({"Tool":…}
// fills Tool). Both are refused, so one body means one thing to every
// reader.
package jsonstrict

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/toolgate/toolgate"
)

// Check walks data as it would be decoded into a value of type t and
// returns an EInvalid error naming the first duplicate key or mis-cased
// field name. Syntax errors are left to the decoder, which reports them
// with their offset.
func Check(data []byte, t reflect.Type) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	err := walk(dec, t, "")
	if _, ok := err.(*toolgate.Error); ok {
		return err
	}
	return nil
}

// maxDepth bounds the walk; deeper documents are left to the decoder.
const maxDepth = 10000

func walk(dec *json.Decoder, t reflect.Type, path string) error {
	return walkDepth(dec, t, path, 0)
}

func walkDepth(dec *json.Decoder, t reflect.Type, path string, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("too deep")
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	t = shape(t)
	switch tok {
	case json.Delim('{'):
		var fields map[string]reflect.Type
		if t != nil && t.Kind() == reflect.Struct {
			fields = fieldsOf(t)
		}
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			k, _ := kt.(string)
			at := path + "." + k
			if path == "" {
				at = k
			}
			if seen[k] {
				return toolgate.Errorf(toolgate.EInvalid, "duplicate key %q in a JSON object", at)
			}
			seen[k] = true
			var sub reflect.Type
			switch {
			case fields != nil:
				ft, ok := fields[k]
				if !ok {
					for name := range fields {
						if strings.EqualFold(name, k) {
							return toolgate.Errorf(toolgate.EInvalid, "unknown field %q (did you mean %q? field names are case-sensitive)", at, name)
						}
					}
				}
				sub = ft
			case t != nil && t.Kind() == reflect.Map:
				sub = t.Elem()
			}
			if err := walkDepth(dec, sub, at, depth+1); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	case json.Delim('['):
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; dec.More(); i++ {
			if err := walkDepth(dec, elem, fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	}
	return nil
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// shape returns the type whose structure the JSON follows: pointers
// removed, nil for any value (an interface, or a type that decodes
// itself), whose keys are only checked for duplicates.
func shape(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() == reflect.Interface {
		return nil
	}
	if t.Kind() != reflect.Map && t.Kind() != reflect.Slice && t.Kind() != reflect.Struct && t.Kind() != reflect.Array {
		return nil
	}
	if t.Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(jsonUnmarshaler) ||
		t.Implements(textUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return nil
	}
	return t
}

var fieldCache sync.Map // reflect.Type → map[string]reflect.Type

// fieldsOf returns a struct's JSON field names and types, with the fields
// of embedded structs promoted as encoding/json promotes them.
func fieldsOf(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	var add func(t reflect.Type, depth int)
	add = func(t reflect.Type, depth int) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			ft := f.Type
			if f.Anonymous && name == "" {
				if et := ft; et.Kind() == reflect.Struct || et.Kind() == reflect.Pointer && et.Elem().Kind() == reflect.Struct {
					if et.Kind() == reflect.Pointer {
						et = et.Elem()
					}
					if depth < 8 {
						add(et, depth+1)
					}
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if _, dup := m[name]; !dup || depth == 0 {
				m[name] = ft
			}
		}
	}
	add(t, 0)
	fieldCache.Store(t, m)
	return m
}
