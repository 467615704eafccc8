package shell

import (
	"fmt"
	"strings"
	"testing"
)

var benchCases = []struct{ name, src string }{
	{"pipeline3", "git log --oneline | grep fix | head -5"},
	{"simple", "git status"},
	{"chain", "cargo build && cargo test -- --nocapture; echo done"},
	{"wrappers", "sudo env FOO=1 nice -n 5 nohup rm -rf ./build"},
	{"bash-c", `bash -c 'cd /tmp && tar -xzf a.tgz && ls -la'`},
	{"substitution", `echo "$(date +%s)" > out.txt && cat out.txt | wc -l`},
}

func BenchmarkAnalyze(b *testing.B) {
	a := New(WithHome("/home/me"))
	for _, bc := range benchCases {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := a.Analyze(bc.src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkAnalyzeParallel(b *testing.B) {
	a := New()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := a.Analyze("git log --oneline | grep fix | head -5"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkAnalyzePathological analyses each pathological input at the
// size the default byte limit allows (issue 13), reporting the cost per
// input byte.
func BenchmarkAnalyzePathological(b *testing.B) {
	a := New(WithHome("/home/me"))
	for _, p := range pathological {
		src := p.gen(fit(p.gen, DefaultMaxBytes))
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := a.Analyze(src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAnalyzeScript analyses scripts of 10, 100 and 1,000 ordinary
// lines, which stay inside the budget.
func BenchmarkAnalyzeScript(b *testing.B) {
	a := New(WithHome("/home/me"))
	for _, n := range []int{10, 100, 1000} {
		var sb strings.Builder
		for i := range n {
			sb.WriteString(benchCases[i%len(benchCases)].src)
			sb.WriteByte('\n')
		}
		src := sb.String()
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				res, err := a.Analyze(src)
				if err != nil || res.Exceeded != "" {
					b.Fatal(err, res.Exceeded)
				}
			}
		})
	}
}
