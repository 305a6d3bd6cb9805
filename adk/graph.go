package adk

import (
	"reflect"
	"strconv"
	"strings"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/agent/workflowagent"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/workflow"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/refusals"
)

// WorkflowAgent is a graph workflow of ADK v2's workflow package
// (workflowagent.New): nodes that run agents, tools and functions of
// yours, joined by edges.
//
// New records SubAgents as its sub-agents, each with the servers of its
// own tools, and Tools as its tools (MCP tools with their servers); then
// it makes the agents and wraps the tools, vetted and bound as an LLM
// agent's are, and gives them to Edges, which makes the graph from them.
// A graph node that runs an agent or a tool New did not make from these
// (an agent made elsewhere, an unwrapped tool, an MCP tool, an MCP session
// guardian-go did not load) is refused, and nothing is returned to run.
//
// What runs in a function node is your code, out of sight: an MCP tool it
// calls with its context is vetted only if that context carries the
// definition (bind it yourself with definition.Bind).
type WorkflowAgent struct {
	Name, Description    string
	SubAgents            []Agent
	Tools                []tool.Tool
	BeforeAgentCallbacks []agent.BeforeAgentCallback
	AfterAgentCallbacks  []agent.AfterAgentCallback
	// Edges makes the graph's edges from the agents and tools as New made
	// them, in the order of SubAgents and Tools: agent nodes of agents[i]
	// (workflow.NewAgentNode), tool nodes of tools[j]
	// (workflow.NewToolNode), and function nodes of your own.
	Edges func(agents []agent.Agent, tools []tool.Tool) ([]workflow.Edge, error)
}

func (a *WorkflowAgent) plan(b *builder, at place) (*plan, error) {
	if err := checkDepth(at); err != nil {
		return nil, err
	}
	rec := &definition.Agent{Name: a.Name, Description: a.Description}
	subs, errs := b.subAgents(a.SubAgents, at)
	for _, sp := range subs {
		rec.SubAgents = append(rec.SubAgents, sp.record)
	}
	tp, terrs := b.tools(a.Tools, at, len(a.SubAgents))
	errs = append(errs, terrs...)
	rec.Tools = tp.records
	for _, sp := range tp.agents {
		rec.SubAgents = append(rec.SubAgents, sp.record)
	}
	if a.Edges == nil {
		errs = append(errs, invalid(refusals.Append(at.pointer, "edges"), "adk-edges-nil", "a workflow agent with no Edges", "give Edges, which makes the graph"))
	}
	if len(errs) > 0 {
		return nil, refusals.Join(errs...)
	}
	w := *a
	return &plan{record: rec, make: func(def *definition.Definition) (agent.Agent, error) {
		g := &guard{def: def, path: at.path}
		agents, err := makeAll(subs, def)
		if err != nil {
			return nil, err
		}
		tools, err := tp.make(g, def)
		if err != nil {
			return nil, err
		}
		edges, err := w.Edges(append([]agent.Agent(nil), agents...), append([]tool.Tool(nil), tools...))
		if err != nil {
			return nil, err
		}
		if err := checkGraph(edges, at.pointer, agents, tools); err != nil {
			return nil, err
		}
		return workflowagent.New(workflowagent.Config{
			Name:                 w.Name,
			Description:          w.Description,
			SubAgents:            agents,
			BeforeAgentCallbacks: bindBeforeAgent(g, w.BeforeAgentCallbacks),
			AfterAgentCallbacks:  bindAfterAgent(g, w.AfterAgentCallbacks),
			Edges:                edges,
		})
	}}, nil
}

var (
	agentType = reflect.TypeFor[agent.Agent]()
	toolType  = reflect.TypeFor[tool.Tool]()
	mcpType   = reflect.TypeFor[definition.MCPTool]()
)

// checkGraph refuses, at the workflow agent's pointer, a graph whose nodes
// hold an agent or a tool New did not make from what it recorded: it
// walks the edges' values (every field, exported or not; what a function
// node's closure captures it cannot see), and stops at the agents and
// tools it made.
func checkGraph(edges []workflow.Edge, ptr string, agents []agent.Agent, tools []tool.Tool) error {
	known := map[visit]bool{}
	for _, a := range agents {
		v := reflect.ValueOf(a)
		known[visit{v.Type(), v.Pointer()}] = true
	}
	for _, t := range tools {
		v := reflect.ValueOf(t)
		known[visit{v.Type(), v.Pointer()}] = true
	}
	w := &graphWalk{seen: map[visit]bool{}, known: known}
	for i := range edges {
		for _, n := range []workflow.Node{edges[i].From, edges[i].To} {
			if n == nil {
				continue
			}
			if what := w.find(reflect.ValueOf(&n).Elem(), 0); what != "" {
				return &refusals.Error{
					Kind:    refusals.ErrHiddenTool,
					Pointer: refusals.Append(ptr, "edges", strconv.Itoa(i)),
					Rule:    "adk-graph-unrecorded",
					Detail:  "a node of the graph holds " + what + ", which the definition does not record",
					Fix:     "give the workflow agent its agents in SubAgents and its tools in Tools, and make the nodes in Edges from the ones it is given",
				}
			}
		}
	}
	return nil
}

type graphWalk struct {
	seen  map[visit]bool
	known map[visit]bool // the agents and tools New made, by type and pointer
}

// find reports what v holds that the graph may not: "" when nothing.
func (w *graphWalk) find(v reflect.Value, depth int) string {
	if !v.IsValid() || depth > maxWalkDepth {
		return ""
	}
	t := v.Type()
	if t.Kind() == reflect.Interface {
		if v.IsNil() {
			return ""
		}
		return w.find(v.Elem(), depth+1)
	}
	if (t.Kind() == reflect.Pointer || t.Kind() == reflect.Map || t.Kind() == reflect.Slice) && v.IsNil() {
		return ""
	}
	if sessionPackage(t) {
		return "an MCP session guardian-go did not load (" + t.String() + ")"
	}
	if t.Kind() == reflect.Pointer && w.known[visit{t, v.Pointer()}] {
		return "" // made by New: its own checks hold
	}
	switch {
	case t.Implements(mcpType), t == reflect.TypeFor[*mcpservers.Tool](), t == reflect.TypeFor[*Tool]():
		return "an MCP tool (" + t.String() + ")"
	case t.Implements(agentType):
		return "an agent made elsewhere (" + t.String() + ")"
	case t.Implements(toolType) && !strings.HasPrefix(baseType(t).PkgPath(), pkgADKInternal):
		return "a tool New did not wrap (" + t.String() + ")"
	}
	switch t.Kind() {
	case reflect.Pointer:
		k := visit{t, v.Pointer()}
		if w.seen[k] {
			return ""
		}
		w.seen[k] = true
		return w.find(v.Elem(), depth+1)
	case reflect.Struct:
		for i := range t.NumField() {
			if s := w.find(v.Field(i), depth+1); s != "" {
				return s
			}
		}
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice {
			k := visit{t, v.Pointer()}
			if w.seen[k] {
				return ""
			}
			w.seen[k] = true
		}
		for i := range v.Len() {
			if s := w.find(v.Index(i), depth+1); s != "" {
				return s
			}
		}
	case reflect.Map:
		k := visit{t, v.Pointer()}
		if w.seen[k] {
			return ""
		}
		w.seen[k] = true
		it := v.MapRange()
		for it.Next() {
			if s := w.find(it.Value(), depth+1); s != "" {
				return s
			}
		}
	}
	return ""
}

// baseType is t through its pointers.
func baseType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}
