package adk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/agent/llmagent"
	"google.golang.org/adk/v2/model/gemini"
	"google.golang.org/adk/v2/runner"
	"google.golang.org/adk/v2/session"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/functiontool"
	"google.golang.org/adk/v2/workflow"
	"google.golang.org/genai"

	guardianadk "github.com/guardian-agent/guardian-go/adk"
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

// runOnce runs a on text in a new in-memory session and prints the
// model's last words.
func runOnce(ctx context.Context, a agent.Agent, text string) {
	r, err := runner.New(runner.Config{AppName: "example", Agent: a, SessionService: session.InMemoryService(), AutoCreateSession: true})
	if err != nil {
		panic(err)
	}
	last := ""
	for ev, err := range r.Run(ctx, "user", "session-1", genai.NewContentFromText(text, genai.RoleUser), agent.RunConfig{}) {
		if err != nil {
			panic(err)
		}
		if ev.Content != nil && ev.Content.Role == genai.RoleModel {
			for _, p := range ev.Content.Parts {
				if p.Text != "" {
					last = p.Text
				}
			}
		}
	}
	fmt.Println(last)
}

// An MCP tool as an ADK tool: its declaration is what the server sent,
// the input schema byte for byte.
func ExampleNewTool() {
	ctx := context.Background()
	client, tools := exampleTools(ctx, "search_docs")
	defer client.Close()

	search, err := guardianadk.NewTool(tools[0])
	if err != nil {
		panic(err)
	}
	d := search.Declaration()
	fmt.Println(d.Name, "-", d.Description)
	fmt.Println(string(d.ParametersJsonSchema.(json.RawMessage)))
	// Output:
	// search_docs - Search the internal documentation.
	// {"properties":{"query":{"type":"string"}},"required":["query"],"type":"object"}
}

// Gemini in place of the scripted stand-in: the lines docs/adk.md shows.
// (Not run: it needs a key and the network.)
func Example_gemini() {
	ctx := context.Background()
	model, err := gemini.NewModel(ctx, "gemini-2.5-flash", &genai.ClientConfig{APIKey: os.Getenv("GOOGLE_API_KEY")})
	if err != nil {
		panic(err)
	}
	_, _, err = guardianadk.New(&guardianadk.LLMAgent{Config: llmagent.Config{Name: "researcher", Model: model}}, nil)
	if err != nil {
		panic(err)
	}
}

// MCP tools, in order, for llmagent.Config's Tools.
func ExampleNewTools() {
	ctx := context.Background()
	client, mcpTools := exampleTools(ctx, "search_docs", "delete_page")
	defer client.Close()

	tools, err := guardianadk.NewTools(mcpTools)
	if err != nil {
		panic(err)
	}
	for _, t := range tools {
		fmt.Println(t.Name())
	}
	// Output:
	// search_docs
	// delete_page
}

