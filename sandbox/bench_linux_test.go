//go:build linux && (amd64 || arm64)

package sandbox

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
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

// BenchmarkPlan is what Run does before its fork: the profile, the
// Landlock ruleset (the walk, and a rule each), the filter, the paths to
// protect.
func BenchmarkPlan(b *testing.B) {
	home, _ := os.UserHomeDir()
	wd, _ := os.Getwd()
	o := Options{Home: home, Workspaces: []string{wd}, Temp: []string{os.TempDir()}}
	b.ReportAllocs()
	for b.Loop() {
		pl := makePlan(Command{MakeProfile: func() (*Profile, error) { return Default(o) }})
		if pl.err != nil {
			b.Fatal(pl.err)
		}
		unix.Close(pl.ruleset)
	}
}
