package lazy_test

import (
	"sync"
	"testing"

	"github.com/toolgate/toolgate/internal/lazy"
)

var table = lazy.Value[[]string]{New: func() []string { calls++; return []string{"a", "b"} }}

var calls int

func TestValue(t *testing.T) {
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := table.Get(); len(got) != 2 || got[0] != "a" {
				t.Errorf("Get = %q", got)
			}
		}()
	}
	wg.Wait()
	if calls != 1 {
		t.Errorf("New called %d times, want once", calls)
	}
}
