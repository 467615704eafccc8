package jsonstr

import (
	"bytes"
	"encoding/json"
	"testing"
)

// seeds are strings that reach every branch of Append.
var seeds = []string{"", "plain", "a\"b\\c", "\x00\x1f\x7f<>&", "\b\f\n\r\t", "\u2028\u2029é", "\xff", "\xe2\x80", "日本<script>&amp;"}

func TestAppend(t *testing.T) {
	t.Parallel()
	for _, s := range seeds {
		for _, html := range []bool{false, true} {
			if got, want := Append(nil, s, html), encoded(t, s, html); !bytes.Equal(got, want) {
				t.Errorf("Append(%q, html=%v) = %s, want %s", s, html, got, want)
			}
		}
	}
}

func FuzzAppend(f *testing.F) {
	for _, s := range seeds {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, html bool) {
		if got, want := Append(nil, s, html), encoded(t, s, html); !bytes.Equal(got, want) {
			t.Fatalf("Append(%q, html=%v) = %s, want %s", s, html, got, want)
		}
	})
}

// encoded is encoding/json's encoding of s.
func encoded(t *testing.T, s string, html bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
