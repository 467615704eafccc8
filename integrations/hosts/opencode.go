package hosts

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/integrations/claudecode"
)

// opencode has no command hooks: its plugins are JavaScript modules
// loaded from .opencode/plugins/ and ~/.config/opencode/plugins/. "toolgate
// hook install opencode" writes one (OpencodePlugin) whose
// "tool.execute.before" runs the hook command with
// {"hook_event_name": "tool.execute.before", "session_id", "tool_use_id",
// "cwd", "tool_name", "tool_input"} on stdin and reads {"decision":
// "allow"|"deny", "reason", "args"}: allow lets the call run (with args,
// a human's changes, merged into its arguments), anything else, a failed
// run or an answer it cannot read throws, which blocks the call and
// hands the message to the model. A plugin cannot ask, so an ask is a
// deny that says so (with a gateway, --on-ask wait holds it for a remote
// approver instead, the default for opencode).
const opencodeBefore = "tool.execute.before"

// opencode adapts the plugin's calls; its tools map to Claude Code's by
// opencodeTools.
type opencode struct{}

type opencodeInput struct {
	HookEventName string         `json:"hook_event_name"`
	SessionID     string         `json:"session_id"`
	ToolUseID     string         `json:"tool_use_id"`
	Cwd           string         `json:"cwd"`
	ToolName      string         `json:"tool_name"`
	ToolInput     map[string]any `json:"tool_input"`
}

// Input implements Adapter.
func (opencode) Input(data []byte) ([]byte, error) {
	var in opencodeInput
	if err := decodeInput("opencode", data, &in); err != nil {
		return nil, err
	}
	out := claudecode.Input{SessionID: in.SessionID, ToolUseID: in.ToolUseID, Cwd: in.Cwd, HookEventName: in.HookEventName,
		ToolName: in.ToolName, ToolInput: in.ToolInput}
	if in.HookEventName == opencodeBefore {
		out.HookEventName = claudecode.EventPreToolUse
		var err error
		if out.ToolName, out.ToolInput, err = mapTool(opencodeTools[:], in.ToolName, in.ToolInput); err != nil {
			return nil, fmt.Errorf("bad opencode hook input: %w", err)
		}
	} else {
		out.HookEventName = foreignEvent("opencode", in.HookEventName)
	}
	return json.Marshal(&out)
}

type opencodeOutput struct {
	Decision string         `json:"decision"`
	Reason   string         `json:"reason,omitempty"`
	Args     map[string]any `json:"args,omitempty"`
}

// opencodeToolName reads the opencode tool name back from a Claude Code
// one, for a human's changes to its arguments.
func opencodeToolName(tool string) string {
	for _, t := range opencodeTools {
		if t.tool == tool {
			return t.host
		}
	}
	return tool
}

// Answer implements Adapter.
func (opencode) Answer(ans *claudecode.Answer) ([]byte, string, int) {
	perm, reason, updated, ok := decision(ans)
	if !ok {
		return nil, ans.Stderr, ans.Exit
	}
	out := opencodeOutput{Decision: perm, Reason: reason}
	switch perm {
	case "allow":
		out.Reason = ""
		if updated != nil {
			out.Args = unmapArgs(opencodeTools[:], opencodeToolName(ans.Tool), updated)
		}
	case "ask":
		out.Decision = "deny"
		out.Reason = reason + " (needs a human's approval, and opencode plugins cannot ask: run the hook with a gateway and --on-ask=wait to approve it remotely)"
	}
	return encodeAnswer(&out)
}

// OpencodePlugin is the plugin file "toolgate hook install opencode"
// writes: it runs command (a shell command line) for every tool call and
// waits up to timeoutMS for its answer.
func OpencodePlugin(command string, timeoutMS int) []byte {
	cmd, _ := json.Marshal(command)
	return []byte(strings.TrimLeft(fmt.Sprintf(`
// %s %s
// Written by 'toolgate hook install opencode'; 'toolgate hook uninstall
// opencode' removes it. Every tool call goes to toolgate's hook first: a
// call it does not allow, or any failure to get its answer, is blocked.
import { spawn } from "node:child_process";

const COMMAND = %s;
const TIMEOUT_MS = %d;

function ask(call) {
  return new Promise((resolve) => {
    let out = "", err = "", done = false;
    const finish = (r) => { if (!done) { done = true; resolve(r); } };
    const child = spawn("/bin/sh", ["-c", COMMAND], { stdio: ["pipe", "pipe", "pipe"] });
    const timer = setTimeout(() => { child.kill("SIGKILL"); finish({ error: "no answer within " + TIMEOUT_MS + " ms" }); }, TIMEOUT_MS);
    child.stdout.on("data", (d) => { out += d; });
    child.stderr.on("data", (d) => { err += d; });
    child.on("error", (e) => { clearTimeout(timer); finish({ error: String(e) }); });
    child.on("close", (code) => { clearTimeout(timer); finish({ code, out, err }); });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(call));
  });
}

export const Toolgate = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const r = await ask({
      hook_event_name: "tool.execute.before",
      session_id: input.sessionID, tool_use_id: input.callID,
      cwd: directory, tool_name: input.tool, tool_input: output.args ?? {},
    });
    if (r.error || r.code !== 0) {
      throw new Error("toolgate: " + ((r.err || "").trim() || r.error || "hook exited " + r.code) + " (the call is blocked)");
    }
    let a;
    try { a = JSON.parse(r.out); } catch { throw new Error("toolgate: the hook's answer cannot be read (the call is blocked)"); }
    if (a && a.decision === "allow") {
      if (a.args && typeof a.args === "object") Object.assign(output.args, a.args);
      return;
    }
    throw new Error((a && a.reason) || "toolgate: denied");
  },
});
`, opencodeMarker, command, cmd, timeoutMS), "\n"))
}

// opencodeMarker starts the first line of the plugin file, followed by the
// hook command: uninstall and doctor find the plugin and its command by
// it.
const opencodeMarker = "toolgate-hook-command:"

// OpencodePluginCommand reads the hook command from a plugin file that
// OpencodePlugin wrote; ok is false for any other file.
func OpencodePluginCommand(data []byte) (cmd string, ok bool) {
	line, _, _ := strings.Cut(string(data), "\n")
	cmd, ok = strings.CutPrefix(line, "// "+opencodeMarker+" ")
	return cmd, ok && cmd != ""
}
