package toolgate

import (
	"encoding/json"
	"errors"
)

// ApplyModifications merges a human's changes (a JSON object of
// arguments, Resolution.Modifications) over a call's arguments, returning
// the complete new arguments: hosts that replace a tool's whole input
// need them all. It is here, in the domain package, so that the agent
// hook applies them without linking the broker.
func ApplyModifications(args map[string]any, mods json.RawMessage) (map[string]any, error) {
	var changes map[string]any
	if err := json.Unmarshal(mods, &changes); err != nil || changes == nil {
		return nil, errors.New("modifications are not a JSON object of arguments")
	}
	out := make(map[string]any, len(args)+len(changes))
	for k, v := range args {
		out[k] = v
	}
	for k, v := range changes {
		out[k] = v
	}
	return out, nil
}
