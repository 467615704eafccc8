package toolgate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
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

// ChainHash returns the hash that chains e to the entry before it: SHA-256
// over e with PrevHash set and Hash cleared, encoded as JSON with the time
// in UTC. Every store computes it the same way, so a client can verify
// the log it reads.
func (e AuditEntry) ChainHash() string {
	e.Hash = ""
	e.Time = e.Time.UTC()
	b, err := json.Marshal(auditHashForm{e, e.Time.Format(time.RFC3339Nano)})
	if err != nil {
		// Only an invalid Data value can fail; hash its text instead so
		// tampering with it still shows.
		e.Data = json.RawMessage(fmt.Sprintf("%q", string(e.Data)))
		b, _ = json.Marshal(auditHashForm{e, e.Time.Format(time.RFC3339Nano)})
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// auditHashForm fixes the time's text so that a store's round trip of the
// time value does not change the hash.
type auditHashForm struct {
	AuditEntry
	TimeText string `json:"time_text"`
}

// VerifyChain checks that entries, in sequence order, are chained to each
// other and to prev (the hash of the entry before the first, "" for the
// start of the log). It names the first entry that does not verify.
func VerifyChain(entries []AuditEntry, prev string) error {
	for _, e := range entries {
		if e.PrevHash != prev {
			return fmt.Errorf("audit entry %d: previous hash %.12s… does not match entry before it (%.12s…)", e.Seq, e.PrevHash, prev)
		}
		if h := e.ChainHash(); h != e.Hash {
			return fmt.Errorf("audit entry %d: hash %.12s… does not match its content (%.12s…): the entry was changed", e.Seq, e.Hash, h)
		}
		prev = e.Hash
	}
	return nil
}
