package cli

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/integrations/hosts"
	"github.com/toolgate/toolgate/integrations/mcpproxy/pins"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/gatewaycli"
	"github.com/toolgate/toolgate/internal/hookcli"
)

// runDoctor checks what a working set-up needs and says what to fix: every
// installed agent hook (its program exists and answers; Codex trusts
// it), the gateway's reachability and health,
// the credential's role, and the rules' validity. It exits 1 when
// something needs fixing.
func runDoctor(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := clibase.NewFlagSet("doctor", stderr)
	var rf hookcli.RuleFlags
	rf.Register(fs)
	url := fs.String("url", os.Getenv("TOOLGATE_URL"), "gateway `URL` to check ($TOOLGATE_URL; none: the hook decides locally)")
	project := fs.String("project", "", "project `dir`ectory whose agent settings (.claude, .codex, .gemini) are checked (default: the current directory)")
	if err := clibase.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return clibase.UsageErrorf("doctor takes no arguments")
	}
	if *project == "" {
		*project, _ = os.Getwd()
	}
	d := &doctor{w: stdout}
	d.hooks(ctx, *project)
	if *url == "" {
		d.info("no gateway configured (TOOLGATE_URL is unset): the hook decides locally from rules, and asks go to Claude Code's own prompt")
		d.rules(&rf)
	} else {
		d.gateway(ctx, *url)
	}
	d.pins(pins.DefaultPath())
	d.companions()
	if d.problems > 0 {
		fmt.Fprintf(stdout, "\n%d thing(s) to fix.\n", d.problems)
		return clibase.ErrSilent(1)
	}
	fmt.Fprintln(stdout, "\nNothing to fix.")
	return nil
}

type doctor struct {
	w        io.Writer
	problems int
}

func (d *doctor) ok(format string, a ...any) {
	fmt.Fprintf(d.w, "ok    %s\n", fmt.Sprintf(format, a...))
}
func (d *doctor) info(format string, a ...any) {
	fmt.Fprintf(d.w, "info  %s\n", fmt.Sprintf(format, a...))
}
func (d *doctor) fix(format string, a ...any) {
	d.problems++
	fmt.Fprintf(d.w, "FIX   %s\n", fmt.Sprintf(format, a...))
}

// companions reports the programs toolgate hands commands to: without
// one, only its commands fail, so its absence is no problem to fix.
func (d *doctor) companions() {
	for _, c := range [...]struct{ program, commands string }{{"toolgate-mcp", "mcp-proxy and mcp"}, {"toolgate-tui", "tui"}} {
		if p := clibase.Sibling(c.program); p != "" {
			d.ok("%s runs toolgate %s: %s", c.program, c.commands, p)
		} else {
			d.info("%s is not installed beside toolgate or on PATH, and toolgate %s cannot run without it (CGO_ENABLED=0 go install ./cmd/...)", c.program, c.commands)
		}
	}
}

// hooks looks for toolgate's hook in every host's settings files, checks
// that the program each runs exists and answers, and does the host's own
// checks (Codex runs only hooks it trusts).
func (d *doctor) hooks(ctx context.Context, project string) {
	home, _ := os.UserHomeDir()
	found := 0
	for _, host := range hosts.All() {
		for i := range host.Scopes {
			path, err := host.Scopes[i].Path(project, home)
			if err != nil {
				continue
			}
			data, err := os.ReadFile(path)
			if err != nil {
				continue
			}
			hooks, err := host.Find(data)
			if err != nil {
				d.fix("%s: %v", path, err)
				continue
			}
			for _, h := range hooks {
				found++
				d.hookCommand(ctx, host, path, h)
			}
			open, err := host.OpenOnFailure(data)
			if err != nil {
				d.fix("%s: %v", path, err)
			}
			for _, ev := range open {
				if host.ExitWrap {
					d.fix("the %s %s hook in %s is fail-open: its command does not turn a failed hook into exit 2, and %s runs the call after any other exit status (a hook killed by a signal, a missing binary): run 'toolgate hook install %s' again",
						host.Title, ev, path, host.Title, host.Name)
					continue
				}
				d.fix("the %s %s hook in %s does not say %q, so %s runs the call when the hook fails (missing, crashed, timed out): run 'toolgate hook install %s' again",
					host.Title, ev, path, host.FailClosedKey+": true", host.Title, host.Name)
			}
			open, err = host.OpenOnTimeout(data)
			if err != nil {
				d.fix("%s: %v", path, err)
			}
			for _, ev := range open {
				d.fix("the %s %s hook in %s does not say %q, so %s runs the call when it kills the hook at its timeout: run 'toolgate hook install %s' again",
					host.Title, ev, path, `"onFailure": "block"`, host.Title, host.Name)
			}
			if t, ok := host.Adapter.(hosts.Trusting); ok && len(hooks) > 0 {
				for _, c := range t.CheckTrust(ctx, hosts.TrustEnv{Home: home, SHA256: sha256.Sum256}, path, data) {
					if c.OK {
						d.ok("%s", c.Say)
					} else {
						d.fix("%s", c.Say)
					}
				}
			}
		}
	}
	if found == 0 {
		d.fix("no toolgate hook in any agent's settings (%s): run 'toolgate hook install HOST'", strings.Join(hosts.Names(), ", "))
	}
}

