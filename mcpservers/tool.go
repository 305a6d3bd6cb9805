package mcpservers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"slices"

	"github.com/guardian-agent/guardian-go/definition"
)

// Tool is one tool of one MCP server, as the server sent it, bound to its
// server's live connection and to a frozen copy of the code that shapes its
// calls (the interceptors and handlers it was loaded with).
//
// Its methods are safe for concurrent use. The byte slices it returns are
// copies, except MCPRecord's, which are read-only.
type Tool struct {
	name  string // as the model sees it
	wt    *wireTool
	srv   *remote
	opts  *options
	info  ServerInfo
	chain CallFunc
	// record is MCPRecord's answer, made at load.
	record definition.MCPRecord
}

func (s *remote) newTool(wt *wireTool, info ServerInfo) *Tool {
	t := &Tool{name: wt.name, wt: wt, srv: s, opts: s.opts, info: info}
	if s.opts.prefix {
		t.name = prefixedName(s.cfg.name, wt.name)
	}
	t.chain = chain(s.opts.interceptors, t.send)
	t.record = t.newRecord()
	return t
}

// chain builds the interceptor chain once, at load: the first interceptor
// is the outermost.
func chain(ics []Interceptor, last CallFunc) CallFunc {
	next := last
	for i := len(ics) - 1; i >= 0; i-- {
		ic, n := ics[i], next
		next = func(ctx context.Context, req *CallRequest) (*Result, error) {
			return ic.Intercept(ctx, req, n)
		}
	}
	return next
}

// loaded reports whether t is a tool Client.Tools or SessionTools made:
// the getters of a nil or zero *Tool return zero values, and its calls
// ErrInvalidUse errors.
func (t *Tool) loaded() bool { return t != nil && t.wt != nil && t.srv != nil && t.chain != nil }

// Name is the name the model sees: the tool's MCP name, or the prefixed
// name with ClientOptions.PrefixToolNames.
func (t *Tool) Name() string {
	if !t.loaded() {
		return ""
	}
	return t.name
}

// MCPName is the tool's name as the server knows it, which calls use.
func (t *Tool) MCPName() string {
	if !t.loaded() {
		return ""
	}
	return t.wt.name
}

// Title is the tool's title as sent, or "".
func (t *Tool) Title() string {
	if !t.loaded() {
		return ""
	}
	return t.wt.title
}

// Description is the tool's description as sent, or "".
func (t *Tool) Description() string {
	if !t.loaded() {
		return ""
	}
	return t.wt.description
}

// InputSchema is the tool's input JSON Schema, exactly the bytes the server
// sent, with every keyword.
func (t *Tool) InputSchema() json.RawMessage {
	if !t.loaded() {
		return nil
	}
	return bytes.Clone(t.wt.input)
}

// OutputSchema is the tool's output JSON Schema as sent, or nil.
func (t *Tool) OutputSchema() json.RawMessage {
	if !t.loaded() {
		return nil
	}
	return bytes.Clone(t.wt.output)
}

// Annotations are the tool's behaviour hints, decoded; a malformed hint
// counts as not given.
func (t *Tool) Annotations() Annotations {
	if !t.loaded() {
		return Annotations{}
	}
	a := t.wt.ann
	a.ReadOnlyHint = clonePtr(a.ReadOnlyHint)
	a.DestructiveHint = clonePtr(a.DestructiveHint)
	a.IdempotentHint = clonePtr(a.IdempotentHint)
	a.OpenWorldHint = clonePtr(a.OpenWorldHint)
	return a
}

