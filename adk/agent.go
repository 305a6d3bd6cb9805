package adk

import (
	"strconv"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/agent/llmagent"
	"google.golang.org/adk/v2/agent/workflowagents/loopagent"
	"google.golang.org/adk/v2/agent/workflowagents/parallelagent"
	"google.golang.org/adk/v2/agent/workflowagents/sequentialagent"
	"google.golang.org/adk/v2/tool"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/fingerprint"
	"github.com/guardian-agent/guardian-go/refusals"
)

// Agent is an ADK agent for New to record and make: an *LLMAgent, a
// workflow agent (*SequentialAgent, *ParallelAgent, *LoopAgent), or a
// graph workflow (*WorkflowAgent). A tree of
// them is one agent and its sub-agents, recorded as one definition.
type Agent interface {
	// plan records the agent, not yet made.
	plan(b *builder, at place) (*plan, error)
}

// LLMAgent is an agent as llmagent.New takes it, and what a definition
// needs beyond it.
//
// Config is recorded: Name, Description, Instruction as the system prompt
// (after the root agent's GlobalInstruction, as ADK sends them), the
// Model's Name() as the model, and the Model itself as the agent's routed
// model (definition.Agent's ChatModel): a tool that can reach any other
// chat model is refused (refusals.ErrUnroutedModel). Its Tools are
// recorded: MCP tools (made with NewTool) with their servers, agent tools
// (made with NewAgentTool) with their agents as sub-agents, and any other
// ADK tool by its declaration (NativeTool). Its Toolsets are refused: ADK
// asks a toolset for its tools on every run. Config.SubAgents must be
// empty: ADK agents made elsewhere cannot be recorded; give sub-agents in
// SubAgents.
type LLMAgent struct {
	llmagent.Config

	// SubAgents are the agents this one may transfer to (or delegate to,
	// by their Mode), each recorded as a sub-agent with the servers of
	// its own tools. Their names must differ from one another.
	SubAgents []Agent

	// Approval, if set, pauses calls that may be destructive for a
	// person's approval (see Approval). Sub-agents have their own.
	Approval *Approval
}

// SequentialAgent runs its sub-agents once, in order
// (sequentialagent.New).
type SequentialAgent struct {
	Name, Description    string
	SubAgents            []Agent
	BeforeAgentCallbacks []agent.BeforeAgentCallback
	AfterAgentCallbacks  []agent.AfterAgentCallback
}

// ParallelAgent runs its sub-agents at once, each on a branch of its own
// (parallelagent.New).
type ParallelAgent struct {
	Name, Description    string
	SubAgents            []Agent
	BeforeAgentCallbacks []agent.BeforeAgentCallback
	AfterAgentCallbacks  []agent.AfterAgentCallback
}

// LoopAgent runs its sub-agents in order, again and again, until one
// escalates or MaxIterations (if not 0) runs out (loopagent.New).
type LoopAgent struct {
	Name, Description    string
	SubAgents            []Agent
	MaxIterations        uint
	BeforeAgentCallbacks []agent.BeforeAgentCallback
	AfterAgentCallbacks  []agent.AfterAgentCallback
}

// New records the agent a describes, with its sub-agents, and makes it.
// It returns the ADK agent to run (give it to runner.New) and its
// definition, or refuses: the definition's refusals (*refusals.Error
// values, see definition.Build), ADK's own errors, or a misuse (a nil
// agent or tool), and then nothing is built.
//
// Every tool call of the agent, and of its sub-agents, is vetted against
// the definition before anything is sent, and runs with the definition
// bound to its context (definition.Bind), so that an MCP tool the tool's
// own code calls is vetted too; so do the agent's callbacks. A tool the
// definition does not describe is refused with an error matching
// refusals.ErrUndescribed, its server sees nothing, and the run ends
// after that call.
//
// opts is given to definition.Build; New adds a Cache and a Fingerprinter
// when it has none (the definition's Vet reuses them at every call), and
// ADK's model packages to ChatModelPackages.
func New(a Agent, opts *definition.Options) (agent.Agent, *definition.Definition, error) {
	if isNil(a) {
		return nil, nil, invalid("", "adk-agent-nil", "a nil Agent", "give New an *LLMAgent or a workflow agent")
	}
	b := &builder{}
	p, err := a.plan(b, place{root: true})
	if err != nil {
		return nil, nil, err
	}
	def, err := definition.Build(p.record, withOptions(opts))
	if err != nil {
		return nil, nil, err
	}
	made, err := p.make(def)
	if err != nil {
		return nil, nil, err
	}
	return made, def, nil
}

