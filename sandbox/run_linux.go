package sandbox

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/toolgate/toolgate/sandbox/enter"
	"github.com/toolgate/toolgate/sandbox/kernel"
	"golang.org/x/sys/unix"
)

// Supported is true where the sandbox can run: Linux with Landlock (ABI
// 6 or later), seccomp and user namespaces. Check reports why not.
const Supported = true

// Check reports why this machine cannot confine a command, or nil when it
// can: Landlock ABI 6 or later, seccomp, and user namespaces.
func Check() error { return kernel.Check() }

// Run runs c confined: it starts c.Self (this program) with c.EnterArgs
// in a new user and mount namespace and a new session; that process,
// which must call Enter, applies the profile to itself and becomes the
// command. While it starts (the fork and its exec, then its runtime), Run
// does the work: it builds the profile and the Landlock ruleset (the
// walk), assembles the seccomp filter and finds the paths to protect,
// then hands them over on descriptor 3 (a unix socket, which carries the
// ruleset's descriptor). Run returns the command's exit
// status (128+N for signal N). Cancelling ctx sends the command SIGTERM,
// and SIGKILL 5 s later.
func Run(ctx context.Context, c Command) (int, error) {
	if (c.Profile == nil && c.MakeProfile == nil) || len(c.Args) == 0 {
		return 0, errors.New("sandbox: no profile or no command")
	}
	if err := Check(); err != nil {
		return 0, err
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, fmt.Errorf("sandbox plan socket: %w", err)
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "sandbox-plan"), os.NewFile(uintptr(fds[1]), "sandbox-plan")
	defer ours.Close()
	cmd := exec.Command(c.Self, c.EnterArgs...)
	cmd.Dir, cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Dir, c.Stdin, c.Stdout, c.Stderr
	cmd.Env = []string{}
	// A stream that is not a file is copied through a pipe: a process the
	// command left running with it open must not keep Run waiting.
	cmd.WaitDelay = time.Second
	cmd.ExtraFiles = []*os.File{theirs}
	uid, gid := os.Getuid(), os.Getgid()
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		// A new session has no controlling terminal: the command cannot
		// push keystrokes into the terminal it was started from.
		Setsid: true,
		// The inside half mounts in its mount namespace: a user other than
		// root keeps no capability across its exec without this one
		// (Enter clears it before the command runs).
		AmbientCaps: []uintptr{unix.CAP_SYS_ADMIN},
	}
	if c.Proxy != nil {
		// A network namespace of its own, where the proxy's listener is
		// the only thing to connect to; the inside half brings its
		// loopback interface up, which takes CAP_NET_ADMIN there.
		cmd.SysProcAttr.Cloneflags |= syscall.CLONE_NEWNET
		cmd.SysProcAttr.AmbientCaps = append(cmd.SysProcAttr.AmbientCaps, unix.CAP_NET_ADMIN)
	}
	// The plan is made while cmd.Start waits for the fork's exec.
	planned := make(chan plan, 1)
	go func() { planned <- makePlan(c) }()
	err = cmd.Start()
	theirs.Close()
	pl := <-planned
	if pl.ruleset >= 0 {
		defer unix.Close(pl.ruleset)
	}
	if err != nil {
		return 0, fmt.Errorf("starting the sandbox: %w", err)
	}
	if pl.err == nil {
		pl.err = sendPlan(ours, pl)
	}
	if pl.err == nil && c.Proxy != nil {
		var ln net.Listener
		if ln, pl.err = receiveListener(ours); pl.err == nil {
			go c.Proxy.Serve(ln)
			defer c.Proxy.Close()
		}
	}
	if pl.err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return 0, pl.err
	}
	c.Profile = pl.profile
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			}
		case <-done:
		}
	}()
	err = cmd.Wait()
	close(done)
	reportCreated(c, pl.readOnly)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), nil
		}
		return ee.ExitCode(), nil
	}
	if err != nil {
		return 0, fmt.Errorf("waiting for the sandbox: %w", err)
	}
	return 0, nil
}

// reportCreated tells the command's standard error about protected paths
// inside the workspace that exist now and did not at start (before): the
// read-only mounts cover only what existed, so a command may create a
// .claude/ or .mcp.json the workspace did not have. It names each, so a
// person or agent looks at it before the next session obeys it.
func reportCreated(c Command, before []string) {
	if c.Stderr == nil {
		return
	}
	_, after := protectedPaths(c.Profile, dirCache{})
	for _, p := range after {
		if slices.Contains(before, p) {
			continue
		}
		why, _ := c.Profile.Explain(p)
		fmt.Fprintf(c.Stderr, "toolgate sandbox: the command created %s, which %s; the sandbox protects it only when it exists at the start: check it before it is used\n", p, why)
	}
}

