package eino

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/fingerprint"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// AgentConfig is Eino's ChatModelAgentConfig, and what a definition needs
// beyond it.
type AgentConfig struct {
	// ChatModelAgentConfig is the agent as Eino makes it. Its Instruction
	// is recorded as the system prompt; its tools (ToolsConfig.Tools and
	// each middleware's AdditionalTools) are recorded, MCP tools (made with
	// NewTool) with their servers.
	adk.ChatModelAgentConfig

	// ModelName is recorded as the agent's model, such as "gpt-4.1": an
	// Eino chat model does not say which model it calls. The chat model
	// itself (Model) is the agent's routed model (definition.Agent's
	// ChatModel): a tool holding any other chat model is refused
	// (refusals.ErrUnroutedModel).
	ModelName string

	// SubAgents are the agents this one may transfer to
	// (adk.SetSubAgents); AgentTools are agents the model calls as tools
	// (adk.NewAgentTool). Each is recorded as a sub-agent with the servers
	// of its own tools; an agent tool is also recorded as a tool of this
	// agent. Their names must differ from one another.
	SubAgents  []*AgentConfig
	AgentTools []*AgentConfig

	// Approval, if set, pauses calls that may be destructive for a
	// person's approval (see Approval). Sub-agents have their own.
	Approval *Approval
}

// NewChatModelAgent records the agent cfg describes and makes it, as
// adk.NewChatModelAgent does, with its sub-agents. It returns the agent
// to run (give it to adk.NewRunner) and its definition, or refuses: the
// definition's refusals (*refusals.Error values, see definition.Build), or
// Eino's, and then nothing is built.
//
// Every tool call of the agent, and of its sub-agents, is vetted against
// the definition before anything is sent, by a tool-call middleware placed
// first in ToolsConfig.ToolCallMiddlewares; a tool the definition does not
// describe is refused with an error matching refusals.ErrUndescribed, and
// the run ends with it. The definition is also bound to the context of
// every run, so that an adapter Tool called by other code of the agent is
// vetted too.
func NewChatModelAgent(ctx context.Context, cfg *AgentConfig, opts *definition.Options) (adk.ResumableAgent, *definition.Definition, error) {
	if cfg == nil {
		return nil, nil, errors.New("eino: NewChatModelAgent: a nil *AgentConfig")
	}
	registerInterrupts()
	p, err := planAgent(ctx, cfg, nil, 0)
	if err != nil {
		return nil, nil, err
	}
	def, err := definition.Build(p.record, withCaches(opts))
	if err != nil {
		return nil, nil, err
	}
	a, err := p.make(ctx, def)
	if err != nil {
		return nil, nil, err
	}
	return a, def, nil
}

// plan is an agent recorded and not yet made.
type plan struct {
	cfg        *AgentConfig
	path       []string // sub-agent names from the top-level agent down
	record     *definition.Agent
	tools      map[string]definition.Tool
	mcp        map[string]*mcpservers.Tool
	subAgents  []*plan
	agentTools []*plan
	// agentToolNames are the names of the tools that run agentTools.
	agentToolNames map[string]bool
}

