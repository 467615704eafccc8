// Package sandboxcmd is the command line of the kernel sandbox, shared
// by "toolgate sandbox" and the lean toolgate-sandbox binary:
//
//	[--workspace DIR]… [--net none|HOST…] [--profile FILE] -- CMD [ARGS…]
//
// runs CMD confined (package sandbox) and exits with its status; 125 is
// toolgate's own failure, 126 and 127 a command that could not start.
package sandboxcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/clibase"
	"github.com/toolgate/toolgate/internal/jsonstrict"
	"github.com/toolgate/toolgate/sandbox"
)

// ExitSandbox is toolgate's own failure under `toolgate sandbox`: the
// command's own statuses (0–124, 126, 127, 128+N) pass through, as
// env(1) and other wrappers do.
const ExitSandbox = 125

// profileFile is a --profile document: additions to the default profile.
type profileFile struct {
	// Write lists more writable directories.
	Write []string `json:"write"`
	// DenyRead lists more paths (directories or files) nothing may read.
	DenyRead []string `json:"deny_read"`
	// Net lists hosts the command may reach through the proxy.
	Net []string `json:"net"`
}

// Run runs the sandbox command line.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := clibase.NewFlagSet("sandbox", stderr)
	var workspaces, net clibase.StringList
	fs.Var(&workspaces, "workspace", "writable workspace root `DIR` (repeat for more; default the current directory)")
	fs.Var(&net, "net", "`none` (the default), or a HOST the command may reach through toolgate's proxy (repeat for more)")
	profilePath := fs.String("profile", "", "profile `FILE` (JSON: write, deny_read, net) adding to the default profile")
	printAs := fs.String("print", "", "print the profile instead of running a command: `json`, or seatbelt (macOS sandbox-exec)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: toolgate sandbox [--workspace DIR]… [--net none|HOST…] [--profile FILE] -- CMD [ARGS…]")
		fmt.Fprintln(stderr, "Runs CMD confined (Landlock and seccomp) and exits with its status; 125 is toolgate's own failure.")
		fs.PrintDefaults()
	}
	if err := clibase.ParseFlags(fs, args); err != nil {
		return sandboxFailure(err)
	}
	argv := fs.Args()
	if *printAs != "" && *printAs != "json" && *printAs != "seatbelt" {
		return sandboxFailure(clibase.UsageErrorf("sandbox: --print %q: want json or seatbelt", *printAs))
	}
	if len(argv) == 0 && *printAs == "" {
		return sandboxFailure(clibase.UsageErrorf("sandbox: no command (toolgate sandbox [flags] -- CMD [ARGS…])"))
	}
	opts, err := sandboxOptions(workspaces, net, *profilePath)
	if err != nil {
		return sandboxFailure(err)
	}
	makeProfile := func() (*sandbox.Profile, error) {
		profile, err := sandbox.Default(opts.Options)
		if err != nil {
			return nil, err
		}
		for _, d := range opts.denyRead {
			profile.DenyRead = append(profile.DenyRead, sandbox.PathSpecs(d, "is denied by the sandbox profile")...)
		}
		return profile, nil
	}
	if *printAs != "" {
		return printProfile(stdout, *printAs, makeProfile)
	}
	env := sandboxEnv(os.Environ())
	cwd, _ := os.Getwd()
	rep := &toolgate.SandboxReport{Command: strings.Join(argv, " "), Cwd: cwd,
		Session: os.Getenv("TOOLGATE_SESSION"), Workspace: os.Getenv("TOOLGATE_WORKSPACE")}
	gw, noGateway := gatewayFromEnv()
	var proxy *sandbox.Proxy
	if len(opts.Net) > 0 {
		var mu sync.Mutex
		proxy = &sandbox.Proxy{Hosts: opts.Net, Log: stderr, Refused: func(target, why string) {
			mu.Lock()
			defer mu.Unlock()
			if len(rep.Violations) < maxViolations {
				rep.Violations = append(rep.Violations, toolgate.SandboxViolation{Kind: "network", Target: target, Rule: "connections to hosts the sandbox profile does not name are refused"})
			}
		}}
		if gw != nil {
			// A host the profile does not name is held for a person.
			proxy.Ask = askGateway(gw, rep.Command, cwd)
		} else {
			proxy.Log = &prefixNote{w: stderr, note: " (" + noGateway + ", so nobody could be asked)"}
		}
		env = append(env, proxy.Env()...)
	}
	// The command's "Permission denied" lines are explained when it ends;
	// a terminal is left alone (a person is watching it).
	var watch *watcher
	cmdErr := stderr
	if !isTerminal(stderr) {
		watch = &watcher{w: stderr, cwd: cwd, home: opts.Home}
		cmdErr = watch
	}
	path, err := lookPathIn(argv[0], env)
	if err != nil {
		fmt.Fprintf(stderr, "toolgate: sandbox: %v\n", err)
		return clibase.ErrSilent(127)
	}
	// The profile is built while the sandbox's inside process starts.
	var profile *sandbox.Profile
	code, err := sandbox.Run(ctx, sandbox.Command{
		MakeProfile: func() (*sandbox.Profile, error) {
			var err error
			profile, err = makeProfile()
			return profile, err
		},
		Args:   append([]string{path}, argv[1:]...),
		Env:    env,
		Stdin:  stdin,
		Stdout: stdout,
		Stderr: cmdErr,
		Proxy:  proxy,
		// Here, not in main: Run listens beside its plan.
		StopOnSignal: true,
	})
	if err != nil {
		return sandboxFailure(fmt.Errorf("sandbox: %w (nothing ran)", err))
	}
	if watch != nil {
		files := watch.explain(profile)
		rep.Violations = append(files, rep.Violations...)
	}
	rep.ExitCode = code
	report(ctx, stderr, gw, rep)
	if code != 0 {
		// The agent reads this beside the command's own error.
		fmt.Fprintf(stderr, "toolgate sandbox: exit status %d; the command ran confined: %s. A \"Permission denied\", \"Operation not permitted\" or \"Read-only file system\" above comes from the sandbox.\n", code, profile.Summary())
		return clibase.ErrSilent(code)
	}
	return nil
}

