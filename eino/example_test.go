package eino_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	guardianeino "github.com/guardian-agent/guardian-go/eino"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// exampleTools starts the tests' MCP server (this test binary, run over
// stdio) and returns the named tools.
func exampleTools(ctx context.Context, names ...string) (*mcpservers.Client, []*mcpservers.Tool) {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{
		"docs": mcpservers.Stdio{Command: exe, Args: []string{"-test.run=^$"}, Env: map[string]string{serverEnv: "docs"}},
	}, nil)
	if err != nil {
		panic(err)
	}
	all, err := c.Tools(ctx)
	if err != nil {
		panic(err)
	}
	var out []*mcpservers.Tool
	for _, n := range names {
		for _, t := range all {
			if t.Name() == n {
				out = append(out, t)
			}
		}
	}
	return c, out
}

// An MCP tool as an Eino tool: Info is what the server sent.
func ExampleNewTool() {
	ctx := context.Background()
	client, tools := exampleTools(ctx, "search_docs")
	defer client.Close()

	search, err := guardianeino.NewTool(tools[0])
	if err != nil {
		panic(err)
	}
	info, _ := search.Info(ctx)
	js, _ := info.ParamsOneOf.ToJSONSchema()
	schemaJSON, _ := json.Marshal(js)
	fmt.Println(info.Name, "-", info.Desc)
	fmt.Println(string(schemaJSON))
	answer, err := search.InvokableRun(ctx, `{"query":"release notes"}`)
	fmt.Println(answer, err)
	// Output:
	// search_docs - Search the internal documentation.
	// {"properties":{"query":{"type":"string"}},"required":["query"],"type":"object"}
	// No pages match "release notes" yet. <nil>
}

// Making an agent records its definition; running it vets every call.
// The model here is a scripted stand-in for a real one.
func ExampleNewChatModelAgent() {
	ctx := context.Background()
	client, mcpTools := exampleTools(ctx, "search_docs")
	defer client.Close()
	tools, err := guardianeino.NewTools(mcpTools)
	if err != nil {
		panic(err)
	}
	model := &scripted{steps: []func([]*schema.Message) *schema.Message{
		call("search_docs", `{"query":"release notes"}`), answer("The docs say: "),
	}}
	agent, def, err := guardianeino.NewChatModelAgent(ctx, &guardianeino.AgentConfig{
		ChatModelAgentConfig: adk.ChatModelAgentConfig{
			Name:        "researcher",
			Description: "Researches questions using the internal docs.",
			Instruction: "You research questions using the internal docs.",
			Model:       model,
			ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: tools}},
		},
		ModelName: "gpt-4.1",
	}, nil)
	if err != nil {
		panic(err)
	}
	rec := def.Record()
	fmt.Println(rec.Name, rec.Model, rec.Extensions.Guardian.MCPTools)

	iter := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).Query(ctx, "Summarise the release notes.")
	for {
		event, ok := iter.Next()
		if !ok {
			break
		}
		if event.Err != nil {
			panic(event.Err)
		}
		if event.Output == nil || event.Output.MessageOutput == nil {
			continue
		}
		if m, err := event.Output.MessageOutput.GetMessage(); err == nil && m.Role == schema.Assistant && m.Content != "" {
			fmt.Println(m.Content)
		}
	}
	// Output:
	// researcher gpt-4.1 map[search_docs:docs]
	// The docs say: No pages match "release notes" yet.
}

// A compose graph described as a definition: its ToolsNodes' tools, made
// with Graph.NewToolsNode, and its explicit Tools.
func ExampleCompileGraph() {
	ctx := context.Background()
	client, mcpTools := exampleTools(ctx, "search_docs")
	defer client.Close()
	tools, err := guardianeino.NewTools(mcpTools)
	if err != nil {
		panic(err)
	}
	g := &guardianeino.Graph{Name: "researcher"}
	tn, err := g.NewToolsNode(ctx, &compose.ToolsNodeConfig{Tools: tools})
	if err != nil {
		panic(err)
	}
	graph := compose.NewGraph[*schema.Message, []*schema.Message]()
	_ = graph.AddToolsNode("tools", tn)
	_ = graph.AddEdge(compose.START, "tools")
	_ = graph.AddEdge("tools", compose.END)
	runnable, def, err := guardianeino.CompileGraph[*schema.Message, []*schema.Message](ctx, g, graph, nil)
	if err != nil {
		panic(err)
	}
	servers, _ := json.Marshal(def.Record().MCPServers[0].Name)
	fmt.Println(string(servers))
	out, err := runnable.Invoke(ctx, schema.AssistantMessage("", []schema.ToolCall{{ID: "1", Type: "function",
		Function: schema.FunctionCall{Name: "search_docs", Arguments: `{"query":"graphs"}`}}}))
	if err != nil {
		panic(err)
	}
	fmt.Println(out[0].Content)
	// Output:
	// "docs"
	// No pages match "graphs" yet.
}

// How a result reaches the model as text: an error the server reported
// starts "Error: ".
func ExampleText() {
	fmt.Println(guardianeino.Text(&mcpservers.Result{
		IsError: true,
		Content: []mcpservers.Content{&mcpservers.TextContent{Text: "no such page"}, &mcpservers.ImageContent{MIMEType: "image/png"}},
	}))
	// Output:
	// Error: no such page
	// [image (image/png)]
}
