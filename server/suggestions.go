package server

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/internal/suggest"
	"github.com/toolgate/toolgate/policy"
)

// suggestionsWindow is how far back GET /v1/suggestions reads the audit
// log unless ?since= says otherwise: habits, not history.
const suggestionsWindow = 30 * 24 * time.Hour

// suggestion is a proposal as the web UI adopts it: the proposal, the
// workspace document with its rules appended (comments and formatting
// kept), and the version of the document it was built from, for
// If-Match on PUT /v1/workspaces/{id}/rules.
type suggestion struct {
	suggest.Proposal
	JSONC    string `json:"jsonc"`
	Document string `json:"document"`
	Version  string `json:"version,omitempty"`
}

// handleSuggestions proposes allow rules for calls people approved again
// and again (internal/suggest, as `toolgate rules suggest` does). It
// changes nothing: adopting a proposal is a PUT of its document through
// the rules API, validated as every document is.
func (s *server) handleSuggestions(w http.ResponseWriter, r *http.Request) error {
	o := suggest.Options{Min: 3}
	q := r.URL.Query()
	if v := q.Get("min"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			return toolgate.Errorf(toolgate.EInvalid, "min must be a whole number from 1 to 1000, not %q", v)
		}
		o.Min = n
	}
	since := suggestionsWindow
	if v := q.Get("since"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return toolgate.Errorf(toolgate.EInvalid, "since must be a positive duration such as 168h, not %q", v)
		}
		since = d
	}
	o.Since = s.now().Add(-since)
	type doc struct {
		src     []byte
		version string
	}
	docs := map[string]doc{}
	read := func(ctx context.Context, ws string) (doc, error) {
		if d, ok := docs[ws]; ok {
			return d, nil
		}
		src, version, err := s.broker.Rules(ctx, ws)
		if err != nil {
			return doc{}, err
		}
		docs[ws] = doc{src, version}
		return docs[ws], nil
	}
	o.Rules = func(ctx context.Context, ws string) ([]byte, error) {
		d, err := read(ctx, ws)
		return d.src, err
	}
	ps, err := suggest.Suggest(r.Context(), s.gate, o)
	if err != nil {
		return err
	}
	out := make([]suggestion, 0, len(ps))
	for _, p := range ps {
		d, err := read(r.Context(), p.Workspace)
		if err != nil {
			return err
		}
		src, err := adopted(d.src, p)
		if err != nil {
			// A proposal that cannot be written into the document is not
			// offered: the person could not adopt it.
			s.log.Warn("suggestion not offered", "workspace", p.Workspace, "err", err)
			continue
		}
		out = append(out, suggestion{Proposal: p, JSONC: p.JSONC(), Document: string(src), Version: d.version})
	}
	return writeJSON(w, http.StatusOK, map[string]any{"suggestions": out})
}

// adopted returns the workspace document src with p's rules appended as
// its last allow rules, each with a comment that says where it came from.
func adopted(src []byte, p suggest.Proposal) ([]byte, error) {
	who := strings.Join(p.Approvers, ", ")
	for i, r := range p.Rules {
		comment := ""
		if i == 0 {
			comment = fmt.Sprintf("suggested by toolgate: approved %d times (%d distinct calls) by %s", p.Approvals, p.Distinct, who)
		}
		var err error
		src, err = policy.AppendRule(src, policy.Rule{Tool: r.Tool, Pattern: r.Pattern, Action: toolgate.Allow}, comment)
		if err != nil {
			return nil, err
		}
	}
	return src, nil
}
