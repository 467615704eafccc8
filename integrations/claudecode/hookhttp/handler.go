package hookhttp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/claudecode"
	"github.com/toolgate/toolgate/integrations/hosts"
)

// HandlerOption configures NewHandler.
type HandlerOption func(*handler)

// WithMaxWait caps the wait a request may ask for with ?wait= (default
// claudecode.DefaultWait). The agent's HTTP hook timeout must be longer, or the agent
// gives up first and, for Claude Code, goes on without the hook.
func WithMaxWait(d time.Duration) HandlerOption { return func(h *handler) { h.maxWait = d } }

type handler struct {
	hook    claudecode.Hook
	maxWait time.Duration
}

// NewHandler serves the hook over HTTP for agents configured with HTTP
// hooks ({"type": "http", "url": ".../hooks/claude-code"}): the body is the
// hook input, the answer the same JSON a command hook prints. Mount it
// behind the gateway's agent-token authentication.
//
// Every call answers 200 with JSON, because an agent treats any other
// status as a non-blocking error and runs the call: a call that cannot be
// decided is answered by hook.OnError (deny by default). A body that is
// not a hook input at all gets {"decision": "block", "reason": …}, the
// legacy form both agents read as a block. A UserPromptSubmit ends the
// session's turn (with a gateway decider) and gets {}, which lets the
// prompt through, whatever happened. Only a hook installed on an event
// that gates nothing (PostToolUse, Stop, …) gets a 400, which the agent
// shows to the user; a method other than POST gets a 405.
//
// Query parameters override the hook per request, so one gateway serves
// differently configured agents: workspace=ID, on_ask=prompt|wait,
// wait=DURATION (capped by WithMaxWait), dialect=claude|codex,
// home=PATH, the agent's home directory ("~" in its calls), and
// sandbox=PATH, toolgate-sandbox on the agent's machine: a call offered a
// confined allow (DESIGN §3.7) is allowed with its Bash command rewritten
// to run under it. An invalid parameter makes every call undecidable
// (denied by default), never open.
func NewHandler(hook claudecode.Hook, opts ...HandlerOption) http.Handler {
	h := &handler{hook: hook, maxWait: claudecode.DefaultWait}
	for _, o := range opts {
		o(h)
	}
	return h
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, http.StatusMethodNotAllowed, toolgate.EInvalid, "use POST with the hook's JSON input")
		return
	}
	hook, err := h.configure(r)
	if err != nil {
		// A misconfigured hook URL must not open the gate: every call is
		// answered as undecidable, which the agent shows with the reason.
		hook = &claudecode.Hook{Decider: failing{fmt.Errorf("hook URL: %w", err)}, OnError: h.hook.OnError}
	}
	dialect := r.URL.Query().Get("dialect")
	data, err := io.ReadAll(io.LimitReader(r.Body, claudecode.MaxInputBytes+1))
	if err != nil {
		// The agent is gone or the body broke: answer a block anyway.
		writeJSON(w, claudecode.BlockOutput("cannot read the hook input: "+err.Error()))
		return
	}
	ans := hook.Handle(r.Context(), data)
	if dialect == "codex" || dialect == "" && ans.TurnID != "" {
		// Codex (by the URL, or by the turn_id only it sends) reads
		// less of the answer.
		ans.Output = hosts.CodexOutput(&ans)
	}
	switch {
	case ans.Output != nil:
		writeJSON(w, ans.Output)
	case ans.Event == claudecode.EventUserPromptSubmit:
		// The prompt always goes through, even if its turn could not be
		// ended: {} is no decision. Blocking would lock the user out.
		writeJSON(w, &claudecode.Output{})
	case ans.Exit == claudecode.ExitNotice:
		writeError(w, http.StatusBadRequest, toolgate.EInvalid, ans.Err.Error())
	default:
		writeJSON(w, claudecode.BlockOutput(ans.Err.Error()))
	}
}

// configure applies the request's query parameters to a copy of the hook.
func (h *handler) configure(r *http.Request) (*claudecode.Hook, error) {
	hook := h.hook
	q := r.URL.Query()
	if ws := q.Get("workspace"); ws != "" {
		if claudecode.WorkspaceFor(ws) != ws {
			return nil, fmt.Errorf("workspace=%q: use letters, digits, '.', '_' and '-'", ws)
		}
		hook.Workspace = ws
	}
	switch q.Get("dialect") {
	case "", "claude", "claude-code", "codex":
	default:
		return nil, fmt.Errorf("dialect=%q: want claude or codex", q.Get("dialect"))
	}
	onAsk, wait, sandbox, home := q.Get("on_ask"), q.Get("wait"), q.Get("sandbox"), q.Get("home")
	if onAsk == "" && wait == "" && sandbox == "" && home == "" {
		return &hook, nil
	}
	remote, ok := hook.Decider.(*claudecode.Remote)
	if !ok {
		return nil, errors.New("on_ask, wait, sandbox and home apply only to a gateway decider")
	}
	rc := *remote
	if home != "" {
		// The agent's home, which Claude Code's HTTP hook input does not
		// carry: "~" in its calls means it. The engine decides such a
		// call in both homes and keeps the stricter answer, so a home
		// named here cannot lift a protection of the gateway's own.
		if !path.IsAbs(home) || path.Clean(home) == "/" {
			return nil, fmt.Errorf("home=%q: want the absolute path of the agent's home directory", home)
		}
		rc.Home = path.Clean(home)
	}
	if sandbox != "" {
		// The agent's machine runs a confined allow under this program;
		// where its kernel cannot confine, the program refuses (125) and
		// nothing runs.
		if !path.IsAbs(sandbox) {
			return nil, fmt.Errorf("sandbox=%q: want the absolute path of toolgate-sandbox on the agent's machine", sandbox)
		}
		if q.Get("dialect") == "codex" {
			return nil, errors.New("sandbox: Codex hooks cannot replace a call's input; leave it out for Codex")
		}
		rc.Confine = claudecode.SandboxShell("Bash", sandbox)
	}
	if onAsk != "" {
		m, err := claudecode.ParseAskMode(onAsk)
		if err != nil {
			return nil, fmt.Errorf("on_ask: %w", err)
		}
		rc.OnAsk = m
	}
	if wait != "" {
		d, err := time.ParseDuration(wait)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("wait=%q: want a positive duration such as 90s", wait)
		}
		rc.Wait = min(d, h.maxWait)
	}
	hook.Decider = &rc
	return &hook, nil
}

// failing is a Decider that cannot decide.
type failing struct{ err error }

func (f failing) Decide(context.Context, *toolgate.Call) (claudecode.Verdict, error) {
	return claudecode.Verdict{}, f.err
}

func writeJSON(w http.ResponseWriter, v any) {
	var body []byte
	if o, ok := v.(*claudecode.Output); ok {
		body = o.Marshal()
	} else {
		body, _ = json.Marshal(v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// writeError writes the API's error shape, {"error": {"code", "message"}}.
func writeError(w http.ResponseWriter, status int, code toolgate.ErrorCode, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": string(code), "message": msg}})
}
