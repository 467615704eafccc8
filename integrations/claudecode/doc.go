// Package claudecode puts toolgate in front of Claude Code (and, through
// package hosts, the agents whose hooks are like it) through its hooks: it
// reads the hook input JSON, turns it into a toolgate.Call, decides it
// locally with the policy engine or through a gateway, and answers in the
// exact JSON the agent expects. The same logic
// serves command hooks (toolgate hook claude-code) and HTTP hooks
// (hookhttp.NewHandler, mounted at POST /hooks/claude-code).
//
// # Wire formats relied on
//
// From Claude Code's hooks reference (code.claude.com/docs/en/hooks) and
// the Codex hook schemas (openai/codex codex-rs/hooks/schema/generated and
// codex-rs/hooks/src/engine/output_parser.rs):
//
//   - Input, on stdin (command hooks) or as the POST body (HTTP hooks):
//     session_id, transcript_path (Codex: may be null), cwd,
//     permission_mode, hook_event_name, tool_name, tool_input (an object),
//     tool_use_id, and for subagents agent_id and agent_type. Codex adds
//     turn_id and model; Claude Code's PermissionRequest adds
//     permission_suggestions. Unknown fields are ignored: both agents add
//     fields over time.
//   - PreToolUse output: {"hookSpecificOutput": {"hookEventName":
//     "PreToolUse", "permissionDecision": "allow"|"deny"|"ask",
//     "permissionDecisionReason": "…", "updatedInput": {…}}}. The reason of
//     a deny is shown to the model, the reason of an ask to the user in the
//     permission prompt. A hook's allow skips Claude Code's prompt but not
//     its own deny and ask rules.
//   - PermissionRequest output: {"hookSpecificOutput": {"hookEventName":
//     "PermissionRequest", "decision": {"behavior": "allow"|"deny",
//     "message": "…", "updatedInput": {…}}}}. No decision leaves the
//     permission dialog to the user.
//   - Exit codes: JSON on stdout is read only on exit 0. Exit 2 is a
//     blocking error: stdout is ignored and stderr is fed to the model; for
//     PreToolUse it blocks the call, for PermissionRequest it denies. Any
//     other exit code, a crash of the hook that is not exit 2, and a hook
//     that runs past its timeout are NON-blocking errors: the call goes on
//     through the agent's normal permission flow. HTTP hooks are the same:
//     a non-2xx answer, a timeout or a refused connection is non-blocking.
//     So every decision here exits 0 with JSON, an input that cannot be
//     read at all exits 2, and the hook never exits 1 for a tool event.
//   - UserPromptSubmit fires when the user sends a prompt, before the
//     model sees it. Input: session_id, transcript_path, cwd,
//     permission_mode, hook_event_name, prompt (Codex adds turn_id and
//     model, and agent_id/agent_type for a subagent's prompt). Exit 0
//     with no output lets the prompt through unchanged (stdout on exit 0
//     is added to the model's context); exit 2 or {"decision": "block"}
//     rejects and erases it. The hook uses the event to end the session's
//     turn at a gateway (the user spoke again: a hard deny's stop flag
//     clears) and always answers exit 0 with no output, even on failure:
//     blocking the prompt would lock the user out. Matchers do not apply.
//   - Codex reads the same input and output shapes but accepts less
//     (output_parser.rs): PreToolUse honours only "deny" (with a non-empty
//     reason); a bare "allow" and "ask" are rejected as unsupported, and a
//     rejected output lets the call proceed. PermissionRequest accepts
//     behavior allow|deny and rejects updatedInput. This package answers
//     in Claude Code's format and keeps a Codex input's turn_id in the
//     Answer; package hosts renders Codex's subset (hosts.CodexOutput),
//     for the Codex host and for a Codex input given to this hook: allow
//     as no decision at all, ask as deny with the reason, and an allow
//     that holds only with updatedInput (a human's changes, a command
//     rewritten to run in the kernel sandbox) as a deny that says so.
package claudecode
