package eino_test

import (
	"context"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	guardianeino "github.com/guardian-agent/guardian-go/eino"
)

// BenchmarkAgentStep compares one tool step of an agent through the
// adapter (Eino's ToolsNode, the vetting middleware, the adapter's
// InvokableRun) with calling the same tool directly with Tool.Call, both
// over the real stdio server. Report the ratio; it is not asserted.
func BenchmarkAgentStep(b *testing.B) {
	ctx := context.Background()
	docs := startServer(b, "docs", nil, nil)
	search := docs.tools["search_docs"]

	b.Run("direct", func(b *testing.B) {
		args := map[string]any{"query": "release notes"}
		for b.Loop() {
			if _, err := search.Call(ctx, args); err != nil {
				b.Fatal(err)
			}
		}
	})
	msg := schema.AssistantMessage("", []schema.ToolCall{{ID: "1", Type: "function",
		Function: schema.FunctionCall{Name: "search_docs", Arguments: `{"query":"release notes"}`}}})
	b.Run("eino-plain", func(b *testing.B) {
		// Eino's own ToolsNode over the adapter, with no definition: what
		// Eino costs, apart from guardian-go's checks.
		tn, err := compose.NewToolNode(ctx, &compose.ToolsNodeConfig{Tools: adapt(b, search)})
		if err != nil {
			b.Fatal(err)
		}
		gr := compose.NewGraph[*schema.Message, []*schema.Message]()
		_ = gr.AddToolsNode("tools", tn)
		_ = gr.AddEdge(compose.START, "tools")
		_ = gr.AddEdge("tools", compose.END)
		r, err := gr.Compile(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := r.Invoke(ctx, msg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("adapter", func(b *testing.B) {
		g := &guardianeino.Graph{Name: "bench"}
		tn, err := g.NewToolsNode(ctx, &compose.ToolsNodeConfig{Tools: adapt(b, search)})
		if err != nil {
			b.Fatal(err)
		}
		gr := compose.NewGraph[*schema.Message, []*schema.Message]()
		if err := gr.AddToolsNode("tools", tn); err != nil {
			b.Fatal(err)
		}
		_ = gr.AddEdge(compose.START, "tools")
		_ = gr.AddEdge("tools", compose.END)
		r, _, err := guardianeino.CompileGraph[*schema.Message, []*schema.Message](ctx, g, gr, nil)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := r.Invoke(ctx, msg); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// echoTool is an in-process Eino tool: no I/O, so that the benchmark below
// measures what the vetting costs, not a server's round trip.
type echoTool struct{}

func (echoTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "echo", Desc: "Echoes."}, nil
}

func (echoTool) InvokableRun(_ context.Context, args string, _ ...tool.Option) (string, error) {
	return args, nil
}

// BenchmarkGuardOverhead compares one step of an in-process tool through
// a ToolsNode made by Graph.NewToolsNode (vetted, bound) with the same
// step through Eino's own ToolsNode: guardian-go's cost alone.
func BenchmarkGuardOverhead(b *testing.B) {
	ctx := context.Background()
	msg := schema.AssistantMessage("", []schema.ToolCall{{ID: "1", Type: "function",
		Function: schema.FunctionCall{Name: "echo", Arguments: `{}`}}})
	run := func(b *testing.B, r compose.Runnable[*schema.Message, []*schema.Message]) {
		for b.Loop() {
			if _, err := r.Invoke(ctx, msg); err != nil {
				b.Fatal(err)
			}
		}
	}
	graph := func(tn *compose.ToolsNode) *compose.Graph[*schema.Message, []*schema.Message] {
		gr := compose.NewGraph[*schema.Message, []*schema.Message]()
		_ = gr.AddToolsNode("tools", tn)
		_ = gr.AddEdge(compose.START, "tools")
		_ = gr.AddEdge("tools", compose.END)
		return gr
	}
	b.Run("eino", func(b *testing.B) {
		tn, _ := compose.NewToolNode(ctx, &compose.ToolsNodeConfig{Tools: []tool.BaseTool{echoTool{}}})
		r, err := graph(tn).Compile(ctx)
		if err != nil {
			b.Fatal(err)
		}
		run(b, r)
	})
	b.Run("guarded", func(b *testing.B) {
		g := &guardianeino.Graph{Name: "bench"}
		tn, _ := g.NewToolsNode(ctx, &compose.ToolsNodeConfig{Tools: []tool.BaseTool{echoTool{}}})
		r, _, err := guardianeino.CompileGraph[*schema.Message, []*schema.Message](ctx, g, graph(tn), nil)
		if err != nil {
			b.Fatal(err)
		}
		run(b, r)
	})
}
