// Package mock has test doubles of toolgate's service interfaces with a
// function field for each method, so a test sets just the behaviour it
// needs (after benbjohnson/wtf). A method whose function is not set
// returns an error naming it rather than a zero value that could pass for
// an answer.
package mock

import (
	"context"

	"github.com/toolgate/toolgate"
)

// Gate is a toolgate.Gate whose methods call the matching function field.
type Gate struct {
	EvaluateFn    func(ctx context.Context, c toolgate.Call) (*toolgate.Decision, error)
	SubmitFn      func(ctx context.Context, req toolgate.SubmitRequest) (*toolgate.Result, error)
	WaitFn        func(ctx context.Context, id string) (*toolgate.Approval, error)
	ApprovalFn    func(ctx context.Context, id string) (*toolgate.Approval, error)
	ApprovalsFn   func(ctx context.Context, f toolgate.ApprovalFilter) ([]*toolgate.Approval, error)
	ApproveFn     func(ctx context.Context, id string, req toolgate.ApproveRequest) (*toolgate.Approval, error)
	DenyFn        func(ctx context.Context, id string, req toolgate.DenyRequest) (*toolgate.Approval, error)
	CancelFn      func(ctx context.Context, id, reason string) (*toolgate.Approval, error)
	SessionFn     func(ctx context.Context, id string) (*toolgate.Session, error)
	SessionsFn    func(ctx context.Context, f toolgate.SessionFilter) ([]*toolgate.Session, error)
	SetModeFn     func(ctx context.Context, session string, m toolgate.Mode) (*toolgate.Session, error)
	AbortFn       func(ctx context.Context, session string) (*toolgate.Session, error)
	EndTurnFn     func(ctx context.Context, session string) (*toolgate.Session, error)
	GrantsFn      func(ctx context.Context, f toolgate.GrantFilter) ([]*toolgate.Grant, error)
	AddGrantFn    func(ctx context.Context, g toolgate.Grant) (*toolgate.Grant, error)
	RevokeGrantFn func(ctx context.Context, id string) error
	AuditFn       func(ctx context.Context, f toolgate.AuditFilter) ([]toolgate.AuditEntry, error)
}

var _ toolgate.Gate = (*Gate)(nil)

func unset(method string) error {
	return toolgate.Errorf(toolgate.EInternal, "mock.Gate: %sFn is not set", method)
}

// Evaluate calls EvaluateFn.
func (g *Gate) Evaluate(ctx context.Context, c toolgate.Call) (*toolgate.Decision, error) {
	if g.EvaluateFn == nil {
		return nil, unset("Evaluate")
	}
	return g.EvaluateFn(ctx, c)
}

// Submit calls SubmitFn.
func (g *Gate) Submit(ctx context.Context, req toolgate.SubmitRequest) (*toolgate.Result, error) {
	if g.SubmitFn == nil {
		return nil, unset("Submit")
	}
	return g.SubmitFn(ctx, req)
}

// Wait calls WaitFn.
func (g *Gate) Wait(ctx context.Context, id string) (*toolgate.Approval, error) {
	if g.WaitFn == nil {
		return nil, unset("Wait")
	}
	return g.WaitFn(ctx, id)
}

// Approval calls ApprovalFn.
func (g *Gate) Approval(ctx context.Context, id string) (*toolgate.Approval, error) {
	if g.ApprovalFn == nil {
		return nil, unset("Approval")
	}
	return g.ApprovalFn(ctx, id)
}

// Approvals calls ApprovalsFn.
func (g *Gate) Approvals(ctx context.Context, f toolgate.ApprovalFilter) ([]*toolgate.Approval, error) {
	if g.ApprovalsFn == nil {
		return nil, unset("Approvals")
	}
	return g.ApprovalsFn(ctx, f)
}

// Approve calls ApproveFn.
func (g *Gate) Approve(ctx context.Context, id string, req toolgate.ApproveRequest) (*toolgate.Approval, error) {
	if g.ApproveFn == nil {
		return nil, unset("Approve")
	}
	return g.ApproveFn(ctx, id, req)
}

// Deny calls DenyFn.
func (g *Gate) Deny(ctx context.Context, id string, req toolgate.DenyRequest) (*toolgate.Approval, error) {
	if g.DenyFn == nil {
		return nil, unset("Deny")
	}
	return g.DenyFn(ctx, id, req)
}

// Cancel calls CancelFn.
func (g *Gate) Cancel(ctx context.Context, id, reason string) (*toolgate.Approval, error) {
	if g.CancelFn == nil {
		return nil, unset("Cancel")
	}
	return g.CancelFn(ctx, id, reason)
}

// Session calls SessionFn.
func (g *Gate) Session(ctx context.Context, id string) (*toolgate.Session, error) {
	if g.SessionFn == nil {
		return nil, unset("Session")
	}
	return g.SessionFn(ctx, id)
}

// Sessions calls SessionsFn.
func (g *Gate) Sessions(ctx context.Context, f toolgate.SessionFilter) ([]*toolgate.Session, error) {
	if g.SessionsFn == nil {
		return nil, unset("Sessions")
	}
	return g.SessionsFn(ctx, f)
}

// SetMode calls SetModeFn.
func (g *Gate) SetMode(ctx context.Context, session string, m toolgate.Mode) (*toolgate.Session, error) {
	if g.SetModeFn == nil {
		return nil, unset("SetMode")
	}
	return g.SetModeFn(ctx, session, m)
}

// Abort calls AbortFn.
func (g *Gate) Abort(ctx context.Context, session string) (*toolgate.Session, error) {
	if g.AbortFn == nil {
		return nil, unset("Abort")
	}
	return g.AbortFn(ctx, session)
}

// EndTurn calls EndTurnFn.
func (g *Gate) EndTurn(ctx context.Context, session string) (*toolgate.Session, error) {
	if g.EndTurnFn == nil {
		return nil, unset("EndTurn")
	}
	return g.EndTurnFn(ctx, session)
}

// Grants calls GrantsFn.
func (g *Gate) Grants(ctx context.Context, f toolgate.GrantFilter) ([]*toolgate.Grant, error) {
	if g.GrantsFn == nil {
		return nil, unset("Grants")
	}
	return g.GrantsFn(ctx, f)
}

// AddGrant calls AddGrantFn.
func (g *Gate) AddGrant(ctx context.Context, grant toolgate.Grant) (*toolgate.Grant, error) {
	if g.AddGrantFn == nil {
		return nil, unset("AddGrant")
	}
	return g.AddGrantFn(ctx, grant)
}

// RevokeGrant calls RevokeGrantFn.
func (g *Gate) RevokeGrant(ctx context.Context, id string) error {
	if g.RevokeGrantFn == nil {
		return unset("RevokeGrant")
	}
	return g.RevokeGrantFn(ctx, id)
}

// Audit calls AuditFn.
func (g *Gate) Audit(ctx context.Context, f toolgate.AuditFilter) ([]toolgate.AuditEntry, error) {
	if g.AuditFn == nil {
		return nil, unset("Audit")
	}
	return g.AuditFn(ctx, f)
}
