package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/approval"
	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/store"
)

// DefaultURL is where the admin commands find the gateway unless told.
const DefaultURL = "http://127.0.0.1:8787"

// gatewayFlags are the flags of every command that talks to a gateway.
type gatewayFlags struct {
	url   string
	token string
	json  bool
}

func (g *gatewayFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&g.url, "url", envOr("TOOLGATE_URL", DefaultURL), "gateway `URL` ($TOOLGATE_URL)")
	fs.StringVar(&g.token, "token", "", "credential (default $TOOLGATE_TOKEN; prefer the variable: flags show in ps)")
	fs.BoolVar(&g.json, "json", false, "print JSON instead of a table")
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func (g *gatewayFlags) client() (*client.Client, error) { return g.clientVia("cli") }

// clientVia returns a client that names itself via in the audit log.
func (g *gatewayFlags) clientVia(via string) (*client.Client, error) {
	token := g.token
	if token == "" {
		token = os.Getenv("TOOLGATE_TOKEN")
	}
	if token == "" {
		return nil, usageErrorf("no credential: set TOOLGATE_TOKEN (see 'toolgate tokens create')")
	}
	c, err := client.New(g.url, token, client.WithVia(via))
	if err != nil {
		return nil, badInput(err)
	}
	return c, nil
}

