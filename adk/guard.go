package adk

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/agent/llmagent"
	"google.golang.org/adk/v2/model"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/toolutils"
	"google.golang.org/genai"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/refusals"
)

// Every call an agent made by New runs passes one of two checks before
// anything is sent, and both vet against the agent's part of the
// definition:
//
//   - each tool the agent is given is wrapped (guarded*): its Run, or
//     RunStream, vets the tool, asks for approval where the agent's
//     Approval says, and calls the tool with the definition bound to the
//     call's context, so that an MCP tool the tool's own code calls vets
//     itself too (mcpservers.Tool.Call); ADK calls a tool's Run from the
//     model's function calls, from a confirmation's resumption, and from a
//     workflow's tool node, and a wrapper is what each of them holds;
//   - a BeforeToolCallback, first among the agent's, vets any other tool
//     ADK is about to run (one a callback or plugin put in the model
//     request at run time), and lets through only the tools ADK adds
//     itself (transfer_to_agent, set_model_response, the task and
//     single-turn delegation tools), which call no server and no code of
//     the user's but the sub-agents the definition records.
//
// A refused call ends the run after its function response: the tool's
// error is the refusal (a *refusals.Error for which
// errors.Is(err, refusals.ErrUndescribed) holds), which the agent's
// OnToolErrorCallbacks see, and the event is final (SkipSummarization), so
// the model does not act on a call that was not run.

// guard is the check of one agent: its part of the definition (path names
// it), and its approval rule.
type guard struct {
	def      *definition.Definition
	path     []string
	approval *Approval
}

// entry is a tool the agent is given, as recorded.
type entry struct {
	tool tool.Tool       // the ADK tool (for an agent tool, ADK's agenttool once made)
	rec  definition.Tool // what the definition records
	mcp  *mcpservers.Tool
	// agentTool: the tool runs a sub-agent, whose own tools are vetted
	// against its part of the definition: the call is not bound to this
	// agent's (a binding nests, and a call must pass every one bound).
	agentTool bool
	ptr       string // where the tool sits in the agent New was given

	// frozen is the declaration the model is sent, made from the record
	// (freeze), for a tool that only packs its declaration; nil for any
	// other, whose requests are checked (sent).
	frozen *genai.FunctionDeclaration

	// The declaration the definition records, kept to check what the
	// model is sent (sent) without copying it at every request.
	sentOnce          sync.Once
	name, description string
	schema            json.RawMessage
}

// recorded returns what the definition records of e's tool, as the model
// is to be sent it.
func (e *entry) recorded() (name, description string, schema json.RawMessage) {
	e.sentOnce.Do(func() {
		e.name, e.description, e.schema = e.rec.Name(), e.rec.Description(), e.rec.InputSchema()
	})
	return e.name, e.description, e.schema
}

// refuse ends the run after this call: the refusal is the tool's error,
// and the event it makes is final, so the model does not act on it.
func refuse(ctx agent.Context, err error) (map[string]any, error) {
	if a := ctx.Actions(); a != nil {
		a.SkipSummarization = true
	}
	return nil, err
}

// vet vets e against the agent's part of the definition.
func (g *guard) vet(e *entry) error { return g.def.Vet(e.rec, g.path...) }

// bind returns ctx with the agent's part of the definition bound to it.
func (g *guard) bind(ctx agent.Context) agent.Context {
	if ctx == nil {
		return nil
	}
	if b, ok := ctx.(*boundContext); ok && b.g == g {
		return ctx
	}
	return &boundContext{Context: ctx, bound: g.def.Bind(ctx, g.path...), g: g}
}

// bindCall is the context a call of e runs with.
func (g *guard) bindCall(ctx agent.Context, e *entry) agent.Context {
	if e.agentTool {
		return ctx
	}
	return g.bind(ctx)
}

