// Package mcpservers turns MCP servers into tools an agent can use, and
// keeps, for every tool, exactly where it came from and what code shapes its
// calls: the raw material of a definition document.
//
// A [Client] holds one live connection per server, named by the key of the
// map given to [NewClient]. [Client.Tools] connects to the servers
// concurrently, lists every page of their tools, and returns them in a fixed
// order: by server name, then in the order the server listed them. Each
// [Tool] is exactly what its server sent (name, title, description, input
// and output schema, annotations and _meta, as raw bytes) and carries its
// server's record and a frozen copy of the code that shapes its calls, which
// package definition reads through [Tool.MCPRecord].
//
// # Errors
//
// Configuration that cannot work is refused up front by NewClient with
// *refusals.Error values of kind refusals.ErrInvalid, one per problem, each
// with a JSON pointer such as /mcpServers/docs/url. Failures at run time are
// *Error values naming the server (and the tool, for a call) whose Kind is
// one of this package's sentinels, a context error, or errors.ErrUnsupported.
// A server-reported tool failure (isError) is not a Go error: it is a
// [Result] with IsError set, which the agent can read and recover from.
//
// No error or log line ever holds a header, an environment value, an auth
// detail or a URL: a URL may carry a token, and url.Parse errors quote it.
//
// # mcp-go
//
// This is the only package of the module that imports
// github.com/mark3labs/mcp-go, and only [SessionTools] has an mcp-go type in
// its signature. Where mcp-go has traps (lossy tool schemas, a process bound
// to the Start context, no working directory for stdio, a mutated
// http.Client, results lost to an unknown content type, blocking
// notification handlers, server requests on the standalone GET stream), this
// package goes around them; docs/mcpservers.md lists what differs.
package mcpservers
