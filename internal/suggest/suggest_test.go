package suggest_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/internal/gatetest"
	"github.com/toolgate/toolgate/internal/suggest"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store/fsrules"
	"github.com/toolgate/toolgate/store/sqlite"
)

var (
	agentActor = toolgate.Actor{Name: "claude", Via: "api", Agent: true}
	alice      = toolgate.Actor{Name: "alice", Via: "web"}
	bob        = toolgate.Actor{Name: "bob", Via: "cli"}
	adminActor = toolgate.Actor{Name: "ops", Via: "cli", Admin: true}
)

// clock is a test clock each answer moves on by its think time.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

type stack struct {
	b     *approval.Broker
	pol   *approval.Workspaces
	clock *clock
	n     int
}

func newStack(t testing.TB) *stack {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "toolgate.db"))
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	pol := approval.NewWorkspaces(fsrules.New(dir, policy.DefaultRulesJSONC()), nil)
	b, err := approval.New(ctx, st, pol, approval.WithClock(c.now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(); st.Close() })
	return &stack{b: b, pol: pol, clock: c}
}

// answer submits command as the agent and has who answer it after think.
func (s *stack) answer(t testing.TB, who toolgate.Actor, command string, approve bool, think time.Duration) {
	t.Helper()
	ctx := context.Background()
	s.n++
	call := toolgate.Call{ID: "c" + strings.Repeat("x", s.n), Session: "s1", Workspace: "ws", Tool: "Bash",
		Args: map[string]any{"command": command}, Cwd: "/tmp/ws"}
	r, err := gatetest.As(s.b.Gate(), agentActor).Submit(ctx, toolgate.SubmitRequest{Call: call})
	if err != nil {
		t.Fatal(err)
	}
	if r.Approval == nil {
		t.Fatalf("%s: decided %s (%s), want ask", command, r.Decision.Action, r.Decision.Reason)
	}
	s.clock.add(think)
	g := gatetest.As(s.b.Gate(), who)
	if approve {
		_, err = g.Approve(ctx, r.Approval.ID, toolgate.ApproveRequest{})
	} else {
		_, err = g.Deny(ctx, r.Approval.ID, toolgate.DenyRequest{Mode: toolgate.DenySoft})
	}
	if err != nil {
		t.Fatal(err)
	}
	s.clock.add(time.Minute)
}

func times(n int, c string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = c
	}
	return out
}

