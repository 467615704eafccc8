package cli_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// escapeMain is the attacker inside the sandbox: "escape OP ARGS…" tries
// one thing the kernel rules must refuse (or, for the benign twins, must
// allow) and exits 0 when it worked, 1 when it was refused, printing the
// error.
func escapeMain() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "escape OP ARGS…")
		os.Exit(2)
	}
	err := escape(os.Args[1], os.Args[2:])
	if err != nil {
		fmt.Println("refused:", err)
		os.Exit(1)
	}
	fmt.Println("done")
}

func escape(op string, args []string) error {
	arg := func(i int) string {
		if i < len(args) {
			return args[i]
		}
		return ""
	}
	switch op {
	case "ptrace":
		pid, _ := strconv.Atoi(arg(0))
		if err := unix.PtraceAttach(pid); err != nil {
			return err
		}
		return unix.PtraceDetach(pid)
	case "kill0":
		pid, _ := strconv.Atoi(arg(0))
		return syscall.Kill(pid, 0)
	case "tcp":
		c, err := net.Dial("tcp", arg(0))
		if err != nil {
			return err
		}
		return c.Close()
	case "read":
		// What a listener says first: a service's banner, a secret.
		c, err := net.Dial("tcp", arg(0))
		if err != nil {
			return err
		}
		defer c.Close()
		_ = c.SetReadDeadline(time.Now().Add(time.Second))
		b, err := io.ReadAll(io.LimitReader(c, 256))
		if len(b) == 0 {
			return fmt.Errorf("%s said nothing (%v)", arg(0), err)
		}
		fmt.Printf("%s\n", b)
		return nil
	case "udp":
		c, err := net.Dial("udp", arg(0))
		if err != nil {
			return err
		}
		defer c.Close()
		_, err = c.Write([]byte("leak"))
		return err
	case "get", "connect":
		// Through the proxy the environment names, as curl would.
		proxy, err := url.Parse(os.Getenv("HTTPS_PROXY"))
		if err != nil || proxy.Host == "" {
			return fmt.Errorf("no proxy in HTTPS_PROXY (%v)", err)
		}
		if op == "connect" {
			c, err := net.Dial("tcp", proxy.Host)
			if err != nil {
				return err
			}
			defer c.Close()
			fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", arg(0), arg(0))
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				return err
			}
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("CONNECT %s: %s", arg(0), resp.Status)
			}
			return nil
		}
		client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
		resp, err := client.Get(arg(0))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("GET %s: %s: %s", arg(0), resp.Status, body)
		}
		fmt.Printf("%s\n", body)
		return nil
	case "raw":
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_RAW, unix.IPPROTO_ICMP)
		if err != nil {
			return err
		}
		return unix.Close(fd)
	case "packet":
		fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_RAW, 0)
		if err != nil {
			return err
		}
		return unix.Close(fd)
	case "abstract":
		c, err := net.Dial("unix", "@"+arg(0))
		if err != nil {
			return err
		}
		return c.Close()
	case "unix":
		c, err := net.Dial("unix", arg(0))
		if err != nil {
			return err
		}
		return c.Close()
	case "socketpair":
		fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return err
		}
		unix.Close(fds[0])
		return unix.Close(fds[1])
	case "io_uring":
		// io_uring_setup(8, &params): a ring whose operations would not
		// pass the system-call filter.
		var params [120]byte
		fd, _, e := unix.Syscall(unix.SYS_IO_URING_SETUP, 8, uintptr(unsafe.Pointer(&params)), 0)
		if e != 0 {
			return e
		}
		return unix.Close(int(fd))
	case "keyctl":
		_, err := unix.KeyctlGetKeyringID(unix.KEY_SPEC_USER_KEYRING, false)
		return err
	case "unshare":
		return unix.Unshare(unix.CLONE_NEWUSER)
	case "mknod":
		return unix.Mknod(arg(0), unix.S_IFCHR|0o600, int(unix.Mkdev(1, 3)))
	case "chroot":
		return unix.Chroot("/")
	}
	return fmt.Errorf("unknown op %q", op)
}
