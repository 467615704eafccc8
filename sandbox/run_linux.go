//go:build linux && (amd64 || arm64)

package sandbox

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/toolgate/toolgate/sandbox/internal/nofile"
	"github.com/toolgate/toolgate/sandbox/kernel"
	"golang.org/x/sys/unix"
)

// Supported is true where the sandbox can run: Linux with Landlock (ABI
// 6 or later), seccomp and user namespaces. Check reports why not.
const Supported = true

// Check reports why this machine cannot confine a command, or nil when it
// can: Landlock ABI 6 or later, seccomp, and user namespaces.
func Check() error { return kernel.Check() }

// Run runs c confined: it builds the profile (c.MakeProfile when c has
// none), its Landlock ruleset, the seccomp filter and the list of paths to
// protect, then forks a child in a new user and mount namespace (and
// network namespace, with a proxy) and a new session, which sets the
// sandbox up and execs the command (forkChild). Run returns the
// command's exit status (128+N for signal N). Cancelling ctx sends the
// command SIGTERM, and SIGKILL 5 s later.
func Run(ctx context.Context, c Command) (int, error) {
	if (c.Profile == nil && c.MakeProfile == nil) || len(c.Args) == 0 {
		return 0, errors.New("sandbox: no profile or no command")
	}
	if err := Check(); err != nil {
		return 0, err
	}
	var listening chan struct{}
	if c.StopOnSignal {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		listening = make(chan struct{})
		go stopOnSignal(ctx, cancel, listening)
	}
	pl := makePlan(c)
	if pl.ruleset >= 0 {
		defer unix.Close(pl.ruleset)
	}
	if pl.err != nil {
		return 0, pl.err
	}
	c.Profile = pl.profile
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, fmt.Errorf("sandbox: a socket to the child: %w", err)
	}
	ours := os.NewFile(uintptr(fds[0]), "sandbox-report")
	defer ours.Close()
	io, err := newStdio(c.Stdin, c.Stdout, c.Stderr)
	if err != nil {
		unix.Close(fds[1])
		return 0, err
	}
	defer io.closeParent()
	cp, err := newChildPlan(c, pl, io.child, fds[1])
	if err != nil {
		unix.Close(fds[1])
		io.closeChild()
		return 0, err
	}
	if listening != nil {
		<-listening
	}
	syscall.ForkLock.Lock()
	pid, errno := forkChild(cp)
	syscall.ForkLock.Unlock()
	runtime.KeepAlive(cp)
	unix.Close(fds[1])
	cp.closeCopies()
	io.closeChild()
	if errno != 0 {
		return 0, fmt.Errorf("starting the sandbox: %w", errno)
	}
	if c.Proxy != nil {
		// Also when the child fails after handing the listener over.
		defer c.Proxy.Close()
	}
	if err := childStarted(ours, c, cp, pl); err != nil {
		_, _ = wait(pid)
		var ee *ExecError
		if errors.As(err, &ee) {
			// As env(1) says it, and exits with its status.
			if c.Stderr != nil {
				fmt.Fprintf(c.Stderr, "toolgate: sandbox: %v\n", ee.Err)
			}
			return ee.Code, nil
		}
		return 0, err
	}
	io.start()
	done := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		_ = syscall.Kill(-pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = syscall.Kill(-pid, syscall.SIGKILL)
		}
	})
	ws, err := wait(pid)
	close(done)
	stop()
	io.wait(time.Second)
	reportCreated(c, pl.readOnly)
	if err != nil {
		return 0, fmt.Errorf("waiting for the sandbox: %w", err)
	}
	if ws.Signaled() {
		return 128 + int(ws.Signal()), nil
	}
	return ws.ExitStatus(), nil
}

// stopOnSignal cancels ctx on SIGINT or SIGTERM, once it has closed
// listening, until ctx ends.
func stopOnSignal(ctx context.Context, cancel context.CancelFunc, listening chan<- struct{}) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	close(listening)
	select {
	case <-sig:
		cancel()
	case <-ctx.Done():
	}
}

