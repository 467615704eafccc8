package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/digest"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/gatewaycli"
)

func runAudit(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := clibase.NewFlagSet("audit", stderr)
	var g gatewaycli.Flags
	g.Register(fs)
	var f toolgate.AuditFilter
	fs.StringVar(&f.Session, "session", "", "only this `session`")
	fs.StringVar(&f.Workspace, "workspace", "", "only this `workspace`")
	fs.StringVar(&f.Tool, "tool", "", "only this `tool`")
	fs.StringVar(&f.Outcome, "outcome", "", "only this `outcome` (allow, deny, ask, approved, denied, expired, cancelled)")
	fs.StringVar(&f.Kind, "kind", "", "only this `kind` (decision, approval.requested, approval.resolved, grant.added, …)")
	fs.StringVar(&f.Query, "grep", "", "only entries whose call, reason or names hold `text` (case-insensitive)")
	since := fs.Duration("since", 0, "only entries from the last `duration` (e.g. 2h)")
	fs.IntVar(&f.Limit, "limit", 100, "at most `n` entries")
	verify := fs.Bool("verify", false, "check the whole log's hash chain instead of listing")
	if err := clibase.ParseFlags(fs, args); err != nil {
		return err
	}
	c, err := g.Client()
	if err != nil {
		return err
	}
	if *verify {
		return verifyAudit(ctx, c, stdout)
	}
	if *since > 0 {
		f.Since = time.Now().Add(-*since)
	}
	entries, err := c.Audit(ctx, f)
	if err != nil {
		return err
	}
	if g.JSON {
		return gatewaycli.PrintJSON(stdout, entries)
	}
	var rows [][]string
	for _, e := range entries {
		rows = append(rows, []string{fmt.Sprint(e.Seq), e.Time.Local().Format(time.DateTime), e.Kind, e.Session, e.Tool, e.Outcome, e.Who + "/" + e.Via, clibase.OneLine(e.Reason)})
	}
	return gatewaycli.Table(stdout, "SEQ\tTIME\tKIND\tSESSION\tTOOL\tOUTCOME\tBY\tREASON", rows)
}

// verifyAudit reads the whole log page by page and checks its hash chain.
func verifyAudit(ctx context.Context, c *client.Client, stdout io.Writer) error {
	prev, after, n := "", int64(0), 0
	for {
		page, err := c.Audit(ctx, toolgate.AuditFilter{AfterSeq: after, Limit: 1000})
		if err != nil {
			return err
		}
		if len(page) == 0 {
			break
		}
		if err := digest.VerifyChain(page, prev); err != nil {
			return fmt.Errorf("audit log does not verify: %w", err)
		}
		prev, after = page[len(page)-1].Hash, page[len(page)-1].Seq
		n += len(page)
	}
	_, err := fmt.Fprintf(stdout, "audit chain verified: %d entries\n", n)
	return err
}
