package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/gatewaycli"
	"github.com/toolgate/toolgate/internal/hookcli"
	"github.com/toolgate/toolgate/internal/sensitive"
	"github.com/toolgate/toolgate/internal/suggest"
	"github.com/toolgate/toolgate/policy"
)

func runRules(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return gatewaycli.Subcommands("rules", args, stdout, map[string]gatewaycli.Sub{
		"test": {Summary: "run the examples ($tests) that rule documents carry", Run: func(args []string) error {
			return runRulesTest(args, stdout, stderr)
		}},
		"classes": {Summary: "list the paths $CREDENTIALS and $AGENT_CONFIG stand for", Run: func(args []string) error {
			if len(args) > 0 {
				return clibase.UsageErrorf("rules classes takes no arguments")
			}
			return runRulesClasses(stdout)
		}},
		"validate": {Summary: "check workspace documents as the gateway would, without storing them", Run: func(args []string) error {
			fs := clibase.NewFlagSet("rules validate", stderr)
			if err := clibase.ParseFlags(fs, args); err != nil {
				return err
			}
			if fs.NArg() == 0 {
				return clibase.UsageErrorf("usage: toolgate rules validate FILE…")
			}
			for _, path := range fs.Args() {
				src, err := os.ReadFile(path)
				if err != nil {
					return clibase.BadInput(err)
				}
				if err := validateWorkspace(path, src); err != nil {
					return clibase.BadInput(err)
				}
				fmt.Fprintf(stdout, "%s: valid\n", path)
			}
			return nil
		}},
		"get": {Summary: "print a workspace's rules document from a running gateway (admin)", Run: func(args []string) error {
			fs := clibase.NewFlagSet("rules get", stderr)
			var g gatewaycli.Flags
			g.Register(fs)
			if err := clibase.ParseFlags(fs, args); err != nil {
				return err
			}
			if fs.NArg() != 1 {
				return clibase.UsageErrorf("usage: toolgate rules get WORKSPACE")
			}
			c, err := g.Client()
			if err != nil {
				return err
			}
			src, err := c.Rules(ctx, fs.Arg(0))
			if err != nil {
				return err
			}
			_, err = stdout.Write(src)
			return err
		}},
		"suggest": {Summary: "propose allow rules for calls people approved repeatedly, from a running gateway's audit log (admin)", Run: func(args []string) error {
			return runRulesSuggest(ctx, args, stdout, stderr)
		}},
		"put": {Summary: "replace a workspace's rules document on a running gateway (admin); - reads stdin", Run: func(args []string) error {
			fs := clibase.NewFlagSet("rules put", stderr)
			var g gatewaycli.Flags
			g.Register(fs)
			if err := clibase.ParseFlags(fs, args); err != nil {
				return err
			}
			if fs.NArg() != 2 {
				return clibase.UsageErrorf("usage: toolgate rules put WORKSPACE FILE|-")
			}
			var src []byte
			var err error
			if fs.Arg(1) == "-" {
				src, err = io.ReadAll(stdin)
			} else {
				src, err = os.ReadFile(fs.Arg(1))
			}
			if err != nil {
				return clibase.BadInput(err)
			}
			// Checked here first for a message with the file's own name;
			// the gateway checks again before it stores anything.
			if err := validateWorkspace(fs.Arg(1), src); err != nil {
				return clibase.BadInput(err)
			}
			c, err := g.Client()
			if err != nil {
				return err
			}
			if err := c.PutRules(ctx, fs.Arg(0), src); err != nil {
				return err
			}
			_, err = fmt.Fprintf(stdout, "stored the rules of workspace %s\n", fs.Arg(0))
			return err
		}},
	})
}

