package server

import (
	"sync"
	"time"

	"github.com/toolgate/toolgate"
)

// limiter keeps one token bucket per credential name.
type limiter struct {
	rate  float64 // tokens per second; <= 0 is unlimited
	burst float64
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

// maxBuckets bounds the limiter's memory; names come from the token file,
// so it is only reached if thousands of tokens are in use at once.
const maxBuckets = 10000

func newLimiter(rate float64, burst int, now func() time.Time) *limiter {
	return &limiter{rate: rate, burst: float64(burst), now: now, buckets: map[string]*bucket{}}
}

// allow takes a token from name's bucket. When the bucket is empty it
// says how long until the next token.
func (l *limiter) allow(name string) (bool, time.Duration) {
	if l.rate <= 0 {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.refilled(name)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
}

// take takes n tokens from name's bucket, into debt if it holds fewer:
// the cost of what a request did is known only once it is done (the bytes
// of its body), and the next request waits until the debt is paid
// (empty).
func (l *limiter) take(name string, n float64) {
	if l.rate <= 0 || n <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.refilled(name)
	b.tokens -= n
}

// refilled returns name's bucket with what it earned since last used;
// l.mu is held.
func (l *limiter) refilled(name string) *bucket {
	now := l.now()
	b := l.buckets[name]
	if b == nil {
		if len(l.buckets) >= maxBuckets {
			l.evict(now)
		}
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[name] = b
	}
	if el := now.Sub(b.last); el > 0 {
		b.tokens = min(l.burst, b.tokens+el.Seconds()*l.rate)
		b.last = now
	}
	return b
}

// empty reports whether name's bucket has no token left, without taking
// one, and how long until it has.
func (l *limiter) empty(name string) (bool, time.Duration) {
	if l.rate <= 0 {
		return false, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[name]
	if b == nil {
		return false, 0
	}
	tokens := min(l.burst, b.tokens+max(now.Sub(b.last), 0).Seconds()*l.rate)
	if tokens >= 1 {
		return false, 0
	}
	return true, time.Duration((1 - tokens) / l.rate * float64(time.Second))
}

// evict drops buckets that have refilled completely: forgetting them
// changes nothing.
func (l *limiter) evict(now time.Time) {
	for k, b := range l.buckets {
		if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
			delete(l.buckets, k)
		}
	}
}

// holds counts, per credential name, the requests that hold a
// connection open waiting (long polls, event streams, a mount's blocking
// submit): one credential cannot tie up the goroutines and connections
// every other one needs. The count is this process's: what it bounds is
// this process's.
type holds struct {
	max int // <= 0: unlimited

	mu sync.Mutex
	n  map[string]int
}

func newHolds(maxHolds int) *holds { return &holds{max: maxHolds, n: map[string]int{}} }

// acquire takes one of name's holds, or fails with ERateLimited when it
// has them all; release gives it back.
func (h *holds) acquire(name string) (release func(), err error) {
	if h.max <= 0 {
		return func() {}, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n[name] >= h.max {
		return nil, toolgate.Errorf(toolgate.ERateLimited, "credential %s holds %d waiting requests (long polls, event streams), its limit; wait for one to end", name, h.max)
	}
	h.n[name]++
	return func() {
		h.mu.Lock()
		if h.n[name]--; h.n[name] <= 0 {
			delete(h.n, name)
		}
		h.mu.Unlock()
	}, nil
}
