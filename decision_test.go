package toolgate_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

func TestDecisionJSONOneShape(t *testing.T) {
	t.Parallel()
	for _, d := range []any{
		toolgate.Decision{Action: toolgate.Allow},
		&toolgate.Decision{Action: toolgate.Allow},
		struct {
			D *toolgate.Decision `json:"decision"`
		}{&toolgate.Decision{Action: toolgate.Deny}},
	} {
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{`"subjects":[]`, `"risks":[]`, `"suggestions":[]`} {
			if !strings.Contains(string(b), key) {
				t.Errorf("%s lacks %s", b, key)
			}
		}
	}
	var back toolgate.Decision
	if err := json.Unmarshal([]byte(`{"action":"ask","risks":[{"code":"x","severity":"critical","reason":"r"}]}`), &back); err != nil || len(back.Risks) != 1 {
		t.Fatalf("round trip: %v %+v", err, back)
	}
}

// reflected is the decision as encoding/json writes the struct (the
// oracle of Decision.MarshalJSON, which writes it by hand): empty lists
// as [], every other field as its tags say.
func reflected(t *testing.T, d toolgate.Decision) []byte {
	t.Helper()
	type plain toolgate.Decision // without the method
	p := plain(d)
	if p.Subjects == nil {
		p.Subjects = []toolgate.SubjectResult{}
	}
	if p.Risks == nil {
		p.Risks = []toolgate.Risk{}
	}
	if p.Suggestions == nil {
		p.Suggestions = []toolgate.Suggestion{}
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fullDecision sets every field of a decision from a few strings and
// bits, so the fuzzer reaches each optional field present and absent and
// every string escaped.
func fullDecision(s1, s2, s3 string, bits uint16) toolgate.Decision {
	on := func(i uint) bool { return bits&(1<<i) != 0 }
	d := toolgate.Decision{Action: toolgate.Action(bits % 4), Reason: s1, Tier: toolgate.Tier(bits >> 2 % 4), Mode: toolgate.Mode(bits >> 4 % 8), Confirm: ""}
	rule := &toolgate.RuleRef{Layer: toolgate.Layer(s2), Source: s3, Tool: s1, Action: toolgate.Action(bits >> 7 % 4)}
	if on(9) {
		rule.Pattern, rule.Sandbox, rule.Reason = s2, true, s3
	}
	if on(10) {
		d.Rule = rule
	}
	if on(11) {
		d.Subjects = []toolgate.SubjectResult{{Kind: toolgate.SubjectKind(s1), Text: s2, Action: d.Action, Open: on(12), Rule: rule},
			{Kind: toolgate.SubjectWrite, Text: s3}}
		d.Risks = []toolgate.Risk{{Code: s1, Severity: toolgate.Severity(s2), Reason: s3}, {Code: "x", Subject: s1}}
		d.Suggestions = []toolgate.Suggestion{{Tool: s1, Pattern: s2, Exact: s3}, {Tool: "Bash", Pattern: "ls *"}}
	} else if on(12) {
		d.Subjects, d.Risks, d.Suggestions = []toolgate.SubjectResult{}, []toolgate.Risk{}, []toolgate.Suggestion{}
	}
	if on(13) {
		d.Redactions = []toolgate.Redaction{{Arg: s1, Rule: s2, What: s3, Shown: s1 + s2}}
	} else if on(14) {
		d.Redactions = []toolgate.Redaction{}
	}
	if on(15) {
		d.Sandbox = &toolgate.Confinement{Profile: s1}
		if on(12) {
			d.Sandbox.Workspaces = []string{s2, s3}
		} else if on(11) {
			d.Sandbox.Workspaces = []string{}
		}
		d.Confirm = s3
	}
	return d
}

func TestDecisionJSONAsReflected(t *testing.T) {
	t.Parallel()
	for _, d := range []toolgate.Decision{
		{},
		{Action: toolgate.Ask, Reason: "<b>&</b>", Rule: &toolgate.RuleRef{Layer: toolgate.LayerStatic, Source: "builtin:default:68", Tool: "shell_exec", Pattern: "*", Action: toolgate.Ask}},
		fullDecision("rm -rf ~ \u2028 \"q\" \\ \x01", "é<script>", "\xff&", 0xffff),
		fullDecision("", "", "", 0),
	} {
		got, err := d.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if want := reflected(t, d); string(got) != string(want) {
			t.Errorf("MarshalJSON:\n got %s\nwant %s", got, want)
		}
	}
}

func FuzzDecisionJSON(f *testing.F) {
	f.Add("allowed by rule", "Bash(git *)", "a.jsonc:3", uint16(0))
	f.Add("<&>\u2028", "\x00\xff", "\"\\", uint16(0xffff))
	for b := uint16(1); b != 0; b <<= 1 {
		f.Add("r", "p", "s", b|0x0800)
	}
	f.Fuzz(func(t *testing.T, s1, s2, s3 string, bits uint16) {
		d := fullDecision(s1, s2, s3, bits)
		got, err := d.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if want := reflected(t, d); string(got) != string(want) {
			t.Fatalf("MarshalJSON:\n got %s\nwant %s", got, want)
		}
	})
}
