package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// decodeInput decodes the first JSON value of data into in as
// json.Decoder.Decode(in) would, and reports whether more follows. An
// object is decoded field by field: keys match the json tags exactly or
// else with strings.EqualFold (encoding/json's rule), a later key wins,
// unknown keys are skipped, a value of the wrong type is skipped and
// reported once decoding ends (the first such error, named
// "Input.FIELD"), and null leaves a field as it was. It avoids
// encoding/json's reflection over the struct (cachedTypeFields), which
// the per-call hook paid on every call for its one input; each field's
// value is still decoded by encoding/json. FuzzDecodeInput holds it to
// json.Decoder.Decode: the same fields and the same type errors; two
// syntax errors are worded differently ("expected colon after object
// key" for `{"a" 1}`), which no agent sends.
func decodeInput(data []byte, in *Input) (more bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := decodeObject(dec, in); err != nil {
		if errors.Is(err, errNotObject) {
			// Not an object: encoding/json's own decoding says what is
			// wrong first (a syntax error anywhere, else the type).
			dec = json.NewDecoder(bytes.NewReader(data))
			if err := dec.Decode(in); err != nil {
				return false, err
			}
			return dec.More(), nil
		}
		return false, err
	}
	return dec.More(), nil
}

var errNotObject = errors.New("not a JSON object")

func decodeObject(dec *json.Decoder, in *Input) error {
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return errNotObject
	}
	var typeErr error
	fields := inputFields(in)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return unexpectedEOF(err)
		}
		key, _ := tok.(string)
		var dst any
		var name string
		for _, f := range fields {
			if f.name == key {
				dst, name = f.ptr, f.name
				break
			}
			if dst == nil && strings.EqualFold(f.name, key) {
				dst, name = f.ptr, f.name
			}
		}
		if dst == nil {
			var skip json.RawMessage
			dst = &skip
		}
		if err := dec.Decode(dst); err != nil {
			var te *json.UnmarshalTypeError
			if !errors.As(err, &te) {
				return unexpectedEOF(err)
			}
			if typeErr == nil {
				te.Struct, te.Field = "Input", name
				typeErr = te
			}
		}
	}
	if _, err := dec.Token(); err != nil { // '}'
		return unexpectedEOF(err)
	}
	return typeErr
}

// unexpectedEOF is io.ErrUnexpectedEOF for an input that ends inside the
// object, as Decode reports it.
func unexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

type inputField struct {
	name string
	ptr  any
}

// inputFields are Input's fields by json name, every one of them
// (TestInputFieldsCoverInput).
func inputFields(in *Input) [14]inputField {
	return [...]inputField{
		{"session_id", &in.SessionID},
		{"transcript_path", &in.TranscriptPath},
		{"cwd", &in.Cwd},
		{"permission_mode", &in.PermissionMode},
		{"hook_event_name", &in.HookEventName},
		{"tool_name", &in.ToolName},
		{"tool_input", &in.ToolInput},
		{"tool_use_id", &in.ToolUseID},
		{"agent_id", &in.AgentID},
		{"agent_type", &in.AgentType},
		{"turn_id", &in.TurnID},
		{"model", &in.Model},
		{"permission_suggestions", &in.PermissionSuggestions},
		{"prompt", &in.Prompt},
	}
}