func planAgent(ctx context.Context, cfg *AgentConfig, path []string, depth int) (*plan, error) {
	if depth > definition.MaxSubAgentDepth {
		return nil, fmt.Errorf("eino: sub-agents nest deeper than %d", definition.MaxSubAgentDepth)
	}
	if cfg == nil {
		return nil, errors.New("eino: a nil *AgentConfig among the sub-agents")
	}
	p := &plan{cfg: cfg, path: path, tools: map[string]definition.Tool{}, mcp: map[string]*mcpservers.Tool{}}
	p.record = &definition.Agent{
		Name:         cfg.Name,
		Description:  cfg.Description,
		Model:        cfg.ModelName,
		SystemPrompt: cfg.Instruction,
		// The agent's routed model: a tool that reaches any other chat
		// model is refused.
		ChatModel: cfg.Model,
	}
	var errs []error
	add := func(bt tool.BaseTool) definition.Tool {
		t, err := recordTool(ctx, bt)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		p.tools[t.Name()] = t
		if m, ok := t.(*mcpservers.Tool); ok {
			p.mcp[t.Name()] = m
		}
		return t
	}
	for _, bt := range cfg.ToolsConfig.Tools {
		if t := add(bt); t != nil {
			p.record.Tools = append(p.record.Tools, t)
		}
	}
	if cfg.Exit != nil {
		// Eino offers the model the exit tool with the agent's own.
		if t := add(cfg.Exit); t != nil {
			p.record.Tools = append(p.record.Tools, t)
		}
	}
	for i := range cfg.Middlewares {
		mw := &middleware{Middleware: cfg.Middlewares[i]}
		for _, bt := range cfg.Middlewares[i].AdditionalTools {
			if t := add(bt); t != nil {
				mw.offered = append(mw.offered, t)
			}
		}
		p.record.Middleware = append(p.record.Middleware, mw)
	}
	for _, sc := range cfg.SubAgents {
		sp, err := planAgent(ctx, sc, appendPath(path, sc), depth+1)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		p.subAgents = append(p.subAgents, sp)
		p.record.SubAgents = append(p.record.SubAgents, sp.record)
	}
	for _, sc := range cfg.AgentTools {
		sp, err := planAgent(ctx, sc, appendPath(path, sc), depth+1)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		// The tool the model sees: Eino's agent tool, whose Info needs
		// only the agent's name and description.
		if t := add(adk.NewAgentTool(ctx, named{sc.Name, sc.Description})); t != nil {
			p.record.Tools = append(p.record.Tools, t)
			if p.agentToolNames == nil {
				p.agentToolNames = map[string]bool{}
			}
			p.agentToolNames[t.Name()] = true
		}
		p.agentTools = append(p.agentTools, sp)
		p.record.SubAgents = append(p.record.SubAgents, sp.record)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return p, nil
}

func appendPath(path []string, c *AgentConfig) []string {
	name := ""
	if c != nil {
		name = c.Name
	}
	return append(append([]string(nil), path...), name)
}

// make builds the Eino agents, sub-agents first.
func (p *plan) make(ctx context.Context, def *definition.Definition) (adk.ResumableAgent, error) {
	cfg := p.cfg.ChatModelAgentConfig
	tc := cfg.ToolsConfig
	tc.Tools = append([]tool.BaseTool(nil), tc.Tools...)
	for _, sp := range p.agentTools {
		sub, err := sp.make(ctx, def)
		if err != nil {
			return nil, err
		}
		tc.Tools = append(tc.Tools, adk.NewAgentTool(ctx, sub))
	}
	g := &guard{def: def, subAgents: p.path, tools: p.tools, mcp: p.mcp, approval: p.cfg.Approval, agentTools: p.agentToolNames,
		transfers: len(p.subAgents) > 0}
	tc.ToolCallMiddlewares = append([]compose.ToolMiddleware{g.middleware()}, tc.ToolCallMiddlewares...)
	cfg.ToolsConfig = tc
	chat, err := adk.NewChatModelAgent(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	var a adk.ResumableAgent = chat
	if len(p.agentTools) == 0 {
		// The whole run carries the definition, so that code of the
		// agent's beyond its tools (a chat model, an unknown-tool
		// handler) calling an MCP tool is vetted too. Not when agent
		// tools run inside the run: a binding nests, and theirs are
		// their own.
		a = &bound{ChatModelAgent: chat, def: def, path: p.path}
	}
	if len(p.subAgents) == 0 {
		return a, nil
	}
	subs := make([]adk.Agent, len(p.subAgents))
	for i, sp := range p.subAgents {
		s, err := sp.make(ctx, def)
		if err != nil {
			return nil, err
		}
		subs[i] = s
	}
	return adk.SetSubAgents(ctx, a, subs)
}

// bound is a ChatModelAgent whose runs carry its definition in their
// context.
type bound struct {
	*adk.ChatModelAgent
	def  *definition.Definition
	path []string
}

// Run runs the agent with its definition bound to ctx.
func (b *bound) Run(ctx context.Context, input *adk.AgentInput, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	return b.ChatModelAgent.Run(b.def.Bind(ctx, b.path...), input, opts...)
}

// Resume resumes the agent with its definition bound to ctx.
func (b *bound) Resume(ctx context.Context, info *adk.ResumeInfo, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	return b.ChatModelAgent.Resume(b.def.Bind(ctx, b.path...), info, opts...)
}

// named is an agent known by its name and description only, for the Info
// of its agent tool before it is made.
type named struct{ name, description string }

func (n named) Name(context.Context) string        { return n.name }
func (n named) Description(context.Context) string { return n.description }
func (n named) Run(context.Context, *adk.AgentInput, ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	it, gen := adk.NewAsyncIteratorPair[*adk.AgentEvent]()
	gen.Close()
	return it
}

// middleware is an Eino agent middleware as a definition sees it: the
// tools it offers the model, and its fields, which Build walks for MCP
// tools it holds but does not offer.
type middleware struct {
	Middleware adk.AgentMiddleware
	offered    []definition.Tool
}

func (m *middleware) Tools() []definition.Tool { return m.offered }

// recordTool is an Eino tool as a definition records it: an adapter Tool
// is its MCP tool; any other is a native tool, recorded by its Info.
func recordTool(ctx context.Context, bt tool.BaseTool) (definition.Tool, error) {
	switch t := bt.(type) {
	case nil:
		return nil, errors.New("eino: a nil tool")
	case *Tool:
		if t == nil || t.mcp == nil {
			return nil, errors.New("eino: a nil or zero *eino.Tool (make it with NewTool)")
		}
		return t.mcp, nil
	case *EnhancedTool:
		if t == nil || t.t == nil || t.t.mcp == nil {
			return nil, errors.New("eino: a nil or zero *eino.EnhancedTool (make it with Tool.Enhanced)")
		}
		return t.t.mcp, nil
	}
	info, err := bt.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("eino: a tool's Info failed: %w", err)
	}
	if info == nil {
		return nil, errors.New("eino: a tool's Info is nil")
	}
	schema := json.RawMessage(`{"type":"object"}`)
	if info.ParamsOneOf != nil {
		js, err := info.ParamsOneOf.ToJSONSchema()
		if err != nil {
			return nil, fmt.Errorf("eino: tool %q: its schema: %w", info.Name, err)
		}
		if js != nil {
			b, err := json.Marshal(js)
			if err != nil {
				return nil, fmt.Errorf("eino: tool %q: its schema: %w", info.Name, err)
			}
			schema = b
		}
	}
	return &NativeTool{Tool: bt, name: info.Name, description: info.Desc, schema: schema}, nil
}

// NewNativeTool records an Eino tool that is not an MCP tool as a
// definition does: what its Info gives the model. NewChatModelAgent does
// this for each such tool; use it to give the same tool to
// definition.Build.
func NewNativeTool(ctx context.Context, bt tool.BaseTool) (*NativeTool, error) {
	switch bt.(type) {
	case *Tool, *EnhancedTool:
		return nil, errors.New("eino: NewNativeTool: an MCP tool (record its MCP() tool)")
	}
	t, err := recordTool(ctx, bt)
	if err != nil {
		return nil, err
	}
	return t.(*NativeTool), nil
}

// NativeTool is an Eino tool that is not an MCP tool, as a definition
// records it: the name, description and input schema its Info gives, and
// the Eino tool's own code as its sourceHash.
// Build walks Tool, the Eino tool itself, for MCP tools it holds that the
// agent is not given, and refuses them.
type NativeTool struct {
	Tool              tool.BaseTool
	name, description string
	schema            json.RawMessage
}

// Name is the tool's name, as Info gives it.
func (n *NativeTool) Name() string { return n.name }

// Description is the tool's description, as Info gives it.
func (n *NativeTool) Description() string { return n.description }

// InputSchema is the tool's input schema as the model is sent it.
func (n *NativeTool) InputSchema() json.RawMessage { return append(json.RawMessage(nil), n.schema...) }

// Adapted returns the Eino tool itself: a NativeTool is a
// [definition.Adapter], so its sourceHash fingerprints the Eino tool's
// type (your code), not NativeTool's.
func (n *NativeTool) Adapted() any { return n.Tool }

// withCaches is opts with a Cache and a Fingerprinter if it has none, which
// the definition's Vet then reuses: every call is vetted, and vetting with
// warm caches costs microseconds.
func withCaches(opts *definition.Options) *definition.Options {
	var o definition.Options
	if opts != nil {
		o = *opts
	}
	if o.Cache == nil {
		o.Cache = definition.NewCache()
	}
	if o.Fingerprinter == nil {
		o.Fingerprinter = fingerprint.New(nil)
	}
	return &o
}
