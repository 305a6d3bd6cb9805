package mcpservers

import (
	"context"

	"github.com/mark3labs/mcp-go/client"
)

// SessionTools loads the tools of an mcp-go client the caller has already
// started and initialized, like langchain-mcp-adapters'
// load_mcp_tools(session). The tools work, through that client's
// transport, with the same fidelity as a Client's; but they call whatever
// the session is connected to, which this package cannot see, so their
// record is marked SessionBound and a definition refuses them. Load tools
// with a Client to record them.
//
// The caller keeps ownership of c: closing it ends the tools. They have no
// interceptors and no handlers, and are never reconnected.
func SessionTools(ctx context.Context, c *client.Client) ([]*Tool, error) {
	return nil, errNotYet
}
