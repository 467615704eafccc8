// Package client is toolgate.Gate over the HTTP API: agents submit calls
// and wait for outcomes, approvers answer, admins manage grants, rules,
// sessions and the audit log. The admin command line, the Claude Code
// hook, the engine host, the MCP proxy and the TUI talk to a gateway
// through it, and the same code runs against the broker in process when
// given approval.Broker.Gate instead.
//
// It imports only the root package, so a program that only talks to a
// gateway links neither the rule engine nor the shell parser.
package client