// before is the BeforeToolCallback New puts first in an agent's: it vets
// a tool the agent's wrappers do not cover (see above).
func (g *guard) before(ctx agent.Context, t tool.Tool, _ map[string]any) (map[string]any, error) {
	if w, ok := t.(guarded); ok {
		e := w.entry()
		if w.guard() == g {
			return nil, nil // its Run vets it
		}
		// Another agent's tool, put in this agent's request.
		if err := g.vet(e); err != nil {
			return refuse(ctx, err)
		}
		return nil, nil
	}
	if adkOwn(t) {
		return nil, nil
	}
	if _, ok := t.(standIn); ok {
		return nil, nil // runs nothing
	}
	var rec definition.Tool
	switch t := t.(type) {
	case *Tool:
		rec = t.mcp
	default:
		n, err := recordNative(t, "")
		if err != nil {
			return refuse(ctx, err)
		}
		rec = n
	}
	if err := g.def.Vet(rec, g.path...); err != nil {
		return refuse(ctx, err)
	}
	return nil, nil
}

// adkOwn reports whether t is one of the tools ADK adds to a request
// itself: its types live in ADK's internal packages, which no other code
// can make.
func adkOwn(t tool.Tool) bool {
	return strings.HasPrefix(pkgOf(t), pkgADKInternal)
}

// guarded is a tool wrapped by an agent's guard.
type guarded interface {
	tool.Tool
	entry() *entry
	guard() *guard
}

// wrap returns e's tool wrapped by g, keeping the kinds of tool ADK tells
// apart (a streaming function, a function, or a tool the model runs
// itself, such as a Gemini built-in).
func (g *guard) wrap(e *entry) (tool.Tool, error) {
	if f, ok := e.tool.(interface {
		Declaration() *genai.FunctionDeclaration
	}); ok && packsItself(e.tool) {
		if d := f.Declaration(); d != nil {
			fz, err := freeze(e, d)
			if err != nil {
				return nil, err
			}
			e.frozen = fz
		}
	}
	b := base{g: g, e: e}
	switch t := e.tool.(type) {
	case streamingFunction:
		return &guardedStream{base: b, fn: t}, nil
	case function:
		return &guardedFunc{base: b, fn: t}, nil
	}
	return &guardedPlain{base: b}, nil
}

// function and streamingFunction are the tools ADK runs (its internal
// toolinternal.FunctionTool and StreamingFunctionTool).
type function interface {
	tool.Tool
	Declaration() *genai.FunctionDeclaration
	Run(ctx agent.Context, args any) (map[string]any, error)
}

type streamingFunction interface {
	tool.Tool
	Declaration() *genai.FunctionDeclaration
	RunStream(ctx agent.Context, args any) iter.Seq2[string, error]
}

type requestProcessor interface {
	ProcessRequest(ctx agent.Context, req *model.LLMRequest) error
}

type base struct {
	g *guard
	e *entry
}

func (b *base) Name() string        { return b.e.tool.Name() }
func (b *base) Description() string { return b.e.tool.Description() }
func (b *base) IsLongRunning() bool { return b.e.tool.IsLongRunning() }
func (b *base) entry() *entry       { return b.e }
func (b *base) guard() *guard       { return b.g }

// declaration is a copy of the frozen declaration, or d's own.
func (b *base) declaration(d interface {
	Declaration() *genai.FunctionDeclaration
}) *genai.FunctionDeclaration {
	if b.e.frozen == nil {
		return d.Declaration()
	}
	f := *b.e.frozen
	if raw, ok := f.ParametersJsonSchema.(json.RawMessage); ok {
		f.ParametersJsonSchema = append(json.RawMessage(nil), raw...)
	}
	return &f
}

