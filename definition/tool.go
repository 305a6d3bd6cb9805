package definition

import "encoding/json"

// Tool is a tool as the model sees it: a name, a description and a JSON
// Schema for its arguments. *mcpservers.Tool satisfies it, and so does a
// native Go tool made with NewFuncTool.
type Tool interface {
	Name() string
	Description() string
	InputSchema() json.RawMessage
}

// Adapter is a Tool that adapts code of another kind, such as an agent
// framework's own tool type, to Tool. Its sourceHash fingerprints the value
// Adapted returns, the code that runs when the tool is called, rather than
// the adapter's type: otherwise every tool adapted by one adapter would
// hash alike, and a change to the code a call runs would not show.
type Adapter interface {
	Tool
	// Adapted returns the value whose code runs the tool's calls (a struct
	// or pointer of the user's type, or a func). It must not do I/O.
	Adapted() any
}

// MCPTool is a Tool that calls a tool on an MCP server. It is how definition
// recognises an MCP tool without knowing which MCP client library made it:
// package mcpservers implements it, and another client library could too.
type MCPTool interface {
	Tool
	// MCPRecord tells the definition where the tool's calls go and what code
	// shapes them. It is called once per Build and must not do I/O. Build
	// does not modify the record or keep its slices, so an implementation
	// may return the same record every time, and its tools may share one
	// Code slice (Build then analyses it once); the slices must not change
	// while a Build runs.
	MCPRecord() MCPRecord
}

// MCPRecord is what a definition needs to know of an MCP tool beyond what
// the model sees.
type MCPRecord struct {
	// Server is the server the tool calls.
	Server Server

	// SessionBound is true when the tool was loaded from a session the
	// caller connected and owns (mcpservers.SessionTools): it calls whatever
	// that session is connected to, so a definition refuses it.
	SessionBound bool

	// Title, OutputSchema and Annotations are the rest of the tool's
	// definition, exactly as the server sent them; empty or nil when the
	// server sent none. Annotations is the raw "annotations" object.
	Title        string
	OutputSchema json.RawMessage
	Annotations  json.RawMessage

	// Code lists the code values that change what a call does, in the fixed
	// role order of the Role constants: each interceptor in chain order, then
	// the HTTP client factory, auth, and the sampling, elicitation and roots
	// handlers. Logging and progress callbacks change nothing and are not
	// listed. A Value is a func or an implementation value (a struct or
	// pointer held as an interface); nil values are left out.
	Code []Code
}

// Server is an MCP server as a definition records it. Never headers, auth,
// environment, working directory or timeouts: those have no field here, so
// they cannot be recorded.
type Server struct {
	Name      string    `json:"name"`
	Transport Transport `json:"transport"`
	// URL, for the HTTP transports and websocket.
	URL string `json:"url,omitempty"`
	// Command and Args, for stdio, as given.
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
}

// Transport names how a client reaches an MCP server.
type Transport string

// The transports a definition knows. A websocket server is refused.
const (
	TransportStdio          Transport = "stdio"
	TransportSSE            Transport = "sse"
	TransportStreamableHTTP Transport = "streamable_http"
	TransportWebSocket      Transport = "websocket"
)

// Code is one piece of code that changes what a tool's calls do, and the
// role it plays.
type Code struct {
	Role  Role
	Value any
}

// Role is the part a piece of code plays in a tool's calls. A tool's
// sourceHash combines its code's digests in role order, so moving code from
// one role to another changes the hash.
type Role string

// The roles, in the order they are combined.
const (
	RoleFunc        Role = "func"        // a native Go tool's function
	RoleInterceptor Role = "interceptor" // each tool-call interceptor, in chain order
	RoleHTTPClient  Role = "httpClient"  // the connection's HTTP client factory
	RoleAuth        Role = "auth"        // the connection's authentication code
	RoleSampling    Role = "sampling"    // the sampling handler
	RoleElicitation Role = "elicitation" // the elicitation handler
	RoleRoots       Role = "roots"       // the roots handler
)
