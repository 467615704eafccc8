package hookhttp

import (
	"context"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/client"
)

// ClientGateway is a claudecode.Gateway over the gateway's HTTP API, for command
// hooks: the client's Submit, Approval and Cancel, and EndTurn (POST
// /v1/sessions/{id}/turn-end, allowed to agent tokens).
type ClientGateway struct {
	*client.Client
}

// EndTurn implements claudecode.Gateway.
func (g ClientGateway) EndTurn(ctx context.Context, session string) error {
	_, err := g.Client.EndTurn(ctx, session)
	if toolgate.ErrorCodeOf(err) == toolgate.ENotFound {
		return nil
	}
	return err
}
