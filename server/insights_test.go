package server_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/internal/stacktest"
	"github.com/toolgate/toolgate/server"
)

// TestInsightsRubberStamping: an approver who approves within a second of
// each request is named in GET /v1/insights; one who takes the time to
// read is not, and neither are answers older than a day.
func TestInsightsRubberStamping(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		think time.Duration
		age   time.Duration // how long ago the answers were given
		want  int           // fast approvals named, 0 for no report
	}{
		{name: "rubber-stamping", think: 300 * time.Millisecond, want: 6},
		{name: "reading first", think: 3 * time.Second},
		{name: "a day ago", think: 300 * time.Millisecond, age: 25 * time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := &clock{t: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)}
			s := stacktest.New(t, stacktest.Broker(approval.WithClock(c.Now)),
				stacktest.Deps(func(_ *stacktest.Stack, d *server.Deps) {
					d.Limits = server.Limits{RatePerSecond: -1}
					d.Now = c.Now
				}))
			e := &env{Stack: s, t: t, clock: c}
			for i := 0; i < 6; i++ {
				a := e.ask(shell("s1", fmt.Sprint("c", i), "npm run build"))
				c.Add(tt.think)
				e.must(200, "POST", "/v1/approvals/"+a.ID+"/approve", e.Approver, map[string]any{}, nil)
				c.Add(time.Minute)
			}
			c.Add(tt.age)
			var got struct {
				RubberStamping []struct {
					Approver string
					Fast, Of int
					UnderMS  int64 `json:"under_ms"`
				} `json:"rubber_stamping"`
			}
			r := e.must(200, "GET", "/v1/insights", e.Approver, nil, &got)
			switch {
			case tt.want == 0 && len(got.RubberStamping) != 0:
				t.Errorf("reported %s", r.body)
			case tt.want > 0 && (len(got.RubberStamping) != 1 || got.RubberStamping[0].Fast != tt.want || got.RubberStamping[0].Of != 6 || got.RubberStamping[0].UnderMS != 1000):
				t.Errorf("got %s, want %d fast of 6", r.body, tt.want)
			}
			e.must(403, "GET", "/v1/insights", e.Agent, nil, nil)
		})
	}
}
