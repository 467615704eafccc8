package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/toolgate/toolgate/internal/clibase"
)

// runCompletion prints a shell completion script for bash, zsh or fish:
// the commands and their subcommands, each with its one-line summary.
func runCompletion(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	const usage = "usage: toolgate completion bash|zsh|fish (e.g. source <(toolgate completion bash))"
	if len(args) != 1 {
		return clibase.UsageErrorf(usage)
	}
	tree := completionTree(ctx)
	switch args[0] {
	case "bash":
		return writeBash(stdout, tree)
	case "zsh":
		return writeZsh(stdout, tree)
	case "fish":
		return writeFish(stdout, tree)
	case "-h", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	return clibase.UsageErrorf("%s", usage)
}

// entry is a command or subcommand and its summary.
type entry struct{ name, summary string }

// node is a command and its subcommands.
type node struct {
	entry
	subs []entry
}

// completionTree lists every command with its subcommands, read from the
// commands' own help ("toolgate NAME -h" of a command with subcommands
// lists them), so the scripts cannot drift from the dispatch tables.
func completionTree(ctx context.Context) []node {
	var tree []node
	for _, c := range commands() {
		n := node{entry: entry{c.name, c.summary}}
		if c.name != "completion" {
			var out bytes.Buffer
			_ = c.run(ctx, []string{"-h"}, strings.NewReader(""), &out, io.Discard)
			n.subs = parseSubcommands(c.name, out.String())
		}
		tree = append(tree, n)
	}
	return tree
}

// parseSubcommands reads the list that subcommands prints for -h.
func parseSubcommands(name, help string) []entry {
	if !strings.HasPrefix(help, "Usage: toolgate "+name+" COMMAND") {
		return nil
	}
	var subs []entry
	sc := bufio.NewScanner(strings.NewReader(help))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "  ") {
			continue
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		subs = append(subs, entry{f[0], strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), f[0]))})
	}
	return subs
}

// quote single-quotes s for bash, zsh and fish alike.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func names(es []entry) string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(e.name)
	}
	return b.String()
}

func writeBash(w io.Writer, tree []node) error {
	var cmds []entry
	for _, n := range tree {
		cmds = append(cmds, n.entry)
	}
	var b strings.Builder
	b.WriteString("# bash completion for toolgate: source <(toolgate completion bash)\n")
	b.WriteString("_toolgate() {\n\tlocal cur=${COMP_WORDS[COMP_CWORD]}\n")
	fmt.Fprintf(&b, "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n\t\tCOMPREPLY=($(compgen -W %s -- \"$cur\"))\n\t\treturn\n\tfi\n", quote(names(cmds)))
	b.WriteString("\tif [ \"$COMP_CWORD\" -eq 2 ]; then\n\t\tcase ${COMP_WORDS[1]} in\n")
	for _, n := range tree {
		if len(n.subs) > 0 {
			fmt.Fprintf(&b, "\t\t%s) COMPREPLY=($(compgen -W %s -- \"$cur\")); return ;;\n", n.name, quote(names(n.subs)))
		}
	}
	b.WriteString("\t\tesac\n\tfi\n\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n}\ncomplete -o filenames -F _toolgate toolgate\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func zshList(es []entry) string {
	var parts []string
	for _, e := range es {
		parts = append(parts, quote(e.name+":"+e.summary))
	}
	return strings.Join(parts, " ")
}

func writeZsh(w io.Writer, tree []node) error {
	var cmds []entry
	for _, n := range tree {
		cmds = append(cmds, n.entry)
	}
	var b strings.Builder
	b.WriteString("#compdef toolgate\n# zsh completion for toolgate: source <(toolgate completion zsh)\n")
	b.WriteString("_toolgate() {\n\tlocal -a cmds subs\n")
	fmt.Fprintf(&b, "\tcmds=(%s)\n", zshList(cmds))
	b.WriteString("\tif (( CURRENT == 2 )); then\n\t\t_describe command cmds\n\t\treturn\n\tfi\n")
	b.WriteString("\tif (( CURRENT == 3 )); then\n\t\tcase $words[2] in\n")
	for _, n := range tree {
		if len(n.subs) > 0 {
			fmt.Fprintf(&b, "\t\t%s) subs=(%s); _describe subcommand subs; return ;;\n", n.name, zshList(n.subs))
		}
	}
	b.WriteString("\t\tesac\n\tfi\n\t_files\n}\ncompdef _toolgate toolgate\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func writeFish(w io.Writer, tree []node) error {
	var b strings.Builder
	b.WriteString("# fish completion for toolgate: toolgate completion fish | source\n")
	var all []string
	for _, n := range tree {
		all = append(all, n.name)
	}
	for _, n := range tree {
		fmt.Fprintf(&b, "complete -c toolgate -n %s -a %s -d %s\n", quote("not __fish_seen_subcommand_from "+strings.Join(all, " ")), n.name, quote(n.summary))
	}
	for _, n := range tree {
		if len(n.subs) == 0 {
			continue
		}
		for _, s := range n.subs {
			fmt.Fprintf(&b, "complete -c toolgate -f -n %s -a %s -d %s\n", quote("__fish_seen_subcommand_from "+n.name+"; and not __fish_seen_subcommand_from "+names(n.subs)), s.name, quote(s.summary))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
