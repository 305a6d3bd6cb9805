package mcpservers

import (
	"errors"
	"strconv"
	"strings"
)

// The kinds of *Error. Test for them with errors.Is. An *Error can also
// match context.DeadlineExceeded or context.Canceled (when the caller's
// context ended) and errors.ErrUnsupported (a websocket server).
var (
	// ErrClosed: the Client was closed.
	ErrClosed = errors.New("client closed")
	// ErrUnknownServer: Tools was given a name the Client has no
	// connection for.
	ErrUnknownServer = errors.New("no such server")
	// ErrConnect: the server could not be started, reached or initialized.
	ErrConnect = errors.New("cannot connect")
	// ErrConnectionLost: the connection died while a call was in flight,
	// so whether the tool ran is unknown. The call is not replayed, since
	// the tool may not be safe to run twice; the next call reconnects. An
	// interceptor may retry tools it knows are safe.
	ErrConnectionLost = errors.New("connection lost during the call")
	// ErrProtocol: the server's answer was not valid MCP (malformed JSON, a
	// tool without a name, a repeated list cursor, ...).
	ErrProtocol = errors.New("protocol error")
	// ErrServer: the server answered with a JSON-RPC error; the *Error's
	// cause is an *RPCError.
	ErrServer = errors.New("server error")
	// ErrNameCollision: two tools would reach the model with one name.
	ErrNameCollision = errors.New("tool name collision")
	// ErrNoHandler: the server asked for sampling or roots, and the Client
	// has no handler for it.
	ErrNoHandler = errors.New("no handler for the server's request")
	// ErrHandler: a sampling, elicitation or roots handler failed, or gave
	// an answer that cannot be sent; the cause is its error.
	ErrHandler = errors.New("handler failed")
	// ErrBadArguments: the call's arguments cannot be encoded as JSON.
	ErrBadArguments = errors.New("bad arguments")
	// ErrNoResult: an interceptor returned neither a result nor an error.
	ErrNoResult = errors.New("no result")
	// ErrElicitationRequired: the server asked for user input and there is
	// no elicitation handler; the error is an *ElicitationRequired.
	ErrElicitationRequired = errors.New("elicitation required")
	// ErrEchoedCredential: a tool's definition holds a credential of its
	// connection (a header value, an environment value, a URL password or
	// query value, or a header value a request was sent with, Auth's and a
	// call's own included), which the server echoed back. The tool is left
	// out, so that the credential reaches no model and no recorded
	// definition; the *Error names the server and the tool, never the value.
	ErrEchoedCredential = errors.New("the server echoed a credential of its connection")
	// ErrRedirect: the server sent the client where it does not go: an
	// HTTP redirect or an SSE endpoint on another origin (scheme, host or
	// port; https to http included), a redirect that would turn a POST
	// into a GET, or more than 10 redirects. Nothing, credentials
	// included, was sent there. Configure the URL the server names, if
	// you trust it.
	ErrRedirect = errors.New("redirect refused")
	// ErrInvalidUse: a method was called on a nil or zero *Client, *Tool
	// or *ElicitationRequired (make them with NewClient, Client.Tools or
	// SessionTools, and take them from a call), a nil func adapter
	// (AuthFunc, InterceptorFunc, the handler funcs), given a nil context
	// or request, or an HTTPClient factory whose client has a nil pointer
	// as its Transport or Jar. Nothing was sent.
	ErrInvalidUse = errors.New("invalid use")
)

// Error is a failure of one server, or of one call to one of its tools.
type Error struct {
	// Server is the connection's name.
	Server string
	// Tool is the tool's MCP name, for a call; empty otherwise.
	Tool string
	// Op is what failed: "connect", "list tools" or "call"; for an
	// ErrInvalidUse error, also "close", or the nil adapter's role
	// ("auth", "sampling", "elicitation", "roots").
	Op string
	// Kind is one of the sentinels above, a context error, or
	// errors.ErrUnsupported. errors.Is matches it.
	Kind error
	// Err is the underlying cause, if any. errors.Is and errors.As see it,
	// but Error prints only a redacted description of it: causes from
	// net/http and mcp-go may quote URLs.
	Err error

	detail string // redacted description of Err, made when the error is
}

// Error formats the failure on one line, for example:
//
//	mcpservers: server "docs": call "search": connection lost during the call: server exited: exit status 2
func (e *Error) Error() string {
	if e == nil {
		return "mcpservers: <nil>"
	}
	var b strings.Builder
	b.WriteString("mcpservers: ")
	if e.Server != "" {
		b.WriteString("server ")
		b.WriteString(strconv.Quote(e.Server))
		b.WriteString(": ")
	}
	if e.Op != "" {
		b.WriteString(e.Op)
		if e.Tool != "" {
			b.WriteByte(' ')
			b.WriteString(strconv.Quote(e.Tool))
		}
		b.WriteString(": ")
	}
	if e.Kind != nil {
		b.WriteString(e.Kind.Error())
	} else {
		b.WriteString("failed")
	}
	if e.detail != "" {
		b.WriteString(": ")
		b.WriteString(e.detail)
	}
	return b.String()
}

// Detail is what Error prints after the kind: a description of the cause,
// cleared of the connection's credentials, or empty. A program that names
// the server and the operation itself (the guardian CLI's report, say)
// shows Op, Kind and Detail rather than taking Error's line apart.
func (e *Error) Detail() string {
	if e == nil {
		return ""
	}
	return e.detail
}

// Unwrap returns the kind and the cause, for errors.Is and errors.As.
func (e *Error) Unwrap() []error {
	if e == nil {
		return nil
	}
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// RPCError is a JSON-RPC error a server answered with.
type RPCError struct {
	Code    int
	Message string
	// Data is the error's data member, or nil, with its strings cleared
	// of the connection's secrets as Message is.
	Data []byte
}

// Error returns the code and message. The message is the server's, with
// the connection's header, environment and URL values removed.
func (e *RPCError) Error() string {
	if e == nil {
		return "json-rpc error: <nil>"
	}
	return "json-rpc error " + strconv.Itoa(e.Code) + ": " + e.Message
}

// Misuses, as ErrInvalidUse errors.
const (
	errNilContext = "the context is nil: pass context.Background() or another"
	errNilClient  = "the *Client is nil or zero: make one with NewClient"
	errNilTool    = "the *Tool is nil or zero: tools come from Client.Tools or SessionTools"
	errNilFunc    = "the func is nil"
)

func invalidUse(server, tool, op, detail string) *Error {
	return &Error{Server: server, Tool: tool, Op: op, Kind: ErrInvalidUse, detail: detail}
}