// wait waits for process pid to end (wait4, not os.Process, whose first
// use probes the kernel's pidfd support with a fork of its own).
func wait(pid int) (unix.WaitStatus, error) {
	for {
		var ws unix.WaitStatus
		_, err := unix.Wait4(pid, &ws, 0, nil)
		if err != unix.EINTR {
			return ws, err
		}
	}
}

// childStarted reads what the child reports on conn until its exec
// closes it: with a network, first the proxy's listener (which Run then
// serves); a failure, as a step, an index and an errno. A command that
// could not be executed is an *ExecError, and is said on c.Stderr.
func childStarted(conn *os.File, c Command, cp *childPlan, pl plan) error {
	buf, oob := make([]byte, unsafe.Sizeof(cp.record)), make([]byte, unix.CmsgSpace(4))
	listening := false
	for {
		n, oobn, _, _, err := unix.Recvmsg(int(conn.Fd()), buf, oob, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("sandbox: reading the child's report: %w", err)
		}
		if oobn > 0 {
			ln, err := listenerFrom(oob[:oobn])
			if err != nil {
				return err
			}
			go c.Proxy.Serve(ln)
			listening = true
			continue
		}
		if n == 0 {
			if c.Proxy != nil && !listening {
				return errors.New("network: the sandbox's network namespace could not be set up")
			}
			return nil
		}
		if n != len(buf) {
			return errors.New("sandbox: a malformed report from the child")
		}
		e := childError{step: int(binary.NativeEndian.Uint32(buf)), index: int(binary.NativeEndian.Uint32(buf[4:])), errno: syscall.Errno(binary.NativeEndian.Uint32(buf[8:]))}
		if e.step == stepExec {
			code := 126
			if e.errno == syscall.ENOENT {
				code = 127
			}
			return &ExecError{Code: code, Err: fmt.Errorf("%s: %w", c.Args[0], e.errno)}
		}
		return fmt.Errorf("sandbox: %s: %w", e.what(pl.pins, pl.readOnly), e.errno)
	}
}

// listenerFrom is the proxy's listener the child made in the sandbox's
// network namespace, from the control message that carried it.
func listenerFrom(oob []byte) (net.Listener, error) {
	msgs, err := unix.ParseSocketControlMessage(oob)
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

// newChildPlan lays out what the child needs: everything is allocated
// here, before the fork.
func newChildPlan(c Command, pl plan, files [3]int, report int) (*childPlan, error) {
	cp := &childPlan{
		cloneFlags: syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		root:       cstr("/"),
		empty:      cstr(""),
		files:      files,
		report:     report,
		ruleset:    pl.ruleset,
		llFlags:    uintptr(pl.flags),
		failStep:   c.failStep,
	}
	uid, gid := os.Getuid(), os.Getgid()
	cp.idFiles = [3]*byte{cstr("/proc/self/setgroups"), cstr("/proc/self/uid_map"), cstr("/proc/self/gid_map")}
	cp.idData = [3][]byte{[]byte("deny"), fmt.Appendf(nil, "%d %d 1\n", uid, uid), fmt.Appendf(nil, "%d %d 1\n", gid, gid)}
	for _, p := range pl.pins {
		cp.pins = append(cp.pins, cstr(p))
	}
	for _, p := range pl.readOnly {
		cp.ro = append(cp.ro, cstr(p))
	}
	if c.Proxy != nil {
		cp.cloneFlags |= syscall.CLONE_NEWNET
		cp.listen = true
		copy(cp.ifreq[:], "lo")
		cp.addr = unix.RawSockaddrInet4{Family: unix.AF_INET, Addr: [4]byte{127, 0, 0, 1}}
		binary.BigEndian.PutUint16((*[2]byte)(unsafe.Pointer(&cp.addr.Port))[:], ProxyPort)
		cp.control = unix.UnixRights(0)
		cp.rightsAt = unix.CmsgLen(0)
		cp.iov = unix.Iovec{Base: &cp.data[0], Len: 1}
		cp.msg = unix.Msghdr{Iov: &cp.iov, Iovlen: 1, Control: &cp.control[0], Controllen: uint64(len(cp.control))}
	}
	dir := c.Dir
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("sandbox: the working directory: %w", err)
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("sandbox: the working directory: %w", err)
	}
	if vforkStack > 0 {
		cp.stack = make([]byte, vforkStack)
		cp.stackTop = (uintptr(unsafe.Pointer(&cp.stack[len(cp.stack)-1])) - 64) &^ 15
	}
	cp.dir = cstr(abs)
	cp.limit = startLimit()
	cp.seccomp = unix.SockFprog{Len: uint16(len(pl.seccomp)), Filter: &pl.seccomp[0]}
	cp.argv0 = cstr(c.Args[0])
	for _, a := range c.Args {
		cp.argv = append(cp.argv, cstr(a))
	}
	cp.argv = append(cp.argv, nil)
	for _, e := range c.Env {
		cp.envv = append(cp.envv, cstr(e))
	}
	cp.envv = append(cp.envv, nil)
	for _, s := range append(slices.Clone(c.Args), c.Env...) {
		if strings.IndexByte(s, 0) >= 0 {
			return nil, fmt.Errorf("sandbox: an argument or variable holds a NUL byte: %q", s)
		}
	}
	// The descriptors the child keeps until its exec lie above those it
	// moves into 0, 1 and 2 (Run closes the copies made here).
	top := max(files[0], files[1], files[2], 2)
	for _, fd := range []*int{&cp.report, &cp.ruleset} {
		if *fd <= top {
			nfd, err := unix.FcntlInt(uintptr(*fd), unix.F_DUPFD_CLOEXEC, top+1)
			if err != nil {
				cp.closeCopies()
				return nil, fmt.Errorf("sandbox: %w", err)
			}
			*fd = nfd
			cp.copies = append(cp.copies, nfd)
		}
		top = max(top, *fd)
	}
	cp.above = top + 1
	return cp, nil
}

