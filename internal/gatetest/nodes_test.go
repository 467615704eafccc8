package gatetest_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/internal/gatetest"
	"github.com/toolgate/toolgate/policy"
	"github.com/toolgate/toolgate/store/postgres"
)

// TestNodes runs the suite on three brokers sharing one PostgreSQL schema,
// each credential on a different node: the agents submit and wait on
// nodes A and C, the approver answers on B, the admin writes grants and
// rules on C. Every answer, grant and abort must reach the node that
// decides next through the database alone.
func TestNodes(t *testing.T) {
	dsn := os.Getenv("TOOLGATE_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("TOOLGATE_TEST_POSTGRES is not set: skipping the Gate suite on three PostgreSQL nodes")
	}
	t.Parallel()
	// Two harnesses at a time: each is three nodes with their own pools
	// and LISTEN connections, and the database's connections are few.
	slots := make(chan struct{}, 2)
	gatetest.Run(t, func(t *testing.T) gatetest.Harness {
		slots <- struct{}{}
		t.Cleanup(func() { <-slots })
		var r [6]byte
		rand.Read(r[:])
		schema := "tg_test_" + hex.EncodeToString(r[:])
		ctx := context.Background()
		t.Cleanup(func() {
			if db, err := postgres.Open(ctx, dsn); err == nil {
				db.Pool().Exec(ctx, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`)
				db.Close()
			}
		})
		gates := make([]toolgate.Gate, 3)
		for i := range gates {
			st, err := postgres.Open(ctx, dsn, postgres.WithSchema(schema), postgres.WithMaxConns(2))
			if err != nil {
				t.Fatal(err)
			}
			pol := approval.NewWorkspaces(st.Rules(policy.DefaultRulesJSONC()), nil, policy.WithHome("/home/user"))
			b, err := approval.New(ctx, st, pol)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				b.Close()
				st.Close()
			})
			gates[i] = b.Gate()
		}
		return gatetest.Harness{
			Agent:    gatetest.As(gates[0], toolgate.Actor{Name: "agent-1", Via: "test", Agent: true}),
			Agent2:   gatetest.As(gates[2], toolgate.Actor{Name: "agent-2", Via: "test", Agent: true}),
			Approver: gatetest.As(gates[1], toolgate.Actor{Name: "alice", Via: "test"}),
			Admin:    gatetest.As(gates[2], toolgate.Actor{Name: "root", Via: "test", Admin: true}),
		}
	})
}
