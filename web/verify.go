package web

import (
	"context"
	"fmt"
	"net/http"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/digest"
	"github.com/toolgate/toolgate/tokens"
)

// verifyPage is how many entries one read of the log takes.
const verifyPage = 1000

// chainStatus is the body of GET /ui/audit/verify.
type chainStatus struct {
	// OK is true when every entry is chained to the one before it.
	OK bool `json:"ok"`
	// Entries is how many entries were checked.
	Entries int `json:"entries"`
	// LastSeq and Head are the sequence number and hash of the last entry.
	LastSeq int64  `json:"last_seq"`
	Head    string `json:"head,omitempty"`
	// Error names the first entry that does not verify.
	Error string `json:"error,omitempty"`
}

// handleVerify verifies the whole audit log's hash chain on the server
// (digest.VerifyChain) and reports the result. The audit log is an
// admin's to read, so this needs an admin session.
func (u *UI) handleVerify(w http.ResponseWriter, r *http.Request) {
	noStore(w.Header())
	s := u.lookup(r)
	switch {
	case s == nil:
		writeError(w, http.StatusUnauthorized, toolgate.EUnauthorized, "sign in first")
		return
	case !s.entry.Role.Allows(tokens.RoleAdmin):
		writeError(w, http.StatusForbidden, toolgate.EForbidden, fmt.Sprintf("verifying the audit log needs an admin token; %q is %s", s.entry.Name, s.entry.Role))
		return
	case u.audit == nil:
		writeError(w, http.StatusNotFound, toolgate.ENotFound, errNoAudit.Error())
		return
	}
	st, err := verifyChain(r.Context(), u.audit)
	if err != nil {
		u.log.Error("verify audit chain", "err", err)
		writeError(w, http.StatusInternalServerError, toolgate.EInternal, "internal error")
		return
	}
	writeJSON(w, http.StatusOK, st)
}

// verifyChain reads the log from its start, a page at a time, and checks
// each page against the hash the one before it ended with.
func verifyChain(ctx context.Context, src AuditLister) (chainStatus, error) {
	var st chainStatus
	var after int64
	for {
		page, err := src.Audit(ctx, toolgate.AuditFilter{AfterSeq: after, Limit: verifyPage})
		if err != nil {
			return st, fmt.Errorf("read audit log after %d: %w", after, err)
		}
		if len(page) == 0 {
			st.OK = true
			return st, nil
		}
		if err := digest.VerifyChain(page, st.Head); err != nil {
			st.Error = err.Error()
			return st, nil
		}
		last := page[len(page)-1]
		st.Entries += len(page)
		st.LastSeq, st.Head = last.Seq, last.Hash
		if last.Seq <= after {
			return st, fmt.Errorf("audit log did not advance past %d", after)
		}
		after = last.Seq
		if err := ctx.Err(); err != nil {
			return st, fmt.Errorf("verify audit chain: %w", err)
		}
	}
}
