package server

import (
	"net/http"
	"time"

	"github.com/toolgate/toolgate/internal/suggest"
)

// insightsWindow is how far back /v1/insights reads the audit log: recent
// habits, and a bounded read on every request.
const insightsWindow = 24 * time.Hour

// handleInsights says what the audit log shows about how approvals are
// given, for the inbox: approvers who rubber-stamp. It reads the audit as
// the gateway, but answers approvers with names and counts only.
func (s *server) handleInsights(w http.ResponseWriter, r *http.Request) error {
	stamps, err := suggest.RubberStamps(r.Context(), s.broker, s.now().Add(-insightsWindow), suggest.DefaultStampRule)
	if err != nil {
		return err
	}
	if stamps == nil {
		stamps = []suggest.RubberStamping{}
	}
	return writeJSON(w, http.StatusOK, map[string]any{"rubber_stamping": stamps})
}
