package sandbox

import (
	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
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

// landlockRules turns the profile into Landlock rules: read grants from
// "/" around what DenyRead names, read-write grants on each writable root
// around DenyRead and NoWrite, listing of every directory, the devices,
// and TCP connect to the proxy's port when there is one.
func landlockRules(p *Profile, proxyPort uint16) []landlock.Rule {
	deny := append([]Spec{{Parent: "/", Name: "dev", Dir: true, Reason: "holds the machine's devices"}}, p.DenyRead...)
	var rules []landlock.Rule
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
		rules = append(rules, landlock.PathAccess(a, g.Path).IgnoreIfMissing())
	}
	for _, g := range Grants("/", Read, deny, nil) {
		add(g)
	}
	for _, root := range p.Write {
		for _, g := range Grants(root, ReadWrite, p.DenyRead, p.NoWrite) {
			add(g)
		}
	}
	rules = append(rules, landlock.PathAccess(ll.AccessFSReadDir, "/"))
	for _, d := range devices {
		rules = append(rules, landlock.PathAccess(d.access, d.path).IgnoreIfMissing())
	}
	if proxyPort != 0 {
		rules = append(rules, landlock.ConnectTCP(proxyPort))
	}
	return rules
}