func clonePtr(p *bool) *bool {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// Meta is the tool's _meta object as sent, or nil.
func (t *Tool) Meta() json.RawMessage {
	if !t.loaded() {
		return nil
	}
	return bytes.Clone(t.wt.meta)
}

// Raw is the tool's whole definition, exactly as sent in tools/list.
func (t *Tool) Raw() json.RawMessage {
	if !t.loaded() {
		return nil
	}
	return bytes.Clone(t.wt.raw)
}

// Server describes the server the tool came from.
func (t *Tool) Server() ServerInfo {
	if !t.loaded() {
		return ServerInfo{}
	}
	return t.info
}

// Call calls the tool with args, through the tool's interceptors. A tool
// failure the server reports is a Result with IsError set; a failure to
// make the call is an *Error (or *ElicitationRequired). Call does not
// modify args.
//
// If the connection was found dead before the call was sent (the process
// exited, the session ended), it is re-established once. If it dies during
// the call, Call fails with ErrConnectionLost and the next call reconnects.
//
// With a definition bound to ctx (definition.Definition.Bind), Call (and
// Resume) first vets the tool against it, and a tool the definition does
// not describe is refused, with an error for which
// errors.Is(err, refusals.ErrUndescribed) holds, before anything is sent.
// An interceptor's or tool's own calls made with the context it was given
// are vetted so too.
func (t *Tool) Call(ctx context.Context, args map[string]any) (*Result, error) {
	return t.run(ctx, args, nil)
}

// Resume reruns a call interrupted by an *ElicitationRequired error, with
// the same args and the user's answers, keyed by [ElicitationRequest.Key].
// It reruns the tool from the start (see ElicitationRequired). Requests
// with no answer interrupt the call again.
func (t *Tool) Resume(ctx context.Context, args map[string]any, answers map[string]ElicitationResponse) (*Result, error) {
	answers = maps.Clone(answers)
	if answers == nil {
		answers = map[string]ElicitationResponse{}
	}
	return t.run(ctx, args, answers)
}

func (t *Tool) run(ctx context.Context, args map[string]any, answers map[string]ElicitationResponse) (*Result, error) {
	if !t.loaded() {
		return nil, invalidUse("", "", "call", errNilTool)
	}
	if ctx == nil {
		return nil, invalidUse(t.srv.cfg.name, t.wt.name, "call", errNilContext)
	}
	// Whoever makes the call (the agent, middleware, an interceptor or
	// tool holding this one), it is checked against the definition bound to
	// its context before anything is sent.
	if err := definition.VetCall(ctx, t); err != nil {
		return nil, err
	}
	if answers != nil {
		ctx = context.WithValue(ctx, answersKey{}, answers)
	}
	req := &CallRequest{Server: t.srv.cfg.name, Name: t.wt.name, Arguments: maps.Clone(args)}
	res, err := t.chain(ctx, req)
	if err != nil {
		var er *ElicitationRequired
		if errors.As(err, &er) && er.tool == nil {
			er.tool, er.args, er.answers = t, maps.Clone(args), answers
		}
		return nil, err
	}
	if res == nil {
		return nil, &Error{Server: t.srv.cfg.name, Tool: t.wt.name, Op: "call", Kind: ErrNoResult}
	}
	return res, nil
}

// MCPRecord tells a definition which server the tool calls and what code
// shapes its calls: its interceptors in chain order, then the connection's
// HTTP client factory and auth, then the sampling, elicitation and roots
// handlers. A Func adapter of this package (InterceptorFunc, AuthFunc, the
// handler funcs) is reported as the function it wraps, so that the code
// recorded is the user's, whatever guardian-go's version. It never includes headers, environment, working directory,
// timeouts, or the logging and progress callbacks. It does no I/O and does
// not allocate.
//
// The record is made once, when the tool is loaded, and its slices are
// shared (args and code with the server's other tools): treat them as
// read-only. They are the record's own, not the connection's, so changing
// them cannot change what the tool calls.
func (t *Tool) MCPRecord() definition.MCPRecord {
	if !t.loaded() {
		return definition.MCPRecord{}
	}
	return t.record
}

// newRecord makes the tool's MCPRecord, with copies of its own.
func (t *Tool) newRecord() definition.MCPRecord {
	cfg := t.srv.cfg
	args, code := t.srv.recordParts()
	return definition.MCPRecord{
		Server: definition.Server{
			Name:      t.info.Name,
			Transport: cfg.transport,
			URL:       cfg.url,
			Command:   cfg.command,
			Args:      args,
		},
		SessionBound: t.srv.fixed,
		Title:        t.wt.title,
		OutputSchema: bytes.Clone(t.wt.output),
		Annotations:  bytes.Clone(t.wt.annotations),
		Code:         code,
	}
}

// recordParts returns the server's args and the code that shapes its
// tools' calls, for their records: copies, made once and shared by all the
// server's tools, so that a definition analyses the code once per server.
// Clipped: an append to a returned slice cannot write into them.
func (s *remote) recordParts() ([]string, []definition.Code) {
	s.recordOnce.Do(func() {
		cfg, opts := s.cfg, s.opts
		s.recordArgs = slices.Clip(slices.Clone(cfg.args))
		code := make([]definition.Code, 0, len(opts.interceptors)+5)
		add := func(role definition.Role, v any, present bool) {
			if present {
				code = append(code, definition.Code{Role: role, Value: v})
			}
		}
		for _, ic := range opts.interceptors {
			add(definition.RoleInterceptor, userCode(ic), true)
		}
		add(definition.RoleHTTPClient, cfg.httpClient, cfg.httpClient != nil)
		if uc, ok := cfg.auth.(UserCoder); ok {
			// Library code (package oauth's): the user's code it runs.
			for _, v := range uc.UserCode() {
				add(definition.RoleAuth, userCode(v), v != nil)
			}
		} else {
			add(definition.RoleAuth, userCode(cfg.auth), cfg.auth != nil)
		}
		add(definition.RoleSampling, userCode(opts.sampling), opts.sampling != nil)
		add(definition.RoleElicitation, userCode(opts.elicitation), opts.elicitation != nil)
		add(definition.RoleRoots, userCode(opts.roots), opts.roots != nil)
		s.recordCode = slices.Clip(code)
	})
	return s.recordArgs, s.recordCode
}

// userCode is the code a value stands for in a record: for one of this
// package's Func adapters (InterceptorFunc, AuthFunc and the handler
// funcs), the user's function it wraps, as a func of unnamed type, so that
// its fingerprint is the user's code alone. The adapter's type is this
// module's code at its version: fingerprinting it would change every
// user's sourceHash when guardian-go is upgraded, the user's code
// unchanged. Any other value is the user's implementation, as given.
func userCode(v any) any {
	switch f := v.(type) {
	case InterceptorFunc:
		return (func(context.Context, *CallRequest, CallFunc) (*Result, error))(f)
	case AuthFunc:
		return (func(*http.Request, http.RoundTripper) (*http.Response, error))(f)
	case SamplingHandlerFunc:
		return (func(context.Context, *SamplingRequest) (*SamplingResult, error))(f)
	case ElicitationHandlerFunc:
		return (func(context.Context, *ElicitationRequest) (*ElicitationResponse, error))(f)
	case RootsHandlerFunc:
		return (func(context.Context, *RootsRequest) ([]Root, error))(f)
	}
	return v
}

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
