package toolgate

// PinEvent is what an MCP proxy tells its gateway when it pins a tool's
// definition, for the audit log (kind AuditMCPPinned): with the pins
// kept where the proxy runs, the gateway's audit is where a team sees
// which definitions were accepted, when and by whom.
type PinEvent struct {
	// Session and Workspace are the proxy's, as its calls carry them.
	Session   string `json:"session"`
	Workspace string `json:"workspace,omitempty"`
	// Server and Tool name the tool on its MCP server.
	Server string `json:"server"`
	Tool   string `json:"tool"`
	// Hash is the pinned definition's ("sha256:" and 64 hex digits);
	// Previous is the one it replaced, empty for a first pin.
	Hash     string `json:"hash"`
	Previous string `json:"previous,omitempty"`
	// By says what pinned it: the first allowed call, the user in the
	// MCP client, an approver on the gateway.
	By string `json:"by"`
	// ApprovalID is the approval on the gateway that accepted a changed
	// definition, when one did: the gateway checks that it was approved,
	// was about this tool in this session and required a person.
	ApprovalID string `json:"approval_id,omitempty"`
}

// AuditMCPPinned is the audit kind of a tool definition an MCP proxy
// pinned (PinEvent).
const AuditMCPPinned = "mcp.pinned"
