package notify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgate/toolgate"
)

// Subscriber is the event source: the broker in process, or a gateway's
// HTTP client.
type Subscriber interface {
	// Events streams the events f selects, the approvals still pending
	// first, until ctx ends or the stream ends; the error channel then
	// says why: nil when ctx ended or the source closed, else an error
	// after which the stream is resumed after the last sequence seen (the
	// broker's approval.ErrDropped for a subscriber that fell behind).
	Events(ctx context.Context, f toolgate.EventFilter) (<-chan toolgate.Event, <-chan error)
}

// Defaults of a Dispatcher.
const (
	// DefaultQueue is how many messages one tenant (an agent credential,
	// else a workspace) may have waiting at a notifier; past it its new
	// ones are dropped (and counted) rather than held in memory. Tenants
	// are served in turn, each from its own queue.
	DefaultQueue = 256
	// DefaultBackoff is the first retry's delay; each retry doubles it up
	// to DefaultMaxBackoff.
	DefaultBackoff    = 500 * time.Millisecond
	DefaultMaxBackoff = 30 * time.Second
	// resolvedTries bounds the retries of an edit: the decision is made,
	// the edit is a courtesy.
	resolvedTries = 6
)

// Dispatcher feeds notifiers from the event stream.
type Dispatcher struct {
	src        Subscriber
	sinks      []*sink
	log        *slog.Logger
	now        func() time.Time
	backoff    time.Duration
	maxBackoff time.Duration
	queue      int
	state      *stateFile // nil: message references live in memory only
	// remind is how long before an approval expires a Reminder reminds
	// (0: never).
	remind time.Duration
}

// DispatcherOption configures a Dispatcher.
type DispatcherOption func(*Dispatcher)

// WithLogger sets the logger (default: discard).
func WithLogger(l *slog.Logger) DispatcherOption { return func(d *Dispatcher) { d.log = l } }

// WithBackoff sets the first retry delay and its cap.
func WithBackoff(first, max time.Duration) DispatcherOption {
	return func(d *Dispatcher) { d.backoff, d.maxBackoff = first, max }
}

// WithClock injects the clock (default time.Now).
func WithClock(now func() time.Time) DispatcherOption { return func(d *Dispatcher) { d.now = now } }

// WithReminder makes notifiers that are Reminders remind approvers of an
// approval still pending d before it expires (approvals whose whole time
// is shorter than d get none).
func WithReminder(d time.Duration) DispatcherOption { return func(d2 *Dispatcher) { d2.remind = d } }

// WithQueue sets how many messages one tenant may have waiting at a
// notifier (DefaultQueue).
func WithQueue(n int) DispatcherOption { return func(d *Dispatcher) { d.queue = n } }

// NewDispatcher returns a dispatcher for notifiers, each with its filter.
func NewDispatcher(src Subscriber, opts ...DispatcherOption) *Dispatcher {
	d := &Dispatcher{src: src, now: time.Now, backoff: DefaultBackoff, maxBackoff: DefaultMaxBackoff, queue: DefaultQueue}
	for _, o := range opts {
		o(d)
	}
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	return d
}

// Add registers a notifier with its filter. Call it before Run.
func (d *Dispatcher) Add(n Notifier, f Filter) {
	s := &sink{n: n, filter: f, queue: newFairQueue(d.queue), refs: map[string]string{}, seen: map[string]bool{}, done: map[string]bool{}}
	s.up.Store(true)
	d.sinks = append(d.sinks, s)
}

// job is one message for a notifier.
type job struct {
	a        *toolgate.Approval
	resolved bool
	remind   bool // a reminder of a message sent
}

// sink is one notifier's queue, state and health.
type sink struct {
	n      Notifier
	filter Filter
	queue  *fairQueue

	mu   sync.Mutex
	refs map[string]string // approval id → message reference
	seen map[string]bool   // approvals queued for sending
	done map[string]bool   // approvals resolved

	sent, failures, dropped atomic.Uint64
	up                      atomic.Bool
	lastErr                 atomic.Value // string
}

// Run follows the event stream and delivers until ctx ends. Listeners
// among the notifiers get ans to answer with.
func (d *Dispatcher) Run(ctx context.Context, ans Answerer) {
	if d.state != nil {
		if err := d.state.load(d.now()); err != nil {
			d.log.Warn("notifier state", "err", err)
		}
		for _, s := range d.sinks {
			for id, r := range d.state.get(s.n.Name()) {
				s.refs[id], s.seen[id] = r.Ref, true // sent before a restart
			}
		}
	}
	var wg sync.WaitGroup
	for _, s := range d.sinks {
		wg.Add(1)
		go func() { defer wg.Done(); d.work(ctx, s) }()
		if l, ok := s.n.(Listener); ok && ans != nil {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d.listen(ctx, s, l, ans)
			}()
		}
	}
	d.follow(ctx)
	wg.Wait()
}

