package sandboxcmd

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/hookgate"
	"github.com/toolgate/toolgate/sandbox"
)

// The rules a violation line names (toolgate.SandboxViolation.Rule).
const (
	ruleDenyRead = "reading or writing secrets, agent settings and toolgate's state is blocked by the sandbox"
	ruleProtect  = "writes to .git/hooks, .git/config, agent settings and start-up files are blocked by the sandbox"
	ruleOutside  = "writes outside the workspace and the temporary directory are blocked by the sandbox"
	ruleDevice   = "devices other than null, zero, random, the terminal and shared memory are blocked by the sandbox"
)

// maxViolations bounds what one run explains and reports.
const maxViolations = 16

// denialWords are what a program's error says when the kernel refused it
// (EACCES, EPERM, EROFS), as libc, Python, Node and Go word them.
var denialWords = []string{"Permission denied", "permission denied", "Operation not permitted", "operation not permitted",
	"Read-only file system", "read-only file system", "EACCES", "EPERM", "EROFS"}

// pathPattern finds what may be a path in an error line: a quoted
// string, or a word starting with /, ~/, ./ or ../ or holding a /. It is
// compiled on the first denial a run sees, not at start-up (the sandbox
// starts twice per command).
const pathPattern = `'([^'\n]+)'|"([^"\n]+)"|‘([^’\n]+)’|(?:^|[\s:=(\[])((?:~|\.\.?)?/[^\s:'",;)\]]*|[\w.-]+/[^\s:'",;)\]]*)`

// watcher passes a confined command's standard error through and notes
// the paths its "Permission denied" lines name, to explain each by the
// profile's rule when the command ends. Lines are looked at up to 4 KiB.
type watcher struct {
	w         io.Writer
	cwd, home string

	mu    sync.Mutex
	line  []byte
	paths []string
	re    *regexp.Regexp
}

func (w *watcher) Write(b []byte) (int, error) {
	n, err := w.w.Write(b)
	w.mu.Lock()
	defer w.mu.Unlock()
	for rest := b[:n]; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			if len(w.line) < 4<<10 {
				w.line = append(w.line, rest[:min(len(rest), 4<<10-len(w.line))]...)
			}
			break
		}
		if len(w.line) < 4<<10 {
			w.line = append(w.line, rest[:min(i, 4<<10-len(w.line))]...)
		}
		w.scan(string(w.line))
		w.line = w.line[:0]
		rest = rest[i+1:]
	}
	return n, err
}

// scan notes the paths of one line that reports a denial.
func (w *watcher) scan(line string) {
	denied := false
	for _, word := range denialWords {
		if strings.Contains(line, word) {
			denied = true
			break
		}
	}
	if !denied || len(w.paths) >= maxViolations {
		return
	}
	if w.re == nil {
		w.re = regexp.MustCompile(pathPattern)
	}
	// "PROGRAM: message": the program's own name is not what was denied.
	if i := strings.IndexAny(line, " \t:"); i > 0 && line[i] == ':' {
		line = line[i+1:]
	}
	for _, m := range w.re.FindAllStringSubmatch(line, 4) {
		p := m[1] + m[2] + m[3] + m[4]
		switch {
		case p == "" || strings.ContainsAny(p, " \t") && !strings.HasPrefix(p, "/"):
			continue
		case strings.HasPrefix(p, "~/"):
			p = filepath.Join(w.home, p[2:])
		case !filepath.IsAbs(p):
			p = filepath.Join(w.cwd, p)
		}
		p = filepath.Clean(p)
		if !slices.Contains(w.paths, p) {
			w.paths = append(w.paths, p)
		}
	}
}

// explain returns the violations the noted paths are, each with the
// profile's rule that refused it: a denied read, a protected path, a
// device, or a path outside the writable roots that the command could
// otherwise have read (so the refusal was a write). A path the profile
// allows or that was refused by the file system's own permissions is
// left out.
func (w *watcher) explain(p *sandbox.Profile) []toolgate.SandboxViolation {
	w.mu.Lock()
	if len(w.line) > 0 {
		w.scan(string(w.line))
		w.line = w.line[:0]
	}
	paths := append([]string(nil), w.paths...)
	w.mu.Unlock()
	var out []toolgate.SandboxViolation
	for _, path := range paths {
		rule, why, ok := explainPath(p, path)
		if !ok {
			continue
		}
		target := path
		if w.home != "" && strings.HasPrefix(path, w.home+"/") {
			target = "~" + path[len(w.home):]
		}
		if why != "" {
			target += " (it " + why + ")"
		}
		out = append(out, toolgate.SandboxViolation{Kind: "file", Target: target, Rule: rule})
	}
	return out
}

