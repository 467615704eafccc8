package pins_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate/integrations/mcpproxy/pins"
)

func TestDiff(t *testing.T) {
	t.Parallel()
	got := pins.Diff([]byte("{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3,\n  \"d\": 4\n}"), []byte("{\n  \"a\": 1,\n  \"b\": 5,\n  \"c\": 3,\n  \"d\": 4\n}"))
	want := "    \"a\": 1,\n-   \"b\": 2,\n+   \"b\": 5,\n    \"c\": 3,"
	if got != want {
		t.Errorf("Diff =\n%s\nwant\n%s", got, want)
	}
}

// TestFile: a missing file holds no pins; Set keeps a tool already
// pinned unless told to replace it; the hash is of the compact form.
func TestFile(t *testing.T) {
	t.Parallel()
	f := pins.Open(filepath.Join(t.TempDir(), "sub", "pins.json"))
	if all, err := f.All(); err != nil || len(all) != 0 {
		t.Fatalf("missing file: %v, %v", all, err)
	}
	now := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	if err := f.Set("srv", map[string][]byte{"a": []byte(`{"x": 1}`)}, pins.ByCommand, now, false); err != nil {
		t.Fatal(err)
	}
	if err := f.Set("srv", map[string][]byte{"a": []byte(`{"x":2}`), "b": []byte(`{}`)}, pins.ByFirstCall, now, false); err != nil {
		t.Fatal(err)
	}
	a, ok, err := f.Get("srv", "a")
	if err != nil || !ok || a.PinnedBy != pins.ByCommand || a.Hash != pins.Hash([]byte(`{"x":1}`)) {
		t.Fatalf("a = %+v, %v, %v: want the first pin kept", a, ok, err)
	}
	if err := f.Set("srv", map[string][]byte{"a": []byte(`{"x":2}`)}, pins.ByClient, now, true); err != nil {
		t.Fatal(err)
	}
	all, _ := f.All()
	if got := strings.Join(pins.Tools(all["srv"]), ","); got != "a,b" || all["srv"]["a"].PinnedBy != pins.ByClient {
		t.Fatalf("after replace: tools %s, %+v", got, all["srv"]["a"])
	}
}
