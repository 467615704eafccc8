package suggest

import (
	"context"
	"sort"
	"time"

	"github.com/toolgate/toolgate"
)

// RubberStamping says that an approver approves calls faster than a person
// can read them: Fast of their last Of approvals came within Under of the
// request.
type RubberStamping struct {
	Approver string `json:"approver"`
	Fast     int    `json:"fast"`
	Of       int    `json:"of"`
	// UnderMS is the threshold in milliseconds.
	UnderMS int64 `json:"under_ms"`
	// Last is when the newest of those approvals was given.
	Last time.Time `json:"last"`
}

// StampRule is when approvals count as rubber-stamped: at least Fast of an
// approver's last Window approvals each given within Under of the request.
type StampRule struct {
	Window int
	Fast   int
	Under  time.Duration
}

// DefaultStampRule is five of the last ten approvals, each within a second.
var DefaultStampRule = StampRule{Window: 10, Fast: 5, Under: time.Second}

// RubberStamps reads the approvals in the audit log since since and names
// every approver whose last approvals break r, newest first. Only a
// person's own answers count: not expiries, cancellations or the approvals
// a grant cascades to.
func RubberStamps(ctx context.Context, g Auditor, since time.Time, r StampRule) ([]RubberStamping, error) {
	as, err := answers(ctx, g, since, 20000, false)
	if err != nil {
		return nil, err
	}
	return stamps(as, r), nil
}

func stamps(as []answer, r StampRule) []RubberStamping {
	last := map[string][]*answer{} // per approver, their last Window approvals
	for i := range as {
		a := &as[i]
		if !a.human() || a.res.Status != toolgate.StatusApproved {
			continue
		}
		l := append(last[a.res.By], a)
		if len(l) > r.Window {
			l = l[1:]
		}
		last[a.res.By] = l
	}
	var out []RubberStamping
	for by, l := range last {
		fast := 0
		for _, a := range l {
			if a.answered.Sub(a.requested) < r.Under {
				fast++
			}
		}
		if fast >= r.Fast {
			out = append(out, RubberStamping{Approver: by, Fast: fast, Of: len(l), UnderMS: r.Under.Milliseconds(), Last: l[len(l)-1].answered})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Last.After(out[j].Last) })
	return out
}
