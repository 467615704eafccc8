package notify

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/present"
	"github.com/toolgate/toolgate/server/mount"
)

// Notifier sends approvals to one channel.
type Notifier interface {
	// Name names the channel in logs and metrics: telegram, ntfy, webhook.
	Name() string
	// Send announces a new pending approval and returns a reference to
	// the message (its id), which Resolved gets back.
	Send(ctx context.Context, a *toolgate.Approval) (ref string, err error)
	// Resolved edits or retracts the message of an approval that ended.
	Resolved(ctx context.Context, a *toolgate.Approval, ref string) error
}

// Reminder is a Notifier that can remind approvers of an approval still
// pending shortly before it expires (WithReminder): unattended runs stop
// for want of an answer nobody saw.
type Reminder interface {
	// Remind says again that the approval waits, and how long it has
	// left; ref is what Send returned.
	Remind(ctx context.Context, a *toolgate.Approval, ref string) error
}

// StillWaiting is a reminder's first line: that approval a still waits
// and how long it has left at now.
func StillWaiting(a *toolgate.Approval, now time.Time) string {
	return fmt.Sprintf("Still waiting, expires in %s", max(a.ExpiresAt.Sub(now), 0).Round(time.Second))
}

// Listener is a Notifier that receives answers itself (Telegram's
// getUpdates). Listen runs until ctx ends.
type Listener interface {
	Listen(ctx context.Context, ans Answerer) error
}

// Receiver is a Notifier that takes answers on the gateway's own HTTP
// server (Slack's signed interactivity requests): its routes are mounted
// with the answer links'.
type Receiver interface {
	Mounts(ans Answerer) []mount.Route
}

// Answerer answers approvals as the actor its context carries
// (toolgate.WithActor): a toolgate.Gate, the broker's in process or a
// gateway's over HTTP, is one.
type Answerer interface {
	Approval(ctx context.Context, id string) (*toolgate.Approval, error)
	Approve(ctx context.Context, id string, req toolgate.ApproveRequest) (*toolgate.Approval, error)
	Deny(ctx context.Context, id string, req toolgate.DenyRequest) (*toolgate.Approval, error)
}

// Answer is what a button does.
type Answer string

// Answers a button can carry. Remote buttons grant at most the decision's
// suggested pattern (an approver's limit, DESIGN §9): never a whole tool,
// never every workspace.
const (
	AnswerOnce    Answer = "once"
	AnswerSession Answer = "session"
	// AnswerSession30m is AnswerSession time-boxed to SessionFor.
	AnswerSession30m Answer = "session30m"
	AnswerAlways     Answer = "always"
	AnswerDeny       Answer = "deny"
)

// SessionFor is how long a "30 min" answer's session grant lasts, in the
// form of the API's "for".
const SessionFor = "30m"

// Answers lists every answer in button order.
var Answers = []Answer{AnswerOnce, AnswerSession, AnswerSession30m, AnswerAlways, AnswerDeny}

// Label is a button's text.
func (a Answer) Label() string {
	switch a {
	case AnswerOnce:
		return "Approve"
	case AnswerSession:
		return "Session"
	case AnswerSession30m:
		return "30 min"
	case AnswerAlways:
		return "Always"
	case AnswerDeny:
		return "Deny"
	}
	return string(a)
}

// ErrNoPattern is returned for a session or always answer to a call that
// has no suggested pattern: only approving once or denying is safe, and
// wider grants need an admin.
var ErrNoPattern = errors.New("no pattern can safely cover this call: approve it once or deny it")

// Offered reports whether ans can be offered for a: Session needs the call's
// exact pattern (what a session grant is), Always the suggested one.
func Offered(a *toolgate.Approval, ans Answer) bool {
	switch ans {
	case AnswerSession, AnswerSession30m:
		return present.SessionPattern(a.Decision) != ""
	case AnswerAlways:
		return present.Pattern(a.Decision) != ""
	}
	return true
}

