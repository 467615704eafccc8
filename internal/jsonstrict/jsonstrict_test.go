package jsonstrict_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/jsonstrict"
)

type body struct {
	toolgate.Call
	Wrapped *toolgate.Call  `json:"call"`
	Rest    []toolgate.Call `json:"batch_remaining"`
	TTL     string          `json:"ttl"`
	Raw     json.RawMessage `json:"raw"`
}

var cases = []struct {
	json string
	bad  string // part of the error; "" for a body that must pass
}{
	{`{"tool":"Read","tool":"Bash"}`, `duplicate key "tool"`},
	{`{"Tool":"Bash"}`, `unknown field "Tool"`},
	{`{"TOOL":"Bash","tool":"Read"}`, `unknown field "TOOL"`},
	{`{"call":{"tool":"Read","Tool":"Bash"}}`, `unknown field "call.Tool"`},
	{`{"call":{"tool":"Bash","args":{"command":"ls","command":"rm -rf /"}}}`, `duplicate key "call.args.command"`},
	{`{"tool":"Bash","batch_remaining":[{"tool":"x"},{"tool":"y","ID":"z"}]}`, `unknown field "batch_remaining[1].ID"`},
	{`{"tool":"Bash","batch":{"id":"b","Index":1}}`, `unknown field "batch.Index"`},
	{`{"tool":"Bash","raw":{"a":1,"a":2}}`, `duplicate key "raw.a"`},
	{`{"tool":"Bash","ttl":"1s","ttl":"9h"}`, `duplicate key "ttl"`},
	// The user's twins.
	{`{"tool":"Bash","args":{"command":"ls","Command":"x"}}`, ""},
	{`{"call":{"tool":"Bash","args":{"a":{"b":[{"c":1},{"c":2}]}}},"batch_remaining":[{"tool":"Read"}],"ttl":"90s"}`, ""},
	{`{"tool":"Bash","tier":"exec","raw":{"A":1,"a":2}}`, ""},
	{`{"tool":"Bash"} trailing`, ""}, // syntax is the decoder's to report
	{`{"tool":`, ""},
}

func TestCheck(t *testing.T) {
	t.Parallel()
	for _, tc := range cases {
		err := jsonstrict.Check([]byte(tc.json), reflect.TypeFor[*body]())
		switch {
		case tc.bad == "" && err != nil:
			t.Errorf("%s: %v", tc.json, err)
		case tc.bad != "" && (err == nil || !strings.Contains(err.Error(), tc.bad)):
			t.Errorf("%s: %v, want %q", tc.json, err, tc.bad)
		case err != nil && toolgate.ErrorCodeOf(err) != toolgate.EInvalid:
			t.Errorf("%s: code %s", tc.json, toolgate.ErrorCodeOf(err))
		}
	}
}

func FuzzCheck(f *testing.F) {
	for _, tc := range cases {
		f.Add(tc.json)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := jsonstrict.Check([]byte(s), reflect.TypeFor[*body]())
		if err == nil || !strings.Contains(err.Error(), "duplicate key") {
			return
		}
		// A reported duplicate is one: the generic decoder sees fewer
		// keys than the text has, or the text is not an object at all.
		var m any
		if json.Unmarshal([]byte(s), &m) != nil {
			return
		}
		if !strings.Contains(s, `"`) {
			t.Fatalf("duplicate reported in %q", s)
		}
	})
}
