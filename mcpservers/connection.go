package mcpservers

import (
	"net/http"
	"time"

	"github.com/guardian-agent/guardian-go/definition"
)

// Connection says how to reach one MCP server. It is one of [Stdio],
// [StreamableHTTP], [SSE] and [WebSocket] (or a pointer to one); the set is
// closed, and NewClient refuses anything else, such as a struct that
// embeds one (rule connection-unknown).
//
// Only the server's transport, URL, command and arguments are ever recorded
// in a definition. Headers, environment, working directory, timeouts, the
// HTTP client and auth are used to connect and never recorded or printed.
type Connection interface {
	transport() definition.Transport
}

// Stdio runs an MCP server as a child process and speaks to it over its
// standard input and output.
//
// The child does not inherit the parent's whole environment: like the
// TypeScript and Python MCP SDKs, it gets a small safe subset (HOME, LOGNAME,
// PATH, SHELL, TERM and USER on Unix; the usual system variables on Windows),
// overlaid with Env. Pass anything else the server needs in Env, so that a
// server never sees credentials it was not given.
//
// A Command without a path separator is looked up in the child's PATH
// (Env["PATH"] if set, else the inherited one). A relative Command with a
// separator, such as ./bin/server, is resolved against Dir when Dir is set,
// as a shell would after cd Dir, and against the current directory
// otherwise.
type Stdio struct {
	// Command is the program to run. Required.
	Command string
	// Args are its arguments, as given.
	Args []string
	// Env holds environment variables set for the child, over the safe
	// inherited subset. Never recorded.
	Env map[string]string
	// Dir is the child's working directory: an absolute path, or empty for
	// the current directory. Never recorded.
	Dir string
}

// StreamableHTTP reaches an MCP server over the streamable HTTP transport.
//
// A connection speaks only to its URL's origin (scheme, host and port): a
// redirect is followed only within it and only if it keeps the method, and
// anything that would send a request elsewhere (a redirect to another
// origin, https to http included) is an ErrRedirect error. No header, Auth
// or call header ever reaches another origin.
type StreamableHTTP struct {
	// URL is the server's MCP endpoint, http or https. Required.
	URL string
	// Headers are set on every HTTP request to the server, including the
	// session DELETE on close and the standalone GET stream. Never recorded.
	Headers map[string]string
	// Timeout bounds connecting to the server and sending each HTTP
	// request; the wait for the answer is bounded by the caller's context
	// instead, so that a long tool call is not cut short. Zero means 30
	// seconds; negative means no bound.
	Timeout time.Duration
	// HTTPClient, if set, makes the *http.Client to send requests with. It
	// is called once per connection, and the client it returns is copied,
	// never modified. Nil means a client with http.DefaultTransport. Its
	// CheckRedirect, if any, decides on redirects within the origin.
	HTTPClient func() *http.Client
	// Auth, if set, authenticates every HTTP request (see [Auth]).
	Auth Auth
}

// SSE reaches an MCP server over the legacy HTTP+SSE transport. It speaks
// only to its URL's origin, as StreamableHTTP does: an endpoint event
// naming another origin is an ErrRedirect error too.
//
// The server's requests during a call (sampling, elicitation, roots) work
// over SSE on every protocol version. On 2026-07-28 they arrive inside the
// call's result. Before it, the server sends them on the event stream,
// where mcp-go's SSE transport would drop them: this package reads them
// there, answers them with the handlers, and posts the answers to the
// session's message endpoint. Such a request does not say which call it
// belongs to; it is taken to belong to the call in flight when there is
// exactly one, and is otherwise answered with the Client's handlers (with
// no ElicitationHandler, an elicitation then gets an error back, and
// interrupts no call).
type SSE struct {
	// URL is the server's SSE endpoint, http or https. Required.
	URL string
	// Headers are set on every HTTP request to the server. Never recorded.
	Headers map[string]string
	// Timeout bounds connecting and sending each HTTP request, as for
	// StreamableHTTP. Zero means 30 seconds; negative means no bound.
	Timeout time.Duration
	// SSEReadTimeout is how long the event stream may stay silent before
	// the connection is taken as lost. Zero means 5 minutes; negative means
	// no bound.
	SSEReadTimeout time.Duration
	// HTTPClient, if set, makes the *http.Client to send requests with, as
	// for StreamableHTTP.
	HTTPClient func() *http.Client
	// Auth, if set, authenticates every HTTP request (see [Auth]).
	Auth Auth
}

// WebSocket names an MCP server reached over a websocket. mcp-go has no
// websocket client, so loading tools from one fails with an error that
// matches errors.ErrUnsupported; it exists so that configurations can say
// what they mean, and a definition refuses it.
type WebSocket struct {
	// URL is the server's endpoint, ws or wss. Required.
	URL string
	// Headers would be sent on the handshake. Never recorded.
	Headers map[string]string
}

func (Stdio) transport() definition.Transport          { return definition.TransportStdio }
func (StreamableHTTP) transport() definition.Transport { return definition.TransportStreamableHTTP }
func (SSE) transport() definition.Transport            { return definition.TransportSSE }
func (WebSocket) transport() definition.Transport      { return definition.TransportWebSocket }

// Auth authenticates a connection's HTTP requests. RoundTrip is given a
// request (a clone it may modify) with the connection's headers already set,
// and the RoundTripper that sends it; it typically sets an Authorization
// header and calls next, and may retry after a 401 with a fresh token.
//
// It sees every request of the connection, including the session DELETE on
// close and the event streams, and only those: never a request to another
// origin than the connection's URL's. An Auth value is code that shapes calls: the
// definition fingerprints it, by its code, never by the values it holds.
// Its errors must not quote credentials.
type Auth interface {
	RoundTrip(req *http.Request, next http.RoundTripper) (*http.Response, error)
}

// AuthFunc adapts a function to [Auth].
type AuthFunc func(req *http.Request, next http.RoundTripper) (*http.Response, error)

// RoundTrip calls f(req, next).
func (f AuthFunc) RoundTrip(req *http.Request, next http.RoundTripper) (*http.Response, error) {
	if f == nil {
		if req != nil && req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, invalidUse("", "", "auth", errNilFunc)
	}
	return f(req, next)
}

// ConnectionAuth is an Auth that keeps state for each connection it
// serves, as package oauth's keeps each server's tokens. A connection
// given one calls AuthorizeConnection when it makes its HTTP client, and
// sends its requests through the RoundTripper that returns instead of
// calling RoundTrip.
type ConnectionAuth interface {
	Auth
	// AuthorizeConnection returns what authorizes the requests of the
	// connection to url, the URL as configured (an SSE connection posts
	// to another URL of its server), sending them with next. The Auth
	// calls learn with each secret it comes to hold (a token, a client
	// secret): the connection keeps it out of its errors, output and
	// tool definitions, as it does header values. It must not do I/O.
	AuthorizeConnection(url string, next http.RoundTripper, learn func(secrets ...string)) http.RoundTripper
}

// UserCoder is an Auth of library code that runs code of its user's, as
// package oauth's runs an AuthorizeFunc and a TokenStore. A definition
// fingerprints what UserCode returns, each value in the auth role,
// instead of the Auth: library code would change every user's
// sourceHash with each release of the library, their code unchanged.
type UserCoder interface {
	Auth
	// UserCode returns the user's funcs and implementation values the
	// Auth runs, or none. It must not do I/O.
	UserCode() []any
}
