package shell

import (
	"slices"
	"testing"
)

// TestAnalyzeEnv checks which words are read with the caller's
// environment: a variable the command line does not change, whose value
// is one word; everything else keeps its source form, and a file through
// a variable nobody knows is marked Unknown.
func TestAnalyzeEnv(t *testing.T) {
	t.Parallel()
	env := map[string]string{"HOME": "/home/me", "CFG": "/srv/cfg", "EMPTY": "", "SPACED": "a b", "GLOB": "*.go"}
	vars := func(name string) (string, bool, bool) {
		if name == "PWD" {
			return "/work/p", true, true
		}
		v, ok := env[name]
		return v, ok, true
	}
	cases := []struct {
		src     string
		files   []string // r:PATH or w:PATH
		unknown bool     // the first file is Unknown
	}{
		{"cat $CFG/gh/hosts.yml", []string{"r:/srv/cfg/gh/hosts.yml"}, false},
		{`cat "${CFG}/x y"`, []string{"r:/srv/cfg/x y"}, false},
		{"cat $PWD/README.md", []string{"r:/work/p/README.md"}, false},
		{"wc -l ${UNSET:-build}/x", []string{"r:build/x"}, false},
		{"cat ${UNSET:-~/notes}", []string{"r:/home/me/notes"}, false},
		{"cat ${EMPTY:-dflt} ${EMPTY-kept}x", []string{"r:dflt", "r:x"}, false},
		{"echo x > $CFG/out", []string{"w:/srv/cfg/out"}, false},
		// Not resolved: split or globbed values, assigned variables, cd.
		{"cat $SPACED", []string{"r:$SPACED"}, true},
		{"cat $GLOB", []string{"r:$GLOB"}, true},
		{"CFG=/etc; cat $CFG/passwd", []string{"r:$CFG/passwd"}, false}, // Alts: /etc/passwd
		{"read CFG; cat $CFG/x", []string{"r:$CFG/x"}, true},
		{"cd /tmp; cat $PWD/x", []string{"r:$PWD/x"}, true},
		{"eval x; cat $CFG/x", []string{"r:$CFG/x"}, true},
		// An operator's result is not computed: with CFG's value known,
		// ${CFG%.pub} is still a file nobody named.
		{"cat ${CFG#/}", []string{"r:${CFG#/}"}, true},
	}
	a := New(WithHome("/home/me"))
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			res, err := a.AnalyzeEnv(tc.src, vars)
			if err != nil {
				t.Fatal(err)
			}
			if got := fileList(res); !slices.Equal(got, tc.files) {
				t.Errorf("files %q, want %q\n%s", got, tc.files, dump(res))
			}
			if len(res.Files) > 0 && res.Files[0].Unknown != tc.unknown {
				t.Errorf("Unknown %v, want %v", res.Files[0].Unknown, tc.unknown)
			}
		})
	}
}
