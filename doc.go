// Package toolgate holds the domain types of the toolgate tool-approval
// gateway: the call an agent wants to make, the decision the gate returns,
// the vocabulary both are written in (actions, tiers, modes) and the coded
// error every surface maps to its own wire form.
//
// The packages below it do the work: policy compiles rules and decides,
// shell analyses shell commands, and cmd/toolgate wires them together.
// Nothing in this package does I/O.
package toolgate
