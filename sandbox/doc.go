// Package sandbox runs a command confined by the kernel: the third layer
// after the rules and the static analysis (DESIGN §3.7). A Profile says
// what the command may read, write and reach; Default derives it from the
// same tables as the static floor (internal/sensitive, with its
// HomeFiles), so the two cannot disagree about what is a
// secret, an agent's configuration or a start-up file.
//
// # Linux: Landlock, seccomp and a mount namespace
//
// Run starts Command.Self (toolgate-sandbox-enter, or this program again,
// which calls Enter: package enter) in a new user and mount namespace and
// a new session; with a network (Command.Proxy), in a new network
// namespace too. Enter then, in order:
//
//   - with a network, brings up the namespace's loopback interface (its
//     only one; CAP_NET_ADMIN there, which Run raises for a user other
//     than root and Enter clears), listens on 127.0.0.1:ProxyPort and
//     sends the listener back to Run, which serves the Proxy on it (a
//     socket keeps the namespace it was made in): inside, the proxy is
//     the only thing to connect to, on any address and port. When this
//     fails, Run fails and nothing runs, never with the machine's network;
//   - bind-mounts every protected path that exists inside a writable root
//     (.git/hooks, .git/config, .claude/, .vscode/settings.json, .envrc,
//     CI pipelines, start-up files…) read-only onto itself, and pins the
//     directories between it and the root with a bind mount of their own
//     so that they cannot be renamed away (rename and rmdir of a mount
//     point fail with EBUSY);
//   - applies Landlock (ABI 6 or later): the file rules below, TCP bind
//     and connect denied (connect allowed to ProxyPort only when the
//     profile names hosts), signals and abstract unix sockets scoped
//     to the sandbox, and, as always with Landlock, no ptrace of a process
//     outside it (which also closes /proc/PID/environ, mem, cwd and root
//     of such processes);
//   - loads a seccomp filter: no sockets at all without a network (pipes
//     from socketpair still work), only TCP over IPv4/IPv6 with one; no
//     ptrace, process_vm_*, io_uring, keyrings, BPF, perf, mounts, new
//     namespaces, modules, clock changes, reboot or open_by_handle_at
//     (EPERM or EACCES, never a kill); no terminal input pushed by ioctl
//     (TIOCSTI, TIOCLINUX, whatever the command's unused high bits); and
//     no call through another ABI (i386's int 0x80, x32: ENOSYS);
//   - replaces itself with the command. Children inherit all of it.
//
// Where Landlock (ABI 6+), seccomp or user namespaces are missing, Run
// refuses and nothing runs: there is no unconfined fallback.
//
// Two processes, not one: the read-only mounts over protected paths
// inside a writable root must be made inside the new mount namespace
// before the command's exec, and nothing else can stand in for them.
// Landlock only adds rights, so a rule that lets the command create files
// in the workspace root lets it create them in .git/hooks too; Go's
// fork/exec child runs a fixed sequence that makes no mounts; and a
// multithreaded process (any Go program) can neither create a user
// namespace nor join a mount namespace, so the parent cannot mount for
// its child. Landlock and seccomp applied to one locked thread before a
// fork would confine everything else without the second start, but not
// these writes.
//
// # Reading everything except some paths, with an allow-list
//
// Landlock only allows, and a rule on a directory covers its whole
// hierarchy. "Read everything except ~/.ssh" is therefore built by a walk
// (Grants): from "/", a directory with nothing denied below it gets one
// rule; a directory with a denied path below it gets none, and the walk
// goes down into it and gives each entry beside the denied one its own
// rule, down to the denied path's parent. Only denied paths that exist
// shape the walk, so a project without secrets in it is one rule; so do
// only those the file system's own permissions leave open to the user
// (another user's file it may not read, or directory it may not enter,
// needs no rule: for a user other than root, /etc/shadow and the SSH host
// keys cost no walk of /etc's entries). The
// writable roots are walked the same way (around the denied paths and a
// home directory that lies inside the temporary directory). Listing
// directories is allowed everywhere (one rule on "/"), so the names in
// ~/.ssh are visible, not their contents. Devices come from a short allow
// list (null, zero, full, random, urandom, tty, ptmx, pts, shm): no disk
// or memory device opens, even for root.
//
// # Limits
//
//   - The walk is a snapshot: an entry created later by another process
//     directly inside a directory the walk went down into (the home
//     directory, /etc) is neither readable nor writable; a secret created
//     later there is therefore not exposed either.
//   - Secrets recognised anywhere (.netrc, *.tfstate, kubeconfig…) are
//     looked for in the home directory, /etc and the workspace roots only,
//     not deeper in a project.
//   - Protected paths inside a workspace are protected when they exist at
//     start: a command may create a .claude/ or .mcp.json that was not
//     there, or hooks in a repository it creates itself. Run names each
//     such path on the command's standard error when it ends.
//   - A hard link to a secret made before the sandbox started, inside a
//     writable root, is readable through the root's rule.
//   - Landlock does not cover metadata: outside the writable roots a
//     command cannot write file contents, but chmod, chown, utime and
//     extended attributes of files it may read are governed by the usual
//     permissions only.
//   - Pathname unix sockets are closed by seccomp (no socket(2)), not by
//     Landlock, whose ABI 9 right for them this kernel family lacks.
//   - The command runs in a new session without a controlling terminal.
//
// # macOS
//
// Seatbelt renders the same profile as a sandbox-exec (SBPL) policy; it
// is generated and tested against golden text, and not run: there is no
// Mac to run it on here.
package sandbox
