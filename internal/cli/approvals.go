package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/gatewaycli"
)

func runApprovals(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return gatewaycli.Subcommands("approvals", args, stdout, map[string]gatewaycli.Sub{
		"list": {Summary: "list approvals (pending ones by default)", Run: func(args []string) error {
			fs := clibase.NewFlagSet("approvals list", stderr)
			var g gatewaycli.Flags
			g.Register(fs)
			status := fs.String("status", "pending", "`status` to list (pending, approved, denied, expired, cancelled; empty for all)")
			session := fs.String("session", "", "only this `session`")
			workspace := fs.String("workspace", "", "only this `workspace`")
			if err := clibase.ParseFlags(fs, args); err != nil {
				return err
			}
			c, err := g.Client()
			if err != nil {
				return err
			}
			list, err := c.Approvals(ctx, toolgate.ApprovalFilter{Status: toolgate.Status(*status), Session: *session, Workspace: *workspace})
			if err != nil {
				return err
			}
			if g.JSON {
				return gatewaycli.PrintJSON(stdout, list)
			}
			var rows [][]string
			for _, a := range list {
				rows = append(rows, []string{a.ID, string(a.Status), a.Call.Session, a.Call.Tool, originLabel(a.Call.Origin), callSummary(a.Call), approvalReason(a), approvalWhen(a)})
			}
			return gatewaycli.Table(stdout, "ID\tSTATUS\tSESSION\tTOOL\tORIGIN\tCALL\tREASON\tEXPIRES IN / ANSWERED", rows)
		}},
		"approve": {Summary: "approve a pending approval, once or for a scope", Run: func(args []string) error {
			fs := clibase.NewFlagSet("approvals approve", stderr)
			var g gatewaycli.Flags
			g.Register(fs)
			scope := fs.String("scope", "once", "`scope`: once, turn, session, workspace or global")
			grant := fs.String("grant", "", "grant `kind` for scopes beyond once: tool, pattern or prefix")
			pattern := fs.String("pattern", "", "grant `pattern` (default: the call exactly as made for turn and session, the suggestion for workspace and global)")
			answer := fs.String("answer", "", "a question tool's answer, as `JSON`")
			forD := fs.String("for", "", "time-box the grant of a scope beyond once: a `duration` such as 30m or 2h")
			rest := fs.Bool("rest", false, "also approve the other pending calls of its batch, each decided again by its own rules first (a deny stays a deny)")
			if err := clibase.ParseFlags(fs, args); err != nil {
				return err
			}
			if fs.NArg() != 1 {
				return clibase.UsageErrorf("usage: toolgate approvals approve [flags] ID")
			}
			if *forD != "" {
				if _, err := toolgate.ParseGrantFor(*forD); err != nil {
					return clibase.UsageErrorf("--for: %s", toolgate.ErrorMessageOf(err))
				}
				if *scope == "" || *scope == string(toolgate.ScopeOnce) {
					return clibase.UsageErrorf("--for needs --scope turn, session, workspace or global: a once approval has nothing to time-box")
				}
			}
			req := toolgate.ApproveRequest{Scope: toolgate.Scope(*scope), Grant: toolgate.GrantKind(*grant), Pattern: *pattern, For: *forD, Rest: *rest}
			if *answer != "" {
				if !json.Valid([]byte(*answer)) {
					return clibase.UsageErrorf("--answer is not valid JSON (quote a text answer: '\"staging\"')")
				}
				req.Answer = json.RawMessage(*answer)
			}
			c, err := g.Client()
			if err != nil {
				return err
			}
			a, err := c.Approve(ctx, fs.Arg(0), req)
			if err != nil {
				return err
			}
			return printResolution(stdout, g.JSON, a)
		}},
		"deny": {Summary: "deny a pending approval, with feedback for the agent", Run: func(args []string) error {
			fs := clibase.NewFlagSet("approvals deny", stderr)
			var g gatewaycli.Flags
			g.Register(fs)
			mode := fs.String("mode", "hard", "`mode`: soft (this call only) or hard (the rest of the batch too, and stop)")
			feedback := fs.String("feedback", "", "`text` returned to the agent")
			reason := fs.String("reason", "", "`reason` recorded and returned to the agent")
			rest := fs.Bool("rest", false, "also deny (soft) the other pending calls of its batch")
			if err := clibase.ParseFlags(fs, args); err != nil {
				return err
			}
			if fs.NArg() != 1 {
				return clibase.UsageErrorf("usage: toolgate approvals deny [flags] ID")
			}
			c, err := g.Client()
			if err != nil {
				return err
			}
			a, err := c.Deny(ctx, fs.Arg(0), toolgate.DenyRequest{Mode: toolgate.DenyMode(*mode), Feedback: *feedback, Reason: *reason, Rest: *rest})
			if err != nil {
				return err
			}
			return printResolution(stdout, g.JSON, a)
		}},
	})
}

func printResolution(w io.Writer, asJSON bool, a *toolgate.Approval) error {
	if asJSON {
		return gatewaycli.PrintJSON(w, a)
	}
	r := a.Resolution
	if r == nil {
		_, err := fmt.Fprintf(w, "%s %s\n", a.ID, a.Status)
		return err
	}
	extra := ""
	if r.GrantID != "" {
		extra = fmt.Sprintf(" (grant %s: %s %q at scope %s)", r.GrantID, a.Call.Tool, r.Pattern, r.Scope)
	}
	_, err := fmt.Fprintf(w, "%s %s%s\n", a.ID, a.Status, extra)
	return err
}

// approvalReason is why a pending approval asks, or how a resolved one
// ended: a row already answered does not show the question any more.
func approvalReason(a *toolgate.Approval) string {
	if a.Status == toolgate.StatusPending || a.Resolution == nil {
		return a.Decision.Reason
	}
	r := a.Resolution
	who := r.By
	if r.Via != "" {
		who += " via " + r.Via
	}
	switch {
	case a.Status == toolgate.StatusApproved && r.Scope != "" && r.Scope != toolgate.ScopeOnce:
		return fmt.Sprintf("approved by %s for this %s", who, r.Scope)
	case a.Status == toolgate.StatusApproved:
		return "approved by " + who
	case r.Feedback != "":
		return fmt.Sprintf("%s by %s: %s", a.Status, who, r.Feedback)
	}
	return fmt.Sprintf("%s by %s", a.Status, who)
}

// approvalWhen is the countdown of a pending approval, or when a resolved
// one was answered.
func approvalWhen(a *toolgate.Approval) string {
	if a.Status == toolgate.StatusPending {
		return time.Until(a.ExpiresAt).Round(time.Second).String()
	}
	if a.Resolution != nil && !a.Resolution.At.IsZero() {
		return a.Resolution.At.Local().Format(time.DateTime)
	}
	return "-"
}
