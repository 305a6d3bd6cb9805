package mcpservers

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/guardian-agent/guardian-go/definition"
)

var errNotYet = errors.New("mcpservers: not implemented yet")

// Tool is one tool of one MCP server, as the server sent it, bound to its
// server's live connection and to a frozen copy of the code that shapes its
// calls (the interceptors and handlers it was loaded with).
//
// Its methods are safe for concurrent use. The byte slices it returns are
// copies.
type Tool struct {
	unimplemented struct{}
}

// Name is the name the model sees: the tool's MCP name, or the prefixed
// name with ClientOptions.PrefixToolNames.
func (t *Tool) Name() string { return "" }

// MCPName is the tool's name as the server knows it, which calls use.
func (t *Tool) MCPName() string { return "" }

// Title is the tool's title as sent, or "".
func (t *Tool) Title() string { return "" }

// Description is the tool's description as sent, or "".
func (t *Tool) Description() string { return "" }

// InputSchema is the tool's input JSON Schema, exactly the bytes the server
// sent, with every keyword.
func (t *Tool) InputSchema() json.RawMessage { return nil }

// OutputSchema is the tool's output JSON Schema as sent, or nil.
func (t *Tool) OutputSchema() json.RawMessage { return nil }

// Annotations are the tool's behaviour hints, decoded; a malformed hint
// counts as not given.
func (t *Tool) Annotations() Annotations { return Annotations{} }

// Meta is the tool's _meta object as sent, or nil.
func (t *Tool) Meta() json.RawMessage { return nil }

// Raw is the tool's whole definition, exactly as sent in tools/list.
func (t *Tool) Raw() json.RawMessage { return nil }

// Server describes the server the tool came from.
func (t *Tool) Server() ServerInfo { return ServerInfo{} }

// Call calls the tool with args, through the tool's interceptors. A tool
// failure the server reports is a Result with IsError set; a failure to
// make the call is an *Error (or *ElicitationRequired). Call does not
// modify args.
//
// If the connection was found dead before the call was sent (the process
// exited, the session ended), it is re-established once. If it dies during
// the call, Call fails with ErrConnectionLost and the next call reconnects.
func (t *Tool) Call(ctx context.Context, args map[string]any) (*Result, error) {
	return nil, errNotYet
}

// Resume reruns a call interrupted by an *ElicitationRequired error, with
// the same args and the user's answers, keyed by [ElicitationRequest.Key].
// It reruns the tool from the start (see ElicitationRequired). Requests
// with no answer interrupt the call again.
func (t *Tool) Resume(ctx context.Context, args map[string]any, answers map[string]ElicitationResponse) (*Result, error) {
	return nil, errNotYet
}

// MCPRecord tells a definition which server the tool calls and what code
// shapes its calls: its interceptors in chain order, then the connection's
// HTTP client factory and auth, then the sampling, elicitation and roots
// handlers. It never includes headers, environment, working directory,
// timeouts, or the logging and progress callbacks. It does no I/O.
func (t *Tool) MCPRecord() definition.MCPRecord { return definition.MCPRecord{} }

// ServerInfo describes the server a tool came from.
type ServerInfo struct {
	// Name is the connection's name (the key given to NewClient), or, for
	// a session's tools, the name the server reported.
	Name      string
	Transport definition.Transport
	// Implementation is the server's reported identity.
	Implementation Implementation
	// ProtocolVersion is the MCP protocol version the connection speaks.
	ProtocolVersion string
	// Instructions are the server's instructions for the model, or "".
	Instructions string
}

// Implementation is the name, version and title a server reports.
type Implementation struct {
	Name    string
	Version string
	Title   string
}

var _ definition.MCPTool = (*Tool)(nil)
