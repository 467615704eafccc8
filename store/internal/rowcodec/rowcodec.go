// Package rowcodec turns approvals and their resolutions into the column
// values both SQL stores keep, and back: the one encoding the SQLite and
// PostgreSQL backends share, so a value round-trips the same through
// either. Scanning stays with each backend, since their drivers hand back
// NULLs differently.
package rowcodec

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/toolgate/toolgate"
)

var (
	minTime = time.Unix(0, math.MinInt64)
	maxTime = time.Unix(0, math.MaxInt64)
)

// Nanos returns t as a column value: Unix nanoseconds, or nil for the zero
// time. A time out of int64's range is refused, naming the field.
func Nanos(field string, t time.Time) (any, error) {
	if t.IsZero() {
		return nil, nil
	}
	if t.Before(minTime) || t.After(maxTime) {
		return nil, toolgate.Errorf(toolgate.EInvalid, "%s %s is out of range (years 1678 to 2262)", field, t.Format(time.RFC3339))
	}
	return t.UnixNano(), nil
}

// Approval is a new approval's column values.
type Approval struct {
	CreatedAt, ExpiresAt any
	Call, Decision       string
	// Batch is the batch_remaining JSON, or nil.
	Batch any
}

// EncodeApproval checks a new approval and returns its column values.
func EncodeApproval(a *toolgate.Approval) (Approval, error) {
	var row Approval
	switch {
	case a.ID == "":
		return row, toolgate.Errorf(toolgate.EInvalid, "no approval id")
	case a.Call.ID == "":
		return row, toolgate.Errorf(toolgate.EInvalid, "no call id")
	case a.Status != "" && a.Status != toolgate.StatusPending:
		return row, toolgate.Errorf(toolgate.EInvalid, "a new approval must be pending, not %s", a.Status)
	case a.Resolution != nil:
		return row, toolgate.Errorf(toolgate.EInvalid, "a new approval has no resolution")
	}
	var err error
	if row.CreatedAt, err = Nanos("created_at", a.CreatedAt); err != nil {
		return row, err
	}
	if row.ExpiresAt, err = Nanos("expires_at", a.ExpiresAt); err != nil {
		return row, err
	}
	b, err := json.Marshal(a.Call)
	if err != nil {
		return row, toolgate.Errorf(toolgate.EInvalid, "encode call: %w", err)
	}
	row.Call = string(b)
	if b, err = json.Marshal(a.Decision); err != nil {
		return row, toolgate.Errorf(toolgate.EInvalid, "encode decision: %w", err)
	}
	row.Decision = string(b)
	if a.BatchRemaining != nil {
		if b, err = json.Marshal(a.BatchRemaining); err != nil {
			return row, toolgate.Errorf(toolgate.EInvalid, "encode batch_remaining: %w", err)
		}
		row.Batch = string(b)
	}
	return row, nil
}

// DecodeApproval fills a's call, decision, remaining batch and resolution
// from their columns; batch and resolution are nil when NULL.
func DecodeApproval(a *toolgate.Approval, call, decision string, batch, resolution *string) error {
	if err := json.Unmarshal([]byte(call), &a.Call); err != nil {
		return fmt.Errorf("decode approval %s call: %w", a.ID, err)
	}
	if err := json.Unmarshal([]byte(decision), &a.Decision); err != nil {
		return fmt.Errorf("decode approval %s decision: %w", a.ID, err)
	}
	if batch != nil {
		if err := json.Unmarshal([]byte(*batch), &a.BatchRemaining); err != nil {
			return fmt.Errorf("decode approval %s batch_remaining: %w", a.ID, err)
		}
	}
	if resolution != nil {
		r, err := DecodeResolution(*resolution)
		if err != nil {
			return fmt.Errorf("decode approval %s resolution: %w", a.ID, err)
		}
		a.Resolution = r
	}
	return nil
}

// resolutionJSON stores a resolution with its raw JSON fields as strings,
// so that they come back byte for byte (encoding/json would compact them).
type resolutionJSON struct {
	*toolgate.Resolution
	Answer        *string `json:"answer,omitempty"`
	Modifications *string `json:"modifications,omitempty"`
}

// EncodeResolution returns a resolution's column value.
func EncodeResolution(r *toolgate.Resolution) (string, error) {
	j := resolutionJSON{Resolution: r}
	if r.Answer != nil {
		s := string(r.Answer)
		j.Answer = &s
	}
	if r.Modifications != nil {
		s := string(r.Modifications)
		j.Modifications = &s
	}
	b, err := json.Marshal(j)
	if err != nil {
		return "", toolgate.Errorf(toolgate.EInvalid, "encode resolution: %w", err)
	}
	return string(b), nil
}

// DecodeResolution reads a resolution's column value.
func DecodeResolution(s string) (*toolgate.Resolution, error) {
	r := new(toolgate.Resolution)
	j := resolutionJSON{Resolution: r}
	if err := json.Unmarshal([]byte(s), &j); err != nil {
		return nil, err
	}
	if j.Answer != nil {
		r.Answer = json.RawMessage(*j.Answer)
	}
	if j.Modifications != nil {
		r.Modifications = json.RawMessage(*j.Modifications)
	}
	if !r.At.IsZero() {
		r.At = r.At.UTC()
	}
	return r, nil
}
