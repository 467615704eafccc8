package tokens

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgate/toolgate"
)

// Role is what a credential may do.
type Role string

// Roles, least privileged first.
const (
	// RoleAgent submits calls and reads their outcomes. It can never
	// answer an approval, grant, or change a mode or rules.
	RoleAgent Role = "agent"
	// RoleApprover answers approvals and reads what agents read and more:
	// pending approvals, grants, sessions, the event stream.
	RoleApprover Role = "approver"
	// RoleAdmin changes rules, grants and tokens, and can do everything an
	// approver can.
	RoleAdmin Role = "admin"
)

// rank orders roles; 0 is not a role.
func (r Role) rank() int {
	switch r {
	case RoleAgent:
		return 1
	case RoleApprover:
		return 2
	case RoleAdmin:
		return 3
	}
	return 0
}

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return r.rank() > 0 }

// Allows reports whether a credential with role r may do what needs role
// need.
func (r Role) Allows(need Role) bool { return r.rank() > 0 && r.rank() >= need.rank() }

// ParseRole reads a role name.
func ParseRole(s string) (Role, error) {
	r := Role(strings.ToLower(strings.TrimSpace(s)))
	if !r.Valid() {
		return "", toolgate.Errorf(toolgate.EInvalid, "unknown role %q (want agent, approver or admin)", s)
	}
	return r, nil
}

// Prefix starts every token, so leaked tokens are easy to recognise (and
// to scan for).
const Prefix = "tg_"

// tokenLen is the length of a token: the prefix and 32 bytes in unpadded
// base32.
var tokenLen = len(Prefix) + b32.EncodedLen(32)

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// Entry is one stored credential. The token itself is never stored.
type Entry struct {
	Name string `json:"name"`
	Role Role   `json:"role"`
	// Hash is the hex SHA-256 of the token.
	Hash      string    `json:"hash"`
	CreatedAt time.Time `json:"created_at"`
}

// Actor is what the credential does as, via the client named: the one
// place a role becomes what a toolgate.Gate checks (an agent's sessions
// are its own and it never answers; an admin's answers may grant
// widely, and only an admin writes grants and reads the audit log). A
// role that is none of the three acts as an agent: a Gate takes an actor
// that is not an agent for an approver, so an entry whose role was never
// set or checked must not become one.
func (e Entry) Actor(via string) toolgate.Actor {
	return toolgate.Actor{Name: e.Name, Via: via, Admin: e.Role == RoleAdmin, Agent: !e.Role.Allows(RoleApprover)}
}

// file is the on-disk form.
type file struct {
	Tokens []Entry `json:"tokens"`
}

// entry is an Entry with its decoded hash, the form Verify scans.
type entry struct {
	Entry
	sum [sha256.Size]byte
}

// snapshot is an immutable view of the file.
type snapshot struct {
	entries []entry
	modTime time.Time
	size    int64
	exists  bool
	version string // a Backend's
}

// Backend keeps the credential list somewhere other than a file: a
// database that several gateway nodes share (store/postgres). The list is
// the same JSON as the file's.
type Backend interface {
	// Load returns the list and a version that changes whenever it does;
	// nil and "" if there is none yet.
	Load() (data []byte, version string, err error)
	// Update applies change to the current list (nil if none) atomically:
	// concurrent updates from several nodes apply one after the other.
	Update(change func(data []byte) ([]byte, error)) error
}

// Store keeps credentials in a JSON file. It is safe for concurrent use,
// and Verify is cheap: it reads an in-memory snapshot and looks at the
// file's metadata at most once per check interval.
type Store struct {
	path     string
	backend  Backend
	now      func() time.Time
	interval time.Duration

	snap      atomic.Pointer[snapshot]
	nextCheck atomic.Int64 // unix nanos of the next stat of the file

	mu sync.Mutex // serialises reloads and writes
}

// Option configures a Store.
type Option func(*Store)

