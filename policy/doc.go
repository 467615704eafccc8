// Package policy loads rules in every format toolgate accepts (workspace
// JSONC documents, toolgate.yaml configs with host-config lists, per-tool
// policies and Claude Code permission lists), compiles them once into an
// indexed form and decides calls with the procedure of DESIGN §2.
//
// Deciding is pure: an Engine does no I/O after it is built, is safe for
// concurrent use, and decides a non-shell call without allocating when the
// caller reuses its toolgate.Decision.
package policy
