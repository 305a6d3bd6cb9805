package eino

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// Graph describes an Eino graph (compose.Graph, Chain or Workflow) as an
// agent's definition, the counterpart of the Python SDK's describe_graph:
// the tools of its ToolsNodes, made with NewToolsNode, and the tools given
// in Tools are recorded, MCP tools with their servers. CompileGraph
// compiles the graph, records it, and refuses a node or branch holding an
// MCP tool the graph does not offer.
//
// A Graph describes one compiled graph; its zero value is ready to use.
type Graph struct {
	// Name is required; Description, ModelName and SystemPrompt are
	// recorded when set.
	Name, Description, ModelName, SystemPrompt string
	// Tools are tools the graph's code calls that are in no ToolsNode,
	// like describe_graph's tools=.
	Tools []tool.BaseTool
	// Approval, if set, pauses calls in the graph's ToolsNodes as an
	// agent's Approval does.
	Approval *Approval
	// ChatModel is the graph's routed model (definition.Agent's
	// ChatModel), typically its chat model node's: a tool holding any
	// other chat model is refused (refusals.ErrUnroutedModel).
	ChatModel any

	mu    sync.Mutex
	nodes map[*compose.ToolsNode][]tool.BaseTool
	order []*compose.ToolsNode
	guard *guard // set once the graph is recorded
}

// NewToolsNode makes a ToolsNode, as compose.NewToolNode does, whose tools
// the graph records and whose calls are vetted against the graph's
// definition before anything is sent (its middleware goes first in
// ToolCallMiddlewares). Before CompileGraph has recorded the graph, every
// call is refused.
func (g *Graph) NewToolsNode(ctx context.Context, conf *compose.ToolsNodeConfig) (*compose.ToolsNode, error) {
	if conf == nil {
		return nil, errors.New("eino: NewToolsNode: a nil *compose.ToolsNodeConfig")
	}
	registerInterrupts()
	c := *conf
	c.Tools = append([]tool.BaseTool(nil), conf.Tools...)
	c.ToolCallMiddlewares = append([]compose.ToolMiddleware{g.middleware()}, conf.ToolCallMiddlewares...)
	tn, err := compose.NewToolNode(ctx, &c)
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.nodes == nil {
		g.nodes = map[*compose.ToolsNode][]tool.BaseTool{}
	}
	g.nodes[tn] = c.Tools
	g.order = append(g.order, tn)
	return tn, nil
}

// errNotRecorded: a ToolsNode's call before the graph was recorded.
var errNotRecorded = errors.New("eino: the graph has not been recorded: compile it with eino.CompileGraph before running it")

func (g *Graph) middleware() compose.ToolMiddleware {
	wrap := func(ctx context.Context, in *compose.ToolInput) (context.Context, string, error) {
		g.mu.Lock()
		gd := g.guard
		g.mu.Unlock()
		if gd == nil {
			return ctx, "", errNotRecorded
		}
		return gd.before(ctx, in)
	}
	return guardMiddleware(wrap)
}

// Compilable is what CompileGraph compiles: a *compose.Graph, *compose.Chain
// or *compose.Workflow.
type Compilable[I, O any] interface {
	Compile(ctx context.Context, opts ...compose.GraphCompileOption) (compose.Runnable[I, O], error)
}

