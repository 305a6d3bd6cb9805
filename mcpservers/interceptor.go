package mcpservers

import (
	"context"
	"net/http"
)

// CallRequest is one tool call on its way to the server. Interceptors may
// change Name, Arguments and Header, or answer without calling the server.
type CallRequest struct {
	// Server is the name of the connection the call goes to. Changing it
	// changes nothing: a tool calls its own server.
	Server string
	// Name is the tool's MCP name, as the server knows it (never the
	// prefixed name the model sees).
	Name string
	// Arguments are the call's arguments. Call gives the chain a shallow
	// copy of the caller's map, so an interceptor may set keys in it.
	Arguments map[string]any
	// Header holds HTTP headers for this call only, set over the
	// connection's headers on every HTTP request the call makes. Ignored on
	// stdio. Never recorded or printed.
	Header http.Header
}

// CallFunc performs a call: the next interceptor in the chain, or the
// server itself.
type CallFunc func(ctx context.Context, req *CallRequest) (*Result, error)

// Interceptor wraps tool calls. Interceptors form a chain in the order
// given: the first in the list is the outermost, so it sees the request
// first and the result last. An interceptor calls next to go on (possibly
// several times, to retry), or returns without calling it to short-circuit.
// It must return a result or an error.
//
// An Interceptor is code that shapes calls: the definition fingerprints
// each one, and walks the fields of a struct interceptor for MCP tools it
// holds. Prefer a struct type with a method to a closure, whose captured
// values cannot be seen.
type Interceptor interface {
	Intercept(ctx context.Context, req *CallRequest, next CallFunc) (*Result, error)
}

// InterceptorFunc adapts a function to [Interceptor].
type InterceptorFunc func(ctx context.Context, req *CallRequest, next CallFunc) (*Result, error)

// Intercept calls f(ctx, req, next).
func (f InterceptorFunc) Intercept(ctx context.Context, req *CallRequest, next CallFunc) (*Result, error) {
	if f == nil {
		return nil, invalidUse("", "", "call", errNilFunc)
	}
	return f(ctx, req, next)
}
