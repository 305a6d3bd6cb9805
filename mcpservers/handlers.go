package mcpservers

import (
	"context"
	"encoding/json"
)

// A server may ask the client for things while it runs a tool: a model
// completion (sampling), input from the user (elicitation), or the client's
// roots. On protocol version 2026-07-28 these requests come inside the
// call's result and are answered by re-sending the call; before it, the
// server sends them as requests of its own. The handlers below answer both.
//
// Every request says which connection (Server) and, where it can be told,
// which tool call (Tool) it belongs to, and, on 2026-07-28, the Key the
// server gave it.

// SamplingHandler answers a server's request for a model completion.
type SamplingHandler interface {
	CreateMessage(ctx context.Context, req *SamplingRequest) (*SamplingResult, error)
}

// SamplingHandlerFunc adapts a function to [SamplingHandler].
type SamplingHandlerFunc func(ctx context.Context, req *SamplingRequest) (*SamplingResult, error)

// CreateMessage calls f(ctx, req).
func (f SamplingHandlerFunc) CreateMessage(ctx context.Context, req *SamplingRequest) (*SamplingResult, error) {
	if f == nil {
		return nil, invalidUse("", "", "sampling", errNilFunc)
	}
	return f(ctx, req)
}

// SamplingRequest is a server's request for a model completion.
type SamplingRequest struct {
	Server string // connection name
	Tool   string // MCP name of the tool being called, when known
	Key    string // the server's key for the request (2026-07-28 only)

	Messages       []SamplingMessage
	SystemPrompt   string
	MaxTokens      int
	Temperature    *float64
	StopSequences  []string
	IncludeContext string
	// ModelPreferences and Metadata are as the server sent them.
	ModelPreferences json.RawMessage
	Metadata         json.RawMessage
	// Params is the whole request as the server sent it, for fields this
	// type does not name (tools, toolChoice, ...).
	Params json.RawMessage
}

// SamplingMessage is one message of a sampling conversation.
type SamplingMessage struct {
	Role    string // "user" or "assistant"
	Content []Content
}

// SamplingResult is the model's completion.
type SamplingResult struct {
	// Role defaults to "assistant".
	Role string
	// Content is the completion: usually one *TextContent.
	Content    []Content
	Model      string
	StopReason string
}

// ElicitationHandler asks the user for input a server needs. Without one,
// a call whose server asks returns an [*ElicitationRequired] error instead,
// and is resumed with the answers (see [Tool.Resume]).
type ElicitationHandler interface {
	Elicit(ctx context.Context, req *ElicitationRequest) (*ElicitationResponse, error)
}

// ElicitationHandlerFunc adapts a function to [ElicitationHandler].
type ElicitationHandlerFunc func(ctx context.Context, req *ElicitationRequest) (*ElicitationResponse, error)

// Elicit calls f(ctx, req).
func (f ElicitationHandlerFunc) Elicit(ctx context.Context, req *ElicitationRequest) (*ElicitationResponse, error) {
	if f == nil {
		return nil, invalidUse("", "", "elicitation", errNilFunc)
	}
	return f(ctx, req)
}

// ElicitationRequest is a server's request for input from the user.
type ElicitationRequest struct {
	Server string // connection name
	Tool   string // MCP name of the tool being called, when known
	// Key identifies the request within its call: the server's key on
	// protocol version 2026-07-28, and "elicitation-1", "elicitation-2", ...
	// in the order the server asked, before it. Answers are keyed by it.
	Key string

	// Mode is "form" (answer with Content matching RequestedSchema) or
	// "url" (the user visits URL).
	Mode            string
	Message         string
	RequestedSchema json.RawMessage
	URL             string
	ElicitationID   string
}

// Defaults returns the default values the requested schema gives its
// fields (SEP-1034), for a form to start from; nil when there are none. An
// accepted answer that leaves out such a field is sent with its default.
func (r *ElicitationRequest) Defaults() map[string]any {
	if r == nil || r.RequestedSchema == nil {
		return nil
	}
	var schema struct {
		Properties map[string]map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(r.RequestedSchema, &schema) != nil {
		return nil
	}
	var out map[string]any
	for name, prop := range schema.Properties {
		raw, ok := prop["default"]
		if !ok {
			continue
		}
		var v any
		if json.Unmarshal(raw, &v) != nil {
			continue
		}
		if out == nil {
			out = map[string]any{}
		}
		out[name] = v
	}
	return out
}

// ElicitationAction is the user's choice.
type ElicitationAction string

// The three answers a user can give.
const (
	ElicitationAccept  ElicitationAction = "accept"  // submitted, with Content
	ElicitationDecline ElicitationAction = "decline" // explicitly refused
	ElicitationCancel  ElicitationAction = "cancel"  // dismissed without choosing
)

// ElicitationResponse is the user's answer to one elicitation request.
type ElicitationResponse struct {
	Action ElicitationAction
	// Content is the submitted form, for ElicitationAccept in form mode.
	Content map[string]any
}

// RootsHandler lists the client's roots (the directories or files a server
// may work in) when a server asks.
type RootsHandler interface {
	ListRoots(ctx context.Context, req *RootsRequest) ([]Root, error)
}

// RootsHandlerFunc adapts a function to [RootsHandler].
type RootsHandlerFunc func(ctx context.Context, req *RootsRequest) ([]Root, error)

// ListRoots calls f(ctx, req).
func (f RootsHandlerFunc) ListRoots(ctx context.Context, req *RootsRequest) ([]Root, error) {
	if f == nil {
		return nil, invalidUse("", "", "roots", errNilFunc)
	}
	return f(ctx, req)
}

// RootsRequest is a server's request for the client's roots.
type RootsRequest struct {
	Server string // connection name
	Tool   string // MCP name of the tool being called, when known
	Key    string // the server's key for the request (2026-07-28 only)
}

// Root is a directory or file a server may work in.
type Root struct {
	URI  string // a file:// URI
	Name string // optional
}

// LogMessage is a log message a server sent (notifications/message).
type LogMessage struct {
	Server string // connection name
	Level  string // "debug", "info", ..., "emergency"
	Logger string // optional
	Data   json.RawMessage
}

// Progress is a progress report for a running call.
type Progress struct {
	Server string // connection name
	Tool   string // MCP name of the tool being called
	// Progress increases with each report; Total is 0 when unknown.
	Progress float64
	Total    float64
	Message  string
}
