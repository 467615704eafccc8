// Package trpc serves seed 001's tRPC procedures over the tRPC HTTP wire
// format, so a stock tRPC client (@trpc/client v11 with httpBatchLink,
// httpLink and httpSubscriptionLink) works against toolgate unchanged:
//
//   - tool.approve {sessionId, approvalId, always?} → {applied} (mutation)
//   - tool.deny {sessionId, approvalId, feedback?} → {applied} (mutation)
//   - agent.onEvents {sessionId?, workerId?} (subscription, Server-Sent
//     Events) carrying tool_approval_required {type, approvalId, toolName,
//     arguments, sessionId}, with every pending approval replayed on
//     (re)connect.
//
// It is a thin adapter over the approval broker: answers go through its
// Gate (Approve and Deny, as the caller), a pipeline's "always" rules
// through GrantSuggestions, events come from Subscribe.
//
// # Answers
//
// applied is false, never an error, when the approval is unknown, already
// resolved (answered, expired, cancelled), or belongs to another session
// than sessionId. always: true approves at workspace scope with the
// decision's arity-pattern suggestions ("git push origin main" → "git push
// *"): the broker appends the rule to the workspace's permissions.jsonc and
// it works in the session at once, and every pending approval it now
// allows resolves (the cascade). A call the rules suggest no pattern for
// (an interpreter, a wrapper, an opaque command) is approved once only.
// tool.deny is a soft deny: this call is denied, the feedback goes back to
// the model as the tool result with a reminder to ask the user how to
// proceed, and the agent goes on (seed 001's agent continues after a
// rejection).
//
// # Wire format
//
// Queries are GET /trpc/PATH?input=JSON, mutations POST /trpc/PATH with
// the input as the JSON body (no transformer), batches join paths with
// commas and add ?batch=1 with the inputs as {"0": …, "1": …}. A result is
// {"result":{"data":…}}, an error {"error":{"message","code","data":
// {"code","httpStatus","path"}}} with tRPC's JSON-RPC codes and HTTP
// statuses; a batch answers an array, with status 207 when its items'
// statuses differ. A subscription is GET /trpc/agent.onEvents?input=JSON
// answered with Server-Sent Events: "connected", then one unnamed event
// per data item, "ping" every heartbeat, and "serialized-error" for an
// error. See docs/protocols/trpc.md.
package trpc
