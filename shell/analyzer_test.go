package shell

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func TestParseError(t *testing.T) {
	t.Parallel()
	for _, src := range []string{"echo 'unterminated", "if then fi", "echo $(", "( ls"} {
		res, err := testAnalyzer.Analyze(src)
		if err == nil || res != nil {
			t.Errorf("Analyze(%q) = %v, %v; want error", src, res, err)
			continue
		}
		var pe syntax.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Analyze(%q) error %v does not wrap syntax.ParseError", src, err)
		}
		if !strings.Contains(err.Error(), "cannot parse") {
			t.Errorf("unclear message: %v", err)
		}
	}
}

func TestMaxBytes(t *testing.T) {
	t.Parallel()
	a := New(WithMaxBytes(10))
	if _, err := a.Analyze("echo 12345678901"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("err = %v, want ErrTooLarge", err)
	}
	if _, err := a.Analyze("echo 1"); err != nil {
		t.Errorf("small: %v", err)
	}
	big := strings.Repeat("x", DefaultMaxBytes+1)
	if _, err := New().Analyze(big); !errors.Is(err, ErrTooLarge) {
		t.Errorf("default limit: %v", err)
	}
}

func TestMaxDepth(t *testing.T) {
	t.Parallel()
	src := `bash -c "bash -c 'rm -rf x'"`
	res, err := New(WithMaxDepth(1)).Analyze(src)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := findCmd(res, "bash -c rm -rf x")
	if !ok || !c.Opaque {
		t.Errorf("depth 1: inner bash -c not opaque\n%s", dump(res))
	}
	if matchesDeny(res, "rm") {
		t.Errorf("depth 1: parsed too deep\n%s", dump(res))
	}
	res, _ = New(WithMaxDepth(0)).Analyze("eval ls; bash -c ls")
	for _, c := range res.Commands {
		if c.Name == "ls" {
			t.Errorf("depth 0 parsed a nested script: %+v", c)
		}
	}
	res, _ = New().Analyze(src)
	if !matchesDeny(res, "rm") {
		t.Errorf("default depth: rm not found\n%s", dump(res))
	}
	// Unparsable nested script: the shell command is opaque.
	res, _ = New().Analyze(`bash -c 'echo "unterminated'`)
	if c, ok := findCmd(res, `bash -c echo "unterminated`); !ok || !c.Opaque {
		t.Errorf("unparsable script not opaque\n%s", dump(res))
	}
}

func TestConcurrent(t *testing.T) {
	t.Parallel()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 200 {
				src := benchCases[(i+j)%len(benchCases)].src
				if _, err := testAnalyzer.Analyze(src); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestIsCriticalWritePath(t *testing.T) {
	t.Parallel()
	cases := []struct {
		path, home, code string
	}{
		{"/etc/passwd", "", RiskAccountFile},
		{"/etc/../etc/shadow", "", RiskAccountFile},
		{"/etc/sudoers.d/90-x", "", RiskAccountFile},
		{"~/.ssh/authorized_keys", "", RiskAuthorizedKeys},
		{"$HOME/.ssh/authorized_keys", "", RiskAuthorizedKeys},
		{"/home/me/.ssh/authorized_keys", "/home/me", RiskAuthorizedKeys},
		{"/home/other/.bashrc", "", RiskStartupFile},
		{"/root/.profile", "", RiskStartupFile},
		{"/Users/me/.zshrc", "", RiskStartupFile},
		{"/opt/me/.zprofile", "/opt/me", RiskStartupFile},
		{"~/.config/fish/config.fish", "", RiskStartupFile},
		{"/etc/profile.d/x.sh", "", RiskStartupFile},
		{"/etc/environment", "", RiskStartupFile},
		{"/etc/bash.bashrc", "", RiskStartupFile},
		{"/dev/sda", "", RiskDeviceWrite},
		{"/dev/nvme0n1p1", "", RiskDeviceWrite},
		{"/dev/mmcblk0", "", RiskDeviceWrite},
		{"/dev/disk2", "", RiskDeviceWrite},
		{"/etc/hosts", "", ""},
		{"~/.bashrc.bak", "", ""},
		{"./.bashrc", "", ""},
		{"/home/me/project/.bashrc", "/home/me", ""},
		{"/dev/null", "", ""},
		{"", "", ""},
	}
	for _, tc := range cases {
		code, reason, ok := IsCriticalWritePath(tc.path, tc.home)
		if code != tc.code || ok != (tc.code != "") {
			t.Errorf("IsCriticalWritePath(%q, %q) = %q, %v; want %q", tc.path, tc.home, code, ok, tc.code)
		}
		if ok && !strings.Contains(reason, strings.TrimPrefix(tc.path, "/etc/../")) && !strings.Contains(reason, "/etc/shadow") {
			t.Errorf("reason %q does not name %q", reason, tc.path)
		}
	}
}

func TestRiskReasons(t *testing.T) {
	t.Parallel()
	res := analyze(t, "rm -rf /")
	if len(res.Risks) != 1 || !strings.Contains(res.Risks[0].Reason, "/") || res.Risks[0].Subject != "rm -rf /" {
		t.Errorf("risk %+v", res.Risks)
	}
	if !res.Critical() || res.Unprefixable() {
		t.Errorf("Critical/Unprefixable wrong")
	}
}
