//go:build linux && (amd64 || arm64)

package sandbox

import (
	"io"
	"os"
	"sync"
	"time"
)

// stdio is a command's standard input, output and error: a stream that
// is an *os.File is passed as it is, nil is /dev/null, and any other is
// copied through a pipe (as os/exec does).
type stdio struct {
	// child are the descriptors the child makes 0, 1 and 2.
	child [3]int
	// childFiles are closed once the child has them; parentFiles once
	// the copies are done.
	childFiles, parentFiles []*os.File
	copies                  []func()
	wg                      sync.WaitGroup
}

func newStdio(stdin io.Reader, stdout, stderr io.Writer) (*stdio, error) {
	s := &stdio{}
	if f, ok := stdin.(*os.File); ok {
		s.child[0] = int(f.Fd())
	} else if stdin == nil {
		f, err := os.Open(os.DevNull)
		if err != nil {
			return nil, err
		}
		s.childFiles = append(s.childFiles, f)
		s.child[0] = int(f.Fd())
	} else {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		s.childFiles, s.parentFiles = append(s.childFiles, r), append(s.parentFiles, w)
		s.child[0] = int(r.Fd())
		s.copies = append(s.copies, func() {
			_, _ = io.Copy(w, stdin)
			w.Close()
		})
	}
	for i, out := range []io.Writer{stdout, stderr} {
		if f, ok := out.(*os.File); ok {
			s.child[i+1] = int(f.Fd())
			continue
		}
		if out == nil {
			f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
			if err != nil {
				s.closeChild()
				return nil, err
			}
			s.childFiles = append(s.childFiles, f)
			s.child[i+1] = int(f.Fd())
			continue
		}
		r, w, err := os.Pipe()
		if err != nil {
			s.closeChild()
			s.closeParent()
			return nil, err
		}
		s.childFiles, s.parentFiles = append(s.childFiles, w), append(s.parentFiles, r)
		s.child[i+1] = int(w.Fd())
		s.copies = append(s.copies, func() { _, _ = io.Copy(out, r) })
	}
	return s, nil
}

// start starts the copies (after the fork).
func (s *stdio) start() {
	for _, c := range s.copies {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			c()
		}()
	}
}

// wait waits for the copies, at most delay after the command ended: a
// process the command left running with a stream open must not keep
// Run waiting.
func (s *stdio) wait(delay time.Duration) {
	if len(s.copies) == 0 {
		return
	}
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	t := time.NewTimer(delay)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		s.closeParent()
	}
}

func (s *stdio) closeChild() {
	for _, f := range s.childFiles {
		f.Close()
	}
	s.childFiles = nil
}

func (s *stdio) closeParent() {
	for _, f := range s.parentFiles {
		f.Close()
	}
	s.parentFiles = nil
}
