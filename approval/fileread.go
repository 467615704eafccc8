package approval

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/toolgate/toolgate"
)

// AuditFileRead is the audit kind of an approver's request for the file a
// pending write or edit would change (GET /v1/approvals/{id}/before):
// who asked, for which approval and path, and whether the file was shown
// or withheld and why. The file's content is never in the entry, only its
// length and SHA-256, so the log says what was shown without copying it.
const AuditFileRead = "approval.file_read"

// Outcomes of an AuditFileRead entry.
const (
	FileShown    = "shown"
	FileWithheld = "withheld"
)

// FileRead is one answer to an approver's request for the file a pending
// call would change, as the gateway is about to give it.
type FileRead struct {
	// Path is the file's path as resolved against the call's working
	// directory ("" when the call names none).
	Path string
	// Shown is set when Content is the file as it is now; Exists when the
	// file was found.
	Shown, Exists bool
	// Content is the file's text when Shown; it is hashed, not recorded.
	Content string
	// Note says why the file is withheld.
	Note string
}

// RecordFileRead appends the AuditFileRead entry of an approver's request
// for the file approval a's call would change. It is durable when it
// returns nil; the caller must show the content only then, so that no
// file an approver saw is missing from the log.
func (b *Broker) RecordFileRead(ctx context.Context, a *toolgate.Approval, r FileRead) error {
	by := caller(ctx)
	outcome := FileWithheld
	d := fileReadData{Path: r.Path, Shown: r.Shown, Exists: r.Exists}
	if r.Shown {
		outcome = FileShown
		sum := sha256.Sum256([]byte(r.Content))
		d.Bytes, d.SHA256 = len(r.Content), hex.EncodeToString(sum[:])
	}
	data, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("record file read: %w", err)
	}
	entry := b.auditEntry(AuditFileRead, &a.Call, a.ID, outcome, by, r.Note, data)
	if err := b.store.AppendAudit(ctx, entry); err != nil {
		return fmt.Errorf("record file read of approval %s: %w", a.ID, err)
	}
	return nil
}

// fileReadData is the Data of an AuditFileRead entry.
type fileReadData struct {
	Path   string `json:"path,omitempty"`
	Shown  bool   `json:"shown"`
	Exists bool   `json:"exists"`
	Bytes  int    `json:"bytes,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
}
