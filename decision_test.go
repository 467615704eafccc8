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
