package hosts

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/toolgate/toolgate/integrations/claudecode"
)

// TimeoutSlack is what the agent's timeout for the hook adds to the
// hook's own deadline: an agent goes on without a hook it killed, so it
// must never kill one that is about to answer.
const TimeoutSlack = 30 * time.Second

// Timeout is the agent's timeout for a hook whose own deadline is d, in
// the settings file's unit; 0 when the host's files carry none.
func (h *Host) Timeout(d time.Duration) int {
	return int(math.Ceil((d + TimeoutSlack).Seconds())) * h.TimeoutUnit
}

// Entries are the hooks install writes for a hook command line: on the
// tool event (event, or the host's; matcher for hosts that match) and the
// host's other tool events with the deadline tool, and on the prompt
// event with the deadline prompt.
func (h *Host) Entries(cmdline, event, matcher string, tool, prompt time.Duration) []claudecode.HookEntry {
	if event == "" {
		event = h.ToolEvent
	}
	if h.Layout == LayoutGroups && h.Matcher == "" && matcher == "" {
		matcher = ".*" // a tool group without a matcher reads as a prompt group
	}
	var es []claudecode.HookEntry
	for _, ev := range append([]string{event}, h.AlsoEvents...) {
		es = append(es, claudecode.HookEntry{Event: ev, Matcher: matcher, Command: cmdline, Timeout: h.Timeout(tool)})
	}
	if h.PromptEvent != "" {
		es = append(es, claudecode.HookEntry{Event: h.PromptEvent, Command: cmdline, Timeout: h.Timeout(prompt)})
	}
	return es
}

// Merge writes hook entries into a settings file's content, keeping
// everything else; changed is false when they were there already. A
// plugin file is toolgate's own: its content is replaced whole, and
// one that is someone else's is left alone.
func (h *Host) Merge(src []byte, entries []claudecode.HookEntry) (out []byte, changed bool, err error) {
	out = src
	switch h.Layout {
	case LayoutPlugin:
		if len(src) > 0 {
			if _, ok := OpencodePluginCommand(src); !ok {
				return nil, false, errors.New("the file is not toolgate's plugin: move it, and install again")
			}
		}
		e := entries[0]
		out = OpencodePlugin(e.Command, e.Timeout)
		return out, string(out) != string(src), nil
	case LayoutFlat:
		for _, e := range entries {
			var fields []claudecode.Field
			if h.Type != "" {
				fields = append(fields, claudecode.Field{Key: "type", Value: h.Type})
			}
			fields = append(fields, claudecode.Field{Key: h.CommandKey, Value: e.Command})
			if h.TimeoutKey != "" && h.TimeoutUnit > 0 {
				fields = append(fields, claudecode.Field{Key: h.TimeoutKey, Value: e.Timeout})
			}
			var c bool
			if out, c, err = claudecode.MergeFlatHooks(out, e.Event, fields, IsHookCommand); err != nil {
				return nil, false, err
			}
			changed = changed || c
		}
		return out, changed, nil
	}
	for _, e := range entries {
		var c bool
		if h.Name == "claude-code" {
			out, c, err = claudecode.MergeSettings(out, e)
		} else {
			out, c, err = claudecode.MergeHooks(out, e, IsHookCommand)
		}
		if err != nil {
			return nil, false, err
		}
		changed = changed || c
	}
	return out, changed, nil
}

// Remove takes toolgate's hooks out of a settings file's content. For a
// plugin file of toolgate's, out is nil: the file goes.
func (h *Host) Remove(src []byte) (out []byte, removed []claudecode.FoundHook, err error) {
	if h.Layout == LayoutPlugin {
		cmd, ok := OpencodePluginCommand(src)
		if !ok {
			return src, nil, nil
		}
		return nil, []claudecode.FoundHook{{Event: h.ToolEvent, Command: cmd}}, nil
	}
	return claudecode.RemoveHooks(src, IsHookCommand)
}

// Find lists toolgate's hooks in a settings file's content.
func (h *Host) Find(src []byte) ([]claudecode.FoundHook, error) {
	_, found, err := h.Remove(src)
	if err != nil {
		return nil, fmt.Errorf("%s cannot read its hooks: %w", h.Title, err)
	}
	return found, nil
}
