package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/toolgate/toolgate/policy"
)

func runRules(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "test" {
		return usageErrorf("usage: toolgate rules test FILE…")
	}
	return runRulesTest(args[1:], stdout, stderr)
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
