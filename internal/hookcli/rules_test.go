package hookcli

import "testing"

func TestGatewayURL(t *testing.T) {
	t.Setenv("TOOLGATE_URL", "http://inherited:8787")
	for _, c := range []struct {
		server string
		local  bool
		want   string
		err    bool
	}{
		{"", false, "http://inherited:8787", false},
		{"", true, "", false},
		{"http://explicit:1", false, "http://explicit:1", false},
		{"http://explicit:1", true, "", true},
	} {
		got, err := GatewayURL(c.server, c.local)
		if got != c.want || (err != nil) != c.err {
			t.Errorf("GatewayURL(%q, %v) = %q, %v; want %q, error %v", c.server, c.local, got, err, c.want, c.err)
		}
	}
	t.Setenv("TOOLGATE_URL", "")
	if got, err := GatewayURL("", false); got != "" || err != nil {
		t.Errorf("no gateway anywhere: %q %v", got, err)
	}
}
