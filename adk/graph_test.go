package adk_test

import (
	"errors"
	"testing"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/workflow"

	guardianadk "github.com/guardian-agent/guardian-go/adk"
	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/refusals"
)

// pageArgs is a function node that makes delete_page's arguments from the
// user's message.
func pageArgs(_ agent.Context, input string) (map[string]any, error) {
	return map[string]any{"page": input}, nil
}

// TestWorkflowGraph: a graph workflow records its agents as sub-agents and
// its tools with their servers; its tool node runs the tool New wrapped
// (vetted and bound), over the real server. A graph whose node holds a
// tool New did not wrap is refused, and nothing is returned to run.
func TestWorkflowGraph(t *testing.T) {
	docs := startServer(t, "docs", nil, nil)
	other := startServer(t, "other", nil, nil)
	graph := func(edges func([]agent.Agent, []tool.Tool) ([]workflow.Edge, error)) *guardianadk.WorkflowAgent {
		return &guardianadk.WorkflowAgent{
			Name: "cleanup", Description: "Deletes the page the user names.",
			SubAgents: []guardianadk.Agent{llm("searcher", newModel(), adapt(t, docs.tools["search_docs"]))},
			Tools:     adapt(t, other.tools["delete_page"]),
			Edges:     edges,
		}
	}
	a, def, err := newAgent(graph(func(agents []agent.Agent, tools []tool.Tool) ([]workflow.Edge, error) {
		del, err := workflow.NewToolNode(tools[0], workflow.NodeConfig{})
		if err != nil {
			return nil, err
		}
		return workflow.Chain(workflow.Start, workflow.NewFunctionNode("args", pageArgs, workflow.NodeConfig{}), del), nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	sameDocument(t, def, &definition.Agent{Name: "cleanup", Description: "Deletes the page the user names.",
		Tools: coreTools(other.tools["delete_page"]), SubAgents: []*definition.Agent{coreAgent("searcher", coreTools(docs.tools["search_docs"]))}})
	if o := converse(t, a).say("home"); o.err != nil {
		t.Fatal(o.err)
	}
	if got := other.Calls(); len(got) != 1 || got[0] != "delete_page" {
		t.Fatalf("the server received %v", got)
	}

	// A node over a tool the workflow was not given.
	hidden := adapt(t, other.tools["search_docs"])[0]
	a, def, err = newAgent(graph(func([]agent.Agent, []tool.Tool) ([]workflow.Edge, error) {
		n, err := workflow.NewToolNode(hidden, workflow.NodeConfig{})
		if err != nil {
			return nil, err
		}
		return workflow.Chain(workflow.Start, n), nil
	}))
	var r *refusals.Error
	if !errors.As(err, &r) || !errors.Is(err, refusals.ErrHiddenTool) || r.Rule != "adk-graph-unrecorded" || a != nil || def != nil {
		t.Fatalf("New = %v, %v, %v; want the graph refused", a, def, err)
	}
}
