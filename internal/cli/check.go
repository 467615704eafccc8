package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/hookcli"
	"github.com/toolgate/toolgate/policy"
)

// maxCallBytes bounds one call read by check, as the HTTP API bounds bodies.
const maxCallBytes = 1 << 20

func runCheck(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := clibase.NewFlagSet("check", stderr)
	var rf hookcli.RuleFlags
	rf.Register(fs)
	modeName := fs.String("mode", "", "approval `M`ode: default, read-only, auto-edit, yolo, auto-deny, dont-ask (or a seed alias)")
	var modes hookcli.ModeFlags
	modes.Register(fs)
	cwd := fs.String("cwd", "", "working `D`irectory for calls that name none")
	tool := fs.String("tool", "", "decide a call to tool `NAME` given by flags instead of stdin")
	argsJSON := fs.String("args", "", "the call's arguments as a JSON object (with --tool)")
	jsonl := fs.Bool("jsonl", false, "read one call per line and write one decision per line")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: toolgate check [flags] < call.json")
		fmt.Fprintln(stderr, `Decides one call given as JSON on stdin ({"tool":…, "args":{…}, "agent":…, "tier":…, "cwd":…})`)
		fmt.Fprintln(stderr, "or by --tool/--args, and prints the decision as one JSON object. Exit 0 for any")
		fmt.Fprintln(stderr, "decision, 2 for bad input.")
		fs.PrintDefaults()
	}
	if err := clibase.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return clibase.UsageErrorf("check takes no arguments, got %q", fs.Arg(0))
	}
	if *argsJSON != "" && *tool == "" {
		return clibase.UsageErrorf("--args needs --tool")
	}
	if *jsonl && *tool != "" {
		return clibase.UsageErrorf("--jsonl reads calls from stdin; it does not combine with --tool")
	}
	e, agent, err := rf.Engine()
	if err != nil {
		return err
	}
	env := policy.Env{Mode: e.Mode(), Agent: agent}
	m, err := modes.Resolve(*modeName)
	if err != nil {
		return err
	}
	if m != nil {
		env.Mode = *m
	}
	decide := func(c *toolgate.Call) *toolgate.Decision {
		if c.Cwd == "" {
			c.Cwd = *cwd
		}
		d := &toolgate.Decision{}
		e.Decide(c, env, d)
		return d
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)

	switch {
	case *tool != "":
		c := toolgate.Call{Tool: *tool}
		if *argsJSON != "" {
			if err := json.Unmarshal([]byte(*argsJSON), &c.Args); err != nil {
				return clibase.UsageErrorf("--args: not a JSON object: %v", err)
			}
		}
		return writeDecision(stdout, decide(&c))
	case *jsonl:
		return checkLines(stdin, stdout, enc, decide)
	}
	data, err := io.ReadAll(io.LimitReader(stdin, maxCallBytes+1))
	if err != nil {
		return fmt.Errorf("read call: %w", err)
	}
	c, err := parseCall(data)
	if err != nil {
		return clibase.BadInput(err)
	}
	return writeDecision(stdout, decide(c))
}

// writeDecision prints a decision as one JSON line, as enc.Encode would,
// without the encoder's second pass over what MarshalJSON wrote.
func writeDecision(w io.Writer, d *toolgate.Decision) error {
	b, err := d.MarshalJSON()
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// checkLines decides one call per line. A bad line gets an error object in
// its place, so output lines stay aligned with input lines, and makes the
// command exit 2 once the batch is done.
func checkLines(stdin io.Reader, stdout io.Writer, enc *json.Encoder, decide func(*toolgate.Call) *toolgate.Decision) error {
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 64<<10), maxCallBytes+1)
	var firstErr error
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		c, err := parseCall(line)
		if err != nil {
			err = fmt.Errorf("line %d: %w", n, err)
			if firstErr == nil {
				firstErr = err
			}
			if err := enc.Encode(map[string]any{"error": map[string]string{"code": string(toolgate.EInvalid), "message": err.Error()}}); err != nil {
				return err
			}
			continue
		}
		if err := writeDecision(stdout, decide(c)); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return clibase.UsageErrorf("line %d: call larger than %d bytes", n+1, maxCallBytes)
		}
		return fmt.Errorf("read calls: %w", err)
	}
	return clibase.BadInput(firstErr)
}

// parseCall reads one call. Unknown fields are errors so that a typo such
// as "arg" for "args" is not silently decided as a call without arguments.
func parseCall(data []byte) (*toolgate.Call, error) {
	if len(data) > maxCallBytes {
		return nil, fmt.Errorf("call larger than %d bytes", maxCallBytes)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("no call on stdin (want a JSON object like {\"tool\":\"Bash\",\"args\":{\"command\":\"ls\"}})")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c toolgate.Call
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("invalid call JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if dec.More() {
		return nil, errors.New("invalid call JSON: more than one value (use --jsonl for a batch)")
	}
	if c.Tool == "" {
		return nil, errors.New(`invalid call: "tool" is missing`)
	}
	return &c, nil
}
