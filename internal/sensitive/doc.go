// Package sensitive holds the one list of paths whose contents are secrets
// (credential files) or whose writing changes how an agent or its tools
// behave (agent and tool configuration). The shell analysis classifies file
// subjects with it (credential access, tampering, DESIGN §3.5) and the
// policy builds its built-in default rules from it (DESIGN §3.6), so the
// two can never disagree.
//
// The tables are unexported; Entries returns a copy and Lookup classifies a
// path without allocating.
package sensitive
