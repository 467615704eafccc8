package approval

import (
	"context"
	"sync"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
)

// DefaultSessionCacheSize is how many sessions the broker keeps in memory
// by default (WithSessionCacheSize).
const DefaultSessionCacheSize = 16384

// WithSessionCacheSize bounds the broker's in-memory session cache; n <= 0
// turns it off (every read goes to the store).
func WithSessionCacheSize(n int) Option { return func(b *Broker) { b.sessions.max = n } }

// sessionCache keeps sessions in memory so that deciding a call does not
// read the store. It is correct because the broker makes every session
// write itself, through putSession, which updates the cache after the
// store; a miss loads from the store. A session never stored is cached as
// absent too (a dry run on an unknown session is common).
//
// When nodes share the store, another node's writes reach this cache
// through the change feed (feed.go): every session change is an audit
// entry, and no decision on a cache that misses one stands (feed.go,
// Broker.decideRecorded).
type sessionCache struct {
	// wmu serializes writes: store write then cache update, and every
	// read-modify-write of a session, so the cache ends in the order the
	// store does and no concurrent change is lost.
	wmu sync.Mutex

	mu  sync.RWMutex
	m   map[string]sessionEntry
	gen uint64 // bumped by every write, so a load that raced one is not cached
	max int
	// noAbsent: do not cache that a session does not exist (a shared
	// store: another node's creation of it would not clear the entry).
	noAbsent bool
}

type sessionEntry struct {
	s      toolgate.Session
	exists bool
}

func (c *sessionCache) lookup(id string) (sessionEntry, bool) {
	c.mu.RLock()
	e, ok := c.m[id]
	c.mu.RUnlock()
	return e, ok
}

// store records a session (or its absence) read at generation gen; it is
// dropped if a write happened since.
func (c *sessionCache) store(id string, e sessionEntry, gen uint64) {
	c.mu.Lock()
	if c.gen == gen {
		c.insertLocked(id, e)
	}
	c.mu.Unlock()
}

func (c *sessionCache) insertLocked(id string, e sessionEntry) {
	if c.max <= 0 {
		return
	}
	if _, ok := c.m[id]; !ok && len(c.m) >= c.max {
		// Evict a few entries, whichever the map yields first: random
		// enough to be fair, and O(1).
		n := 0
		for k := range c.m {
			delete(c.m, k)
			if n++; n >= 8 {
				break
			}
		}
	}
	c.m[id] = e
}

// put records a session the broker just wrote.
func (c *sessionCache) put(s *toolgate.Session) {
	c.mu.Lock()
	c.gen++
	c.insertLocked(s.ID, sessionEntry{s: *s, exists: true})
	c.mu.Unlock()
}

// forget drops a session whose state in the store is unknown (a failed
// write): the next read loads it.
func (c *sessionCache) forget(id string) {
	c.mu.Lock()
	c.gen++
	delete(c.m, id)
	c.mu.Unlock()
}

// clear drops every cached session.
func (c *sessionCache) clear() {
	c.mu.Lock()
	c.gen++
	clear(c.m)
	c.mu.Unlock()
}

// getSession returns a session as the store holds it, from the cache when
// it can; ENotFound if it was never stored. The result is the caller's own
// copy.
func (b *Broker) getSession(ctx context.Context, id string) (*toolgate.Session, error) {
	var s toolgate.Session
	found, err := b.loadSession(ctx, id, &s)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, toolgate.Errorf(toolgate.ENotFound, "session %s not found", id)
	}
	return &s, nil
}

// loadSession reads a session into dst and reports whether it exists. It
// does not allocate when the session (or its absence) is cached.
func (b *Broker) loadSession(ctx context.Context, id string, dst *toolgate.Session) (bool, error) {
	c := &b.sessions
	if e, ok := c.lookup(id); ok {
		if e.exists {
			*dst = e.s
		}
		return e.exists, nil
	}
	c.mu.RLock()
	gen := c.gen
	c.mu.RUnlock()
	s, err := b.store.GetSession(ctx, id)
	switch {
	case err == nil:
		c.store(id, sessionEntry{s: *s, exists: true}, gen)
		*dst = *s
		return true, nil
	case toolgate.ErrorCodeOf(err) == toolgate.ENotFound:
		if !c.noAbsent {
			c.store(id, sessionEntry{}, gen)
		}
		return false, nil
	}
	return false, err
}

// lockSession serializes a read-modify-write of one session: within this
// node (wmu) and, on a shared store, across nodes (store.SessionLocker),
// then brings the caches up to date so that the read sees every write
// made before the lock was taken.
func (b *Broker) lockSession(ctx context.Context, id string) (unlock func(), err error) {
	b.sessions.wmu.Lock()
	if b.feed == nil {
		return b.sessions.wmu.Unlock, nil
	}
	unlockStore := func() {}
	if l, ok := b.store.(store.SessionLocker); ok {
		if unlockStore, err = l.LockSession(ctx, id); err != nil {
			b.sessions.wmu.Unlock()
			return nil, err
		}
	}
	if err := b.fresh(ctx); err != nil {
		unlockStore()
		b.sessions.wmu.Unlock()
		return nil, err
	}
	// Not every session write is on the feed (a first call binding its
	// workspace and owner is not): read this one from the store.
	b.sessions.forget(id)
	return func() {
		unlockStore()
		b.sessions.wmu.Unlock()
	}, nil
}

// putSession stores a session with its audit entries and caches it. The
// caller holds b.sessions.wmu.
func (b *Broker) putSession(ctx context.Context, s *toolgate.Session, audit ...toolgate.AuditEntry) error {
	if err := b.store.PutSession(ctx, s, audit...); err != nil {
		b.sessions.forget(s.ID)
		return err
	}
	b.sessions.put(s)
	return nil
}
