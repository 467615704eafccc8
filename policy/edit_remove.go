package policy

import (
	"bytes"
	"fmt"

	"github.com/tailscale/hujson"
)

// RemoveRule removes from a workspace document the rule that AppendRule
// added with a comment containing marker (a grant's "(grant ID)"),
// keeping every other comment and the formatting. It reports whether it
// found the rule; a document without it comes back unchanged.
func RemoveRule(src []byte, marker string) ([]byte, bool, error) {
	if marker == "" {
		return nil, false, fmt.Errorf("remove rule: empty marker")
	}
	orig := src
	v, _, err := parseHuJSON(src)
	if err != nil {
		return nil, false, fmt.Errorf("remove rule: %w", err)
	}
	top, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil, false, fmt.Errorf("remove rule: the document is not an object")
	}
	m := []byte(marker)
	found := false
	for i := 0; i < len(top.Members) && !found; i++ {
		member := &top.Members[i]
		obj, isObj := member.Value.Value.(*hujson.Object)
		if !isObj {
			continue
		}
		// AppendRule puts the comment above a new tool entry when it adds
		// one, and above the rule inside an existing entry otherwise.
		if bytes.Contains(member.Name.BeforeExtra, m) && len(obj.Members) > 0 {
			if len(obj.Members) == 1 {
				top.Members = append(top.Members[:i], top.Members[i+1:]...)
			} else {
				obj.Members = obj.Members[1:]
			}
			found = true
			break
		}
		for j := range obj.Members {
			if bytes.Contains(obj.Members[j].Name.BeforeExtra, m) {
				obj.Members = append(obj.Members[:j], obj.Members[j+1:]...)
				if len(obj.Members) == 0 {
					// The entry held only grants: it goes with the last.
					top.Members = append(top.Members[:i], top.Members[i+1:]...)
				}
				found = true
				break
			}
		}
	}
	if !found {
		return orig, false, nil
	}
	out := v.Pack()
	if _, err := ParseWorkspace("edited", out); err != nil {
		return nil, false, fmt.Errorf("remove rule: the edited document does not load: %w", err)
	}
	return out, true, nil
}
