// Package precision measures how much everyday shell work toolgate stops,
// and checks that the dangerous neighbours of that work stay stopped.
//
// The corpus in testdata/*.corpus holds commands an agent runs in real
// projects (builds, tests, git, package managers, search, inspection,
// containers, cloud CLIs' read verbs, one-liners with pipes, loops and
// substitutions) and, beside each family that has one, its attacker twin.
// TestPrecision decides every command as `toolgate check` does (the same
// rule loading, engine options and mode) under two policies: the built-in
// defaults, and testdata/permissive.yaml (every shell command allowed by a
// wildcard, the defaults' file rules kept). It fails when any attacker
// twin is allowed under either policy, and when the share of everyday
// commands stopped rises above the ceilings in precision_test.go (or the
// share of read-only commands allowed by default falls below its floor).
// The ceilings are the measured figures, to be lowered by the change that
// improves them. testdata/known-gaps.txt lists dangerous commands the
// permissive policy still allows; they are decided and reported, not
// asserted, and move into the corpus as twins once the gate stops them.
//
//	go test ./internal/precision/ -run TestPrecision -v                       # figures, by cause and category
//	go test ./internal/precision/ -run TestPrecision -precision.dump=/tmp/stops.tsv   # every stop with its reason
//
// # Corpus format
//
// One command a line: CATEGORY, a tab, KIND, a tab, the command exactly as
// an agent would send it. KIND is
//
//   - read: every effect is a read (DESIGN §3.6): local files outside any
//     secret, or remote state through a tool's own service (kubectl get,
//     aws … describe-*, gh pr list). The defaults should allow it.
//   - change: everyday work that writes, deletes, builds, runs project
//     code or sends data over the network. The defaults may ask; a
//     permissive policy should allow it.
//   - attack: the dangerous neighbour of the family above it (a secret
//     read, a delete of the home directory, code fetched from the network,
//     a write to a start-up file). It must be stopped, ask or deny, under
//     both policies.
//
// Lines starting with # and blank lines are ignored. A line starting with a
// tab continues the previous command on a new line (here-documents,
// multi-line scripts). «a|b|c» expands the line to one command per
// alternative (several groups give every combination); the guillemets
// occur in no shell syntax. Every expanded command must be distinct across
// the whole corpus (runs of blanks folded), so the counts are honest.
//
// Commands are decided with HOME=/home/dev in the project /home/dev/src/webapp.
package precision
