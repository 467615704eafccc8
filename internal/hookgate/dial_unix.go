//go:build unix

package hookgate

import (
	"context"
	"errors"
	"io"
	"os"
	"syscall"
	"time"
)

// conn is a connected TCP socket, read and written with blocking system
// calls bounded by socket timeouts: no network poller, no package net.
type conn struct{ fd int }

// dial connects to a, within ctx's deadline (else a minute).
func dial(ctx context.Context, a addr) (*conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	family := syscall.AF_INET6
	var sa syscall.Sockaddr
	if a.v4 {
		family = syscall.AF_INET
		s := &syscall.SockaddrInet4{Port: a.port}
		copy(s.Addr[:], a.ip[:4])
		sa = s
	} else {
		sa = &syscall.SockaddrInet6{Port: a.port, Addr: a.ip}
	}
	fd, err := syscall.Socket(family, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, os.NewSyscallError("socket", err)
	}
	syscall.CloseOnExec(fd)
	c := &conn{fd: fd}
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(time.Minute)
	}
	d := time.Until(deadline)
	if d <= 0 {
		c.Close()
		return nil, context.DeadlineExceeded
	}
	// A blocking connect on Linux is bounded by the send timeout.
	tv := syscall.NsecToTimeval(d.Nanoseconds())
	_ = syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv)
	_ = syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
	for {
		err = syscall.Connect(fd, sa)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		c.Close()
		return nil, os.NewSyscallError("connect", err)
	}
	return c, nil
}

// timeout reports a socket timeout as the deadline it is.
func timeout(err error) error {
	if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EWOULDBLOCK) {
		return context.DeadlineExceeded
	}
	return err
}

func (c *conn) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(c.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, os.NewSyscallError("read", timeout(err))
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (c *conn) Write(p []byte) (int, error) {
	written := 0
	for written < len(p) {
		n, err := syscall.Write(c.fd, p[written:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return written, os.NewSyscallError("write", timeout(err))
		}
		written += n
	}
	return written, nil
}

func (c *conn) Close() error { return syscall.Close(c.fd) }
