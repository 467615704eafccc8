package digest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/toolgate/toolgate"
)

// Call returns the content digest of a call: a SHA-256 over its
// workspace, session, tool, canonical arguments, working directory and
// home directory (when set). A call id names one call, so the gateway
// keeps this digest with the call's approval and refuses a resubmission
// of the id whose digest differs: an approval covers exactly the call a
// human saw.
//
// The encoding is canonical and unambiguous: every value is tagged with
// its kind and every string is length-prefixed and kept byte for byte
// (invalid UTF-8 is not folded into U+FFFD), object keys are sorted, and
// numbers are compared as float64 values, as JSON decoding yields them.
func Call(c *toolgate.Call) string {
	h := sha256.New()
	d := digester{h: h}
	d.str("toolgate.call.v1")
	d.str(c.Workspace)
	d.str(c.Session)
	d.str(c.Tool)
	d.value(c.Args)
	d.str(c.Cwd)
	if c.Home != "" {
		// Only when set, so a call without one keeps its digest.
		d.str(c.Home)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// digester writes values in the canonical encoding Call hashes.
type digester struct {
	h   hash.Hash
	buf [9]byte
}

func (d *digester) tag(t byte, n uint64) {
	d.buf[0] = t
	binary.BigEndian.PutUint64(d.buf[1:], n)
	d.h.Write(d.buf[:])
}

func (d *digester) str(s string) {
	d.tag('s', uint64(len(s)))
	d.h.Write([]byte(s))
}

func (d *digester) value(v any) {
	switch v := v.(type) {
	case nil:
		d.tag('n', 0)
	case bool:
		n := uint64(0)
		if v {
			n = 1
		}
		d.tag('b', n)
	case string:
		d.str(v)
	case float64:
		d.number(v)
	case json.Number:
		if f, err := strconv.ParseFloat(string(v), 64); err == nil {
			d.number(f)
		} else {
			d.tag('N', 0)
			d.str(string(v))
		}
	case []any:
		d.tag('a', uint64(len(v)))
		for _, e := range v {
			d.value(e)
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		d.tag('o', uint64(len(keys)))
		for _, k := range keys {
			d.str(k)
			d.value(v[k])
		}
	default:
		// Another Go type (an int, a struct from an adapter): hash it as
		// its JSON decodes, so it digests like the same call sent as JSON.
		var back any
		data, err := json.Marshal(v)
		if err == nil {
			err = json.Unmarshal(data, &back)
		}
		if err != nil {
			d.tag('?', 0)
			d.str(err.Error())
			return
		}
		d.value(back)
	}
}

func (d *digester) number(f float64) {
	if f == 0 {
		f = 0 // -0 and 0 are one JSON number
	}
	d.tag('f', math.Float64bits(f))
}

// AuditEntry returns the hash that chains e to the entry before it: SHA-256
// over e with PrevHash set and Hash cleared, encoded as JSON with the time
// in UTC. Every store computes it the same way, so a client can verify
// the log it reads.
func AuditEntry(e toolgate.AuditEntry) string {
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
	toolgate.AuditEntry
	TimeText string `json:"time_text"`
}

// VerifyChain checks that entries, in sequence order, are chained to each
// other and to prev (the hash of the entry before the first, "" for the
// start of the log). It names the first entry that does not verify.
func VerifyChain(entries []toolgate.AuditEntry, prev string) error {
	for _, e := range entries {
		if e.PrevHash != prev {
			return fmt.Errorf("audit entry %d: previous hash %.12s… does not match entry before it (%.12s…)", e.Seq, e.PrevHash, prev)
		}
		if h := AuditEntry(e); h != e.Hash {
			return fmt.Errorf("audit entry %d: hash %.12s… does not match its content (%.12s…): the entry was changed", e.Seq, e.Hash, h)
		}
		prev = e.Hash
	}
	return nil
}
