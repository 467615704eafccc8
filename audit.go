package toolgate

import (
	"encoding/json"
	"strings"
)

// Contains reports whether the entry's text holds q, ignoring case: its
// kind, session, workspace, ids, tool, outcome, who, via and reason, and
// every string in its data (a call's command or path, a grant's pattern),
// decoded, so text that JSON escapes (quotes, <, >, &) is found as typed.
func (e AuditEntry) Contains(q string) bool {
	q = strings.ToLower(q)
	if q == "" {
		return true
	}
	has := func(s string) bool { return strings.Contains(strings.ToLower(s), q) }
	for _, s := range []string{e.Kind, e.Session, e.Workspace, e.CallID, e.ApprovalID, e.Tool, e.Outcome, e.Who, e.Via, e.Reason} {
		if has(s) {
			return true
		}
	}
	if len(e.Data) == 0 {
		return false
	}
	var data any
	if json.Unmarshal(e.Data, &data) != nil {
		return has(string(e.Data))
	}
	return anyString(data, has)
}

// anyString reports whether f holds for a string anywhere in v.
func anyString(v any, f func(string) bool) bool {
	switch x := v.(type) {
	case string:
		return f(x)
	case []any:
		for _, y := range x {
			if anyString(y, f) {
				return true
			}
		}
	case map[string]any:
		for _, y := range x {
			if anyString(y, f) {
				return true
			}
		}
	}
	return false
}
