// Package confirm serves seed 004's event-based tool confirmation over
// the approval broker:
//
//   - toolConfirmationRequest {toolName, args, description?, executionId,
//     timestamp, sessionId} messages on an event stream of their own, GET
//     /api/events, as Server-Sent Events or WebSocket messages shaped
//     {type, data} like seed 004's WebSocket bridge; a WebSocket client
//     may answer with {type: "toolConfirmationResponse", data:
//     {executionId, approved, rememberChoice?, sessionId?}};
//   - POST /api/tool-confirmation/{executionId} {approved, rememberChoice?,
//     sessionId?} → {success: true}, or 404 {error: "Confirmation not
//     found or expired"}; the executionId is the approval's id;
//   - POST /api/tool-confirmation, for hosts: submit a call and wait, up to
//     the configured timeout (30 s by default), for its outcome; no answer
//     in time denies it.
//
// The toolConfirmation config section maps onto toolgate: mode
// event-based / auto-approve / auto-deny is the session mode default /
// yolo / auto-deny: auto-approve approves what the built-in defaults would
// ask but not what a rule a person wrote asks or denies, nor a secret the
// defaults deny; auto-deny denies every call;
// rememberChoice approves at session scope when the answer names the
// session and globally otherwise, with a tool grant, and the engine looks
// session grants up before global ones; allowedToolsStorage "storage"
// keeps those grants persisted, "memory" revokes them when the process
// stops and, after a crash, when the next one starts.
//
// A denial, by a human or by the timeout, is soft: the model is told and
// the agent goes on. See docs/protocols/confirm.md.
package confirm
