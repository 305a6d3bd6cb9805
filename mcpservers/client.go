package mcpservers

import (
	"context"
	"io"
	"time"
)

// ClientOptions configure a Client. A nil *ClientOptions, and every zero
// field, means the documented default. NewClient copies the options: a later
// change to them, or to the connections, changes nothing the Client or its
// tools do.
type ClientOptions struct {
	// Interceptors wrap every tool call, the first outermost (see
	// [Interceptor]).
	Interceptors []Interceptor

	// Sampling, Elicitation and Roots answer the servers' requests for a
	// model completion, user input and the client's roots. With no
	// Elicitation handler, a call whose server asks for input returns an
	// *ElicitationRequired error to resume it with answers. With no
	// Sampling or Roots handler, the client does not offer them.
	Sampling    SamplingHandler
	Elicitation ElicitationHandler
	Roots       RootsHandler

	// OnLog receives the servers' log messages at LogLevel and above, and
	// OnProgress the progress of running calls. Both are called on one
	// goroutine per Client, in the order the messages arrived, never on a
	// connection's reader: a slow callback delays only other callbacks. When
	// 1024 messages are waiting, newer ones are dropped rather than block a
	// connection. Progress for a call can arrive after the call returned.
	OnLog      func(LogMessage)
	OnProgress func(Progress)
	// LogLevel is the least severe level OnLog receives: "debug", "info",
	// "notice", "warning", "error", "critical", "alert" or "emergency".
	// Empty means "info". Unused without OnLog.
	LogLevel string

	// PrefixToolNames names each tool "<server>_<tool>", sanitized to what
	// LLM providers accept (^[a-zA-Z0-9_-]{1,64}$, long names shortened
	// with a hash), so that servers with tools of one name can be used
	// together. Calls still use the tool's MCP name. Without it, two
	// servers offering one tool name is an ErrNameCollision error.
	PrefixToolNames bool

	// AllowPartial makes Tools return the tools of the servers that loaded,
	// together with an error for the ones that did not, instead of no tools.
	AllowPartial bool

	// ClientName and ClientVersion identify the client to servers. Empty
	// means "guardian-go" and this module's version line.
	ClientName    string
	ClientVersion string

	// ProtocolVersion pins the MCP protocol version, such as "2025-11-25",
	// skipping negotiation. Empty means: the newest this client speaks,
	// falling back to the server's.
	ProtocolVersion string
	// DiscoverTimeout bounds how long connecting waits for a server to
	// answer the 2026-07-28 server/discover probe before taking it for an
	// older server; servers that ignore unknown requests would otherwise
	// stall every connection. Zero means 1 second; negative means no bound.
	DiscoverTimeout time.Duration

	// Stderr, if set, receives what stdio servers write to their standard
	// error, each line prefixed with "[<server>] ". It must not block for
	// long: a server writing to a full pipe stops. Nil discards it.
	Stderr io.Writer
}

// Client is a set of MCP server connections, each named by its key in the
// map given to NewClient. It keeps one live connection per server, made on
// first use and reused by every tool loaded from it. Its methods are safe
// for concurrent use.
type Client struct {
	unimplemented struct{}
}

// NewClient validates the connections and options and returns a Client
// that will connect to the servers when their tools are first loaded. It
// starts no process and opens no connection.
//
// Configuration that cannot work (an empty name or command, a relative
// Dir, a malformed URL, a bad option) is refused with *refusals.Error
// values of kind refusals.ErrInvalid, all of them at once, each naming the
// server and pointing at the field (/mcpServers/<name>/url). No message
// quotes a header, an environment value or a URL.
func NewClient(conns map[string]Connection, opts *ClientOptions) (*Client, error) {
	return nil, errNotYet
}

// Tools connects to the named servers, or to all of them when none is
// named, concurrently, and returns their tools: ordered by server name,
// then in the order each server listed them, every page of the listing
// read.
//
// A server that cannot be loaded gives an *Error naming it; by default
// Tools then returns no tools, and the errors of every failing server.
// With ClientOptions.AllowPartial it returns the other servers' tools as
// well. Two tools of one name are an ErrNameCollision error unless
// ClientOptions.PrefixToolNames is set.
//
// ctx bounds connecting and listing, not the connections, which live until
// Close. Calling Tools again lists the tools again, on the same connections.
func (c *Client) Tools(ctx context.Context, servers ...string) ([]*Tool, error) {
	return nil, errNotYet
}

// Close closes every connection, stops every server process it started
// (and waits for it, so that none is left behind), and waits for the
// callback goroutine. Calls in flight fail with ErrClosed. Close is safe to
// call more than once; later calls return nil.
func (c *Client) Close() error {
	return nil
}