// ChatModelPackage is ADK's model package; the models it and the packages
// under it define (gemini, openaimodel, apigee) are chat-model clients to
// definition.Build. New adds it to Options.ChatModelPackages.
const ChatModelPackage = adkModule + "/model"

// withOptions is opts with a Cache, a Fingerprinter and ADK's model
// packages.
func withOptions(opts *definition.Options) *definition.Options {
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
	o.ChatModelPackages = append(append([]string(nil), o.ChatModelPackages...), ChatModelPackage)
	return &o
}

// builder holds what planning the tree needs.
type builder struct{}

// place is where an agent sits in the tree being planned.
type place struct {
	path    []string // sub-agent names from the top-level agent down
	pointer string   // the agent's pointer, for refusals: "", "/subAgents/0", ...
	depth   int
	// root: the agent is the root of the tree a runner runs (the agent
	// New is given, or an agent tool's agent, which agenttool runs in a
	// runner of its own).
	root bool
	// global is the root LLM agent's GlobalInstruction, when the root is
	// one: ADK sends only the root's; under a root that is not an LLM
	// agent, each sends its own.
	global *string
}

func (at place) sub(i int, name string) place {
	return place{
		path:    append(append([]string(nil), at.path...), name),
		pointer: refusals.Append(at.pointer, "subAgents", strconv.Itoa(i)),
		depth:   at.depth + 1,
		global:  at.global,
	}
}

// plan is an agent recorded, and how to make it once its definition is
// built.
type plan struct {
	record *definition.Agent
	make   func(def *definition.Definition) (agent.Agent, error)
}

func checkDepth(at place) error {
	if at.depth > definition.MaxSubAgentDepth {
		return invalid(at.pointer, "adk-depth", "sub-agents nest deeper than "+strconv.Itoa(definition.MaxSubAgentDepth), "nest sub-agents less deeply")
	}
	return nil
}

// subAgents plans each of subs, at its place under at.
func (b *builder) subAgents(subs []Agent, at place) ([]*plan, []error) {
	return b.subAgentsFrom(subs, at, 0)
}

// subAgentsFrom plans each of subs, numbered from offset under at.
func (b *builder) subAgentsFrom(subs []Agent, at place, offset int) ([]*plan, []error) {
	var (
		out  []*plan
		errs []error
	)
	for i, s := range subs {
		if isNil(s) {
			errs = append(errs, invalid(refusals.Append(at.pointer, "subAgents", strconv.Itoa(offset+i)), "adk-agent-nil", "a nil Agent among the sub-agents", "remove it"))
			continue
		}
		sp, err := s.plan(b, at.sub(offset+i, nameOf(s)))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, sp)
	}
	return out, errs
}

// descriptionOf is a's description.
func descriptionOf(a Agent) string {
	switch a := a.(type) {
	case *LLMAgent:
		return a.Description
	case *SequentialAgent:
		return a.Description
	case *ParallelAgent:
		return a.Description
	case *LoopAgent:
		return a.Description
	case *WorkflowAgent:
		return a.Description
	}
	return ""
}

// nameOf is a's name.
func nameOf(a Agent) string {
	switch a := a.(type) {
	case *LLMAgent:
		return a.Name
	case *SequentialAgent:
		return a.Name
	case *ParallelAgent:
		return a.Name
	case *LoopAgent:
		return a.Name
	case *WorkflowAgent:
		return a.Name
	}
	return ""
}