// processRequest adds the tool to the model request, with the wrapper in
// its place in the request's tools, so that ADK runs the wrapper. A tool
// whose ProcessRequest only packs its declaration (ADK's function tools
// and agent tools, an MCP Tool) is packed with the declaration the
// definition records (frozen); any other adds itself as it would
// unwrapped, and each declaration it adds is checked against the record
// (sent).
func (b *base) processRequest(self tool.Tool, ctx agent.Context, req *model.LLMRequest) error {
	if b.e.frozen != nil {
		return toolutils.PackTool(req, self.(toolutils.Tool))
	}
	name := b.e.tool.Name()
	_, had := req.Tools[name]
	before := declared(req)
	if rp, ok := b.e.tool.(requestProcessor); ok {
		if err := rp.ProcessRequest(ctx, req); err != nil {
			return err
		}
	} else if err := toolutils.PackTool(req, b.e.tool.(toolutils.Tool)); err != nil {
		return err
	}
	if !had && req.Tools != nil && req.Tools[name] != nil {
		req.Tools[name] = self
	}
	for d := range declared(req) {
		if !before[d] {
			if err := b.g.sent(b.e, d); err != nil {
				return err
			}
		}
	}
	return nil
}

// declared is the set of function declarations req holds.
func declared(req *model.LLMRequest) map[*genai.FunctionDeclaration]bool {
	out := map[*genai.FunctionDeclaration]bool{}
	if req.Config == nil {
		return out
	}
	for _, t := range req.Config.Tools {
		if t == nil {
			continue
		}
		for _, d := range t.FunctionDeclarations {
			out[d] = true
		}
	}
	return out
}

// packsItself reports whether t's ProcessRequest only packs its own
// declaration into the request (toolutils.PackTool), so that a wrapper
// may pack the recorded declaration in its place.
func packsItself(t tool.Tool) bool {
	if _, ok := t.(*Tool); ok {
		return true
	}
	switch pkgOf(t) {
	case pkgFunctionTool, pkgAgentTool:
		return true
	}
	return false
}

// freeze is the declaration the model is to be sent for e, made once from
// the record: the tool's declaration as New found it, its name,
// description and input schema those the definition records, the schema a
// copy (a json.RawMessage of the recorded bytes, or a genai.Schema read
// from them) that no later change to the tool's own reaches.
func freeze(e *entry, d *genai.FunctionDeclaration) (*genai.FunctionDeclaration, error) {
	name, description, schema := e.recorded()
	f := *d
	f.Name, f.Description = name, description
	if d.ParametersJsonSchema != nil && !isNil(d.ParametersJsonSchema) {
		f.ParametersJsonSchema = schema
		return &f, nil
	}
	if d.Parameters != nil {
		var p genai.Schema
		if err := json.Unmarshal(schema, &p); err != nil {
			return nil, err
		}
		f.Parameters = &p
	}
	return &f, nil
}

// sent checks, as the model request is made, that the declaration the
// model is sent for e is the one the definition records: a tool whose
// Declaration changed after the agent was made would show the model a
// description or schema no one recorded. The run ends with the refusal
// before the model is called.
func (g *guard) sent(e *entry, d *genai.FunctionDeclaration) error {
	if d == nil {
		return nil
	}
	name, description, recorded := e.recorded()
	// The schema as the model is sent it: a json.RawMessage (an MCP tool's)
	// as it is, anything else marshalled, as the model client will.
	schema, ok := d.ParametersJsonSchema.(json.RawMessage)
	if !ok || len(schema) == 0 {
		var err error
		if schema, err = declSchema(d); err != nil {
			return err
		}
	}
	what := ""
	switch {
	case d.Name != name:
		what = "name"
	case d.Description != description:
		what = "description"
	case !bytes.Equal(schema, recorded):
		what = "input schema"
	default:
		return nil
	}
	return &refusals.Error{
		Kind:    refusals.ErrUndescribed,
		Pointer: toolPointer(g.def, g.path, e.rec.Name()),
		Rule:    "declaration-changed",
		Subject: e.rec.Name(),
		Detail:  "the tool's declaration, as the model would be sent it, has another " + what + " than the definition records",
		Fix:     "make the agent again with the tools as they are now, and review the new definition",
	}
}

// guardedFunc is a function tool (ADK's functiontool, an MCP Tool, an
// agent tool) wrapped by its agent's guard.
type guardedFunc struct {
	base
	fn function
}

// Declaration is the declaration the model is sent: the recorded one, for
// a tool that only packs its declaration (see processRequest).
func (w *guardedFunc) Declaration() *genai.FunctionDeclaration { return w.declaration(w.fn) }