// explainPath finds the rule of profile p that refuses path.
func explainPath(p *sandbox.Profile, path string) (rule, why string, ok bool) {
	if reason, found := p.ExplainRead(path); found {
		return ruleDenyRead, reason, true
	}
	if reason, found := p.Explain(path); found {
		return ruleProtect, reason, true
	}
	if strings.HasPrefix(path, "/dev/") {
		return ruleDevice, "", true
	}
	for _, root := range p.Write {
		if path == root || strings.HasPrefix(path, strings.TrimSuffix(root, "/")+"/") {
			return "", "", false // writable, or under a NoWrite home: not ours to name
		}
	}
	// Outside the writable roots: a write was refused if the command
	// could read the path (or create in its directory's place).
	// The path comes from the command's output: only a regular file or a
	// directory is opened, and without blocking (never a FIFO or a
	// device, whose opening can wait or act).
	probe := path
	if _, err := os.Lstat(path); err != nil {
		probe = filepath.Dir(path)
	}
	if fi, err := os.Stat(probe); err != nil || !fi.Mode().IsRegular() && !fi.IsDir() {
		return "", "", false
	}
	f, err := os.OpenFile(probe, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", "", false // refused by the file's own permissions
	}
	f.Close()
	return ruleOutside, "", true
}

// NetworkTool is the tool name of a confined command's connection to a
// host its profile does not name, submitted to a gateway to be held for a
// person: {"host": "evil.example:443", "command": …}.
const NetworkTool = "SandboxNetwork"

// askWait bounds how long a connection waits for a person's answer.
const askWait = 2 * time.Minute

// gatewayFromEnv is the toolgate gateway a confined run reports to and asks
// through: $TOOLGATE_URL with $TOOLGATE_TOKEN, over http:// to an IP
// address or localhost. why says why there is none.
func gatewayFromEnv() (g *hookgate.Gate, why string) {
	url, token := os.Getenv("TOOLGATE_URL"), os.Getenv("TOOLGATE_TOKEN")
	if url == "" || token == "" {
		return nil, "no gateway is configured ($TOOLGATE_URL, $TOOLGATE_TOKEN)"
	}
	g, err := hookgate.New(url, token, "sandbox")
	if err != nil {
		return nil, "the gateway " + url + " cannot be reached from the sandbox: " + err.Error()
	}
	return g, ""
}

// askGateway holds a connection to target for a person's answer at the
// gateway, as a call of NetworkTool: allowed by its rules or approved
// lets it through; anything else, or no answer within askWait, refuses.
func askGateway(g *hookgate.Gate, command, cwd string) func(ctx context.Context, target string) (bool, error) {
	return func(ctx context.Context, target string) (bool, error) {
		var id [12]byte
		if _, err := rand.Read(id[:]); err != nil {
			return false, err
		}
		call := toolgate.Call{
			ID: "sbx_" + hex.EncodeToString(id[:]), Tool: NetworkTool, Cwd: cwd,
			Session: os.Getenv("TOOLGATE_SESSION"), Workspace: os.Getenv("TOOLGATE_WORKSPACE"),
			Args: map[string]any{"host": target, "command": command,
				"description": command + " wants to reach " + target + ", which its sandbox profile does not name"},
		}
		res, err := g.Submit(ctx, toolgate.SubmitRequest{Call: call, TTL: askWait})
		if err != nil {
			return false, err
		}
		a := res.Approval
		if a == nil {
			return res.Decision.Action == toolgate.Allow, nil
		}
		if a.Status == toolgate.StatusPending {
			wctx, stop := context.WithTimeout(ctx, askWait)
			a, err = g.Wait(wctx, a.ID)
			stop()
			if err != nil {
				cctx, cstop := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
				_, _ = g.Cancel(cctx, res.Approval.ID, "the sandboxed command no longer waits")
				cstop()
				return false, err
			}
		}
		action, _ := a.Outcome()
		return action == toolgate.Allow, nil
	}
}

// report prints each violation on stderr and sends them to the gateway's
// audit when there is one.
func report(ctx context.Context, stderr io.Writer, g *hookgate.Gate, rep *toolgate.SandboxReport) {
	for _, v := range rep.Violations {
		fmt.Fprintf(stderr, "toolgate sandbox: %s: %s\n", v.Rule, v.Target)
	}
	if g == nil || len(rep.Violations) == 0 {
		return
	}
	rctx, stop := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
	defer stop()
	if err := g.ReportSandbox(rctx, rep); err != nil {
		fmt.Fprintf(stderr, "toolgate sandbox: the gateway did not record this: %v\n", err)
	}
}
