package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/digest"
	"github.com/toolgate/toolgate/store"
)

// TestGroupCommit: concurrent writes, committed in groups, each stand
// alone: the failing ones (one that wrote before failing, one whose
// context was cancelled) leave nothing behind, every other commits, and
// the audit chain they append to stays whole.
func TestGroupCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTemp(t)
	const n = 200
	errBoom := errors.New("boom")
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := toolgate.AuditEntry{Kind: "test", Session: fmt.Sprintf("s%d", i), Outcome: "ok"}
			switch i % 10 {
			case 3: // writes, then fails: rolled back alone
				errs[i] = db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
					if err := db.appendAudit(ctx, tx, []toolgate.AuditEntry{e}); err != nil {
						return err
					}
					return errBoom
				})
			case 7: // its caller gave up first: not run
				errs[i] = db.write(cancelled, func(ctx context.Context, tx *sql.Tx) error { return db.appendAudit(ctx, tx, []toolgate.AuditEntry{e}) })
			default:
				errs[i] = db.AppendAudit(ctx, e)
			}
		}()
	}
	wg.Wait()
	want := map[string]bool{}
	for i, err := range errs {
		switch i % 10 {
		case 3:
			if !errors.Is(err, errBoom) {
				t.Errorf("write %d: %v, want boom", i, err)
			}
		case 7:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("write %d: %v, want context.Canceled", i, err)
			}
		default:
			if err != nil {
				t.Errorf("write %d: %v", i, err)
			}
			want[fmt.Sprintf("s%d", i)] = true
		}
	}
	entries, err := db.ListAudit(ctx, store.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, e := range entries {
		got[e.Session] = true
	}
	if len(entries) != len(want) || len(got) != len(want) {
		t.Errorf("%d audit entries (%d sessions), want %d", len(entries), len(got), len(want))
	}
	for s := range want {
		if !got[s] {
			t.Errorf("committed write %s is missing", s)
		}
	}
	if err := digest.VerifyChain(entries, ""); err != nil {
		t.Errorf("audit chain: %v", err)
	}
}

// TestWriteNotInterrupted: a write whose caller gives up while it runs
// still commits whole (its statements run with the caller's context
// without its cancellation): it was checked before it started, and
// completing it is what the caller would see had it given up a moment
// later.
func TestWriteNotInterrupted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTemp(t)
	caller, cancel := context.WithCancel(ctx)
	defer cancel()
	err := db.write(caller, func(ctx context.Context, tx *sql.Tx) error {
		if err := db.appendAudit(ctx, tx, []toolgate.AuditEntry{{Kind: "test", Session: "first"}}); err != nil {
			return err
		}
		cancel() // the caller goes away mid-write
		return db.appendAudit(ctx, tx, []toolgate.AuditEntry{{Kind: "test", Session: "second"}})
	})
	if err != nil {
		t.Fatalf("write: %v, want it committed", err)
	}
	entries, err := db.ListAudit(ctx, store.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Errorf("%d audit entries, want both of the write", len(entries))
	}
}
