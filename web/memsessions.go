package web

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/store"
)

// memSessions is store.WebSessions in memory, for a UI given no store:
// sessions then end with the process.
type memSessions struct {
	mu   sync.Mutex
	byID map[string]store.WebSession
	seq  map[string]int
	n    int
}

func newMemSessions() *memSessions {
	return &memSessions{byID: map[string]store.WebSession{}, seq: map[string]int{}}
}

func (m *memSessions) PutWebSession(_ context.Context, s *store.WebSession) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, x := range m.byID {
		if x.KeyHash == s.KeyHash && id != s.ID {
			return toolgate.Errorf(toolgate.EConflict, "web session key already in use")
		}
	}
	if _, ok := m.byID[s.ID]; !ok {
		m.n++
		m.seq[s.ID] = m.n
	}
	m.byID[s.ID] = *s
	return nil
}

func (m *memSessions) GetWebSession(_ context.Context, keyHash string) (*store.WebSession, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, x := range m.byID {
		if x.KeyHash == keyHash {
			return &x, nil
		}
	}
	return nil, toolgate.Errorf(toolgate.ENotFound, "web session not found")
}

func (m *memSessions) TouchWebSession(_ context.Context, id string, lastSeen time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	x, ok := m.byID[id]
	if !ok {
		return toolgate.Errorf(toolgate.ENotFound, "web session %s not found", id)
	}
	x.LastSeen = lastSeen
	m.byID[id] = x
	return nil
}

func (m *memSessions) ListWebSessions(context.Context) ([]*store.WebSession, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*store.WebSession, 0, len(m.byID))
	for _, x := range m.byID {
		out = append(out, &x)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.Before(out[j].CreatedAt)
		}
		return m.seq[out[i].ID] < m.seq[out[j].ID]
	})
	return out, nil
}

func (m *memSessions) DeleteWebSession(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.byID[id]; !ok {
		return toolgate.Errorf(toolgate.ENotFound, "web session %s not found", id)
	}
	delete(m.byID, id)
	delete(m.seq, id)
	return nil
}

func (m *memSessions) DeleteExpiredWebSessions(_ context.Context, now time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for id, x := range m.byID {
		if !x.ExpiresAt.After(now) {
			delete(m.byID, id)
			delete(m.seq, id)
			n++
		}
	}
	return n, nil
}
