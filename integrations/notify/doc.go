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
// No credential is ever put in a notification, and a button answers only
// for a person the gateway can tell: Telegram's presses come back through
// the bot's own getUpdates long poll and count only for the configured
// approver ids; Slack's come to the gateway signed by Slack
// (slack.ActionsPath) and count only for the configured Slack user ids;
// ntfy's button opens the approval in the web inbox, where the person
// answers with their own session. A webhook's receiver gets signed
// one-time answer links (Links): each is bound to one approval, one
// answer, an expiry and the recipient it was issued to, works once, and
// is useless for any other approval.
//
// The implementations are in the subpackages telegram, slack, ntfy and
// webhook.
package notify
