// Package notify pushes pending approvals to people away from their
// terminal (DESIGN §7.7) and takes their answers back.
//
// A Dispatcher follows the broker's event stream and hands every new
// pending approval that passes a notifier's Filter to that notifier, then
// tells it when the approval resolved so it can edit or retract its
// message. Each notifier has its own queue and worker: one that fails
// (its API down, rate limited) retries with backoff without holding up
// the others, the broker or any decision, and its health shows in
// /metrics and the log.
//
// Notifiers whose buttons are plain links (ntfy, webhook) carry signed
// one-time answer links (Links): each is bound to one approval, one
// answer, an expiry and the recipient it was issued to, works once, and
// is useless for any other approval. No credential is ever put in a
// notification. Telegram's buttons come back through the bot's own
// getUpdates long poll and count only for the configured approver ids.
//
// The implementations are in the subpackages telegram, ntfy and webhook.
package notify
