package definition

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/guardian-agent/guardian-go/fingerprint"
)

// Agent is what an agent is made of: what Build records.
type Agent struct {
	// Name is required; Description, Model and SystemPrompt are recorded
	// when set.
	Name, Description, Model, SystemPrompt string
	// Tools are the tools the agent is given. MCP tools (MCPTool) bring
	// their server with them.
	Tools []Tool
	// Middleware wraps the agent's model calls. The tools a middleware
	// offers the model are recorded with the agent's own; an MCP tool a
	// middleware holds but does not offer is refused.
	Middleware []Middleware
	// SubAgents are recorded as nested definitions, each with the servers
	// of its own tools. Their names must differ from one another.
	SubAgents []*Agent
	// ChatModel is the agent's routed model: the client value (an
	// openai.Client, an Eino ChatModel, ...) through which its model calls
	// go. Model stays the name recorded. A tool that holds any other
	// chat-model client (in its interceptors, connection code, handlers,
	// fields or a wrapper) is refused with refusals.ErrUnroutedModel. Give
	// the pointer or interface value the tools hold, or a copy of the value:
	// a model is the routed one when it is the same pointer, or holds the
	// same bytes. Nil: the agent has no routed model, so any chat-model
	// client a tool holds is refused. It is not recorded.
	ChatModel any
}

// Middleware is code around an agent's model calls that may offer the
// model tools of its own (a planning or memory middleware, say). Build walks
// a middleware's fields: an MCP tool it holds must be one it offers, or one
// the agent is given.
type Middleware interface {
	// Tools returns the tools the middleware offers the model; nil if none.
	Tools() []Tool
}

// Options adjusts Build. A nil *Options means the defaults, which are the
// zero values.
type Options struct {
	// Exclude lists RFC 6901 JSON pointers into the document to leave out,
	// such as "/mcpServers/0/args" for arguments that are paths on one
	// machine. Each must point at an optional field that exists; whole
	// tools, servers and required fields cannot be left out. The document
	// lists them in extensions.guardian.exclude. Exclude never hides a
	// refusal: every check runs on the full record first.
	Exclude []string

	// Fingerprinter computes the tools' sourceHash. Pass one to reuse its
	// caches across builds; nil means a new one for this Build, whose cost
	// is then dominated by parsing the few source files involved.
	Fingerprinter *fingerprint.Fingerprinter

	// Cache, if set, keeps the tools' parsed JSON from one Build to the
	// next (see Cache); the Definition's Vet uses it too. Nil: none.
	Cache *Cache

	// ChatModelPackages are more package path prefixes whose types are
	// chat-model clients, beyond those Build knows (openai-go,
	// anthropic-sdk-go, genai, go-openai, langchaingo's llms, Eino's and
	// eino-ext's model components, ADK's model, Genkit's ai, fantasy): a
	// prefix names a package and the packages under it. A type of such a
	// package is a client when it, or a type it holds, has a method whose
	// first parameter is a context.Context.
	ChatModelPackages []string
}

// FuncTool is a native Go tool: a name, a description, an input schema, and
// the Go function that runs it. Its sourceHash fingerprints the function.
type FuncTool struct {
	name, description string
	schema            json.RawMessage
	fn                ToolFunc
}

// ToolFunc runs a native Go tool with the arguments the model gave.
type ToolFunc func(ctx context.Context, args map[string]any) (any, error)

// NewFuncTool returns a native Go tool. A nil inputSchema means a tool that
// takes no arguments ({"type":"object"}). The schema's bytes are copied.
func NewFuncTool(name, description string, inputSchema json.RawMessage, fn ToolFunc) *FuncTool {
	s := json.RawMessage(`{"type":"object"}`)
	if len(inputSchema) > 0 {
		s = append(json.RawMessage(nil), inputSchema...)
	}
	return &FuncTool{name: name, description: description, schema: s, fn: fn}
}

// Name returns the tool's name ("" for a nil *FuncTool).
func (t *FuncTool) Name() string {
	if t == nil {
		return ""
	}
	return t.name
}

// Description returns the tool's description ("" for a nil *FuncTool).
func (t *FuncTool) Description() string {
	if t == nil {
		return ""
	}
	return t.description
}

// InputSchema returns the tool's input schema (nil for a nil *FuncTool
// or a zero FuncTool, which Build refuses as having none).
func (t *FuncTool) InputSchema() json.RawMessage {
	if t == nil {
		return nil
	}
	return t.schema
}

// Call runs the tool. A tool made with a nil function, a zero FuncTool
// and a nil *FuncTool have nothing to run: Call returns ErrNoFunc.
//
// With a definition bound to ctx (Definition.Bind), Call first vets the
// tool against it (VetCall) and runs nothing if it is refused.
func (t *FuncTool) Call(ctx context.Context, args map[string]any) (any, error) {
	if t == nil || t.fn == nil {
		return nil, ErrNoFunc
	}
	if err := VetCall(ctx, t); err != nil {
		return nil, err
	}
	return t.fn(ctx, args)
}

// ErrNoFunc is FuncTool.Call's error for a tool made without a function.
var ErrNoFunc = errors.New("definition: the tool has no function")
