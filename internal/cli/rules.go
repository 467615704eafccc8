package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/toolgate/toolgate/internal/sensitive"
	"github.com/toolgate/toolgate/policy"
)

const rulesUsage = "usage: toolgate rules test FILE… | toolgate rules classes"

func runRules(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageErrorf(rulesUsage)
	}
	switch args[0] {
	case "test":
		return runRulesTest(args[1:], stdout, stderr)
	case "classes":
		if len(args) > 1 {
			return usageErrorf("rules classes takes no arguments")
		}
		return runRulesClasses(stdout)
	}
	return usageErrorf(rulesUsage)
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
			if e.Anchor == sensitive.Home {
				where = "~/"
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
	fs := newFlagSet("rules test", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageErrorf("usage: toolgate rules test FILE…")
	}
	rf := ruleFlags{Rules: fs.Args(), ExplicitOnly: true}
	docs, err := rf.Documents()
	if err != nil {
		return badInput(err)
	}
	total := 0
	for _, d := range docs {
		total += len(d.Tests)
	}
	_, err = policy.New(docs, engineOptions()...)
	failures, err := testFailures(err)
	if err != nil {
		return badInput(fmt.Errorf("load rules: %w", err))
	}
	for _, f := range failures {
		fmt.Fprintf(stdout, "FAIL %s\n", f)
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", total-len(failures), len(failures))
	if len(failures) > 0 {
		return errSilent(exitFailure)
	}
	return nil
}
