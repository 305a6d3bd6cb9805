package eino_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/guardian-agent/guardian-go/definition"
	guardianeino "github.com/guardian-agent/guardian-go/eino"
	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/refusals"
)

// modelHolding is a chat model node of the user's whose fields hold an MCP
// tool.
type modelHolding struct {
	*scripted
	Backup *mcpservers.Tool
}

func (m *modelHolding) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	return m.scripted.Generate(ctx, in, opts...)
}

// toolGraph is START -> model -> tools -> END, with a lambda before the
// model that may call a tool itself.
func toolGraph(t testing.TB, ctx context.Context, g *guardianeino.Graph, m model.BaseChatModel, tn *compose.ToolsNode, pre func(context.Context, []*schema.Message) ([]*schema.Message, error)) *compose.Graph[[]*schema.Message, []*schema.Message] {
	t.Helper()
	gr := compose.NewGraph[[]*schema.Message, []*schema.Message]()
	if pre == nil {
		pre = func(_ context.Context, in []*schema.Message) ([]*schema.Message, error) { return in, nil }
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(gr.AddLambdaNode("prepare", compose.InvokableLambda(pre)))
	must(gr.AddChatModelNode("model", m))
	must(gr.AddToolsNode("tools", tn))
	must(gr.AddEdge(compose.START, "prepare"))
	must(gr.AddEdge("prepare", "model"))
	must(gr.AddEdge("model", "tools"))
	must(gr.AddEdge("tools", compose.END))
	return gr
}

// TestGraphRecordIsCoreBuild: a graph's ToolsNode tools and explicit tools
// are recorded as the core's Build records them, byte for byte, and a run
// calls the server through the vetted ToolsNode.
func TestGraphRecordIsCoreBuild(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	wiki := startServer(t, "wiki", nil, nil)
	g := &guardianeino.Graph{Name: "graph", SystemPrompt: "You research questions.", Tools: adapt(t, wiki.tools["fail"])}
	tn, err := g.NewToolsNode(ctx, &compose.ToolsNodeConfig{Tools: adapt(t, docs.tools["search_docs"])})
	if err != nil {
		t.Fatal(err)
	}
	m := &scripted{steps: []func([]*schema.Message) *schema.Message{call("search_docs", `{"query":"release notes"}`)}}
	r, def, err := guardianeino.CompileGraph[[]*schema.Message, []*schema.Message](ctx, g, toolGraph(t, ctx, g, m, tn, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	core, err := definition.Build(&definition.Agent{Name: "graph", SystemPrompt: "You research questions.",
		Tools: []definition.Tool{docs.tools["search_docs"], wiki.tools["fail"]}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := def.Document()
	want, _ := core.Document()
	if !bytes.Equal(got, want) {
		t.Fatalf("graph record differs from core Build:\n%s\n---\n%s", got, want)
	}
	out, err := r.Invoke(ctx, []*schema.Message{schema.UserMessage("Summarise the release notes.")})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].Content != `No pages match "release notes" yet.` {
		t.Fatalf("out = %+v", out)
	}
	if got := docs.Calls(); !slices.Equal(got, []string{"search_docs"}) {
		t.Fatalf("server calls = %v", got)
	}
}

// TestGraphRefusesNodeHoldingTool: a node whose fields hold an MCP tool
// the graph offers nowhere is refused at compile, whatever Exclude says,
// and nothing is returned to run; offered in Tools, it is recorded.
func TestGraphRefusesNodeHoldingTool(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	other := startServer(t, "other", nil, nil)
	g := &guardianeino.Graph{Name: "graph"}
	tn, err := g.NewToolsNode(ctx, &compose.ToolsNodeConfig{Tools: adapt(t, docs.tools["search_docs"])})
	if err != nil {
		t.Fatal(err)
	}
	m := &modelHolding{scripted: &scripted{}, Backup: other.tools["delete_page"]}
	r, def, err := guardianeino.CompileGraph[[]*schema.Message, []*schema.Message](ctx, g, toolGraph(t, ctx, g, m, tn, nil),
		&definition.Options{Exclude: []string{"/mcpServers/0/args"}})
	if !errors.Is(err, refusals.ErrHiddenTool) {
		t.Fatalf("err = %v, want ErrHiddenTool", err)
	}
	if r != nil || def != nil {
		t.Fatal("something was returned to run")
	}
	// Every call of its ToolsNode is refused too: the graph is not recorded.
	g2 := &guardianeino.Graph{Name: "graph", Tools: adapt(t, other.tools["delete_page"])}
	tn2, err := g2.NewToolsNode(ctx, &compose.ToolsNodeConfig{Tools: adapt(t, docs.tools["search_docs"])})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := guardianeino.CompileGraph[[]*schema.Message, []*schema.Message](ctx, g2, toolGraph(t, ctx, g2, m, tn2, nil), nil); err != nil {
		t.Fatal(err)
	}
}

// TestGraphRefusesForeignToolsNode: a ToolsNode made with
// compose.NewToolNode hides its tools, and is refused.
func TestGraphRefusesForeignToolsNode(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	tn, err := compose.NewToolNode(ctx, &compose.ToolsNodeConfig{Tools: adapt(t, docs.tools["search_docs"])})
	if err != nil {
		t.Fatal(err)
	}
	g := &guardianeino.Graph{Name: "graph"}
	_, _, err = guardianeino.CompileGraph[[]*schema.Message, []*schema.Message](ctx, g, toolGraph(t, ctx, g, &scripted{}, tn, nil), nil)
	if err == nil || !contains(err.Error(), `graph node "tools" is a ToolsNode not made with Graph.NewToolsNode`) {
		t.Fatalf("err = %v", err)
	}
}

// TestGraphRefusesUnofferedCallsAtRun: what Go cannot see at compile (a
// lambda's closure, a tool list swapped in at run time) is refused when
// called, before the server sees anything.
func TestGraphRefusesUnofferedCallsAtRun(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	other := startServer(t, "other", nil, nil)
	hidden := adapt(t, other.tools["search_docs"])[0].(tool.InvokableTool)

	t.Run("lambda", func(t *testing.T) {
		g := &guardianeino.Graph{Name: "graph"}
		tn, err := g.NewToolsNode(ctx, &compose.ToolsNodeConfig{Tools: adapt(t, docs.tools["search_docs"])})
		if err != nil {
			t.Fatal(err)
		}
		pre := func(ctx context.Context, in []*schema.Message) ([]*schema.Message, error) {
			_, err := hidden.InvokableRun(ctx, `{"query":"x"}`)
			return in, err
		}
		r, _, err := guardianeino.CompileGraph[[]*schema.Message, []*schema.Message](ctx, g, toolGraph(t, ctx, g, &scripted{}, tn, pre), nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Invoke(ctx, []*schema.Message{schema.UserMessage("hi")}); !errors.Is(err, refusals.ErrUndescribed) {
			t.Fatalf("err = %v, want ErrUndescribed", err)
		}
		if got := other.Calls(); len(got) != 0 {
			t.Fatalf("server calls = %v", got)
		}
	})
	t.Run("swapped tool list", func(t *testing.T) {
		g := &guardianeino.Graph{Name: "graph"}
		tn, err := g.NewToolsNode(ctx, &compose.ToolsNodeConfig{Tools: adapt(t, docs.tools["search_docs"])})
		if err != nil {
			t.Fatal(err)
		}
		m := &scripted{steps: []func([]*schema.Message) *schema.Message{call("search_docs", `{"query":"x"}`)}}
		r, _, err := guardianeino.CompileGraph[[]*schema.Message, []*schema.Message](ctx, g, toolGraph(t, ctx, g, m, tn, nil), nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Invoke(ctx, []*schema.Message{schema.UserMessage("hi")},
			compose.WithToolsNodeOption(compose.WithToolList(hidden)))
		if !errors.Is(err, refusals.ErrUndescribed) {
			t.Fatalf("err = %v, want ErrUndescribed", err)
		}
		if got := other.Calls(); len(got) != 0 {
			t.Fatalf("server calls = %v", got)
		}
	})
}

// TestGraphApproval: a graph's ToolsNode pauses a call that may be
// destructive for approval, checkpointed by the graph's store, and a
// rejection is the answer, with nothing sent.
func TestGraphApproval(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	g := &guardianeino.Graph{Name: "graph", Approval: &guardianeino.Approval{}}
	tn, err := g.NewToolsNode(ctx, &compose.ToolsNodeConfig{Tools: adapt(t, docs.tools["delete_page"])})
	if err != nil {
		t.Fatal(err)
	}
	gr := compose.NewGraph[*schema.Message, []*schema.Message]()
	_ = gr.AddToolsNode("tools", tn)
	_ = gr.AddEdge(compose.START, "tools")
	_ = gr.AddEdge("tools", compose.END)
	store := &memStore{}
	r, _, err := guardianeino.CompileGraph[*schema.Message, []*schema.Message](ctx, g, gr, nil, compose.WithCheckPointStore(store))
	if err != nil {
		t.Fatal(err)
	}
	msg := schema.AssistantMessage("", []schema.ToolCall{{ID: "1", Type: "function",
		Function: schema.FunctionCall{Name: "delete_page", Arguments: `{"page":"home"}`}}})
	_, err = r.Invoke(ctx, msg, compose.WithCheckPointID("g1"))
	info, ok := compose.ExtractInterruptInfo(err)
	if !ok {
		t.Fatalf("err = %v, want an interrupt", err)
	}
	var id string
	for _, ic := range info.InterruptContexts {
		if _, ok := ic.Info.(*guardianeino.ApprovalInterrupt); ok && ic.IsRootCause {
			id = ic.ID
		}
	}
	if id == "" {
		t.Fatalf("no approval interrupt in %+v", info.InterruptContexts)
	}
	out, err := r.Invoke(compose.ResumeWithData(ctx, id, guardianeino.ApprovalDecision{Reason: "no"}), msg, compose.WithCheckPointID("g1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].Content != "The user rejected this call of tool delete_page; it was not run. Reason: no" {
		t.Fatalf("out = %+v", out)
	}
	if got := docs.Calls(); len(got) != 0 {
		t.Fatalf("server calls = %v", got)
	}
}
