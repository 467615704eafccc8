package enter

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"unsafe"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Enter is the inside half of sandbox.Run: it reads the plan Run sent on file
// descriptor 3, makes the protected paths read-only, sets up the
// network namespace's proxy listener when the plan has a port (listen),
// applies Landlock and the seccomp filter, and replaces the process with
// the command. It returns only on failure: an *ExecError when the command
// could not be started (126, or 127 when it does not exist), any other
// error when the sandbox could not be set up; then nothing ran.
func Enter() error {
	ruleset, plan, err := receivePlan(3)
	if err != nil {
		return err
	}
	// Run waits on descriptor 3 for the listener, or for its end: on a
	// failure it stays open until this process has said why and exited.
	if plan.ListenPort != 0 {
		if err := listen(3, plan.ListenPort); err != nil {
			return err
		}
	}
	unix.Close(3)
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

// fdReader reads a descriptor that stays open (an *os.File would close
// it when collected).
type fdReader int

func (r fdReader) Read(b []byte) (int, error) {
	n, err := unix.Read(int(r), b)
	if n < 0 {
		n = 0
	}
	if err == nil && n == 0 && len(b) > 0 {
		err = io.EOF
	}
	return n, err
}

// listen brings up the loopback interface of the sandbox's network
// namespace (which starts with only that one, down), listens on
// 127.0.0.1:port there and sends the listener to Run on fd: Run accepts
// on it and runs the proxy, and the command, which connects to it, sees
// no other network. Bringing the interface up takes CAP_NET_ADMIN in the
// sandbox's user namespace, which Run raised for a user other than root
// and dropInherited clears before the command runs.
func listen(fd int, port uint16) error {
	s, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("sandbox: network: %w", err)
	}
	defer unix.Close(s)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return fmt.Errorf("sandbox: network: %w", err)
	}
	if err := unix.IoctlIfreq(s, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("sandbox: network: reading the loopback interface: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(s, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("sandbox: network: bringing the loopback interface up: %w", err)
	}
	l, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("sandbox: network: %w", err)
	}
	defer unix.Close(l)
	if err := unix.Bind(l, &unix.SockaddrInet4{Port: int(port), Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		return fmt.Errorf("sandbox: network: listening on 127.0.0.1:%d: %w", port, err)
	}
	if err := unix.Listen(l, unix.SOMAXCONN); err != nil {
		return fmt.Errorf("sandbox: network: listening on 127.0.0.1:%d: %w", port, err)
	}
	if err := unix.Sendmsg(fd, []byte{0}, unix.UnixRights(l), nil, 0); err != nil {
		return fmt.Errorf("sandbox: network: handing over the listener: %w", err)
	}
	return nil
}

// receivePlan reads the ruleset descriptor and the plan from fd.
func receivePlan(fd int) (int, *Plan, error) {
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
	plan, err := Read(fdReader(fd))
	if err != nil {
		return -1, nil, fmt.Errorf("sandbox: reading the plan: %w", err)
	}
	if len(plan.Args) == 0 || len(plan.Seccomp) == 0 {
		return -1, nil, errors.New("sandbox: empty plan")
	}
	return rights[0], plan, nil
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

// loadSeccomp installs the filter on the calling thread, which has
// no_new_privs set and then execs (see Enter); it is inherited across
// exec and fork.
func loadSeccomp(prog [][4]uint32) error {
	filter := make([]unix.SockFilter, len(prog))
	for i, in := range prog {
		filter[i] = unix.SockFilter{Code: uint16(in[0]), Jt: uint8(in[1]), Jf: uint8(in[2]), K: in[3]}
	}
	fprog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("sandbox: seccomp filter: %w", err)
	}
	return nil
}
