package sandbox

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// minABI is the oldest Landlock ABI the sandbox runs on: 6 restricts TCP
// (4), device ioctls (5) and scopes signals and abstract unix sockets to
// the sandbox (6).
var minABI = landlock.V6

// Landlock rights by kind of grant.
const (
	fileRead  = ll.AccessFSExecute | ll.AccessFSReadFile
	fileWrite = ll.AccessFSWriteFile | ll.AccessFSTruncate
	dirRead   = fileRead | ll.AccessFSReadDir
	dirWrite  = fileWrite | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile | ll.AccessFSMakeDir |
		ll.AccessFSMakeReg | ll.AccessFSMakeSock | ll.AccessFSMakeFifo | ll.AccessFSMakeSym | ll.AccessFSRefer
	devIO = ll.AccessFSIoctlDev
)

// devices are the device files a command may use, with their rights; no
// other device (a disk, memory) can be opened. Pseudo-terminals take
// ioctls (the terminal's size and modes).
var devices = []struct {
	path   string
	dir    bool
	access landlock.AccessFSSet
}{
	{"/dev/null", false, fileRead | fileWrite | devIO},
	{"/dev/zero", false, fileRead | fileWrite},
	{"/dev/full", false, fileRead | fileWrite},
	{"/dev/random", false, fileRead},
	{"/dev/urandom", false, fileRead},
	{"/dev/tty", false, fileRead | fileWrite | devIO},
	{"/dev/ptmx", false, fileRead | fileWrite | devIO},
	{"/dev/pts", true, dirRead | fileWrite | devIO},
	{"/dev/shm", true, dirRead | dirWrite},
}

// pathRule is one Landlock rule on a path: access to it and, when it is
// a directory, to everything beneath it.
type pathRule struct {
	path   string
	access landlock.AccessFSSet
}

// landlockRules turns the profile into Landlock rules: read grants from
// "/" around what DenyRead names, read-write grants on each writable root
// around DenyRead and NoWrite, listing of every directory and the devices
// (paths), and TCP connect to the proxy's port when there is one (net).
func landlockRules(p *Profile, proxyPort uint16) (paths []pathRule, net []landlock.Rule) {
	deny := append([]Spec{{Parent: "/", Name: "dev", Dir: true, Reason: "holds the machine's devices"}}, p.DenyRead...)
	add := func(g Grant) {
		var a landlock.AccessFSSet
		switch {
		case g.Access == Read && g.Dir:
			a = dirRead
		case g.Access == Read:
			a = fileRead
		case g.Dir:
			a = dirRead | dirWrite
		default:
			a = fileRead | fileWrite
		}
		paths = append(paths, pathRule{g.Path, a})
	}
	listed := p.dirs
	if listed == nil {
		listed = dirCache{}
	}
	// A secret the file system's own permissions already close to this
	// user needs no walk around it (for a user, /etc/shadow and the host
	// keys: about 140 rules for the entries of /etc).
	readDeny := deny
	if euid := os.Geteuid(); euid != 0 { // root may read everything
		readDeny = slices.DeleteFunc(slices.Clone(deny), func(s Spec) bool { return closedByPermissions(&s, listed, uint32(euid)) })
	}
	for _, g := range grants("/", Read, readDeny, nil, listed) {
		add(g)
	}
	for _, root := range p.Write {
		for _, g := range grants(root, ReadWrite, p.DenyRead, p.NoWrite, listed) {
			add(g)
		}
	}
	paths = append(paths, pathRule{"/", ll.AccessFSReadDir})
	for _, d := range devices {
		paths = append(paths, pathRule{d.path, d.access})
	}
	if proxyPort != 0 {
		net = append(net, landlock.ConnectTCP(proxyPort))
	}
	return paths, net
}

// closedByPermissions reports whether every existing path the spec names
// is closed to this process (effective user euid, not root: root may
// read everything) by the file system's own permissions, as it will be
// to the command (the same user and groups, no capability): a file it
// may not read or a directory it may not enter, owned by someone else
// (an owner could open it with chmod, which Landlock does not restrict).
// Then Landlock need not deny reading it. Anything it cannot tell counts
// as open.
func closedByPermissions(s *Spec, listed dirCache, euid uint32) bool {
	if !s.exists(listed) {
		return false // the walk leaves it out anyway
	}
	meta := hasMeta(s.Name)
	found := false
	for _, e := range listed.list(s.Parent).entries {
		p := join(s.Parent, e.name)
		if meta && !s.matches(p) || !meta && !strings.EqualFold(e.name, s.Name) {
			continue
		}
		var st unix.Stat_t
		if err := unix.Stat(p, &st); err != nil || st.Uid == euid {
			return false
		}
		mode := uint32(unix.R_OK)
		if st.Mode&unix.S_IFMT == unix.S_IFDIR {
			mode = unix.X_OK
		}
		if unix.Faccessat(unix.AT_FDCWD, p, mode, unix.AT_EACCESS) == nil {
			return false
		}
		found = true
	}
	return found
}

// newRuleset creates the profile's Landlock ruleset (minABI, strictly:
// an older kernel is an error) and returns its descriptor and the flags
// to restrict with. A path that does not exist is skipped; any other
// failure to add a rule is an error.
func newRuleset(p *Profile, proxyPort uint16) (fd int, flags uint32, err error) {
	paths, net := landlockRules(p, proxyPort)
	fd, flags, err = minABI.NewRulesetFD(net...)
	if err != nil {
		return -1, 0, fmt.Errorf("landlock: %w", err)
	}
	if fd < 0 {
		return -1, 0, errors.New("landlock: nothing to enforce")
	}
	if err := addPathRules(fd, paths); err != nil {
		unix.Close(fd)
		return -1, 0, err
	}
	return fd, flags, nil
}

// addPathRules adds one path-beneath rule per path to the ruleset. Each
// path is opened relative to its directory, which is opened once for all
// its entries (the walk grants a walked directory's entries one by one).
func addPathRules(ruleset int, rules []pathRule) error {
	dirs := map[string]int{}
	defer func() {
		for _, d := range dirs {
			if d >= 0 {
				unix.Close(d)
			}
		}
	}()
	for _, r := range rules {
		dir, name := unix.AT_FDCWD, r.path
		if r.path != "/" {
			parent := parentOf(r.path)
			d, ok := dirs[parent]
			if !ok {
				d, _ = unix.Open(parent, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
				dirs[parent] = d
			}
			if d >= 0 {
				dir, name = d, r.path[len(parent):]
				name = strings.TrimPrefix(name, "/")
			}
		}
		pfd, err := unix.Openat(dir, name, unix.O_PATH|unix.O_CLOEXEC, 0)
		if errors.Is(err, unix.ENOENT) {
			continue
		}
		if err != nil {
			return fmt.Errorf("landlock: opening %s: %w", r.path, err)
		}
		attr := ll.PathBeneathAttr{ParentFd: pfd, AllowedAccess: uint64(r.access)}
		err = ll.LandlockAddPathBeneathRule(ruleset, &attr, 0)
		unix.Close(pfd)
		if err != nil {
			return fmt.Errorf("landlock: a rule for %s: %w", r.path, err)
		}
	}
	return nil
}
