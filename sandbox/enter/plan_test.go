package enter

import (
	"bytes"
	"reflect"
	"testing"
)

// A plan reads back as it was written; a cut, padded or overlong one is
// refused (the inside half then runs nothing).
func TestPlanEncoding(t *testing.T) {
	t.Parallel()
	plan := &Plan{
		Args:          []string{"/usr/bin/env", "", "a b\x00c"},
		Env:           []string{"PATH=/usr/bin", "HOME=/home/u"},
		Pins:          []string{"/w/.git"},
		ReadOnly:      []string{"/w/.git/hooks", "/w/.git/config"},
		LandlockFlags: 7,
		ListenPort:    3128,
		Seccomp:       [][4]uint32{{0x20, 0, 0, 4}, {0x6, 1, 2, 0x7fff0000}},
	}
	b := plan.Encode()
	got, err := Read(bytes.NewReader(b))
	if err != nil || !reflect.DeepEqual(got, plan) {
		t.Fatalf("round trip: %+v, %v; want %+v", got, err, plan)
	}
	for n := range len(b) {
		if p, err := Read(bytes.NewReader(b[:n])); err == nil {
			t.Fatalf("a plan cut to %d of %d bytes was read: %+v", n, len(b), p)
		}
	}
	// The length says one byte more or less than the fields take.
	for _, delta := range []int{-1, 1} {
		c := append([]byte(nil), b...)
		c[0] = byte(int(c[0]) + delta)
		if delta > 0 {
			c = append(c, 0)
		}
		if p, err := Read(bytes.NewReader(c)); err == nil {
			t.Errorf("length off by %d: read %+v", delta, p)
		}
	}
}
