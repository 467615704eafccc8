package suggest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/toolgate/toolgate/internal/gatetest"
	"github.com/toolgate/toolgate/internal/suggest"
)

// benchStack holds n approvals of a handful of commands on SQLite: what
// GET /v1/insights and rules suggest read.
func benchStack(b *testing.B, n int) *stack {
	s := newStack(b)
	for i := 0; i < n; i++ {
		s.answer(b, alice, fmt.Sprintf("npm run build%d", i%5), true, 500*time.Millisecond)
	}
	return s
}

// BenchmarkRubberStamps is the cost of one GET /v1/insights over 1000
// approvals in the window.
func BenchmarkRubberStamps(b *testing.B) {
	s := benchStack(b, 1000)
	g := gatetest.As(s.b.Gate(), adminActor)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := suggest.RubberStamps(context.Background(), g, time.Time{}, suggest.DefaultStampRule)
		if err != nil || len(r) != 1 {
			b.Fatal(r, err)
		}
	}
}

// BenchmarkSuggest is the cost of rules suggest over 1000 approvals, five
// proposals (each decided again for every call it covers).
func BenchmarkSuggest(b *testing.B) {
	s := benchStack(b, 1000)
	g := gatetest.As(s.b.Gate(), adminActor)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ps, err := suggest.Suggest(context.Background(), g, suggest.Options{})
		if err != nil || len(ps) != 5 {
			b.Fatal(len(ps), err)
		}
	}
}
