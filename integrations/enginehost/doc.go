// Package enginehost speaks seed 000's JSON-lines tool approval protocol
// (DESIGN §8.1), both sides of it.
//
// The host side (Run, behind toolgate host -- ENGINE) runs an engine as a
// child process and answers the approval requests it emits on stdout:
// tool_request with tool_approve or tool_deny, approval_required (the
// hitl_suspend flow) with approval_resume. The rules answer at once what
// they allow or deny; the rest goes to a gateway's approvers through the
// HTTP client (Gateway), or is denied when there is no gateway (Local).
// The approver's scope becomes the engine's: a tool grant is "always", a
// prefix grant {"always_prefix":{"prefix":…}}, a question tool's answer
// goes in tool_approve's answer or approval_resume's modifications. Other
// events pass through to the host's stdout and other commands from its
// stdin to the engine; set_mode changes the session's mode at the gate.
//
// The engine side (NewEngine) is what a Go engine uses to emit the
// protocol: ready with capabilities, tool_request, tool_running,
// tool_cancelled, approval_required, suspend and approval_resume, reading
// tool_approve, tool_deny, approval_resume and set_mode. It keeps the
// seed engine's approval state: pending calls with a TTL (5 minutes) and a
// reaper (every 30 seconds) that denies them with "approval timed out (no
// host response)", the mode, the tool names approved "always" (by name,
// never by category) and the prefixes approved "always_prefix" (checked
// against every command of a chain with toolgate's shell analysis).
//
// On both sides a malformed line, an unknown type or a message missing a
// field gets an error event and never stops the stream; lines of any
// length up to DefaultMaxLineBytes are read.
package enginehost
