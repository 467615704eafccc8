package sqlstore

// The columns of each table, in the order the scans read them.
const (
	approvalColumns = `id, status, resume_token, created_at, expires_at, call, decision, batch_remaining, resolution, digest`
	grantColumns    = `id, scope, kind, tool, pattern, session, workspace, turn, approval_id, created_by, via, created_at, expires_at`
	sessionColumns  = `id, workspace, mode, turn, stopped, aborted, created_at, updated_at, owner`
	// AuditColumns are the audit table's columns, in the order ListAudit
	// reads them and a backend's append writes them.
	AuditColumns = `seq, time, kind, session, workspace, call_id, approval_id, tool, outcome, who, via, reason, data, prev_hash, hash`
)

// statements are the fixed statements, in the dialect's form.
type statements struct {
	getApproval, getApprovalByToken, getApprovalByCall, insertApproval, resolveApproval, approvalStatus string
	insertGrant, deleteGrant                                                                            string
	getSession, putSession                                                                              string
	countPending, countSessions, countSessionsSince                                                     string
	claimLock, claimed, claims, claim                                                                   string
	putWebSession, getWebSession, touchWebSession, deleteWebSession, deleteExpiredWebSessions           string
}

// bind writes every statement in d's form, once.
func bind(d Dialect) statements {
	q := statements{
		getApproval:        `SELECT ` + approvalColumns + ` FROM approvals WHERE id = ?`,
		getApprovalByToken: `SELECT ` + approvalColumns + ` FROM approvals WHERE resume_token = ?`,
		getApprovalByCall:  `SELECT ` + approvalColumns + ` FROM approvals WHERE session = ? AND call_id = ?`,
		insertApproval: `INSERT INTO approvals
			(id, session, call_id, workspace, status, resume_token, created_at, expires_at, call, decision, batch_remaining, resolution, digest)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)
			ON CONFLICT (session, call_id) DO NOTHING`,
		resolveApproval: `UPDATE approvals SET status = ?, resolution = ? WHERE id = ? AND status = 'pending'`,
		approvalStatus:  `SELECT status FROM approvals WHERE id = ?`,

		insertGrant: `INSERT INTO grants (` + grantColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		deleteGrant: `DELETE FROM grants WHERE id = ?`,

		getSession: `SELECT ` + sessionColumns + ` FROM sessions WHERE id = ?`,
		putSession: `INSERT INTO sessions (` + sessionColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET workspace = excluded.workspace, mode = excluded.mode, owner = excluded.owner,
				turn = excluded.turn, stopped = excluded.stopped, aborted = excluded.aborted,
				created_at = excluded.created_at, updated_at = excluded.updated_at`,

		countPending:       `SELECT count(*) FROM approvals a JOIN sessions s ON s.id = a.session WHERE s.owner = ? AND a.status = 'pending'`,
		countSessions:      `SELECT count(*) FROM sessions WHERE owner = ?`,
		countSessionsSince: `SELECT count(*) FROM sessions WHERE owner = ? AND created_at >= ?`,

		claimLock: d.ClaimLock,
		claimed:   `SELECT EXISTS (SELECT 1 FROM workspace_creators WHERE workspace = ?)`,
		claims:    `SELECT count(*) FROM workspace_creators WHERE owner = ?`,
		claim:     `INSERT INTO workspace_creators (workspace, owner) VALUES (?, ?) ON CONFLICT (workspace) DO NOTHING`,

		putWebSession: `INSERT INTO web_sessions (` + webSessionColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET key_hash = excluded.key_hash, pairing = excluded.pairing,
				token_name = excluded.token_name, token_hash = excluded.token_hash, role = excluded.role,
				label = excluded.label, csrf = excluded.csrf, ttl_ns = excluded.ttl_ns,
				created_at = excluded.created_at, last_seen = excluded.last_seen, expires_at = excluded.expires_at`,
		getWebSession:            `SELECT ` + webSessionColumns + ` FROM web_sessions WHERE key_hash = ?`,
		touchWebSession:          `UPDATE web_sessions SET last_seen = ? WHERE id = ?`,
		deleteWebSession:         `DELETE FROM web_sessions WHERE id = ?`,
		deleteExpiredWebSessions: `DELETE FROM web_sessions WHERE expires_at <= ?`,
	}
	for _, p := range []*string{
		&q.getApproval, &q.getApprovalByToken, &q.getApprovalByCall, &q.insertApproval, &q.resolveApproval, &q.approvalStatus,
		&q.insertGrant, &q.deleteGrant, &q.getSession, &q.putSession,
		&q.countPending, &q.countSessions, &q.countSessionsSince,
		&q.claimLock, &q.claimed, &q.claims, &q.claim,
		&q.putWebSession, &q.getWebSession, &q.touchWebSession, &q.deleteWebSession, &q.deleteExpiredWebSessions,
	} {
		*p = d.Bind(*p)
	}
	return q
}
