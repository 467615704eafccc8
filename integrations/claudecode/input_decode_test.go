package claudecode

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// decodeInputRef is what decodeInput stands in for: encoding/json's own
// decoding of the struct.
func decodeInputRef(data []byte) (Input, error, bool) {
	var in Input
	dec := json.NewDecoder(bytes.NewReader(data))
	err := dec.Decode(&in)
	return in, err, err == nil && dec.More()
}

func decodeInputNew(data []byte) (Input, error, bool) {
	var in Input
	more, err := decodeInput(data, &in)
	return in, err, more
}

var decodeInputCases = []string{
	`{"session_id":"s","transcript_path":null,"cwd":"/w","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -l","n":1.5,"a":[1,"x",null,{}]},"tool_use_id":"t1"}`,
	`{"hook_event_name":"PermissionRequest","tool_name":"Write","tool_input":{"file_path":"/a","content":"x"},"permission_suggestions":[{"type":"addRules"}],"agent_id":"a","agent_type":"Explore","turn_id":"u","model":"m"}`,
	`{"hook_event_name":"UserPromptSubmit","prompt":"hi"}`,
	`{"Tool_Name":"Bash","TOOL_NAME":"Read","tool_name":"Edit","HOOK_EVENT_NAME":"PreToolUse"}`,
	`{"tool_name":"Read","tool_name":"Bash"}`,
	`{"tool_input":{"a":1},"tool_input":{"b":2}}`,
	`{"tool_input":"x","hook_event_name":"PreToolUse"}`,
	`{"tool_name":5,"cwd":true,"tool_input":[1]}`,
	`{"tool_name":{"a":1},"session_id":[1,2]}`,
	`{"permission_suggestions":null,"tool_input":null,"tool_name":null}`,
	`{"unknown":{"deep":[1,2,{"x":null}]},"tool_name":"Bash"}`,
	`{}`, `null`, `[]`, `[1]`, `"x"`, `1`, `true`, `[`, `[1,`, `tru`, `"x`, `null x`, `{"a":1} {"b":2}`, `{"a":1} x`,
	`{"a":1`, `{"a":`, `{"a"`, `{`, `{"a":1,}`, `{"a" 1}`, `{"a":1 "b":2}`, `{,}`, `{"a":tru}`,
	`{"tool_name":"a\u00e9\ud83d\ude00","cwd":"\x"}`, "{\"tool_name\":\"\xff\"}", `{"tool_nam\u212a":"k"}`,
	`{"tool_input":{"a":1},"tool_input":null}`, `{"tool_name":"x"}   `,
}

func checkDecodeInput(t *testing.T, data []byte) {
	t.Helper()
	want, werr, wmore := decodeInputRef(data)
	got, gerr, gmore := decodeInputNew(data)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%q: error %v, want %v", data, gerr, werr)
	}
	if werr != nil {
		if werr.Error() != gerr.Error() {
			// Syntax errors: the token reader words a few differently
			// ("expected colon after object key"); both are errors, and
			// both say where. Type errors must read the same.
			var ws, gs *json.SyntaxError
			if !(errorsAs(werr, &ws) && errorsAs(gerr, &gs)) {
				t.Fatalf("%q: error %q, want %q", data, gerr, werr)
			}
		}
		return
	}
	if !reflect.DeepEqual(got, want) || gmore != wmore {
		t.Fatalf("%q:\n got %+v (more %v)\nwant %+v (more %v)", data, got, gmore, want, wmore)
	}
}

func errorsAs(err error, target **json.SyntaxError) bool {
	se, ok := err.(*json.SyntaxError)
	if ok {
		*target = se
	}
	return ok
}

func TestDecodeInputAsEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, c := range decodeInputCases {
		checkDecodeInput(t, []byte(c))
	}
	inputs, _ := filepath.Glob(filepath.Join("testdata", "inputs", "*.json"))
	if len(inputs) == 0 {
		t.Fatal("no recorded inputs")
	}
	for _, p := range inputs {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		checkDecodeInput(t, data)
	}
}

func FuzzDecodeInput(f *testing.F) {
	for _, c := range decodeInputCases {
		f.Add([]byte(c))
	}
	inputs, _ := filepath.Glob(filepath.Join("testdata", "inputs", "*.json"))
	for _, p := range inputs {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkDecodeInput(t, data) })
}

// TestInputFieldsCoverInput: decodeInput decodes every field of Input, by
// its json name, into that field: a field added to Input without an
// entry would otherwise be silently left empty.
func TestInputFieldsCoverInput(t *testing.T) {
	t.Parallel()
	var in Input
	fields := inputFields(&in)
	byName := map[string]any{}
	for _, f := range fields {
		byName[f.name] = f.ptr
	}
	v := reflect.ValueOf(&in).Elem()
	typ := v.Type()
	if typ.NumField() != len(fields) {
		t.Errorf("Input has %d fields, inputFields lists %d", typ.NumField(), len(fields))
	}
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		ptr, ok := byName[name]
		if !ok {
			t.Errorf("Input.%s (json %q) is not in inputFields", typ.Field(i).Name, name)
			continue
		}
		if reflect.ValueOf(ptr).Pointer() != v.Field(i).Addr().Pointer() {
			t.Errorf("inputFields decodes %q into another field than Input.%s", name, typ.Field(i).Name)
		}
	}
}
