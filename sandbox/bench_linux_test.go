package sandbox

import (
	"os"
	"testing"
)

func benchProfile(b *testing.B) *Profile {
	home, _ := os.UserHomeDir()
	wd, _ := os.Getwd()
	p, err := Default(Options{Home: home, Workspaces: []string{wd}, Temp: []string{os.TempDir()}})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func BenchmarkDefault(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		benchProfile(b)
	}
}

func BenchmarkLandlockRules(b *testing.B) {
	p := benchProfile(b)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		paths, _ := landlockRules(p, 0)
		n = len(paths)
	}
	b.ReportMetric(float64(n), "rules")
}