// WithClock injects the clock used for created_at and the check interval.
func WithClock(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// WithCheckInterval sets how often Verify looks for changes to the file
// made by another process (default one second; zero checks every time).
func WithCheckInterval(d time.Duration) Option { return func(s *Store) { s.interval = d } }

// DefaultCheckInterval is how often Verify looks at the file's metadata.
const DefaultCheckInterval = time.Second

// Open returns the store in the file at path. A missing file is an empty
// store; it is created on the first Create.
func Open(path string, opts ...Option) (*Store, error) {
	s := &Store{path: path, now: time.Now, interval: DefaultCheckInterval}
	for _, o := range opts {
		o(s)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.reloadLocked(true); err != nil {
		return nil, err
	}
	return s, nil
}

// OpenBackend returns the store kept by b. Verify re-reads the list at
// most once per check interval, as it re-stats a file.
func OpenBackend(b Backend, opts ...Option) (*Store, error) {
	s := &Store{backend: b, now: time.Now, interval: DefaultCheckInterval}
	for _, o := range opts {
		o(s)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.reloadLocked(true); err != nil {
		return nil, err
	}
	return s, nil
}

// Path returns the file's path ("" for a Backend's store).
func (s *Store) Path() string { return s.path }

// reloadLocked re-reads the file if its modification time or size moved
// (or always, with force) and returns the current snapshot.
func (s *Store) reloadLocked(force bool) (*snapshot, error) {
	cur := s.snap.Load()
	if s.backend != nil {
		data, version, err := s.backend.Load()
		if err != nil {
			return cur, fmt.Errorf("tokens: load: %w", err)
		}
		if !force && cur != nil && cur.version == version {
			return cur, nil
		}
		next, err := parse("the shared credential list", data)
		if err != nil {
			return cur, err
		}
		next.version, next.exists = version, data != nil
		s.snap.Store(next)
		return next, nil
	}
	fi, err := os.Stat(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		if cur == nil || cur.exists {
			cur = &snapshot{}
			s.snap.Store(cur)
		}
		return cur, nil
	}
	if err != nil {
		return cur, fmt.Errorf("tokens: stat %s: %w", s.path, err)
	}
	if !force && cur != nil && cur.exists && cur.modTime.Equal(fi.ModTime()) && cur.size == fi.Size() {
		return cur, nil
	}
	data, err := os.ReadFile(s.path)
	if err != nil {
		return cur, fmt.Errorf("tokens: read %s: %w", s.path, err)
	}
	next, err := parse(s.path, data)
	if err != nil {
		return cur, err
	}
	next.modTime, next.size, next.exists = fi.ModTime(), fi.Size(), true
	s.snap.Store(next)
	return next, nil
}

func parse(path string, data []byte) (*snapshot, error) {
	var f file
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if len(bytes.TrimSpace(data)) > 0 {
		if err := dec.Decode(&f); err != nil {
			return nil, fmt.Errorf("tokens: parse %s: %w", path, err)
		}
	}
	snap := &snapshot{entries: make([]entry, 0, len(f.Tokens))}
	for i, e := range f.Tokens {
		sum, err := hex.DecodeString(e.Hash)
		if err != nil || len(sum) != sha256.Size {
			return nil, fmt.Errorf("tokens: %s: token %d (%q): hash is not hex SHA-256", path, i, e.Name)
		}
		if !e.Role.Valid() {
			return nil, fmt.Errorf("tokens: %s: token %d (%q): unknown role %q", path, i, e.Name, e.Role)
		}
		en := entry{Entry: e}
		copy(en.sum[:], sum)
		snap.entries = append(snap.entries, en)
	}
	return snap, nil
}

// current returns the snapshot, re-reading the file if the check interval
// has passed and it changed. A file that became unreadable keeps the last
// good snapshot (and is retried at the next interval).
func (s *Store) current() *snapshot {
	now := s.now().UnixNano()
	if now < s.nextCheck.Load() {
		return s.snap.Load()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if now < s.nextCheck.Load() {
		return s.snap.Load()
	}
	s.nextCheck.Store(now + int64(s.interval))
	snap, _ := s.reloadLocked(false)
	return snap
}

// Verify returns the entry of a presented token. It hashes the token and
// compares the hash with every stored hash in constant time, without
// stopping at the first match, so timing tells nothing about which bytes
// or which entry matched.
func (s *Store) Verify(token string) (Entry, bool) {
	if len(token) != tokenLen || !strings.HasPrefix(token, Prefix) {
		return Entry{}, false
	}
	// Hash from a stack buffer: Verify is on every request's path and
	// should not allocate.
	var buf [64]byte
	n := copy(buf[:], token)
	sum := sha256.Sum256(buf[:n])
	snap := s.current()
	found := lookup(snap, &sum)
	if found < 0 {
		// A miss looks again at once: a token another process created a
		// moment ago works on its first use, not after the check
		// interval. (The server bounds misses per client address.)
		if next := s.recheck(); next != snap {
			snap, found = next, lookup(next, &sum)
		}
	}
	if found < 0 {
		return Entry{}, false
	}
	return snap.entries[found].Entry, true
}

// lookup returns the index of the entry whose hash is sum, or -1,
// comparing every entry in constant time.
func lookup(snap *snapshot, sum *[sha256.Size]byte) int {
	found := -1
	for i := range snap.entries {
		if subtle.ConstantTimeCompare(sum[:], snap.entries[i].sum[:]) == 1 {
			found = i
		}
	}
	return found
}

// recheck re-reads the list now if it changed.
func (s *Store) recheck() *snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextCheck.Store(s.now().UnixNano() + int64(s.interval))
	snap, _ := s.reloadLocked(false)
	return snap
}

// validName reports whether name is 1 to 64 characters of letters, digits
// and ._@:- starting with a letter or digit. (A hand-written check: a
// regexp compiled at init would cost every toolgate process, the hook
// included, a quarter of a millisecond.)
func validName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !alnum && (i == 0 || !strings.ContainsRune("._@:-", rune(c))) {
			return false
		}
	}
	return true
}

// Create makes a token for name with role and returns it; it is not
// stored and cannot be shown again. Names are unique.
func (s *Store) Create(name string, role Role) (string, error) {
	if !validName(name) {
		return "", toolgate.Errorf(toolgate.EInvalid, "token name %q: use 1 to 64 letters, digits and . _ @ : - (starting with a letter or digit)", name)
	}
	if !role.Valid() {
		return "", toolgate.Errorf(toolgate.EInvalid, "unknown role %q (want agent, approver or admin)", role)
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", fmt.Errorf("tokens: random: %w", err)
	}
	token := Prefix + strings.ToLower(b32.EncodeToString(raw[:]))
	sum := sha256.Sum256([]byte(token))
	err := s.update(func(entries []Entry) ([]Entry, error) {
		for _, e := range entries {
			if e.Name == name {
				return nil, toolgate.Errorf(toolgate.EConflict, "a token named %q exists already", name)
			}
		}
		return append(entries, Entry{Name: name, Role: role, Hash: hex.EncodeToString(sum[:]), CreatedAt: s.now().UTC()}), nil
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

// Revoke deletes the token named name.
func (s *Store) Revoke(name string) error {
	return s.update(func(entries []Entry) ([]Entry, error) {
		i := slices.IndexFunc(entries, func(e Entry) bool { return e.Name == name })
		if i < 0 {
			return nil, toolgate.Errorf(toolgate.ENotFound, "no token named %q", name)
		}
		return slices.Delete(entries, i, i+1), nil
	})
}

// List returns the stored entries (names, roles, hashes), oldest first.
func (s *Store) List() ([]Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap, err := s.reloadLocked(false)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(snap.entries))
	for i := range snap.entries {
		out[i] = snap.entries[i].Entry
	}
	return out, nil
}

// Refresh makes the next Verify re-read the list instead of waiting for
// the check interval: another node changed it (a shared store's change
// feed says so), and a revoked token must stop working at once.
func (s *Store) Refresh() { s.nextCheck.Store(0) }

// Len returns how many tokens are stored.
func (s *Store) Len() int { return len(s.current().entries) }

// update re-reads the file, applies change and writes the result
// atomically. Writers in one process are serialised; another process
// writing at the same instant can lose one of the two changes.
func (s *Store) update(change func([]Entry) ([]Entry, error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.backend != nil {
		err := s.backend.Update(func(data []byte) ([]byte, error) {
			snap, err := parse("the shared credential list", data)
			if err != nil {
				return nil, err
			}
			entries := make([]Entry, len(snap.entries))
			for i := range snap.entries {
				entries[i] = snap.entries[i].Entry
			}
			if entries, err = change(entries); err != nil {
				return nil, err
			}
			return encode(entries)
		})
		if err != nil {
			return err
		}
		_, err = s.reloadLocked(true)
		return err
	}
	snap, err := s.reloadLocked(false)
	if err != nil {
		return err
	}
	entries := make([]Entry, len(snap.entries))
	for i := range snap.entries {
		entries[i] = snap.entries[i].Entry
	}
	entries, err = change(entries)
	if err != nil {
		return err
	}
	data, err := encode(entries)
	if err != nil {
		return err
	}
	if err := writeAtomic(s.path, data); err != nil {
		return err
	}
	_, err = s.reloadLocked(true)
	return err
}

// encode is the list as the file holds it.
func encode(entries []Entry) ([]byte, error) {
	data, err := json.MarshalIndent(file{Tokens: entries}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("tokens: encode: %w", err)
	}
	return append(data, '\n'), nil
}

// writeAtomic writes data to a temporary file beside path with mode 0600,
// syncs it and renames it over path.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("tokens: create %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".tokens-*.json")
	if err != nil {
		return fmt.Errorf("tokens: write %s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename this fails harmlessly
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("tokens: write %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("tokens: write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("tokens: sync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("tokens: write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("tokens: replace %s: %w", path, err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
