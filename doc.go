// Package toolgate holds the domain types of the toolgate tool-approval
// gateway: the call an agent wants to make, the decision the gate returns,
// the approvals, grants and events that follow, the vocabulary they are
// written in (actions, tiers, modes) and the coded error every surface
// maps to its own wire form.
//
// Gate is the service every surface is written against: approval.Broker
// implements it in process, client.Client over HTTP, and mock.Gate in
// tests; RequestApproval submits, waits and withdraws a call on any Gate,
// and Approval.Outcome and Explain word what the agent and a person read.
//
// The packages below it do the work: policy compiles rules and decides,
// shell analyses shell commands, approval holds calls for a human, store
// keeps them, server serves the HTTP API, and cmd/ wires them together
// (through internal/wire). Nothing in this package does I/O.
package toolgate
