package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Supported is true where the sandbox can run: Linux with Landlock (ABI
// 6 or later), seccomp and user namespaces. Check reports why not.
const Supported = true

// Check reports why this machine cannot confine a command, or nil when it
// can: Landlock ABI 6 or later, seccomp, and user namespaces.
func Check() error {
	v, err := landlockABI()
	if err != nil {
		return fmt.Errorf("landlock is not available in this kernel (%w)", err)
	}
	if v < 6 {
		return fmt.Errorf("landlock ABI %d is older than 6 (TCP, device and IPC restrictions)", v)
	}
	if b, err := os.ReadFile("/proc/sys/user/max_user_namespaces"); err == nil && strings.TrimSpace(string(b)) == "0" {
		return errors.New("user namespaces are disabled (/proc/sys/user/max_user_namespaces is 0)")
	}
	return nil
}

// Run runs c confined: it starts c.Self (this program) with c.EnterArgs
// in a new user and mount namespace and a new session; that process,
// which must call Enter, applies the profile to itself and becomes the
// command. Run returns the command's exit status (128+N for signal N).
// Cancelling ctx sends the command SIGTERM, and SIGKILL 5 s later.
func Run(ctx context.Context, c Command) (int, error) {
	if c.Profile == nil || len(c.Args) == 0 {
		return 0, errors.New("sandbox: no profile or no command")
	}
	if err := Check(); err != nil {
		return 0, err
	}
	plan, err := json.Marshal(enterPlan{Profile: c.Profile, Args: c.Args, Env: c.Env, ProxyPort: c.ProxyPort})
	if err != nil {
		return 0, fmt.Errorf("sandbox plan: %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return 0, fmt.Errorf("sandbox plan pipe: %w", err)
	}
	defer r.Close()
	cmd := exec.Command(c.Self, c.EnterArgs...)
	cmd.Dir, cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Dir, c.Stdin, c.Stdout, c.Stderr
	cmd.Env = []string{}
	cmd.ExtraFiles = []*os.File{r}
	uid, gid := os.Getuid(), os.Getgid()
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		// A new session has no controlling terminal: the command cannot
		// push keystrokes into the terminal it was started from.
		Setsid: true,
	}
	if err := cmd.Start(); err != nil {
		w.Close()
		return 0, fmt.Errorf("starting the sandbox: %w", err)
	}
	_, werr := w.Write(plan)
	w.Close()
	if werr != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return 0, fmt.Errorf("sending the sandbox its profile: %w", werr)
	}
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

// Enter is the inside half of Run: it reads the plan Run sent on file
// descriptor 3, makes the protected paths read-only, applies Landlock and
// the seccomp filter, and replaces the process with the command. It
// returns only on failure: an *ExecError when the command could not be
// started (126, or 127 when it does not exist), any other error when the
// sandbox could not be set up; then nothing ran.
func Enter() error {
	f := os.NewFile(3, "sandbox-plan")
	if f == nil {
		return errors.New("sandbox: no plan on descriptor 3")
	}
	var plan enterPlan
	err := json.NewDecoder(f).Decode(&plan)
	f.Close()
	if err != nil {
		return fmt.Errorf("sandbox: reading the plan: %w", err)
	}
	if plan.Profile == nil || len(plan.Args) == 0 {
		return errors.New("sandbox: empty plan")
	}
	if err := protect(plan.Profile); err != nil {
		return err
	}
	if err := applyLandlock(plan.Profile, plan.ProxyPort); err != nil {
		return err
	}
	if err := loadSeccomp(plan.Profile); err != nil {
		return err
	}
	err = unix.Exec(plan.Args[0], plan.Args, plan.Env)
	code := 126
	if errors.Is(err, unix.ENOENT) {
		code = 127
	}
	return &ExecError{Code: code, Err: fmt.Errorf("%s: %w", plan.Args[0], err)}
}

// protect makes every existing path the profile protects read-only with
// a bind mount in the sandbox's own mount namespace, and pins the
// directories between it and its writable root with a bind mount of
// their own, so that they cannot be renamed or removed to put a fresh
// copy in their place.
func protect(p *Profile) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("sandbox: making mounts private: %w", err)
	}
	var pins, ro []string
	listed := map[string][]os.DirEntry{}
	for _, s := range p.Protect {
		for _, e := range listDir(listed, s.Parent) {
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
	for _, d := range slices.Compact(pins) {
		if err := bindSelf(d, false); err != nil {
			return err
		}
	}
	for _, m := range slices.Compact(ro) {
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

func landlockABI() (int, error) {
	r, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		return 0, e
	}
	return int(r), nil
}
