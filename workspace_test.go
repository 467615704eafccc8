package toolgate_test

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate"
)

func TestValidWorkspaceID(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		id string
		ok bool
	}{
		{"default", true}, {"shop", true}, {"My_App-2.0", true}, {"a", true}, {"con2", true}, {"console", true},
		{"COM10", true}, {"x.y.z", true}, {strings.Repeat("a", 128), true},
		{"", false}, {strings.Repeat("a", 129), false}, {".", false}, {"..", false}, {".hidden", false},
		{"-rf", false}, {"_x", false}, {"x.", false}, {"CON", false}, {"con", false}, {"Nul.txt", false},
		{"com1", false}, {"LPT9", false}, {"a/b", false}, {"a\\b", false}, {"a b", false}, {"é", false},
		{"a\x00", false}, {"~", false},
	} {
		if err := toolgate.ValidWorkspaceID(tc.id); (err == nil) != tc.ok {
			t.Errorf("%q: %v, want ok=%v", tc.id, err, tc.ok)
		} else if err != nil && toolgate.ErrorCodeOf(err) != toolgate.EInvalid {
			t.Errorf("%q: code %s", tc.id, toolgate.ErrorCodeOf(err))
		}
	}
}

func FuzzValidWorkspaceID(f *testing.F) {
	for _, s := range []string{"default", "CON", "-rf", ".hidden", "a/b", "x."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if toolgate.ValidWorkspaceID(id) != nil {
			return
		}
		// A valid id is one plain, visible directory name.
		if strings.ContainsAny(id, "/\\\x00 ") || id == "." || id == ".." || strings.HasPrefix(id, ".") || strings.HasPrefix(id, "-") {
			t.Fatalf("accepted %q", id)
		}
	})
}