func (w *guardedFunc) ProcessRequest(ctx agent.Context, req *model.LLMRequest) error {
	return w.processRequest(w, ctx, req)
}

// Run vets the call, asks for approval where the agent's Approval says,
// and runs the tool with the definition bound to its context.
func (w *guardedFunc) Run(ctx agent.Context, args any) (map[string]any, error) {
	if err := w.g.vet(w.e); err != nil {
		return refuse(ctx, err)
	}
	if res, err, decided := w.g.approve(ctx, w.e, args); decided {
		return res, err
	}
	return w.fn.Run(w.g.bindCall(ctx, w.e), args)
}

// guardedStream is a streaming function tool wrapped by its agent's
// guard. ADK runs a streaming tool's RunStream without its tool
// callbacks, so the wrapper is the only check such a call passes.
type guardedStream struct {
	base
	fn streamingFunction
}

// Declaration is the declaration the model is sent: the recorded one, for
// a tool that only packs its declaration (see processRequest).
func (w *guardedStream) Declaration() *genai.FunctionDeclaration { return w.declaration(w.fn) }

func (w *guardedStream) ProcessRequest(ctx agent.Context, req *model.LLMRequest) error {
	return w.processRequest(w, ctx, req)
}

// RunStream vets the call and runs the tool with the definition bound to
// its context.
func (w *guardedStream) RunStream(ctx agent.Context, args any) iter.Seq2[string, error] {
	if err := w.g.vet(w.e); err != nil {
		_, err = refuse(ctx, err)
		return func(yield func(string, error) bool) { yield("", err) }
	}
	return w.fn.RunStream(w.g.bindCall(ctx, w.e), args)
}

// guardedPlain is a tool ADK does not run itself (a model's built-in tool,
// which only adds to the request): the wrapper keeps its place in the
// agent's tools.
type guardedPlain struct{ base }

func (w *guardedPlain) ProcessRequest(ctx agent.Context, req *model.LLMRequest) error {
	rp, ok := w.e.tool.(requestProcessor)
	if !ok {
		return nil
	}
	return rp.ProcessRequest(ctx, req)
}

// boundContext is an ADK context whose values include the definition
// bound for one agent: every context.Context method but Value is the ADK
// context's own, and the methods that derive a context keep the binding.
type boundContext struct {
	agent.Context
	bound context.Context
	g     *guard
}

// Value looks key up in the bound context, whose parent is the ADK one.
func (c *boundContext) Value(key any) any { return c.bound.Value(key) }

func (c *boundContext) rebind(ctx agent.Context) agent.Context {
	if ctx == nil {
		return nil
	}
	return c.g.bind(ctx)
}

// WithAgentTimeout derives a context with a timeout; the binding stays.
func (c *boundContext) WithAgentTimeout(d time.Duration) (agent.Context, context.CancelFunc) {
	n, cancel := c.Context.WithAgentTimeout(d)
	return c.rebind(n), cancel
}

// WithAgentCancel derives a cancellable context; the binding stays.
func (c *boundContext) WithAgentCancel() (agent.Context, context.CancelFunc) {
	n, cancel := c.Context.WithAgentCancel()
	return c.rebind(n), cancel
}

// WithAgentContext derives a context over ctx; the binding stays.
func (c *boundContext) WithAgentContext(ctx context.Context) agent.Context {
	return c.rebind(c.Context.WithAgentContext(ctx))
}

// WithDelta derives a context with d applied; the binding stays.
func (c *boundContext) WithDelta(d *agent.CommonContextDelta) agent.Context {
	return c.rebind(c.Context.WithDelta(d))
}

// The agent's callbacks run with its part of the definition bound, so that
// an MCP tool a callback of the user's calls with the context it is given
// vets itself too.

func bindBeforeAgent(g *guard, cbs []agent.BeforeAgentCallback) []agent.BeforeAgentCallback {
	out := make([]agent.BeforeAgentCallback, len(cbs))
	for i, cb := range cbs {
		out[i] = func(ctx agent.Context) (*genai.Content, error) { return cb(g.bind(ctx)) }
	}
	return out
}