// closeCopies closes the descriptors newChildPlan copied.
func (cp *childPlan) closeCopies() {
	for _, fd := range cp.copies {
		unix.Close(fd)
	}
}

// startLimit is the limit on open files this process started with, when
// the Go runtime raised it (as os/exec restores it in the processes it
// starts), or nil to leave the current one.
func startLimit() *unix.Rlimit {
	soft, hard, ok := nofile.AtStart()
	var now unix.Rlimit
	if !ok || unix.Getrlimit(unix.RLIMIT_NOFILE, &now) != nil || now.Cur == soft || now.Max != hard {
		return nil
	}
	return &unix.Rlimit{Cur: soft, Max: hard}
}

// cstr is s NUL-terminated.
func cstr(s string) *byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return &b[0]
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

// plan is what Run forks the child with, made by makePlan.
type plan struct {
	profile *Profile
	// ruleset is the Landlock ruleset's descriptor (-1: none).
	ruleset int
	flags   uint32
	seccomp []unix.SockFilter
	// pins and readOnly are the directories the child pins and the
	// paths it makes read-only.
	pins, readOnly []string
	err            error
}

// makePlan builds what the child applies: the profile (when c has
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
	pl.ruleset, pl.flags = ruleset, flags
	prog, err := seccompProgram(pl.profile)
	if err != nil {
		pl.err = err
		return pl
	}
	pl.seccomp = make([]unix.SockFilter, len(prog))
	for i, in := range prog {
		pl.seccomp[i] = unix.SockFilter{Code: uint16(in[0]), Jt: uint8(in[1]), Jf: uint8(in[2]), K: in[3]}
	}
	listed := pl.profile.dirs
	if listed == nil {
		listed = dirCache{}
	}
	pl.pins, pl.readOnly = protectedPaths(pl.profile, listed)
	return pl
}

// protectedPaths lists the existing paths the profile protects inside
// its writable roots (ro) and the directories between them and their root
// (pins), each sorted by depth, as the listings of listed show them.
func protectedPaths(p *Profile, listed dirCache) (pins, ro []string) {
	for i := range p.Protect {
		s := &p.Protect[i]
		for _, e := range listed.list(s.Parent).matching(s) {
			m := join(s.Parent, e.name)
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
