package server_test

import (
	"context"
	"strconv"
	"sync"

	"github.com/toolgate/toolgate/policy"
)

// memRules stands in for store/fsrules until it builds.
type memRules struct {
	mu   sync.Mutex
	docs map[string][]byte
	ver  map[string]int
}

func newMemRules() *memRules { return &memRules{docs: map[string][]byte{}, ver: map[string]int{}} }

func (m *memRules) Document(ctx context.Context, ws string) ([]byte, string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, ok := m.docs[ws]
	if !ok {
		d = append([]byte(nil), policy.DefaultRulesJSONC...)
		m.docs[ws] = d
	}
	return d, strconv.Itoa(m.ver[ws]), nil
}

func (m *memRules) PutDocument(ctx context.Context, ws string, src []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.docs[ws] = append([]byte(nil), src...)
	m.ver[ws]++
	return nil
}

func (m *memRules) UpdateDocument(ctx context.Context, ws string, edit func([]byte) ([]byte, error)) error {
	src, _, _ := m.Document(ctx, ws)
	out, err := edit(src)
	if err != nil {
		return err
	}
	return m.PutDocument(ctx, ws, out)
}
