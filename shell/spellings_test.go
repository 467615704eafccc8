package shell

import (
	"net/url"
	"testing"
)

var unescapeSeeds = []string{
	"curl x/v1/approvals/a/%61pprove", "echo 100%", "%", "%4", "%41", "%4g", "a%2Fb%2fc", "%%41",
	"%E2%9C%93 ok", "%ff%FE", "plus+stays", "100% of %41", "trailing %2",
}

// TestDecodedAltAsPathUnescape: where url.PathUnescape accepts a text,
// decodedAlt decodes it the same; where it refuses one (a stray %), every
// valid escape still decodes and the stray % stays.
func TestDecodedAltAsPathUnescape(t *testing.T) {
	t.Parallel()
	for _, s := range unescapeSeeds {
		checkUnescape(t, s)
	}
}

func FuzzDecodedAlt(f *testing.F) {
	for _, s := range unescapeSeeds {
		f.Add(s)
	}
	f.Fuzz(checkUnescape)
}

func checkUnescape(t *testing.T, s string) {
	got, ok := decodedAlt(s)
	if !ok {
		got = s
	}
	if want, err := url.PathUnescape(s); err == nil && got != want {
		t.Errorf("decodedAlt(%q) = %q, url.PathUnescape gives %q", s, got, want)
	}
	if ok && got == s {
		t.Errorf("decodedAlt(%q) reports a change but returns the text", s)
	}
}