// Apply answers approval id with ans on behalf of by.
func Apply(ctx context.Context, an Answerer, id string, ans Answer, by toolgate.Actor) (*toolgate.Approval, error) {
	ctx = toolgate.WithActor(ctx, by)
	switch ans {
	case AnswerOnce:
		return an.Approve(ctx, id, toolgate.ApproveRequest{Scope: toolgate.ScopeOnce})
	case AnswerSession, AnswerSession30m, AnswerAlways:
		a, err := an.Approval(ctx, id)
		if err != nil {
			return nil, err
		}
		if len(a.Decision.Suggestions) == 0 {
			return nil, toolgate.Errorf(toolgate.EInvalid, "%v", ErrNoPattern)
		}
		// Session grants the call exactly as made, as on every surface;
		// Always grants the suggested pattern, which the message shows.
		scope, pattern := toolgate.ScopeSession, present.SessionPattern(a.Decision)
		if ans == AnswerAlways {
			scope, pattern = toolgate.ScopeWorkspace, present.Pattern(a.Decision)
		}
		if pattern == "" {
			return nil, toolgate.Errorf(toolgate.EInvalid, "%v", ErrNoPattern)
		}
		req := toolgate.ApproveRequest{Scope: scope, Grant: toolgate.GrantPattern, Pattern: pattern}
		if ans == AnswerSession30m {
			req.For = SessionFor
		}
		return an.Approve(ctx, id, req)
	case AnswerDeny:
		return an.Deny(ctx, id, toolgate.DenyRequest{Mode: toolgate.DenyHard, Reason: "denied by " + by.Name + " via " + by.Via})
	}
	return nil, toolgate.Errorf(toolgate.EInvalid, "unknown answer %q", ans)
}

// Filter selects the approvals a notifier sends. Empty lists select
// everything.
type Filter struct {
	// Workspaces and Tools are names or globs (path.Match syntax).
	Workspaces []string `yaml:"workspaces"`
	Tools      []string `yaml:"tools"`
	// Risks selects approvals that carry a risk of one of these
	// severities (critical, unprefixable, class).
	Risks []toolgate.Severity `yaml:"risks"`
}

// Match reports whether the filter selects a.
func (f Filter) Match(a *toolgate.Approval) bool {
	ws := a.Call.Workspace
	if ws == "" {
		ws = "default"
	}
	if !globs(f.Workspaces, ws) || !globs(f.Tools, a.Call.Tool) {
		return false
	}
	if len(f.Risks) == 0 {
		return true
	}
	for _, r := range a.Decision.Risks {
		if slices.Contains(f.Risks, r.Severity) {
			return true
		}
	}
	return false
}

// Check validates the filter's patterns and severities.
func (f Filter) Check() error {
	for _, p := range append(append([]string(nil), f.Workspaces...), f.Tools...) {
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("filter pattern %q: %w", p, err)
		}
	}
	for _, r := range f.Risks {
		if r != toolgate.SeverityCritical && r != toolgate.SeverityUnprefixable && r != toolgate.SeverityClass {
			return fmt.Errorf("filter risk %q: want critical, unprefixable or class", r)
		}
	}
	return nil
}

func globs(pats []string, s string) bool {
	if len(pats) == 0 {
		return true
	}
	for _, p := range pats {
		if ok, _ := path.Match(p, s); ok {
			return true
		}
	}
	return false
}

// RetryAfterError is an error from an API that said when to try again
// (HTTP 429 with Retry-After, Telegram's parameters.retry_after).
type RetryAfterError struct {
	After time.Duration
	Err   error
}

func (e *RetryAfterError) Error() string {
	return fmt.Sprintf("%v (retry after %s)", e.Err, e.After)
}

func (e *RetryAfterError) Unwrap() error { return e.Err }

// ParseRetryAfter reads a Retry-After header given in seconds; 0 if it
// is absent or not a number.
func ParseRetryAfter(v string) time.Duration {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0
	}
	return time.Duration(n) * time.Second
}
