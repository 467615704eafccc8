package shell

import "testing"

func TestSuggest(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src, want string
		ok        bool
	}{
		// Seed 001 examples.
		{"git push origin main", "git push *", true},
		{"npm run build", "npm run build", true},
		{"cat README.md", "cat *", true},
		{"npm run build -- --watch", "npm run build *", true},
		{"npm install", "npm install", true},
		{"docker compose up -d", "docker compose up *", true},
		{"git stash pop", "git stash pop", true},
		{"gh pr view 12", "gh pr view *", true},
		{"aws s3 ls", "aws s3 ls", true},
		{"git status", "git status", true},
		{"ls", "ls", true},
		{"make test", "make *", true},
		{"/usr/bin/git push", "/usr/bin/git push", true},
		{"git commit -m 'a b'", "git commit *", true},
		// Seed 001: "Arity 2 — tools with subcommands (first two tokens form
		// the command): git, npm, bun, …" and "Arity 3 — … bun run".
		{"bun test", "bun test", true},
		{"bun test --watch", "bun test *", true},
		{"bun install", "bun install", true},
		{"bun add react", "bun add *", true},
		{"bun run dev", "bun run dev", true},
		{"bun run build --minify", "bun run build *", true},
		{"bunx cowsay hi", "bunx cowsay *", true},
		// bun running code is still code: granted once only.
		{"bun -e 'console.log(1)'", "", false},
		{"bun --eval 1", "", false},
		{"bun script.ts", "", false},
		{"bun ./script.ts", "", false},
		{"bun x cowsay", "", false},
		{"bun run script.ts", "", false},
		{"bun run ./tools/gen", "", false},
		{"bun run", "", false},
		{"bun repl", "", false},
		// Never suggested.
		{"bash -c ls", "", false},
		{"sh script.sh", "", false},
		{"python3 -c 'print(1)'", "", false},
		{"node -e 1", "", false},
		{"env", "", false},
		{"sudo ls", "", false},
		{"xargs echo", "", false},
		{"eval ls", "", false},
		{"ssh host", "", false},
		{"find . -exec cat {} ;", "", false}, // reads every file below: -exec keeps its flag
		{"PAGER=cat git log", "", false},
		{"X=1", "", false},
		{"export X=1", "", false},
		{"$CMD x", "", false},
		{"ls *.go", "ls *", true},
		{"rm -rf *", "rm *", true},
		{"git checkout 'feat*'", "git checkout *", true},
		{"git 'log*' x", "", false},
		{"cat", "cat", true},
	}
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			res := analyze(t, tc.src)
			got, ok := testAnalyzer.Suggest(res.Commands[0])
			if got != tc.want || ok != tc.ok {
				t.Errorf("Suggest(%q) = %q, %v; want %q, %v", tc.src, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestWithArity(t *testing.T) {
	t.Parallel()
	a := New(WithArity(map[string]int{"make": 2, "git push": 3, "cargo": 1}))
	for _, tc := range []struct{ src, want string }{
		{"make test extra", "make test *"},
		{"git push origin main", "git push origin *"},
		{"cargo build --release", "cargo *"},
		{"npm run build", "npm run build"},
	} {
		res, _ := a.Analyze(tc.src)
		if got, _ := a.Suggest(res.Commands[0]); got != tc.want {
			t.Errorf("Suggest(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
	// Analyzers without the entries keep the built-in table, which the
	// others share until they add entries.
	plain := New(WithArity(nil))
	for _, tc := range []struct{ src, want string }{
		{"make test extra", "make *"},
		{"git push origin main", "git push *"},
		{"cargo build --release", "cargo build *"},
	} {
		res, _ := plain.Analyze(tc.src)
		if got, _ := plain.Suggest(res.Commands[0]); got != tc.want {
			t.Errorf("without entries, Suggest(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}
