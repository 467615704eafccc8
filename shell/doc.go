// Package shell analyses shell commands for the gate: it parses them with a
// real bash parser (mvdan.cc/sh/v3/syntax) and reports every simple command
// as a subject for the rules, the files the commands read and write, and the
// risks that must reach a human: critical patterns such as recursive rm of
// the root and constructs such as command substitution that no prefix can
// vet. It also suggests "always" patterns from the seed arity table.
//
// Analysis errs on the side of more subjects: a construct it cannot see
// through becomes an opaque subject, never a hidden one.
//
// # Commands as data
//
// What a known command does is one entry of the command table (cmdSpec,
// commands.go), written by family and merged into one entry per command
// on first use:
//
//   - the risk family (riskCommands, specs.go): the command's effects and
//     risk classes, and those of its options and operands;
//   - the exec family (execCommands, commands_exec.go): options that run a
//     program or write files no wildcard allow vouches for (find -exec,
//     rg --pre), the options whose value is a shell command line (rsync
//     -e, git rebase -x), git's global options (git -C DIR push);
//   - the file family (fileCommands, commands_files.go): the files an
//     option's value names (its role: read, write, output, destination
//     directory, archive, working directory; its form: "@file",
//     "name=<file", REV:PATH …), the mode an option switches (tar -x, gzip
//     -d, curl -O, sed -i) and the operand layout (every operand read,
//     sources and a destination, the first operand written …);
//   - the wrapper family (wrapCommands, commands_wrap.go): commands that
//     run the command following their options and positional operands
//     (env, nice, sudo, timeout DURATION), with what their options are
//     (short letters, -N counts, NAME=value assignments, values only
//     attached), whether the wrapper is a subject itself and which options
//     leave no command to run. A wrapper's options are strict: one its
//     entry does not know, or abbreviates ambiguously, keeps the wrapper
//     an opaque subject, and the command after it is still looked for.
//     The options of xargs and parallel are wrapper entries too, read
//     the same way;
//   - the launcher family (launchCommands, launchers.go): the forms in
//     which a command runs another after a subcommand, options and
//     operands (ssh HOST CMD, docker exec C CMD, kubectl exec POD -- CMD,
//     tmux new-window CMD), each form's options a wrapper entry; whether
//     the command runs elsewhere (it then only restricts), is one shell
//     string, or keystrokes.
//
// Every check reads a command line through one option parser (scan,
// optparse.go), the risk classes included (classify matches the options
// and operands scan found, with their resolved names and values; a value
// word that looks like an option is read as options too, fail closed): GNU long options resolved to the option they are a unique
// prefix of (an ambiguous abbreviation stands for every option it may be,
// so none of their effects is lost), clusters of short options up to the
// one that takes a value, "--", old-style bundled letters (tar czf),
// one-dash long options (find -exec), subcommands after global options and
// a wrapper's command after its positional operands.
//
// Adding a command, or the effect of one of its options, is adding data to
// a family, with a decision case in policy/testdata/decide: for example a
// reader is {files: readAll, shortVal: "n", long: []string{"lines="}}, an
// uploader's file option {names: []string{"-T"}, file: fileRead}, an
// exec-capable option {names: []string{"--pre"}, exec: true}.
//
// Some arguments are a language of their own, not options: sed scripts
// (w, r, e commands), awk programs (system(), pipes, print > file), jq
// filters and their --slurpfile/--rawfile pairs, git config's set and get
// forms, the targets a patch's headers name, dd's if=/of= operands, and the
// guess whether git checkout's lone operand is a branch or a path. Those
// stay code, because a table of options cannot describe a grammar; the
// table names the code (rareSpec.analyse for exec-capable words, fileCode
// for files), so a reader of the table still sees which command has it.
package shell
