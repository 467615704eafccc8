package postgres_test

import (
	"testing"

	"github.com/jackc/pgx/v5"
)

// BenchmarkHead is one read of the change feed's head: the round trip
// every dry run on a shared store pays (shared between concurrent ones).
func BenchmarkHead(b *testing.B) {
	db := open(b, newSchema(b))
	defer db.Close()
	ctx := b.Context()
	b.Run("store", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := db.Head(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, m := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		b.Run("conn/"+m.String(), func(b *testing.B) {
			c, err := db.Pool().Acquire(ctx)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Release()
			b.ReportAllocs()
			var s, cs int64
			for b.Loop() {
				if err := c.QueryRow(ctx, `SELECT seq, change_seq FROM audit_head WHERE id = 1`, m).Scan(&s, &cs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
