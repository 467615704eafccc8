package hosts

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Copilot CLI runs a repository's hooks files (.github/hooks/*.json) only
// in a folder the user trusts: a path in "trusted_folders" of its
// config.json ($COPILOT_HOME, else ~/.copilot), or under one. Elsewhere
// it skips them without a word, and the calls run unguarded. The user's
// own hooks files ($COPILOT_HOME/hooks) run in every folder. toolgate
// does not trust a folder for the user: that trusts everything in the
// repository, not only toolgate's hook.

// copilotHome is $COPILOT_HOME, else ~/.copilot.
func copilotHome(home string) string {
	if d := os.Getenv("COPILOT_HOME"); d != "" {
		return d
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".copilot")
}

// copilotRepo returns the repository a hooks file at path belongs to,
// or false for a file outside a repository's .github/hooks.
func copilotRepo(path string) (string, bool) {
	dir := filepath.Dir(filepath.Clean(path))
	if filepath.Base(dir) != "hooks" || filepath.Base(filepath.Dir(dir)) != ".github" {
		return "", false
	}
	return filepath.Dir(filepath.Dir(dir)), true
}

// copilotTrusts reports whether Copilot CLI's config (at config) trusts
// folder: it, or a folder above it, is in trusted_folders.
func copilotTrusts(config, folder string) (bool, error) {
	src, err := os.ReadFile(config)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	// Copilot CLI writes comment lines at the top of the file.
	var body bytes.Buffer
	for _, line := range strings.Split(string(src), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			body.WriteString(line)
			body.WriteByte('\n')
		}
	}
	var c struct {
		TrustedFolders []string `json:"trusted_folders"`
	}
	if err := json.Unmarshal(body.Bytes(), &c); err != nil {
		return false, fmt.Errorf("%s: %w", config, err)
	}
	folder = filepath.Clean(folder)
	for _, t := range c.TrustedFolders {
		if t == "" || !filepath.IsAbs(t) {
			continue
		}
		if rel, err := filepath.Rel(filepath.Clean(t), folder); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true, nil
		}
	}
	return false, nil
}

// copilotTrust says whether Copilot CLI runs the hooks file at path.
func copilotTrust(env TrustEnv, path string) TrustCheck {
	repo, ok := copilotRepo(path)
	if !ok {
		return TrustCheck{OK: true, Say: fmt.Sprintf("Copilot CLI runs the hooks in %s in every folder", path)}
	}
	config := filepath.Join(copilotHome(env.Home), "config.json")
	trusted, err := copilotTrusts(config, repo)
	switch {
	case err != nil:
		return TrustCheck{Say: fmt.Sprintf("cannot tell whether Copilot CLI trusts %s (%v): it runs %s only in a folder the user trusts", repo, err, path)}
	case trusted:
		return TrustCheck{OK: true, Say: fmt.Sprintf("Copilot CLI trusts %s (trusted_folders in %s), so it runs %s", repo, config, path)}
	}
	return TrustCheck{Say: fmt.Sprintf("Copilot CLI runs %s only in a folder the user trusts, and %s is not one (trusted_folders in %s): it skips the hook without a word and the calls run unguarded. "+
		"Trust the folder when Copilot CLI asks, or run 'toolgate hook install copilot' for the user's hooks file, which runs everywhere", path, repo, config)}
}

// Trust implements Trusting: a repository's hooks file that Copilot CLI
// would skip is an error, so install does not report a hook that never
// runs as installed. toolgate does not trust the folder itself.
func (copilot) Trust(env TrustEnv, path string, _ []byte) (string, error) {
	c := copilotTrust(env, path)
	if !c.OK {
		return "", errors.New(c.Say)
	}
	return c.Say, nil
}

// Untrust implements Trusting: install trusted nothing.
func (copilot) Untrust(TrustEnv, string, []byte) error { return nil }

// CheckTrust implements Trusting.
func (copilot) CheckTrust(_ context.Context, env TrustEnv, path string, _ []byte) []TrustCheck {
	c := copilotTrust(env, path)
	c.Event = copilotPreToolUse
	return []TrustCheck{c}
}
