// Package definition builds an agent's definition document: a canonical,
// schema-validated JSON record of the tools the agent is given as the model
// sees them, the MCP servers those tools come from, and fingerprints of the
// code that shapes each call; or it refuses, with *refusals.Error values,
// what it cannot record honestly.
//
// Package definition knows nothing of mcp-go: it recognises an MCP tool by
// the MCPTool interface, which package mcpservers implements.
package definition