// makeAll makes each planned agent.
func makeAll(ps []*plan, def *definition.Definition) ([]agent.Agent, error) {
	out := make([]agent.Agent, len(ps))
	for i, p := range ps {
		a, err := p.make(def)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

func (a *LLMAgent) plan(b *builder, at place) (*plan, error) {
	if err := checkDepth(at); err != nil {
		return nil, err
	}
	cfg := a.Config
	if len(cfg.SubAgents) > 0 {
		return nil, invalid(refusals.Append(at.pointer, "subAgents"), "adk-agent-made-elsewhere", "llmagent.Config.SubAgents holds ADK agents made elsewhere, whose tools cannot be recorded", "give them as guardian-go agents in LLMAgent.SubAgents")
	}
	if at.root {
		g := ownGlobal(cfg)
		at.global = &g
	}
	rec := &definition.Agent{
		Name:         cfg.Name,
		Description:  cfg.Description,
		SystemPrompt: systemPrompt(cfg, at.global),
		// The agent's routed model: a tool that reaches any other chat
		// model is refused.
		ChatModel: cfg.Model,
	}
	if !isNil(cfg.Model) {
		rec.Model = cfg.Model.Name()
	}
	subs, errs := b.subAgents(a.SubAgents, at)
	for _, sp := range subs {
		rec.SubAgents = append(rec.SubAgents, sp.record)
	}
	tp, terrs := b.tools(cfg.Tools, at, len(a.SubAgents))
	errs = append(errs, terrs...)
	rec.Tools = tp.records
	for _, sp := range tp.agents {
		rec.SubAgents = append(rec.SubAgents, sp.record)
	}
	for i, ts := range cfg.Toolsets {
		ptr := refusals.Append(at.pointer, "toolsets", strconv.Itoa(i))
		if isNil(ts) {
			errs = append(errs, invalid(ptr, "adk-toolset-nil", "a nil toolset", "remove it"))
			continue
		}
		errs = append(errs, toolsetRefusal(ptr, ts.Name(), reachesSession(ts)))
	}
	if len(errs) > 0 {
		return nil, refusals.Join(errs...)
	}
	approval := a.Approval
	return &plan{record: rec, make: func(def *definition.Definition) (agent.Agent, error) {
		g := &guard{def: def, path: at.path, approval: approval}
		c := cfg
		tools, err := tp.make(g, def)
		if err != nil {
			return nil, err
		}
		c.Tools = tools
		c.Toolsets = nil
		made, err := makeAll(subs, def)
		if err != nil {
			return nil, err
		}
		c.SubAgents = made
		bindCallbacks(g, &c)
		return llmagent.New(c)
	}}, nil
}

// systemPrompt is the text ADK sends the model as the agent's
// instructions: the root agent's GlobalInstruction, then the agent's
// Instruction, as ADK joins them. An instruction made at run time by an
// InstructionProvider is not known here: that part is left out.
func systemPrompt(cfg llmagent.Config, global *string) string {
	var parts []string
	g := ownGlobal(cfg)
	if global != nil {
		g = *global
	}
	if g != "" {
		parts = append(parts, g)
	}
	if cfg.InstructionProvider == nil && cfg.Instruction != "" {
		parts = append(parts, cfg.Instruction)
	}
	s := ""
	for i, p := range parts {
		if i > 0 {
			s += "\n\n"
		}
		s += p
	}
	return s
}

// ownGlobal is the GlobalInstruction an agent sends when it is the root,
// or under a root that is not an LLM agent: "" when a provider makes it at
// run time.
func ownGlobal(cfg llmagent.Config) string {
	if cfg.GlobalInstructionProvider != nil {
		return ""
	}
	return cfg.GlobalInstruction
}

// workflowSpec is what the three workflow agents share.
type workflowSpec struct {
	name, description string
	subAgents         []Agent
	before            []agent.BeforeAgentCallback
	after             []agent.AfterAgentCallback
	make              func(cfg agent.Config) (agent.Agent, error)
}

func (w workflowSpec) plan(b *builder, at place) (*plan, error) {
	if err := checkDepth(at); err != nil {
		return nil, err
	}
	rec := &definition.Agent{Name: w.name, Description: w.description}
	subs, errs := b.subAgents(w.subAgents, at)
	for _, sp := range subs {
		rec.SubAgents = append(rec.SubAgents, sp.record)
	}
	if len(errs) > 0 {
		return nil, refusals.Join(errs...)
	}
	return &plan{record: rec, make: func(def *definition.Definition) (agent.Agent, error) {
		made, err := makeAll(subs, def)
		if err != nil {
			return nil, err
		}
		g := &guard{def: def, path: at.path}
		return w.make(agent.Config{
			Name:                 w.name,
			Description:          w.description,
			SubAgents:            made,
			BeforeAgentCallbacks: bindBeforeAgent(g, w.before),
			AfterAgentCallbacks:  bindAfterAgent(g, w.after),
		})
	}}, nil
}

func (a *SequentialAgent) plan(b *builder, at place) (*plan, error) {
	return workflowSpec{a.Name, a.Description, a.SubAgents, a.BeforeAgentCallbacks, a.AfterAgentCallbacks,
		func(c agent.Config) (agent.Agent, error) {
			return sequentialagent.New(sequentialagent.Config{AgentConfig: c})
		}}.plan(b, at)
}

func (a *ParallelAgent) plan(b *builder, at place) (*plan, error) {
	return workflowSpec{a.Name, a.Description, a.SubAgents, a.BeforeAgentCallbacks, a.AfterAgentCallbacks,
		func(c agent.Config) (agent.Agent, error) {
			return parallelagent.New(parallelagent.Config{AgentConfig: c})
		}}.plan(b, at)
}

func (a *LoopAgent) plan(b *builder, at place) (*plan, error) {
	n := a.MaxIterations
	return workflowSpec{a.Name, a.Description, a.SubAgents, a.BeforeAgentCallbacks, a.AfterAgentCallbacks,
		func(c agent.Config) (agent.Agent, error) {
			return loopagent.New(loopagent.Config{AgentConfig: c, MaxIterations: n})
		}}.plan(b, at)
}

// toolPlan is an agent's tools, recorded and not yet made.
type toolPlan struct {
	entries []*entry
	records []definition.Tool
	agents  []*plan // the agents of agent tools, in the order of their entries
}

// tools records ts, the tools of the agent at at, whose agent tools' agents
// are numbered among its sub-agents from subOffset.
func (b *builder) tools(ts []tool.Tool, at place, subOffset int) (*toolPlan, []error) {
	tp := &toolPlan{entries: make([]*entry, 0, len(ts))}
	var errs []error
	for i, t := range ts {
		ptr := refusals.Append(at.pointer, "tools", strconv.Itoa(i))
		switch t := t.(type) {
		case nil:
			errs = append(errs, invalid(ptr, "adk-tool-nil", "a nil tool", "remove it"))
		case *Tool:
			if t == nil || t.mcp == nil {
				errs = append(errs, invalid(ptr, "adk-tool-nil", "a nil or zero *adk.Tool", "make it with NewTool"))
				continue
			}
			tp.entries = append(tp.entries, &entry{tool: t, rec: t.mcp, mcp: t.mcp, ptr: ptr})
			tp.records = append(tp.records, t.mcp)
		case *AgentTool:
			if t == nil || isNil(t.agent) {
				errs = append(errs, invalid(ptr, "adk-tool-nil", "a nil or zero *adk.AgentTool", "make it with NewAgentTool"))
				continue
			}
			// agenttool runs its agent in a runner of its own: the root there.
			inner := at.sub(subOffset+len(tp.agents), t.name)
			inner.root, inner.global = true, nil
			sp, err := t.agent.plan(b, inner)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			r, err := t.record()
			if err != nil {
				errs = append(errs, err)
				continue
			}
			tp.entries = append(tp.entries, &entry{tool: t, rec: r, agentTool: true, ptr: ptr})
			tp.records = append(tp.records, r)
			tp.agents = append(tp.agents, sp)
		default:
			n, err := recordNative(t, ptr)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			tp.entries = append(tp.entries, &entry{tool: t, rec: n, ptr: ptr})
			tp.records = append(tp.records, n)
		}
	}
	seen := map[string]string{}
	for _, e := range tp.entries {
		n := e.tool.Name()
		if first, ok := seen[n]; ok {
			// ADK would fail every run packing the model request.
			errs = append(errs, invalid(e.ptr, "adk-tool-name-twice", "a second tool of the name of the tool at "+first, "give each tool once, or prefix tool names (mcpservers.ClientOptions.PrefixToolNames)"))
			continue
		}
		seen[n] = e.ptr
	}
	return tp, errs
}

// make makes the tools, wrapped by g, in their order: an agent tool's
// agent first.
func (tp *toolPlan) make(g *guard, def *definition.Definition) ([]tool.Tool, error) {
	out := make([]tool.Tool, len(tp.entries))
	next := 0
	for i, e := range tp.entries {
		if atool, ok := e.tool.(*AgentTool); ok {
			inner, err := tp.agents[next].make(def)
			if err != nil {
				return nil, err
			}
			next++
			e = &entry{tool: atool.make(inner), rec: e.rec, agentTool: true, ptr: e.ptr}
		}
		w, err := g.wrap(e)
		if err != nil {
			return nil, err
		}
		out[i] = w
	}
	return out, nil
}
