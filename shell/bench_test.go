package shell

import "testing"

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
