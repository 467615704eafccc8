package hosts

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/toolgate/toolgate/integrations/claudecode"
)

// Codex CLI edits files with apply_patch, which reaches PreToolUse as
// tool "apply_patch" with the patch in tool_input.command:
//
//	*** Begin Patch
//	*** Add File: PATH        (then +lines)
//	*** Update File: PATH     (then @@ hunks, optionally *** Move to: PATH)
//	*** Delete File: PATH
//	*** End Patch
//
// (codex-rs/apply-patch). A patch that adds or updates one file and does
// nothing else is decided as the Write or Edit of that file, by the rules
// for those; any other patch (several files, a delete, a move, a line the
// reading below does not know) stays the tool apply_patch, which no rule
// allows: it asks.
const codexApplyPatch = "apply_patch"

// codexPatchInput rewrites a Codex PreToolUse input for apply_patch into
// the Write or Edit of the one file its patch adds or updates, keeping
// every other field; ok is false when it leaves the input as it is.
func codexPatchInput(data []byte) (out []byte, ok bool) {
	if !bytes.Contains(data, []byte(`"`+codexApplyPatch+`"`)) {
		return nil, false
	}
	var in map[string]json.RawMessage
	if json.Unmarshal(data, &in) != nil {
		return nil, false
	}
	var event, tool, cwd string
	var args struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(in["hook_event_name"], &event) != nil || event != claudecode.EventPreToolUse ||
		json.Unmarshal(in["tool_name"], &tool) != nil || tool != codexApplyPatch ||
		json.Unmarshal(in["tool_input"], &args) != nil {
		return nil, false
	}
	_ = json.Unmarshal(in["cwd"], &cwd)
	name, path, content, ok := codexPatchTarget(args.Command)
	if !ok {
		return nil, false
	}
	if !filepath.IsAbs(path) {
		if !filepath.IsAbs(cwd) {
			return nil, false
		}
		path = filepath.Join(cwd, path)
	}
	input := map[string]any{"file_path": filepath.Clean(path), "patch": args.Command}
	if name == "Write" {
		input["content"] = content
	}
	var err error
	if in["tool_name"], err = json.Marshal(name); err != nil {
		return nil, false
	}
	if in["tool_input"], err = json.Marshal(input); err != nil {
		return nil, false
	}
	if out, err = json.Marshal(in); err != nil {
		return nil, false
	}
	return out, true
}

// codexPatchTarget reads a patch that adds or updates exactly one file:
// the tool it is (Write for an added file, Edit for an updated one), the
// file's path as written, and an added file's content. ok is false for
// anything else, and for any line with "***" in it that is not one of the
// patch's own markers: a reading that cannot be sure which files a patch
// touches leaves it to ask.
func codexPatchTarget(patch string) (tool, path, content string, ok bool) {
	var added []string
	for _, line := range strings.Split(patch, "\n") {
		t := strings.TrimSpace(line)
		if !strings.Contains(t, "***") {
			if tool == "Write" && strings.HasPrefix(line, "+") {
				added = append(added, line[1:])
			}
			continue
		}
		switch {
		case t == "*** Begin Patch", t == "*** End Patch", t == "*** End of File":
		case strings.HasPrefix(t, "*** Add File: ") && tool == "":
			tool, path = "Write", strings.TrimSpace(strings.TrimPrefix(t, "*** Add File: "))
		case strings.HasPrefix(t, "*** Update File: ") && tool == "":
			tool, path = "Edit", strings.TrimSpace(strings.TrimPrefix(t, "*** Update File: "))
		default:
			return "", "", "", false
		}
	}
	if tool == "" || path == "" {
		return "", "", "", false
	}
	if tool == "Write" {
		content = strings.Join(added, "\n")
		if len(added) > 0 {
			content += "\n"
		}
	}
	return tool, path, content, true
}