// subcommands dispatches "NAME SUB args…" to the named function.
func subcommands(name string, args []string, subs map[string]func([]string) error) error {
	if len(args) == 0 {
		return usageErrorf("usage: toolgate %s %s", name, strings.Join(sortedKeys(subs), "|"))
	}
	f, ok := subs[args[0]]
	if !ok {
		return usageErrorf("unknown %s command %q (want %s)", name, args[0], strings.Join(sortedKeys(subs), ", "))
	}
	return f(args[1:])
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func table(w io.Writer, header string, rows [][]string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}

// callSummary renders a call's arguments on one line for a table.
func callSummary(c toolgate.Call) string {
	if cmd, ok := c.Args["command"].(string); ok {
		return oneLine(cmd)
	}
	for _, k := range []string{"file_path", "path", "url", "pattern", "name"} {
		if s, ok := c.Args[k].(string); ok {
			return s
		}
	}
	b, _ := json.Marshal(c.Args)
	s := string(b)
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

func runApprovals(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return subcommands("approvals", args, map[string]func([]string) error{
		"list": func(args []string) error {
			fs := newFlagSet("approvals list", stderr)
			var g gatewayFlags
			g.register(fs)
			status := fs.String("status", "pending", "`status` to list (pending, approved, denied, expired, cancelled; empty for all)")
			session := fs.String("session", "", "only this `session`")
			workspace := fs.String("workspace", "", "only this `workspace`")
			if err := parseFlags(fs, args); err != nil {
				return err
			}
			c, err := g.client()
			if err != nil {
				return err
			}
			list, err := c.Approvals(ctx, toolgate.ApprovalFilter{Status: toolgate.Status(*status), Session: *session, Workspace: *workspace})
			if err != nil {
				return err
			}
			if g.json {
				return printJSON(stdout, list)
			}
			var rows [][]string
			for _, a := range list {
				left := time.Until(a.ExpiresAt).Round(time.Second)
				rows = append(rows, []string{a.ID, string(a.Status), a.Call.Session, a.Call.Tool, originLabel(a.Call.Origin), callSummary(a.Call), a.Decision.Reason, left.String()})
			}
			return table(stdout, "ID\tSTATUS\tSESSION\tTOOL\tORIGIN\tCALL\tREASON\tEXPIRES IN", rows)
		},
		"approve": func(args []string) error {
			fs := newFlagSet("approvals approve", stderr)
			var g gatewayFlags
			g.register(fs)
			scope := fs.String("scope", "once", "`scope`: once, turn, session, workspace or global")
			grant := fs.String("grant", "", "grant `kind` for scopes beyond once: tool, pattern or prefix")
			pattern := fs.String("pattern", "", "grant `pattern` (default: the suggestion)")
			answer := fs.String("answer", "", "a question tool's answer, as `JSON`")
			if err := parseFlags(fs, args); err != nil {
				return err
			}
			if fs.NArg() != 1 {
				return usageErrorf("usage: toolgate approvals approve [flags] ID")
			}
			req := approval.ApproveRequest{Scope: toolgate.Scope(*scope), Grant: toolgate.GrantKind(*grant), Pattern: *pattern}
			if *answer != "" {
				if !json.Valid([]byte(*answer)) {
					return usageErrorf("--answer is not valid JSON (quote a text answer: '\"staging\"')")
				}
				req.Answer = json.RawMessage(*answer)
			}
			c, err := g.client()
			if err != nil {
				return err
			}
			a, err := c.Approve(ctx, fs.Arg(0), req)
			if err != nil {
				return err
			}
			return printResolution(stdout, g.json, a)
		},
		"deny": func(args []string) error {
			fs := newFlagSet("approvals deny", stderr)
			var g gatewayFlags
			g.register(fs)
			mode := fs.String("mode", "hard", "`mode`: soft (this call only) or hard (the rest of the batch too, and stop)")
			feedback := fs.String("feedback", "", "`text` returned to the agent")
			reason := fs.String("reason", "", "`reason` recorded and returned to the agent")
			if err := parseFlags(fs, args); err != nil {
				return err
			}
			if fs.NArg() != 1 {
				return usageErrorf("usage: toolgate approvals deny [flags] ID")
			}
			c, err := g.client()
			if err != nil {
				return err
			}
			a, err := c.Deny(ctx, fs.Arg(0), approval.DenyRequest{Mode: toolgate.DenyMode(*mode), Feedback: *feedback, Reason: *reason})
			if err != nil {
				return err
			}
			return printResolution(stdout, g.json, a)
		},
	})
}

func printResolution(w io.Writer, asJSON bool, a *toolgate.Approval) error {
	if asJSON {
		return printJSON(w, a)
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

func runGrants(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return subcommands("grants", args, map[string]func([]string) error{
		"list": func(args []string) error {
			fs := newFlagSet("grants list", stderr)
			var g gatewayFlags
			g.register(fs)
			var f store.GrantFilter
			fs.StringVar((*string)(&f.Scope), "scope", "", "only this `scope`")
			fs.StringVar(&f.Session, "session", "", "only this `session`")
			fs.StringVar(&f.Workspace, "workspace", "", "only this `workspace`")
			fs.StringVar(&f.Tool, "tool", "", "only this `tool`")
			if err := parseFlags(fs, args); err != nil {
				return err
			}
			c, err := g.client()
			if err != nil {
				return err
			}
			list, err := c.Grants(ctx, f)
			if err != nil {
				return err
			}
			if g.json {
				return printJSON(stdout, list)
			}
			var rows [][]string
			for _, gr := range list {
				where := gr.Workspace
				if gr.Session != "" {
					where += "/" + gr.Session
				}
				rows = append(rows, []string{gr.ID, string(gr.Scope), where, gr.Tool, string(gr.Kind), gr.Pattern, gr.CreatedBy, gr.CreatedAt.Local().Format(time.DateTime)})
			}
			return table(stdout, "ID\tSCOPE\tWHERE\tTOOL\tKIND\tPATTERN\tBY\tCREATED", rows)
		},
		"revoke": func(args []string) error {
			fs := newFlagSet("grants revoke", stderr)
			var g gatewayFlags
			g.register(fs)
			if err := parseFlags(fs, args); err != nil {
				return err
			}
			if fs.NArg() != 1 {
				return usageErrorf("usage: toolgate grants revoke ID")
			}
			c, err := g.client()
			if err != nil {
				return err
			}
			if err := c.RevokeGrant(ctx, fs.Arg(0)); err != nil {
				return err
			}
			_, err = fmt.Fprintf(stdout, "revoked %s\n", fs.Arg(0))
			return err
		},
	})
}

func runAudit(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("audit", stderr)
	var g gatewayFlags
	g.register(fs)
	var f toolgate.AuditFilter
	fs.StringVar(&f.Session, "session", "", "only this `session`")
	fs.StringVar(&f.Workspace, "workspace", "", "only this `workspace`")
	fs.StringVar(&f.Tool, "tool", "", "only this `tool`")
	fs.StringVar(&f.Outcome, "outcome", "", "only this `outcome` (allow, deny, ask, approved, denied, expired, cancelled)")
	fs.StringVar(&f.Kind, "kind", "", "only this `kind` (decision, approval.requested, approval.resolved, grant.added, …)")
	since := fs.Duration("since", 0, "only entries from the last `duration` (e.g. 2h)")
	fs.IntVar(&f.Limit, "limit", 100, "at most `n` entries")
	verify := fs.Bool("verify", false, "check the whole log's hash chain instead of listing")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c, err := g.client()
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
	if g.json {
		return printJSON(stdout, entries)
	}
	var rows [][]string
	for _, e := range entries {
		rows = append(rows, []string{fmt.Sprint(e.Seq), e.Time.Local().Format(time.DateTime), e.Kind, e.Session, e.Tool, e.Outcome, e.Who + "/" + e.Via, oneLine(e.Reason)})
	}
	return table(stdout, "SEQ\tTIME\tKIND\tSESSION\tTOOL\tOUTCOME\tBY\tREASON", rows)
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
		if err := toolgate.VerifyChain(page, prev); err != nil {
			return fmt.Errorf("audit log does not verify: %w", err)
		}
		prev, after = page[len(page)-1].Hash, page[len(page)-1].Seq
		n += len(page)
	}
	_, err := fmt.Fprintf(stdout, "audit chain verified: %d entries\n", n)
	return err
}

func runSessions(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	sessionCmd := func(name string, nargs int, do func(c *client.Client, args []string) (*toolgate.Session, error)) func([]string) error {
		return func(args []string) error {
			fs := newFlagSet("sessions "+name, stderr)
			var g gatewayFlags
			g.register(fs)
			if err := parseFlags(fs, args); err != nil {
				return err
			}
			if fs.NArg() != nargs {
				usage := "SESSION"
				if nargs == 2 {
					usage = "SESSION MODE"
				}
				return usageErrorf("usage: toolgate sessions %s %s", name, usage)
			}
			c, err := g.client()
			if err != nil {
				return err
			}
			s, err := do(c, fs.Args())
			if err != nil {
				return err
			}
			if g.json {
				return printJSON(stdout, s)
			}
			return printSessions(stdout, []*toolgate.Session{s})
		}
	}
	return subcommands("sessions", args, map[string]func([]string) error{
		"list": func(args []string) error {
			fs := newFlagSet("sessions list", stderr)
			var g gatewayFlags
			g.register(fs)
			if err := parseFlags(fs, args); err != nil {
				return err
			}
			c, err := g.client()
			if err != nil {
				return err
			}
			list, err := c.Sessions(ctx, toolgate.SessionFilter{})
			if err != nil {
				return err
			}
			if g.json {
				return printJSON(stdout, list)
			}
			return printSessions(stdout, list)
		},
		"mode": sessionCmd("mode", 2, func(c *client.Client, a []string) (*toolgate.Session, error) {
			m, err := toolgate.ParseMode(a[1])
			if err != nil {
				return nil, badInput(err)
			}
			return c.SetMode(ctx, a[0], m)
		}),
		"abort": sessionCmd("abort", 1, func(c *client.Client, a []string) (*toolgate.Session, error) {
			return c.Abort(ctx, a[0])
		}),
		"turn-end": sessionCmd("turn-end", 1, func(c *client.Client, a []string) (*toolgate.Session, error) {
			return c.EndTurn(ctx, a[0])
		}),
	})
}

func printSessions(w io.Writer, list []*toolgate.Session) error {
	var rows [][]string
	for _, s := range list {
		flags := ""
		if s.Stopped {
			flags += "stopped "
		}
		if s.Aborted {
			flags += "aborted"
		}
		rows = append(rows, []string{s.ID, s.Workspace, s.Mode.String(), fmt.Sprint(s.Turn), strings.TrimSpace(flags)})
	}
	return table(w, "SESSION\tWORKSPACE\tMODE\tTURN\tFLAGS", rows)
}

// originLabel words a call's origin for a listing: "MCP server github"
// for "mcp:github", "-" for none.
func originLabel(o string) string {
	switch {
	case o == "":
		return "-"
	case o == "mcp":
		return "MCP server tool"
	case strings.HasPrefix(o, "mcp:"):
		return "MCP server " + strings.TrimPrefix(o, "mcp:")
	}
	return o
}
