package claudecode

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/toolgate/toolgate"
)

// encoderMarshal is Marshal through encoding/json only: the oracle for
// the plain writer.
func encoderMarshal(t *testing.T, o *Output) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(o); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Every answer the hook renders, and every string, is written by the
// plain writer byte for byte as the encoder writes it.
func TestMarshalPlainAsEncoder(t *testing.T) {
	t.Parallel()
	reasons := []string{"", "allowed by rule Bash \"git log *\" (rules.yaml:2)", "tab\there\nnew <b>&</b> \\ \x00\x1f\x7f",
		"é ☃ \u2028\u2029 \xff\xfe bad", "\b\f\r"}
	var outs []*Output
	for _, ev := range []string{EventPreToolUse, EventPermissionRequest, EventUserPromptSubmit, ""} {
		for _, act := range []toolgate.Action{toolgate.Allow, toolgate.Ask, toolgate.Deny} {
			for _, why := range reasons {
				if o := Render(ev, Verdict{Action: act, Reason: why}); o != nil {
					outs = append(outs, o)
				}
			}
		}
	}
	for _, why := range reasons {
		outs = append(outs,
			&Output{SystemMessage: why},
			&Output{SystemMessage: why, HookSpecificOutput: &HookSpecificOutput{HookEventName: why, PermissionDecision: why, PermissionDecisionReason: why}},
			&Output{HookSpecificOutput: &HookSpecificOutput{HookEventName: why, Decision: &PermissionDecision{Behavior: why, Message: why}}},
			&Output{})
	}
	if len(outs) < 20 {
		t.Fatalf("only %d outputs rendered", len(outs))
	}
	for _, o := range outs {
		got, ok := o.appendPlain(nil)
		if !ok {
			t.Fatalf("%+v: not written plainly", o)
		}
		if want := encoderMarshal(t, o); !bytes.Equal(got, want) {
			t.Errorf("plain %s\nencoder %s", got, want)
		}
	}
	// With an updated input the encoder writes it.
	o := &Output{HookSpecificOutput: &HookSpecificOutput{HookEventName: EventPreToolUse, PermissionDecision: "allow", UpdatedInput: map[string]any{"command": "ls"}}}
	if _, ok := o.appendPlain(nil); ok {
		t.Fatal("an updated input was written plainly")
	}
	if got, want := o.Marshal(), encoderMarshal(t, o); !bytes.Equal(got, want) {
		t.Fatalf("Marshal %s, encoder %s", got, want)
	}
}
