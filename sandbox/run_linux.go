package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
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
	// encoded is the enterPlan.
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
	ruleset, flags, err := newRuleset(pl.profile, c.ProxyPort)
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
	pl.encoded = (&enterPlan{Args: c.Args, Env: c.Env, Pins: pins, ReadOnly: ro, LandlockFlags: flags, Seccomp: prog}).encode()
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

// Enter is the inside half of Run: it reads the plan Run sent on file
// descriptor 3, makes the protected paths read-only, applies Landlock and
// the seccomp filter, and replaces the process with the command. It
// returns only on failure: an *ExecError when the command could not be
// started (126, or 127 when it does not exist), any other error when the
// sandbox could not be set up; then nothing ran.
func Enter() error {
	ruleset, plan, err := receivePlan(3)
	if err != nil {
		return err
	}
	// Landlock and seccomp apply to this thread, which then execs: it
	// must stay this goroutine's thread, and never serve another.
	runtime.LockOSThread()
	if err := protect(plan.Pins, plan.ReadOnly); err != nil {
		return err
	}
	if err := dropInherited(); err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("sandbox: no_new_privs: %w", err)
	}
	if err := ll.LandlockRestrictSelf(ruleset, plan.LandlockFlags); err != nil {
		return fmt.Errorf("sandbox: landlock: %w", err)
	}
	unix.Close(ruleset)
	if err := loadSeccomp(plan.Seccomp); err != nil {
		return err
	}
	err = unix.Exec(plan.Args[0], plan.Args, plan.Env)
	code := 126
	if errors.Is(err, unix.ENOENT) {
		code = 127
	}
	return &ExecError{Code: code, Err: fmt.Errorf("%s: %w", plan.Args[0], err)}
}

// dropInherited clears the ambient and inheritable capabilities Run
// raised for the mounts, so that the command inherits none of them.
func dropInherited() error {
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("sandbox: dropping capabilities: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("sandbox: reading capabilities: %w", err)
	}
	data[0].Inheritable, data[1].Inheritable = 0, 0
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("sandbox: dropping capabilities: %w", err)
	}
	return nil
}

// receivePlan reads the ruleset descriptor and the plan from fd.
func receivePlan(fd int) (int, *enterPlan, error) {
	buf, oob := make([]byte, 1), make([]byte, unix.CmsgSpace(4))
	_, oobn, _, _, err := unix.Recvmsg(fd, buf, oob, 0)
	if err != nil {
		return -1, nil, fmt.Errorf("sandbox: reading the ruleset: %w", err)
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return -1, nil, fmt.Errorf("sandbox: no ruleset received (%v)", err)
	}
	rights, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(rights) != 1 {
		return -1, nil, fmt.Errorf("sandbox: no ruleset received (%v)", err)
	}
	f := os.NewFile(uintptr(fd), "sandbox-plan")
	plan, err := readPlan(f)
	f.Close()
	if err != nil {
		return -1, nil, fmt.Errorf("sandbox: reading the plan: %w", err)
	}
	if len(plan.Args) == 0 || len(plan.Seccomp) == 0 {
		return -1, nil, errors.New("sandbox: empty plan")
	}
	return rights[0], plan, nil
}

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

// protect makes the protected paths read-only with a bind mount in the
// sandbox's own mount namespace, after pinning the directories between
// them and their writable root with a bind mount of their own, so that
// they cannot be renamed or removed to put a fresh copy in their place.
func protect(pins, ro []string) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("sandbox: making mounts private: %w", err)
	}
	for _, d := range pins {
		if err := bindSelf(d, false); err != nil {
			return err
		}
	}
	for _, m := range ro {
		if err := bindSelf(m, true); err != nil {
			return err
		}
	}
	return nil
}

// bindSelf bind-mounts p onto itself, read-only when ro is set. A
// read-only remount in a user namespace must keep the flags the mount
// already has (nosuid, nodev, noexec and the atime ones are locked).
func bindSelf(p string, ro bool) error {
	if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("sandbox: protecting %s: %w", p, err)
	}
	if !ro {
		return nil
	}
	var st unix.Statfs_t
	if err := unix.Statfs(p, &st); err != nil {
		return fmt.Errorf("sandbox: protecting %s: %w", p, err)
	}
	keep := uintptr(st.Flags) & (unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC | unix.MS_NOATIME | unix.MS_NODIRATIME | unix.MS_RELATIME)
	if err := unix.Mount("", p, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|keep, ""); err != nil {
		return fmt.Errorf("sandbox: making %s read-only: %w", p, err)
	}
	return nil
}