// listen keeps a Listener running, restarting it with backoff.
func (d *Dispatcher) listen(ctx context.Context, s *sink, l Listener, ans Answerer) {
	for attempt := 0; ctx.Err() == nil; attempt++ {
		err := l.Listen(ctx, ans)
		if ctx.Err() != nil {
			return
		}
		s.fail(err)
		d.log.Warn("notifier listener failed; restarting", "notifier", s.n.Name(), "err", err)
		if !sleep(ctx, d.delay(attempt, err)) {
			return
		}
	}
}

// follow subscribes, resubscribing after the last sequence seen when the
// stream ends with an error (the broker drops a subscriber that fell
// behind): at once after a stream that delivered, else after a backoff.
func (d *Dispatcher) follow(ctx context.Context) {
	var after int64
	for attempt := 0; ctx.Err() == nil; attempt++ {
		events, errc := d.src.Events(ctx, toolgate.EventFilter{AfterSeq: after})
		for e := range events {
			if !e.Replay && e.Seq > after {
				after = e.Seq
			}
			attempt = 0
			d.route(e)
		}
		err := <-errc
		if err == nil {
			return
		}
		d.log.Warn("notifiers lost the event stream; resuming", "after", after, "err", err)
		if attempt > 0 && !sleep(ctx, d.delay(attempt-1, err)) {
			return
		}
	}
}

// route queues an event's message for every notifier it concerns. It
// never blocks: a full queue drops the message and counts it.
func (d *Dispatcher) route(e toolgate.Event) {
	a := e.Approval
	if a == nil {
		return
	}
	tenant := "" // whose queue: looked up for the first notifier it concerns
	for _, s := range d.sinks {
		if !s.filter.Match(a) {
			continue
		}
		resolved := e.Type == toolgate.EventApprovalResolved
		if e.Type != toolgate.EventApprovalRequested && !resolved {
			continue
		}
		s.mu.Lock()
		if resolved {
			if !s.seen[a.ID] {
				s.mu.Unlock()
				continue // never sent
			}
			s.done[a.ID] = true
		} else if s.seen[a.ID] || s.done[a.ID] {
			s.mu.Unlock()
			continue // a replay of an approval already sent
		} else {
			s.seen[a.ID] = true
		}
		s.mu.Unlock()
		if tenant == "" {
			tenant = d.tenant(a)
		}
		if !s.queue.push(tenant, job{a: a, resolved: resolved}) {
			s.dropped.Add(1)
			d.log.Warn("notifier queue full; message dropped", "notifier", s.n.Name(), "approval", a.ID)
		}
	}
}

// scheduleReminder queues a reminder of a sent approval for d.remind
// before it expires, if the notifier reminds and there is time for it.
func (d *Dispatcher) scheduleReminder(ctx context.Context, s *sink, a *toolgate.Approval) {
	if d.remind <= 0 {
		return
	}
	if _, ok := s.n.(Reminder); !ok {
		return
	}
	wait := a.ExpiresAt.Add(-d.remind).Sub(d.now())
	if wait <= 0 || a.ExpiresAt.Sub(a.CreatedAt) <= d.remind {
		return
	}
	time.AfterFunc(wait, func() {
		if ctx.Err() != nil {
			return
		}
		s.mu.Lock()
		_, sent := s.refs[a.ID]
		gone := s.done[a.ID]
		s.mu.Unlock()
		if sent && !gone && !s.queue.push(d.tenant(a), job{a: a, remind: true}) {
			s.dropped.Add(1)
		}
	})
}

// sendReminder reminds approvers of an approval still pending. One try:
// a reminder is a courtesy, and a late one is worse than none.
func (d *Dispatcher) sendReminder(ctx context.Context, s *sink, a *toolgate.Approval) {
	s.mu.Lock()
	ref, sent := s.refs[a.ID]
	gone := s.done[a.ID]
	s.mu.Unlock()
	if !sent || gone || !d.now().Before(a.ExpiresAt) {
		return
	}
	if err := s.n.(Reminder).Remind(ctx, a, ref); err != nil {
		s.fail(err)
		d.log.Warn("notifier reminder failed", "notifier", s.n.Name(), "approval", a.ID, "err", err)
		return
	}
	s.sent.Add(1)
}

// sessionOwners is implemented by an event source that can tell whose
// session an approval is in (the broker): the tenant a message is queued
// for.
type sessionOwners interface {
	Session(ctx context.Context, id string) (*toolgate.Session, error)
}

// tenant names whose queue an approval's messages wait in: the agent
// credential that owns its session, else its workspace.
func (d *Dispatcher) tenant(a *toolgate.Approval) string {
	if so, ok := d.src.(sessionOwners); ok {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		s, err := so.Session(ctx, a.Call.Session)
		cancel()
		if err == nil && s.Owner != "" {
			return "token:" + s.Owner
		}
	}
	return "workspace:" + a.Call.Workspace
}

