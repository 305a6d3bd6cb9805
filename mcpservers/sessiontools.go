package mcpservers

import (
	"context"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/internal/redact"
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
// interceptors and no handlers (a server's request for input interrupts the
// call, as with a Client without an elicitation handler), and are never
// reconnected. Their server is named by the name it reports, or "session".
// A tool Client.Tools would leave out (invalid x-mcp-header annotations on
// a 2026-07-28 HTTP session) fails the whole load, with an error naming it.
func SessionTools(ctx context.Context, c *client.Client) ([]*Tool, error) {
	if ctx == nil {
		return nil, invalidUse("session", "", "list tools", errNilContext)
	}
	if c == nil || c.GetTransport() == nil {
		return nil, &Error{Server: "session", Op: "list tools", Kind: ErrConnect, detail: "no client"}
	}
	if !c.IsInitialized() {
		return nil, &Error{Server: "session", Op: "list tools", Kind: ErrConnect, detail: "the client is not initialized"}
	}
	tr := c.GetTransport()
	cfg := &connConfig{name: "session", transport: transportOf(tr)}
	s := &remote{cfg: cfg, opts: &options{}, red: redact.New(), closing: make(chan struct{}), fixed: true}
	sess := newSession(s)
	sess.mc, sess.tr = c, tr
	_, sess.http = tr.(transport.HTTPConnection)
	sess.protocolVersion = c.ProtocolVersion()
	sess.modern = mcp.IsModernProtocol(sess.protocolVersion)
	caps := c.GetClientCapabilities()
	if caps.Elicitation == nil {
		caps.Elicitation = &mcp.ElicitationCapability{Form: &struct{}{}}
	}
	sess.meta = requestMeta(sess.protocolVersion, caps, mcp.Implementation{}, "")
	s.sess = sess

	wts, stamp, err := sess.listTools(ctx)
	if err != nil {
		return nil, err
	}
	if stamp.Name != "" {
		cfg.name = stamp.Name
	}
	info := ServerInfo{Name: cfg.name, Transport: cfg.transport, Implementation: stamp, ProtocolVersion: sess.protocolVersion}
	sess.info = info
	tools := make([]*Tool, len(wts))
	for i, wt := range wts {
		tools[i] = s.newTool(wt, info)
	}
	return tools, nil
}

// transportOf names the transport of a caller's client, where it is one of
// mcp-go's; in-process and unknown transports have no name.
func transportOf(tr transport.Interface) definition.Transport {
	switch tr.(type) {
	case *transport.Stdio:
		return definition.TransportStdio
	case *transport.StreamableHTTP:
		return definition.TransportStreamableHTTP
	case *transport.SSE:
		return definition.TransportSSE
	}
	return ""
}
