// Package client is the Go client for toolgate's HTTP API: agents submit
// calls and wait for outcomes, approvers answer, admins manage grants,
// rules, sessions and the audit log. The admin command line, the Claude
// Code hook and the MCP proxy all talk to a gateway through it.
package client
