package adk

import (
	"github.com/guardian-agent/guardian-go/refusals"
)

// The refusals of what an ADK agent can hold that a definition cannot
// record. Their pointers locate the part in the agent as New is given it
// (/tools/<i>, /toolsets/<i>, under /subAgents/<j> for a sub-agent), as the
// core's pointers into an Agent's middleware do: a toolset has no place in
// the document.

// sessionRefusal refuses a tool that calls an MCP server through a session
// guardian-go did not load: ADK's mcptoolset (whose tools are listed again
// on every run), the official Go MCP SDK's client, or mcp-go's. The spec
// refuses tools loaded from a caller-owned session for the same reason.
func sessionRefusal(ptr, name, where string) error {
	return &refusals.Error{
		Kind:    refusals.ErrSessionTool,
		Pointer: ptr,
		Rule:    sessionToolRule,
		Subject: name,
		Detail:  where + " is an MCP session guardian-go did not load: it calls whatever server it is connected to, and lists the server's tools again whenever asked, so what the model is sent can change between runs unrecorded",
		Fix:     sessionToolFixed,
	}
}

// toolsetRefusal refuses a toolset: ADK asks it for its tools on every run,
// so the tools the model is sent can change after the definition was
// recorded.
func toolsetRefusal(ptr, name, where string) error {
	if where != "" {
		return &refusals.Error{
			Kind:    refusals.ErrSessionTool,
			Pointer: ptr,
			Rule:    sessionToolRule,
			Subject: name,
			Detail:  "the toolset lists an MCP server's tools on every run through a session guardian-go did not load (" + where + "): a server that changes a tool's description between runs hands the model the new one, unrecorded",
			Fix:     sessionToolFixed,
		}
	}
	return &refusals.Error{
		Kind:    refusals.ErrCannotRecord,
		Pointer: ptr,
		Rule:    toolsetRule,
		Subject: name,
		Detail:  "ADK asks a toolset for its tools on every run, so the tools the model is sent can change after the definition is recorded",
		Fix:     "list the toolset's tools once and give them in Tools",
	}
}

// invalid refuses a misuse of New (a nil tool, an ADK agent made
// elsewhere), at ptr: never by name, which may hold what the definition
// would withhold.
func invalid(ptr, rule, detail, fix string) error {
	return &refusals.Error{Kind: refusals.ErrInvalid, Pointer: ptr, Rule: rule, Detail: detail, Fix: fix}
}