// printProfile prints the profile as JSON or as a Seatbelt profile.
func printProfile(stdout io.Writer, as string, makeProfile func() (*sandbox.Profile, error)) error {
	profile, err := makeProfile()
	if err != nil {
		return sandboxFailure(err)
	}
	switch as {
	case "json":
		b, err := json.MarshalIndent(profile, "", "  ")
		if err != nil {
			return sandboxFailure(err)
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	case "seatbelt":
		_, err := io.WriteString(stdout, sandbox.Seatbelt(profile, 0)) // a proxy's port is known only when it runs
		return err
	}
	return nil
}

// sandboxFailure gives err toolgate's own exit status under sandbox.
func sandboxFailure(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	return &clibase.ExitError{Code: ExitSandbox, Err: err}
}

type sandboxOpts struct {
	sandbox.Options
	denyRead []string
}

// sandboxOptions gathers the facts of the default profile: the home
// directory, the workspaces, the temporary directories, toolgate's own
// directories, and what --profile adds.
func sandboxOptions(workspaces, net []string, profilePath string) (sandboxOpts, error) {
	var o sandboxOpts
	home, err := os.UserHomeDir()
	if err != nil {
		return o, fmt.Errorf("sandbox: %w", err)
	}
	o.Home = home
	if len(workspaces) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			return o, fmt.Errorf("sandbox: %w", err)
		}
		workspaces = []string{wd}
	}
	o.Workspaces = workspaces
	// The temporary directory is $TMPDIR, else /tmp: one of them.
	o.Temp = []string{os.TempDir()}
	o.State = []string{clibase.ConfigDir(), clibase.DataDir()}
	if c := os.Getenv("TOOLGATE_CONFIG"); c != "" {
		o.State = append(o.State, c)
	}
	for _, h := range net {
		if h != "none" {
			o.Net = append(o.Net, h)
		}
	}
	if profilePath != "" {
		b, err := os.ReadFile(profilePath)
		if err != nil {
			return o, fmt.Errorf("sandbox: --profile: %w", err)
		}
		var pf profileFile
		if err := jsonstrict.Check(b, reflect.TypeOf(pf)); err != nil {
			return o, fmt.Errorf("sandbox: --profile %s: %w", profilePath, err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&pf); err != nil {
			return o, fmt.Errorf("sandbox: --profile %s: %w", profilePath, err)
		}
		o.Workspaces = append(o.Workspaces, pf.Write...)
		o.Net = append(o.Net, pf.Net...)
		o.denyRead = pf.DenyRead
	}
	return o, nil
}

// sandboxEnv is the confined command's environment: this one without
// toolgate's own variables (its credential above all) and proxy settings
// (the sandbox sets its own when it has a network).
func sandboxEnv(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		switch strings.ToUpper(name) {
		case "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY":
			return true
		}
		return strings.HasPrefix(kv, "TOOLGATE_")
	})
}

// lookPathIn finds name as a shell would with env's PATH.
func lookPathIn(name string, env []string) (string, error) {
	if strings.Contains(name, "/") {
		abs, err := filepath.Abs(name)
		if err != nil {
			return "", err
		}
		return abs, nil
	}
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return filepath.Abs(p)
		}
	}
	return "", fmt.Errorf("%s: %w", name, exec.ErrNotFound)
}

// isTerminal reports whether w is a terminal (or another character
// device, such as /dev/null, that there is nothing to watch on).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// prefixNote adds a note to each line written, before its newline.
type prefixNote struct {
	w    io.Writer
	note string
}

func (p *prefixNote) Write(b []byte) (int, error) {
	line := strings.TrimSuffix(string(b), "\n")
	if _, err := io.WriteString(p.w, line+p.note+"\n"); err != nil {
		return 0, err
	}
	return len(b), nil
}
