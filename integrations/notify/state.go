package notify

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// WithStateFile keeps which message belongs to which pending approval in
// a file, so that after a restart the approvals still pending are not
// sent again and their messages are still edited when they resolve.
func WithStateFile(path string) DispatcherOption {
	return func(d *Dispatcher) { d.state = &stateFile{path: path} }
}

// sentRef is one delivered message.
type sentRef struct {
	Ref string `json:"ref"`
	// Expires is the approval's expiry: past it the entry is dropped.
	Expires time.Time `json:"expires"`
}

// stateFile is the file: notifier name → approval id → message.
type stateFile struct {
	path string
	mu   sync.Mutex
	refs map[string]map[string]sentRef
}

// load reads the file; a missing file is empty. Entries past their
// approval's expiry are dropped.
func (f *stateFile) load(now time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.refs = map[string]map[string]sentRef{}
	b, err := os.ReadFile(f.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("notify: read state: %w", err)
	}
	if err := json.Unmarshal(b, &f.refs); err != nil {
		f.refs = map[string]map[string]sentRef{}
		return fmt.Errorf("notify: state file %s: %w (starting afresh)", f.path, err)
	}
	for _, m := range f.refs {
		for id, r := range m {
			if !now.Before(r.Expires.Add(time.Hour)) {
				delete(m, id)
			}
		}
	}
	return nil
}

// get returns a notifier's saved messages.
func (f *stateFile) get(name string) map[string]sentRef {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]sentRef{}
	for id, r := range f.refs[name] {
		out[id] = r
	}
	return out
}

// set records (ref != "") or forgets a message and rewrites the file
// atomically.
func (f *stateFile) set(name, id, ref string, expires time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refs[name] == nil {
		f.refs[name] = map[string]sentRef{}
	}
	if ref == "" {
		delete(f.refs[name], id)
	} else {
		f.refs[name][id] = sentRef{Ref: ref, Expires: expires}
	}
	b, err := json.Marshal(f.refs)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.path), ".notify-state-*")
	if err != nil {
		return fmt.Errorf("notify: write state: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("notify: write state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("notify: write state: %w", err)
	}
	if err := os.Rename(tmp.Name(), f.path); err != nil {
		return fmt.Errorf("notify: write state: %w", err)
	}
	return nil
}
