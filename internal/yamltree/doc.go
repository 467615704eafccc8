// Package yamltree reads YAML config files into a tree of nodes that keep
// their positions, in two tiers:
//
//   - ReadSubset reads the plain subset toolgate configs are written in:
//     block mappings and sequences, single-line plain, single- and
//     double-quoted scalars, single-line flow sequences and mappings of
//     scalars, and comments. It is small, allocates little and has no
//     package initialisation, so the per-call hook can read configs
//     without linking a full YAML parser (go.yaml.in/yaml/v3 compiles
//     regular expressions and builds tables at start-up).
//   - Anything else (anchors and aliases, tags, block scalars, multi-line
//     scalars, "---", tabs, CRLF, syntax errors…) is ErrOutsideSubset,
//     and Read hands the whole document to the full reader a binary
//     registers (package yamltree/yamlv3). A binary without one reports
//     the error: the lean hook checks its configs up front and hands such
//     runs to the full toolgate binary.
//
// Inside the subset, ReadSubset's tree equals the full reader's, node for
// node, with the same values, resolved tags, lines and columns: a
// differential fuzzer holds the two to that. Outside it, ReadSubset never
// guesses.
package yamltree