func TestSuggest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		approved []string
		denied   []string
		rules    string // a workspace document put after the answers
		noRules  bool   // Suggest cannot read the rules document
		want     []string
	}{
		// The user's side: what a person rubber-stamps becomes a rule.
		{name: "rubber-stamped build", approved: times(3, "npm run build"), want: []string{"Bash npm run build"}},
		{name: "workspace delete, exact only", approved: times(4, "rm -rf ./build"), want: []string{"Bash rm -rf ./build"}},
		{name: "different pushes widen", approved: []string{"git push origin main", "git push origin dev", "git push origin feat"}, want: []string{"Bash git push *"}},
		{name: "two pushes stay exact", approved: []string{"git push origin main", "git push origin main", "git push origin main", "git push origin dev"}, want: []string{"Bash git push origin main"}},
		{name: "compound call proposes both", approved: times(3, "npm run lint && npm run build"), want: []string{"Bash npm run build,Bash npm run lint"}},
		// Below the threshold nothing is proposed.
		{name: "twice is not a habit", approved: times(2, "npm run build")},
		// The attacker's side: never a rule for what is risky or opaque.
		{name: "interpreter inline code", approved: times(5, `python -c "print(1)"`)},
		{name: "force push", approved: times(5, "git push --force")},
		{name: "shell wrapper", approved: times(5, `bash -c "npm run build"`)},
		{name: "sudo", approved: times(5, "sudo npm run build")},
		{name: "delete outside the workspace", approved: times(5, "rm -rf /var/lib/data")},
		{name: "command substitution", approved: times(5, "make $(cat target.txt)")},
		{name: "a person denied it once", approved: times(4, "npm run build"), denied: []string{"npm run build"}},
		{name: "a denial under the wide pattern keeps it narrow", approved: []string{"git push origin main", "git push origin main", "git push origin main", "git push origin dev", "git push origin feat"}, denied: []string{"git push origin prod"}, want: []string{"Bash git push origin main"}},
		{name: "a deny rule inside the wide pattern keeps it narrow", approved: []string{"git push origin main", "git push origin main", "git push origin main", "git push origin dev", "git push origin feat"},
			rules: `{"Bash": {"*": "ask", "git push origin prod": "deny"}}`, want: []string{"Bash git push origin main"}},
		{name: "an ask rule inside the wide pattern keeps it narrow", approved: []string{"git push origin main", "git push origin main", "git push origin main", "git push origin dev", "git push origin feat"},
			rules: `{"Bash": {"*": "ask", "git push": "ask"}}`, want: []string{"Bash git push origin main"}},
		{name: "unreadable rules keep it narrow", approved: []string{"git push origin main", "git push origin main", "git push origin main", "git push origin dev", "git push origin feat"},
			noRules: true, want: []string{"Bash git push origin main"}},
		{name: "a deny rule added since", approved: times(3, "make deploy"), rules: `{"Bash": {"make deploy": "deny"}}`},
		{name: "already allowed", approved: times(3, "make test"), rules: `{"Bash": {"make test": "allow"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newStack(t)
			for _, c := range tt.approved {
				s.answer(t, alice, c, true, 10*time.Second)
			}
			for _, c := range tt.denied {
				s.answer(t, bob, c, false, 10*time.Second)
			}
			ctx := context.Background()
			if tt.rules != "" {
				if err := s.pol.PutDocument(ctx, "ws", []byte(tt.rules)); err != nil {
					t.Fatal(err)
				}
			}
			o := suggest.Options{Rules: func(ctx context.Context, ws string) ([]byte, error) {
				src, _, err := s.pol.Document(ctx, ws)
				return src, err
			}}
			if tt.noRules {
				o.Rules = nil
			}
			ps, err := suggest.Suggest(ctx, gatetest.As(s.b.Gate(), adminActor), o)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range ps {
				var rs []string
				for _, r := range p.Rules {
					rs = append(rs, r.Tool+" "+r.Pattern)
				}
				got = append(got, strings.Join(rs, ","))
				if p.Approvals < 3 || len(p.Examples) == 0 || p.Workspace != "ws" || strings.Join(p.Approvers, ",") != "alice" {
					t.Errorf("proposal %v: approvals %d, examples %v, workspace %q, approvers %v", rs, p.Approvals, p.Examples, p.Workspace, p.Approvers)
				}
			}
			if strings.Join(got, ";") != strings.Join(tt.want, ";") {
				t.Errorf("proposed %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSuggestNeedsAdmin(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	if _, err := suggest.Suggest(context.Background(), gatetest.As(s.b.Gate(), alice), suggest.Options{}); toolgate.ErrorCodeOf(err) != toolgate.EForbidden {
		t.Fatalf("an approver read the audit for suggestions: %v", err)
	}
}

func TestRubberStamps(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// thinks are alice's answer times, oldest first.
		thinks []time.Duration
		want   int // fast answers reported, 0 for none
	}{
		{name: "all instant", thinks: repeat(10, 200*time.Millisecond), want: 10},
		{name: "five of ten", thinks: append(repeat(5, 300*time.Millisecond), repeat(5, 5*time.Second)...), want: 5},
		{name: "four of ten", thinks: append(repeat(4, 300*time.Millisecond), repeat(6, 5*time.Second)...)},
		{name: "fast long ago, careful lately", thinks: append(repeat(10, 100*time.Millisecond), repeat(10, 4*time.Second)...)},
		{name: "just over a second", thinks: repeat(10, 1100*time.Millisecond)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newStack(t)
			for _, d := range tt.thinks {
				s.answer(t, alice, "npm run build", true, d)
			}
			s.answer(t, bob, "npm test", true, 100*time.Millisecond) // one fast answer by another person is no pattern
			got, err := suggest.RubberStamps(context.Background(), gatetest.As(s.b.Gate(), adminActor), time.Time{}, suggest.DefaultStampRule)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.want == 0 && len(got) != 0:
				t.Errorf("reported %+v, want nothing", got)
			case tt.want > 0 && (len(got) != 1 || got[0].Approver != "alice" || got[0].Fast != tt.want || got[0].Of != 10):
				t.Errorf("reported %+v, want alice with %d fast of 10", got, tt.want)
			}
		})
	}
}

func repeat(n int, d time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = d
	}
	return out
}