// Making an agent records its definition; running it vets every call. The
// model here is a scripted stand-in for Gemini.
func ExampleNew() {
	ctx := context.Background()
	client, mcpTools := exampleTools(ctx, "search_docs")
	defer client.Close()
	tools, err := guardianadk.NewTools(mcpTools)
	if err != nil {
		panic(err)
	}
	researcher, def, err := guardianadk.New(&guardianadk.LLMAgent{Config: llmagent.Config{
		Name:        "researcher",
		Description: "Researches questions using the internal docs.",
		Instruction: "You research questions using the internal docs.",
		Model:       newModel(call("search_docs", map[string]any{"query": "release notes"}), answer("The docs say: ")),
		Tools:       tools,
	}}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(def.Record().Extensions.Guardian.MCPTools)
	runOnce(ctx, researcher, "Summarise the release notes.")
	// Output:
	// map[search_docs:docs]
	// The docs say: No pages match "release notes" yet.
}

// A call that may be destructive waits for a person: the run ends with an
// adk_request_confirmation, and the application answers it.
func ExamplePending() {
	ctx := context.Background()
	client, mcpTools := exampleTools(ctx, "delete_page")
	defer client.Close()
	tools, err := guardianadk.NewTools(mcpTools)
	if err != nil {
		panic(err)
	}
	a, _, err := guardianadk.New(&guardianadk.LLMAgent{
		Config: llmagent.Config{
			Name:  "editor",
			Model: newModel(call("delete_page", map[string]any{"page": "home"}), answer("")),
			Tools: tools,
		},
		Approval: &guardianadk.Approval{},
	}, nil)
	if err != nil {
		panic(err)
	}
	r, err := runner.New(runner.Config{AppName: "example", Agent: a, SessionService: session.InMemoryService(), AutoCreateSession: true})
	if err != nil {
		panic(err)
	}
	var pending []*guardianadk.Confirmation
	for ev, err := range r.Run(ctx, "user", "s", genai.NewContentFromText("Delete the home page.", genai.RoleUser), agent.RunConfig{}) {
		if err != nil {
			panic(err)
		}
		pending = append(pending, guardianadk.Pending(ev)...)
	}
	fmt.Println(pending[0].Request)
	answer := &genai.Content{Role: genai.RoleUser, Parts: []*genai.Part{pending[0].Approve()}}
	for ev, err := range r.Run(ctx, "user", "s", answer, agent.RunConfig{}) {
		if err != nil {
			panic(err)
		}
		if ev.Content != nil && ev.Content.Role == genai.RoleModel && ev.Content.Parts[0].Text != "" {
			fmt.Println(ev.Content.Parts[0].Text)
		}
	}
	// Output:
	// tool delete_page of MCP server docs may be destructive: approve or reject the call
	// deleted home
}

// An agent the model calls as a tool: recorded as a tool of its parent,
// and as a sub-agent with the servers of its own tools.
func ExampleNewAgentTool() {
	ctx := context.Background()
	client, mcpTools := exampleTools(ctx, "search_docs")
	defer client.Close()
	tools, err := guardianadk.NewTools(mcpTools)
	if err != nil {
		panic(err)
	}
	helper := &guardianadk.LLMAgent{Config: llmagent.Config{Name: "helper", Description: "Searches the docs.", Model: newModel(), Tools: tools}}
	_, def, err := guardianadk.New(&guardianadk.LLMAgent{Config: llmagent.Config{
		Name:  "coordinator",
		Model: newModel(),
		Tools: []tool.Tool{guardianadk.NewAgentTool(helper, nil)},
	}}, nil)
	if err != nil {
		panic(err)
	}
	rec := def.Record()
	fmt.Println(rec.Tools[0].Name, string(rec.Tools[0].InputSchema))
	fmt.Println(rec.SubAgents[0].Name, rec.SubAgents[0].Extensions.Guardian.MCPTools)
	// Output:
	// helper {"properties":{"request":{"type":"STRING"}},"required":["request"],"type":"OBJECT"}
	// helper map[search_docs:docs]
}

// An ADK tool that is not an MCP tool, as a definition records it: what
// its declaration gives the model, and the function it runs.
func ExampleNewNativeTool() {
	type args struct {
		City string `json:"city"`
	}
	weather, err := functiontool.New(functiontool.Config{Name: "weather", Description: "Today's weather."},
		func(_ agent.Context, a args) (string, error) { return "sunny in " + a.City, nil })
	if err != nil {
		panic(err)
	}
	n, err := guardianadk.NewNativeTool(weather)
	if err != nil {
		panic(err)
	}
	fmt.Println(n.Name(), "-", n.Description())
	fmt.Println(string(n.InputSchema()))
	// Output:
	// weather - Today's weather.
	// {"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}
}

// A tool result as the model reads it.
func ExampleResponse() {
	r := &mcpservers.Result{Content: []mcpservers.Content{
		&mcpservers.TextContent{Text: "a chart"},
		&mcpservers.ImageContent{Data: "iVBORw0KGgo=", MIMEType: "image/png"},
	}}
	b, _ := json.Marshal(guardianadk.Response(r))
	fmt.Println(string(b))
	// Output:
	// {"content":[{"text":"a chart","type":"text"},{"data":"iVBORw0KGgo=","mimeType":"image/png","type":"image"}],"output":"a chart\n[image (image/png)]"}
}

// The text of a result: what text cannot carry is named.
func ExampleText() {
	r := &mcpservers.Result{IsError: true, Content: []mcpservers.Content{&mcpservers.TextContent{Text: "no such page"}}}
	fmt.Println(guardianadk.Text(r))
	// Output:
	// no such page
}

// A workflow agent and its sub-agents, each recorded with the servers of
// its own tools.
func ExampleSequentialAgent() {
	ctx := context.Background()
	client, mcpTools := exampleTools(ctx, "search_docs", "delete_page")
	defer client.Close()
	search, err := guardianadk.NewTools(mcpTools[:1])
	if err != nil {
		panic(err)
	}
	del, err := guardianadk.NewTools(mcpTools[1:])
	if err != nil {
		panic(err)
	}
	_, def, err := guardianadk.New(&guardianadk.SequentialAgent{Name: "pipeline", SubAgents: []guardianadk.Agent{
		&guardianadk.LLMAgent{Config: llmagent.Config{Name: "searcher", Model: newModel(), Tools: search}},
		&guardianadk.LLMAgent{Config: llmagent.Config{Name: "deleter", Model: newModel(), Tools: del}},
	}}, nil)
	if err != nil {
		panic(err)
	}
	for _, sub := range def.Record().SubAgents {
		fmt.Println(sub.Name, sub.Extensions.Guardian.MCPTools)
	}
	// Output:
	// searcher map[search_docs:docs]
	// deleter map[delete_page:docs]
}

// A graph workflow: its tool node runs the tool New wrapped, vetted and
// bound.
func ExampleWorkflowAgent() {
	ctx := context.Background()
	client, mcpTools := exampleTools(ctx, "delete_page")
	defer client.Close()
	tools, err := guardianadk.NewTools(mcpTools)
	if err != nil {
		panic(err)
	}
	cleanup, def, err := guardianadk.New(&guardianadk.WorkflowAgent{
		Name:  "cleanup",
		Tools: tools,
		Edges: func(_ []agent.Agent, tools []tool.Tool) ([]workflow.Edge, error) {
			del, err := workflow.NewToolNode(tools[0], workflow.NodeConfig{})
			if err != nil {
				return nil, err
			}
			return workflow.Chain(workflow.Start, workflow.NewFunctionNode("args", pageArgs, workflow.NodeConfig{}), del), nil
		},
	}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(def.Record().Extensions.Guardian.MCPTools)
	r, err := runner.New(runner.Config{AppName: "example", Agent: cleanup, SessionService: session.InMemoryService(), AutoCreateSession: true})
	if err != nil {
		panic(err)
	}
	for ev, err := range r.Run(ctx, "user", "s", genai.NewContentFromText("home", genai.RoleUser), agent.RunConfig{}) {
		if err != nil {
			panic(err)
		}
		if out, ok := ev.Output.(map[string]any); ok && out["output"] != nil {
			fmt.Println(out["output"]) // the tool node's output
		}
	}
	// Output:
	// map[delete_page:docs]
	// deleted home
}