func bindAfterAgent(g *guard, cbs []agent.AfterAgentCallback) []agent.AfterAgentCallback {
	out := make([]agent.AfterAgentCallback, len(cbs))
	for i, cb := range cbs {
		out[i] = func(ctx agent.Context) (*genai.Content, error) { return cb(g.bind(ctx)) }
	}
	return out
}

// bindCallbacks wraps an LLM agent's model and tool callbacks, and puts
// the guard's BeforeToolCallback first.
func bindCallbacks(g *guard, c *llmagent.Config) {
	bm := make([]llmagent.BeforeModelCallback, 0, len(c.BeforeModelCallbacks)+1)
	bm = append(bm, resurface)
	for _, cb := range c.BeforeModelCallbacks {
		bm = append(bm, func(ctx agent.Context, r *model.LLMRequest) (*model.LLMResponse, error) { return cb(g.bind(ctx), r) })
	}
	c.BeforeModelCallbacks = bm
	am := make([]llmagent.AfterModelCallback, len(c.AfterModelCallbacks))
	for i, cb := range c.AfterModelCallbacks {
		am[i] = func(ctx agent.Context, r *model.LLMResponse, err error) (*model.LLMResponse, error) {
			return cb(g.bind(ctx), r, err)
		}
	}
	c.AfterModelCallbacks = am
	me := make([]llmagent.OnModelErrorCallback, len(c.OnModelErrorCallbacks))
	for i, cb := range c.OnModelErrorCallbacks {
		me[i] = func(ctx agent.Context, r *model.LLMRequest, err error) (*model.LLMResponse, error) {
			return cb(g.bind(ctx), r, err)
		}
	}
	c.OnModelErrorCallbacks = me
	bt := make([]llmagent.BeforeToolCallback, 0, len(c.BeforeToolCallbacks)+1)
	bt = append(bt, g.before)
	for _, cb := range c.BeforeToolCallbacks {
		bt = append(bt, func(ctx agent.Context, t tool.Tool, args map[string]any) (map[string]any, error) {
			return cb(g.bind(ctx), t, args)
		})
	}
	c.BeforeToolCallbacks = bt
	at := make([]llmagent.AfterToolCallback, len(c.AfterToolCallbacks))
	for i, cb := range c.AfterToolCallbacks {
		at[i] = func(ctx agent.Context, t tool.Tool, args, res map[string]any, err error) (map[string]any, error) {
			return cb(g.bind(ctx), t, args, res, err)
		}
	}
	c.AfterToolCallbacks = at
	te := make([]llmagent.OnToolErrorCallback, len(c.OnToolErrorCallbacks))
	for i, cb := range c.OnToolErrorCallbacks {
		te[i] = func(ctx agent.Context, t tool.Tool, args map[string]any, err error) (map[string]any, error) {
			return cb(g.bind(ctx), t, args, err)
		}
	}
	c.OnToolErrorCallbacks = te
	c.BeforeAgentCallbacks = bindBeforeAgent(g, c.BeforeAgentCallbacks)
	c.AfterAgentCallbacks = bindAfterAgent(g, c.AfterAgentCallbacks)
}

// toolPointer is the pointer of the tool named name, of the sub-agent path
// names, in def's document ("" when def has no such tool).
func toolPointer(def *definition.Definition, path []string, name string) string {
	rec := def.Record()
	ptr := ""
	for _, p := range path {
		found := false
		for i := range rec.SubAgents {
			if rec.SubAgents[i].Name == p {
				ptr = refusals.Append(ptr, "subAgents", strconv.Itoa(i))
				rec = &rec.SubAgents[i]
				found = true
				break
			}
		}
		if !found {
			return ""
		}
	}
	for i, t := range rec.Tools {
		if t.Name == name {
			return refusals.Append(ptr, "tools", strconv.Itoa(i))
		}
	}
	return ""
}