// CompileGraph compiles graph c with opts and records it as described by g.
// It returns the runnable, whose every run carries the definition in its
// context (so an adapter Tool called by a lambda or branch is vetted too),
// and the definition; or it refuses, and nothing is returned to run:
//
//   - a ToolsNode not made with g.NewToolsNode, whose tools cannot be
//     seen;
//   - a node (a chat model, retriever, lambda, sub-graph, ...) or branch
//     holding, in its fields, an MCP tool the graph offers in no ToolsNode
//     and not in g.Tools, whatever Options.Exclude says
//     (refusals.ErrHiddenTool);
//   - anything definition.Build refuses.
//
// What a lambda's or branch's closure captures cannot be seen in Go; an
// adapter Tool it calls with the run's context is refused when called.
func CompileGraph[I, O any](ctx context.Context, g *Graph, c Compilable[I, O], opts *definition.Options, compileOpts ...compose.GraphCompileOption) (compose.Runnable[I, O], *definition.Definition, error) {
	if g == nil || c == nil {
		return nil, nil, errors.New("eino: CompileGraph: a nil Graph or graph")
	}
	g.mu.Lock()
	done := g.guard != nil
	g.mu.Unlock()
	if done {
		return nil, nil, errors.New("eino: CompileGraph: this Graph has recorded a graph already; use a Graph per compiled graph")
	}
	cb := &captureInfo{}
	r, err := c.Compile(ctx, append(compileOpts, compose.WithGraphCompileCallbacks(cb))...)
	if err != nil {
		return nil, nil, err
	}
	if cb.info == nil {
		return nil, nil, errors.New("eino: CompileGraph: Eino reported no graph info")
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	record, tools, mcp, err := g.record(ctx, cb.info)
	if err != nil {
		return nil, nil, err
	}
	def, err := definition.Build(record, withCaches(opts))
	if err != nil {
		return nil, nil, err
	}
	g.guard = &guard{def: def, tools: tools, mcp: mcp, approval: g.Approval}
	return &boundRunnable[I, O]{r: r, def: def}, def, nil
}

type captureInfo struct{ info *compose.GraphInfo }

func (c *captureInfo) OnFinish(_ context.Context, info *compose.GraphInfo) { c.info = info }

// record builds the definition's agent from the compiled graph's info.
func (g *Graph) record(ctx context.Context, info *compose.GraphInfo) (*definition.Agent, map[string]definition.Tool, map[string]*mcpservers.Tool, error) {
	a := &definition.Agent{Name: g.Name, Description: g.Description, Model: g.ModelName, SystemPrompt: g.SystemPrompt, ChatModel: g.ChatModel}
	tools := map[string]definition.Tool{}
	mcp := map[string]*mcpservers.Tool{}
	seen := map[tool.BaseTool]bool{}
	var errs []error
	add := func(bt tool.BaseTool) {
		if seen[bt] {
			return // one tool in two ToolsNodes is one tool
		}
		seen[bt] = true
		t, err := recordTool(ctx, bt)
		if err != nil {
			errs = append(errs, err)
			return
		}
		a.Tools = append(a.Tools, t)
		tools[t.Name()] = t
		if m, ok := t.(*mcpservers.Tool); ok {
			mcp[t.Name()] = m
		}
	}
	used := map[*compose.ToolsNode]bool{}
	var walk func(prefix string, gi *compose.GraphInfo)
	walk = func(prefix string, gi *compose.GraphInfo) {
		keys := make([]string, 0, len(gi.Nodes))
		for k := range gi.Nodes {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			n := gi.Nodes[k]
			if n.GraphInfo != nil {
				walk(prefix+k+"/", n.GraphInfo)
				continue
			}
			if tn, ok := n.Instance.(*compose.ToolsNode); ok {
				ts, mine := g.nodes[tn]
				if !mine {
					errs = append(errs, fmt.Errorf("eino: graph node %q is a ToolsNode not made with Graph.NewToolsNode, whose tools cannot be recorded", prefix+k))
					continue
				}
				used[tn] = true
				for _, bt := range ts {
					add(bt)
				}
				continue
			}
			if n.Instance != nil {
				a.Middleware = append(a.Middleware, &holder{Node: n.Instance})
			}
		}
		bkeys := make([]string, 0, len(gi.Branches))
		for k := range gi.Branches {
			bkeys = append(bkeys, k)
		}
		sort.Strings(bkeys)
		for _, k := range bkeys {
			for i := range gi.Branches[k] {
				a.Middleware = append(a.Middleware, &holder{Node: &gi.Branches[k][i]})
			}
		}
	}
	walk("", info)
	for _, bt := range g.Tools {
		add(bt)
	}
	if len(errs) > 0 {
		return nil, nil, nil, errors.Join(errs...)
	}
	return a, tools, mcp, nil
}

// holder is a graph node or branch as a definition sees it: code that
// offers the model no tools, whose fields Build walks for MCP tools.
type holder struct{ Node any }

func (*holder) Tools() []definition.Tool { return nil }

// boundRunnable runs a recorded graph with its definition bound to the
// context.
type boundRunnable[I, O any] struct {
	r   compose.Runnable[I, O]
	def *definition.Definition
}

func (b *boundRunnable[I, O]) Invoke(ctx context.Context, input I, opts ...compose.Option) (O, error) {
	return b.r.Invoke(b.def.Bind(ctx), input, opts...)
}

func (b *boundRunnable[I, O]) Stream(ctx context.Context, input I, opts ...compose.Option) (*schema.StreamReader[O], error) {
	return b.r.Stream(b.def.Bind(ctx), input, opts...)
}

func (b *boundRunnable[I, O]) Collect(ctx context.Context, input *schema.StreamReader[I], opts ...compose.Option) (O, error) {
	return b.r.Collect(b.def.Bind(ctx), input, opts...)
}

func (b *boundRunnable[I, O]) Transform(ctx context.Context, input *schema.StreamReader[I], opts ...compose.Option) (*schema.StreamReader[O], error) {
	return b.r.Transform(b.def.Bind(ctx), input, opts...)
}
