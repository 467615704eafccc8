// Package faultnet is a TCP relay on loopback that tests cut to see what a
// client does when the network to its server goes dark: no reset, no
// close, just silence, as when a link or a firewall drops every packet.
package faultnet

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

// Relay forwards connections from its own loopback address to a target
// until Cut; then it forwards nothing more in either direction and holds
// every connection, old and new, open and silent, until Restore.
type Relay struct {
	target string
	ln     net.Listener
	cut    atomic.Bool

	mu    sync.Mutex
	conns []net.Conn
	stale []net.Conn // connections that saw the cut
	wg    sync.WaitGroup
}

// New starts a relay to target (host:port); it stops when the test ends.
func New(t testing.TB, target string) *Relay {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &Relay{target: target, ln: ln}
	r.wg.Add(1)
	go r.accept()
	t.Cleanup(r.close)
	return r
}

// Addr is the relay's address (host:port).
func (r *Relay) Addr() string { return r.ln.Addr().String() }

// Cut makes the network silent: bytes already sent and bytes still to
// come are dropped, connections stay open.
func (r *Relay) Cut() { r.cut.Store(true) }

// Restore forwards new connections again and resets every connection
// that saw the cut (their streams lost bytes), as a peer that comes back
// answers a stale connection's next packet with a reset.
func (r *Relay) Restore() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cut.Store(false)
	for _, c := range r.stale {
		c.Close()
	}
	r.stale = nil
}

func (r *Relay) accept() {
	defer r.wg.Done()
	for {
		c, err := r.ln.Accept()
		if err != nil {
			return
		}
		r.track(c)
		if r.cut.Load() {
			r.markStale(c)
			go io.Copy(io.Discard, c) // accepted, never answered
			continue
		}
		up, err := net.Dial("tcp", r.target)
		if err != nil {
			c.Close()
			continue
		}
		r.track(up)
		var dead atomic.Bool // this pair saw a cut
		go r.pipe(up, c, &dead)
		go r.pipe(c, up, &dead)
	}
}

// pipe copies src to dst until the cut, then drops what src sends.
func (r *Relay) pipe(dst, src net.Conn, dead *atomic.Bool) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if r.cut.Load() && !dead.Swap(true) {
			r.markStale(src, dst)
		}
		if n > 0 && !dead.Load() {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if !dead.Load() {
				dst.Close()
			}
			return
		}
	}
}

func (r *Relay) markStale(cs ...net.Conn) {
	r.mu.Lock()
	r.stale = append(r.stale, cs...)
	r.mu.Unlock()
}

func (r *Relay) track(c net.Conn) {
	r.mu.Lock()
	r.conns = append(r.conns, c)
	r.mu.Unlock()
}

func (r *Relay) close() {
	r.ln.Close()
	r.mu.Lock()
	for _, c := range r.conns {
		c.Close()
	}
	r.mu.Unlock()
	r.wg.Wait()
}