// plan is what Run hands the inside half, made by makePlan.
type plan struct {
	profile *Profile
	// ruleset is the Landlock ruleset's descriptor (-1: none).
	ruleset int
	// encoded is the enter.Plan.
	encoded []byte
	// readOnly are the paths the inside half makes read-only.
	readOnly []string
	err      error
}

// makePlan builds what the inside half applies: the profile (when c has
// none yet), the Landlock ruleset, the seccomp filter and the paths to
// protect.
func makePlan(c Command) plan {
	pl := plan{profile: c.Profile, ruleset: -1}
	if pl.profile == nil {
		if pl.profile, pl.err = c.MakeProfile(); pl.err != nil {
			return pl
		}
	}
	var port uint16
	if c.Proxy != nil {
		port = ProxyPort
	}
	ruleset, flags, err := newRuleset(pl.profile, port)
	if err != nil {
		pl.err = err
		return pl
	}
	pl.ruleset = ruleset
	prog, err := seccompProgram(pl.profile)
	if err != nil {
		pl.err = err
		return pl
	}
	listed := pl.profile.dirs
	if listed == nil {
		listed = dirCache{}
	}
	pins, ro := protectedPaths(pl.profile, listed)
	pl.readOnly = ro
	pl.encoded = (&enter.Plan{Args: c.Args, Env: c.Env, Pins: pins, ReadOnly: ro, LandlockFlags: flags, ListenPort: port, Seccomp: prog}).Encode()
	return pl
}

// sendPlan sends the plan on conn: one byte carrying the Landlock
// ruleset's descriptor, then the encoded plan.
func sendPlan(conn *os.File, pl plan) error {
	if err := unix.Sendmsg(int(conn.Fd()), []byte{0}, unix.UnixRights(pl.ruleset), nil, 0); err != nil {
		return fmt.Errorf("sending the sandbox its ruleset: %w", err)
	}
	if _, err := conn.Write(pl.encoded); err != nil {
		return fmt.Errorf("sending the sandbox its plan: %w", err)
	}
	return nil
}

// receiveListener reads the listener the inside half made in the
// sandbox's network namespace (enter's listen). The connection ends
// without one when the inside half could not make it: then the run
// fails, and nothing runs with this machine's network.
func receiveListener(conn *os.File) (net.Listener, error) {
	buf, oob := make([]byte, 1), make([]byte, unix.CmsgSpace(4))
	_, oobn, _, _, err := unix.Recvmsg(int(conn.Fd()), buf, oob, 0)
	if err != nil {
		return nil, fmt.Errorf("network: receiving the proxy's listener: %w", err)
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return nil, errors.New("network: the sandbox's network namespace could not be set up")
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		for _, fd := range fds {
			unix.Close(fd)
		}
		return nil, errors.New("network: the sandbox's network namespace could not be set up")
	}
	f := os.NewFile(uintptr(fds[0]), "sandbox-proxy")
	defer f.Close()
	ln, err := net.FileListener(f)
	if err != nil {
		return nil, fmt.Errorf("network: the proxy's listener: %w", err)
	}
	return ln, nil
}

// Enter is the inside half of Run (package enter).
func Enter() error { return enter.Enter() }

// protectedPaths lists the existing paths the profile protects inside
// its writable roots (ro) and the directories between them and their root
// (pins), each sorted by depth, as the listings of listed show them.
func protectedPaths(p *Profile, listed dirCache) (pins, ro []string) {
	for _, s := range p.Protect {
		for _, e := range listed.list(s.Parent).entries {
			m := join(s.Parent, e.Name())
			if !s.matches(m) {
				continue
			}
			root := ""
			for _, w := range p.Write {
				if within(m, w) && len(w) > len(root) {
					root = w
				}
			}
			for a := parentOf(m); root != "" && a != root && within(a, root); a = parentOf(a) {
				pins = append(pins, a)
			}
			ro = append(ro, m)
		}
	}
	byDepth := func(a, b string) int {
		if d := strings.Count(a, "/") - strings.Count(b, "/"); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	}
	slices.SortFunc(pins, byDepth)
	slices.SortFunc(ro, byDepth)
	return slices.Compact(pins), slices.Compact(ro)
}
