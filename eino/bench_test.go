package eino_test

import (
	"context"
	"testing"

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
