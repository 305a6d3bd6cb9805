package definition

import "github.com/guardian-agent/guardian-go/refusals"

// sessionTool refuses MCP tool p, at pointer tp, when it was loaded from a
// session the caller connected and owns: it calls whatever that session is
// connected to, which the record cannot say.
func (b *builder) sessionTool(p *pending, tp string) {
	if p.record.SessionBound {
		b.refuse(refusals.ErrSessionTool, tp, "session-tool", p.name,
			"it calls whatever the caller's session is connected to",
			"load it with mcpservers.NewClient and Client.Tools")
	}
}
