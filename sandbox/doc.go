// Package sandbox runs a command confined by the kernel: the third layer
// after the rules and the static analysis (DESIGN §3.7). A Profile says
// what the command may read, write and reach; Default derives it from the
// same tables as the static floor (internal/sensitive, with its
// HomeFiles), so the two cannot disagree about what is a
// secret, an agent's configuration or a start-up file.
//
// # Linux: Landlock, seccomp and a mount namespace
//
// Run builds the profile, its Landlock ruleset, the seccomp filter and
// the list of paths to protect, then forks a child in a new user and
// mount namespace; with a network (Command.Proxy), in a new network
// namespace too. The child, with raw system calls only, in order:
//
//   - starts a new session (no controlling terminal: the command cannot
//     push keystrokes into the terminal it was started from) and maps its
//     own user and group into the new user namespace (setgroups denied);
//   - bind-mounts every protected path that exists inside a writable root
//     (.git/hooks, .git/config, .claude/, .vscode/settings.json, .envrc,
//     CI pipelines, start-up files…) read-only onto itself, and pins the
//     directories between it and the root with a bind mount of their own
//     so that they cannot be renamed away (rename and rmdir of a mount
//     point fail with EBUSY);
//   - with a network, brings up the namespace's loopback interface (its
//     only one), listens on 127.0.0.1:ProxyPort and hands the listener to
//     Run, which serves the Proxy on it (a socket keeps the namespace it
//     was made in): inside, the proxy is the only thing to connect to, on
//     any address and port. When this fails, Run fails and nothing runs,
//     never with the machine's network;
//   - enters the working directory, by its path, after the mounts: a
//     command started inside a protected directory sees it read-only too;
//   - restores the limit on open files the Go runtime raised for itself
//     (package internal/nofile), as os/exec does;
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
//   - replaces itself with the command. Children inherit all of it. A
//     user other than root holds no capability after that exec; the
//     child had those of its new user namespace only (none inheritable
//     or ambient).
//
// Any step that fails is reported to Run (which step, which path, the
// errno) and the child exits: nothing runs.
//
// Where Landlock (ABI 6+), seccomp or user namespaces are missing, Run
// refuses and nothing runs: there is no unconfined fallback.
//
// One fork, no second program: the read-only mounts over protected
// paths inside a writable root must be made inside the new mount
// namespace before the command's exec, and nothing else can stand in for
// them (Landlock only adds rights, so a rule that lets the command create
// files in the workspace root lets it create them in .git/hooks too). A
// multithreaded process (any Go program) can neither create a user
// namespace nor join a mount namespace, and Go's own fork child
// (os/exec) runs a fixed sequence without mounts; so Run forks its own
// child, under the rules Go's has: between the fork and the exec the
// child allocates nothing, grows no stack (go:nosplit, checked by the
// linker; the runtime's fork hooks block signals across the fork and
// reset the child's handlers) and makes raw system calls on data laid
// out before the fork. On amd64 the child shares the parent's memory,
// on a stack of its own, until its exec (CLONE_VM|CLONE_VFORK, as
// os/exec starts processes where it need not map ids for them): no page
// tables to copy at the fork or tear down at the exec. A second Go
// program started in the namespaces would cost a Go runtime's start
// (about half of the whole run).
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
// Hiding each existing secret under an empty read-only mount instead,
// with one Landlock read rule on "/", would spare the walk (for root,
// whose /etc/shadow is open to it, about 150 rules for the entries of
// /etc) and be as strong for what exists at the start: the mounts cannot
// be undone (mount and umount are refused by Landlock and seccomp, and
// the command keeps no capability for them), /proc/PID/root of a process
// outside is closed by Landlock's ptrace scoping, open_by_handle_at by
// seccomp, a symbolic link resolves to the covered path, and a hard link
// or another mount of the same file system reaches the file under either
// design. It is weaker for what is created later: a secret written after
// the start directly into a directory the walk went down into (~/.aws by
// "aws configure" in another terminal, a key in /etc) is unreadable under
// the walk and would be readable under the mounts, which cover only what
// existed. So the walk stays.
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
