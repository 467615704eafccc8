package main

import (
	"slices"
	"testing"
	"time"
)

func TestPoolMergesCopiesByLabel(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	specs := []*spec{
		{label: "hello", lat: []time.Duration{1 * ms}, sum: 1 * ms, cpu: []time.Duration{1 * ms}, faults: 200, ctxsw: 10},
		{label: "hook", lat: []time.Duration{3 * ms}, sum: 3 * ms, cpu: []time.Duration{3 * ms}, faults: 300, ctxsw: 20},
		{label: "hello", lat: []time.Duration{2 * ms}, sum: 2 * ms, cpu: []time.Duration{2 * ms}, faults: 202, ctxsw: 12},
	}
	got := pool(specs)
	if len(got) != 2 || got[0].label != "hello" || got[1].label != "hook" {
		t.Fatalf("pool kept %d commands, want hello then hook", len(got))
	}
	h := got[0]
	if !slices.Equal(h.lat, []time.Duration{1 * ms, 2 * ms}) || h.sum != 3*ms || len(h.cpu) != 2 || h.faults != 402 || h.ctxsw != 22 {
		t.Errorf("pooled hello = lat %v sum %v cpu %v faults %d ctxsw %d", h.lat, h.sum, h.cpu, h.faults, h.ctxsw)
	}
	if p := got[1]; !slices.Equal(p.lat, []time.Duration{3 * ms}) || p.faults != 300 {
		t.Errorf("hook changed by pooling: lat %v faults %d", p.lat, p.faults)
	}
}
