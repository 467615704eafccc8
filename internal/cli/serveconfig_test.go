package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// settings runs serveSettings as runServe does: a config file with the
// given server section (none if empty) and serve's flags.
func settings(t *testing.T, section string, args ...string) (serveConfig, error) {
	t.Helper()
	dir := t.TempDir()
	config := filepath.Join(dir, "toolgate.yaml")
	if err := os.WriteFile(config, []byte("server:\n"+section), 0o600); err != nil {
		t.Fatal(err)
	}
	fs := newFlagSet("serve", io.Discard)
	var flags serveFlags
	flags.define(fs)
	if err := parseFlags(fs, append([]string{"--data", filepath.Join(dir, "data")}, args...)); err != nil {
		t.Fatal(err)
	}
	cfg, _, _, err := serveSettings(fs, config, &flags)
	return cfg, err
}

// TestServeSettingsNoFileReads: no_file_reads in the server section turns
// file reads off as --no-file-reads does; a flag given overrides the file
// either way, and a value that is not a boolean is refused with the file,
// its line and the key.
func TestServeSettingsNoFileReads(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, section string
		args          []string
		want          bool
		err           string
	}{
		{name: "default", want: false},
		{name: "config", section: "  no_file_reads: true\n", want: true},
		{name: "config off", section: "  no_file_reads: false\n", want: false},
		{name: "flag", args: []string{"--no-file-reads"}, want: true},
		{name: "flag over config", section: "  no_file_reads: true\n", args: []string{"--no-file-reads=false"}, want: false},
		{name: "flag on over config off", section: "  no_file_reads: false\n", args: []string{"--no-file-reads"}, want: true},
		{name: "not a boolean", section: "  addr: 127.0.0.1:0\n  no_file_reads: maybe\n", err: "toolgate.yaml:3: server: cannot unmarshal !!str `maybe` into bool"},
		{name: "a list", section: "\n  # off-site gateway\n  no_file_reads: [true]\n", err: "toolgate.yaml:4: server: cannot unmarshal !!seq into bool"},
		{name: "misspelt", section: "  addr: 127.0.0.1:0\n\n  no_file_read: true\n", err: "toolgate.yaml:4: server: unknown key no_file_read"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := settings(t, tt.section, tt.args...)
			switch {
			case tt.err != "":
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want one containing %q", err, tt.err)
				}
			case err != nil:
				t.Fatal(err)
			case cfg.NoFileReads != tt.want:
				t.Fatalf("NoFileReads = %v, want %v", cfg.NoFileReads, tt.want)
			}
		})
	}
}