// work delivers a notifier's messages in order, retrying each with
// backoff. A new approval is retried until it resolves or expires.
func (d *Dispatcher) work(ctx context.Context, s *sink) {
	for {
		j, ok := s.queue.pop(ctx)
		if !ok {
			return
		}
		id := j.a.ID
		if j.remind {
			d.sendReminder(ctx, s, j.a)
			continue
		}
		for attempt := 0; ; attempt++ {
			var err error
			if j.resolved {
				s.mu.Lock()
				ref, ok := s.refs[id]
				delete(s.refs, id)
				delete(s.seen, id)
				s.mu.Unlock()
				if !ok {
					break // never sent: nothing to edit
				}
				if err = s.n.Resolved(ctx, j.a, ref); err != nil {
					s.mu.Lock()
					s.refs[id] = ref
					s.seen[id] = true
					s.mu.Unlock()
				} else {
					d.save(s, id, "", time.Time{})
				}
			} else {
				s.mu.Lock()
				gone := s.done[id]
				s.mu.Unlock()
				if gone || !d.now().Before(j.a.ExpiresAt) {
					break
				}
				var ref string
				if ref, err = s.n.Send(ctx, j.a); err == nil {
					s.mu.Lock()
					s.refs[id] = ref
					s.mu.Unlock()
					d.save(s, id, ref, j.a.ExpiresAt)
					d.scheduleReminder(ctx, s, j.a)
				}
			}
			if err == nil {
				s.sent.Add(1)
				if !s.up.Swap(true) {
					d.log.Info("notifier recovered", "notifier", s.n.Name())
				}
				break
			}
			s.fail(err)
			d.log.Warn("notifier failed; will retry", "notifier", s.n.Name(), "approval", id, "attempt", attempt+1, "err", err)
			if j.resolved && attempt+1 >= resolvedTries {
				break
			}
			if !sleep(ctx, d.delay(attempt, err)) {
				return
			}
		}
		if j.resolved {
			s.mu.Lock()
			delete(s.done, id) // the stream will not mention it again
			s.mu.Unlock()
		}
	}
}

// save records a sent message (or forgets an edited one) in the state
// file, if there is one. A failure is logged: it costs at most a
// duplicate message after a restart.
func (d *Dispatcher) save(s *sink, id, ref string, expires time.Time) {
	if d.state == nil {
		return
	}
	if err := d.state.set(s.n.Name(), id, ref, expires); err != nil {
		d.log.Warn("notifier state", "err", err)
	}
}

func (s *sink) fail(err error) {
	s.failures.Add(1)
	s.up.Store(false)
	if err != nil {
		s.lastErr.Store(err.Error())
	}
}

// delay is the wait before retry attempt+1: what the API asked for, else
// exponential backoff.
func (d *Dispatcher) delay(attempt int, err error) time.Duration {
	var ra *RetryAfterError
	if errors.As(err, &ra) && ra.After > 0 {
		return min(ra.After, 5*time.Minute)
	}
	b := d.backoff
	for i := 0; i < attempt && b < d.maxBackoff; i++ {
		b *= 2
	}
	return min(b, d.maxBackoff)
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// Health is one notifier's state.
type Health struct {
	Name      string `json:"name"`
	Up        bool   `json:"up"`
	Sent      uint64 `json:"sent"`
	Failures  uint64 `json:"failures"`
	Dropped   uint64 `json:"dropped"`
	LastError string `json:"last_error,omitempty"`
}

// Health reports every notifier's state.
func (d *Dispatcher) Health() []Health {
	out := make([]Health, 0, len(d.sinks))
	for _, s := range d.sinks {
		h := Health{Name: s.n.Name(), Up: s.up.Load(), Sent: s.sent.Load(), Failures: s.failures.Load(), Dropped: s.dropped.Load()}
		if e, ok := s.lastErr.Load().(string); ok {
			h.LastError = e
		}
		out = append(out, h)
	}
	return out
}

// WriteMetrics writes the notifiers' health in the Prometheus text format.
func (d *Dispatcher) WriteMetrics(w io.Writer) {
	if len(d.sinks) == 0 {
		return
	}
	hs := d.Health()
	metric := func(name, typ, help string, v func(Health) uint64) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
		for _, h := range hs {
			fmt.Fprintf(w, "%s{notifier=%q} %d\n", name, h.Name, v(h))
		}
	}
	metric("toolgate_notifier_up", "gauge", "1 if the notifier's last delivery worked, 0 while it fails and retries.", func(h Health) uint64 {
		if h.Up {
			return 1
		}
		return 0
	})
	metric("toolgate_notifier_sent_total", "counter", "Messages and edits a notifier delivered.", func(h Health) uint64 { return h.Sent })
	metric("toolgate_notifier_failures_total", "counter", "Failed delivery attempts (each is retried with backoff).", func(h Health) uint64 { return h.Failures })
	metric("toolgate_notifier_dropped_total", "counter", "Messages dropped because a notifier's queue was full.", func(h Health) uint64 { return h.Dropped })
}