// hookCommand checks one installed hook: its program exists, and it
// answers a prompt event (which decides nothing and changes nothing) with
// exit 0.
func (d *doctor) hookCommand(ctx context.Context, host *hosts.Host, path string, h claudecode.FoundHook) {
	exe, _ := claudecode.FirstWord(h.Command)
	if _, err := exec.LookPath(exe); err != nil {
		d.fix("the %s %s hook in %s runs %s, which is not found, so %s runs without the gate: "+
			"install the binaries (go install ./cmd/toolgate ./cmd/toolgate-hook) and run 'toolgate hook install %s' again",
			host.Title, h.Event, path, exe, host.Title, host.Name)
		return
	}
	if h.Event != host.PromptEvent {
		d.ok("%s %s hook in %s: %s", host.Title, h.Event, path, h.Command)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	probe := fmt.Sprintf(`{"hook_event_name":%q,"session_id":"","cwd":"/","prompt":""}`, host.PromptEvent)
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", h.Command)
	cmd.Stdin = strings.NewReader(probe)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		d.fix("the %s %s hook in %s does not answer (%v: %s): run it by hand to see why, or reinstall it",
			host.Title, h.Event, path, err, clibase.OneLine(errb.String()))
		return
	}
	d.ok("%s %s hook in %s answers: %s", host.Title, h.Event, path, h.Command)
}

// gateway checks that the gateway answers, is healthy, and accepts the
// credential, and names the credential's role.
func (d *doctor) gateway(ctx context.Context, url string) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(url, "/")+"/healthz", nil)
	if err != nil {
		d.fix("TOOLGATE_URL %q is not a URL: %v", url, err)
		return
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		d.fix("gateway %s is unreachable (%v): start it with 'toolgate serve', or unset TOOLGATE_URL to decide locally; until then every hook call is denied", url, err)
		return
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		d.fix("gateway %s answers /healthz with %s: see its log (a store error or a full disk); until then calls that ask are not held", url, resp.Status)
	} else {
		d.ok("gateway %s is up and healthy", url)
	}
	token := os.Getenv("TOOLGATE_TOKEN")
	if token == "" {
		d.fix("TOOLGATE_TOKEN is unset: the hook cannot submit calls; create one with 'toolgate tokens create --role agent --name NAME'")
		return
	}
	g := gatewaycli.Flags{URL: url, Token: token}
	c, err := g.Client()
	if err != nil {
		d.fix("%v", err)
		return
	}
	_, err = c.Audit(ctx, toolgate.AuditFilter{Limit: 1})
	if err == nil {
		d.ok("TOOLGATE_TOKEN is an admin credential (it may also answer approvals and submit calls)")
		return
	}
	if toolgate.ErrorCodeOf(err) == toolgate.EUnauthorized {
		d.fix("the gateway does not know TOOLGATE_TOKEN (unknown or revoked): create another with 'toolgate tokens create'")
		return
	}
	if _, err = c.Approvals(ctx, toolgate.ApprovalFilter{Limit: 1}); err == nil {
		d.ok("TOOLGATE_TOKEN is an approver credential: give the hook an agent credential of its own")
		return
	}
	d.ok("TOOLGATE_TOKEN is an agent credential: the hook may submit calls; it cannot answer them")
}

// rules compiles the rules the hook would decide with locally.
func (d *doctor) rules(rf *hookcli.RuleFlags) {
	if _, _, err := rf.Engine(); err != nil {
		d.fix("the rules do not load: %v", err)
		return
	}
	d.ok("the rules load and their examples pass")
}

// pins reports the MCP tool pins mcp-proxy keeps by default.
func (d *doctor) pins(path string) {
	if path == "" {
		return
	}
	all, err := pins.Open(path).All()
	if err != nil {
		d.fix("MCP tool pins cannot be read (%v): mcp-proxy denies every call of a tool it would check against them; fix or remove %s", err, path)
		return
	}
	tools := 0
	for _, pins := range all {
		tools += len(pins)
	}
	if tools == 0 {
		d.info("no MCP tool pins yet (%s): mcp-proxy pins each tool's definition at its first allowed call", path)
		return
	}
	d.ok("MCP tool pins: %d tool(s) of %d server(s) in %s", tools, len(all), path)
	servers := make([]string, 0, len(all))
	for s := range all {
		servers = append(servers, s)
	}
	sort.Strings(servers)
	shown := 0
	for _, s := range servers {
		for _, t := range pins.Tools(all[s]) {
			if shown == maxPinsShown {
				fmt.Fprintf(d.w, "      … %d more ('toolgate mcp pins' lists them all)\n", tools-shown)
				return
			}
			p := all[s][t]
			fmt.Fprintf(d.w, "      %s %s %s, %s, %s\n", s, t, pins.Short(p.Hash), p.PinnedAt.Format(time.DateOnly), p.PinnedBy)
			shown++
		}
	}
}

// maxPinsShown bounds the pins doctor lists.
const maxPinsShown = 50