// runRulesSuggest prints the rules internal/suggest proposes from the
// gateway's audit log, each in the workspace document form with the calls
// it would have allowed. It changes nothing: a person copies the rules
// they want into the workspace document (rules get/put).
func runRulesSuggest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := clibase.NewFlagSet("rules suggest", stderr)
	var g gatewaycli.Flags
	g.Register(fs)
	min := fs.Int("min", 3, "approvals (and, to widen to the suggested pattern, distinct calls) a proposal needs")
	since := fs.Duration("since", 0, "read only the audit of this last `duration` (0: all of it)")
	if err := clibase.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return clibase.UsageErrorf("usage: toolgate rules suggest [--min N] [--since DURATION] [--json]")
	}
	if *min < 1 {
		return clibase.UsageErrorf("--min must be at least 1, not %d", *min)
	}
	c, err := g.Client()
	if err != nil {
		return err
	}
	o := suggest.Options{Min: *min, Rules: c.Rules}
	if *since > 0 {
		o.Since = time.Now().Add(-*since)
	}
	ps, err := suggest.Suggest(ctx, c, o)
	if err != nil {
		return err
	}
	if g.JSON {
		if ps == nil {
			ps = []suggest.Proposal{}
		}
		return json.NewEncoder(stdout).Encode(map[string]any{"proposals": ps})
	}
	if len(ps) == 0 {
		_, err := fmt.Fprintf(stdout, "no proposals: none of the calls people approved %d times or more is free of risks, denials and rules that already decide it\n", *min)
		return err
	}
	for i, p := range ps {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if _, err := io.WriteString(stdout, p.JSONC()); err != nil {
			return err
		}
	}
	return nil
}

// validateWorkspace parses and compiles a workspace document as the
// gateway does before it stores one: errors name the file, line and column.
func validateWorkspace(path string, src []byte) error {
	doc, err := policy.ParseWorkspace(path, src)
	if err != nil {
		return err
	}
	_, err = policy.New([]*policy.Document{doc})
	return err
}

// runRulesClasses lists the paths the pattern keywords $CREDENTIALS and
// $AGENT_CONFIG stand for: internal/sensitive's one list.
func runRulesClasses(stdout io.Writer) error {
	for _, c := range []struct {
		keyword string
		kind    sensitive.Kind
	}{{policy.CredentialsPattern, sensitive.Credential}, {policy.AgentConfigPattern, sensitive.AgentConfig}} {
		fmt.Fprintf(stdout, "%s:\n", c.keyword)
		for _, e := range sensitive.Of(c.kind) {
			where := "anywhere"
			switch e.Anchor {
			case sensitive.Home:
				where = "~/"
			case sensitive.Root:
				where = "/"
			}
			line := fmt.Sprintf("  %-45s %-8s %s", e.Path, where, e.Reason)
			if len(e.Except) > 0 {
				line += " (except " + strings.Join(e.Except, ", ") + ")"
			}
			fmt.Fprintln(stdout, line)
		}
	}
	return nil
}

// runRulesTest loads the files as `check --rules` would (the built-in
// default document first unless a workspace document is among them) and
// runs every test they carry. Failures are listed and exit 1.
func runRulesTest(args []string, stdout, stderr io.Writer) error {
	fs := clibase.NewFlagSet("rules test", stderr)
	if err := clibase.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return clibase.UsageErrorf("usage: toolgate rules test FILE…")
	}
	rf := hookcli.RuleFlags{Rules: fs.Args(), ExplicitOnly: true}
	docs, err := rf.Documents()
	if err != nil {
		return clibase.BadInput(err)
	}
	total := 0
	for _, d := range docs {
		total += len(d.Tests)
	}
	_, err = policy.New(docs, hookcli.EngineOptions()...)
	failures, err := hookcli.RuleTestFailures(err)
	if err != nil {
		return clibase.BadInput(fmt.Errorf("load rules: %w", err))
	}
	for _, f := range failures {
		fmt.Fprintf(stdout, "FAIL %s\n", f)
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", total-len(failures), len(failures))
	if len(failures) > 0 {
		return clibase.ErrSilent(clibase.ExitFailure)
	}
	return nil
}
