package definition_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/fingerprint"
	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/refusals"
)

// exampleServer serves a docs MCP server over loopback streamable HTTP, at
// a URL that does not depend on the port the listener got.
func exampleServer() (mcpservers.StreamableHTTP, func()) {
	ts := httptest.NewServer(server.NewStreamableHTTPServer(newMCPServer(docsSpec("docs", "search_docs"))))
	addr := ts.Listener.Addr().String()
	return mcpservers.StreamableHTTP{
		URL: "http://localhost:8080/mcp",
		HTTPClient: func() *http.Client {
			return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, network, addr)
			}}}
		},
		Headers: map[string]string{"Authorization": "Bearer never-recorded"},
	}, ts.Close
}

func ExampleBuild() {
	conn, stop := exampleServer()
	defer stop()
	client, err := mcpservers.NewClient(map[string]mcpservers.Connection{"docs": conn}, nil)
	if err != nil {
		panic(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ts, err := client.Tools(ctx)
	if err != nil {
		panic(err)
	}

	def, err := definition.Build(&definition.Agent{
		Name:         "researcher",
		SystemPrompt: "You research questions using the internal docs.",
		Tools:        []definition.Tool{ts[0]},
	}, nil)
	if err != nil {
		panic(err)
	}
	rec := def.Record()
	servers, _ := json.Marshal(rec.MCPServers)
	fmt.Println(string(servers)) // no headers: they are never recorded
	fmt.Println(rec.Extensions.Guardian.MCPTools)
	// Output:
	// [{"name":"docs","transport":"streamable_http","url":"http://localhost:8080/mcp"}]
	// map[search_docs:docs]
}

func ExampleBuild_refused() {
	password := "correct-" + "horse-battery"
	ghost := otherLibraryTool{name: "query", server: definition.Server{
		Name: "db", Transport: definition.TransportStdio, Command: "db-mcp", Args: []string{"--dsn", "postgres://app:" + password + "@db/prod"},
	}}
	_, err := definition.Build(&definition.Agent{Name: "analyst", Tools: []definition.Tool{ghost}}, nil)
	fmt.Println(errors.Is(err, refusals.ErrContainsSecret))
	for _, r := range refusals.All(err) {
		fmt.Println(r.Pointer, r.Rule)
	}
	// Output:
	// true
	// /mcpServers/0/args/1 url-password
}

func ExampleNewFuncTool() {
	add := definition.NewFuncTool("add", "Adds two numbers.",
		json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}}`),
		func(ctx context.Context, args map[string]any) (any, error) {
			a, _ := args["a"].(float64)
			b, _ := args["b"].(float64)
			return a + b, nil
		})
	def, err := definition.Build(&definition.Agent{Name: "calculator", Tools: []definition.Tool{add}}, nil)
	if err != nil {
		panic(err)
	}
	sum, _ := add.Call(context.Background(), map[string]any{"a": 2.0, "b": 3.0})
	fmt.Println(sum, strings.HasPrefix(def.Record().Tools[0].SourceHash, "blake3:"))
	// Output:
	// 5 true
}

func ExampleDefinition_Document() {
	def, err := definition.Build(&definition.Agent{Name: "empty"}, nil)
	if err != nil {
		panic(err)
	}
	doc, _ := def.Document()
	fmt.Print(string(doc))
	// Output:
	// {
	//   "extensions": {
	//     "guardian": {
	//       "mcpTools": {}
	//     }
	//   },
	//   "formatVersion": 1,
	//   "mcpServers": [],
	//   "name": "empty",
	//   "tools": []
	// }
}

func ExampleDefinition_Digest() {
	a, _ := definition.Build(&definition.Agent{Name: "empty"}, nil)
	b, _ := definition.Build(&definition.Agent{Name: "empty"}, nil)
	c, _ := definition.Build(&definition.Agent{Name: "empty", Model: "gpt-4.1"}, nil)
	fmt.Println(a.Digest() == b.Digest(), a.Digest() == c.Digest(), len(a.Digest()))
	// Output:
	// true false 71
}

func ExampleDefinition_Vet() {
	conn, stop := exampleServer()
	defer stop()
	client, _ := mcpservers.NewClient(map[string]mcpservers.Connection{"docs": conn}, nil)
	defer client.Close()
	ts, err := client.Tools(context.Background())
	if err != nil {
		panic(err)
	}
	def, err := definition.Build(&definition.Agent{Name: "researcher", Tools: []definition.Tool{ts[0]}}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(def.Vet(ts[0]))
	impostor := definition.NewFuncTool("search_docs", "Search the docs.", nil, nil)
	err = def.Vet(impostor)
	fmt.Println(errors.Is(err, refusals.ErrUndescribed))
	// Output:
	// <nil>
	// true
}

func ExampleParse() {
	def, _ := definition.Build(&definition.Agent{Name: "empty"}, nil)
	doc, _ := def.Document()
	back, err := definition.Parse(doc)
	fmt.Println(err, back.Digest() == def.Digest())

	_, err = definition.Parse([]byte(`{"formatVersion":1,"name":"x","tools":[],"mcpServers":[],"extensions":{"guardian":{"mcpTools":{}}},"env":{}}`))
	for _, r := range refusals.All(err) {
		fmt.Println(r.Pointer, r.Rule)
	}
	// Output:
	// <nil> true
	// /env unknown-field
}

func ExampleDiff() {
	old, _ := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{
		definition.NewFuncTool("lookup", "Looks a word up.", nil, nil)}}, nil)
	new, _ := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{
		definition.NewFuncTool("lookup", "Looks a word up, and emails it.", nil, nil)}}, nil)
	for _, c := range definition.Diff(old, new) {
		fmt.Println(c)
	}
	// Output:
	// tool-description-changed tool "lookup": "Looks a word up." → "Looks a word up, and emails it."
}

func ExampleChange_String() {
	c := definition.Change{Kind: definition.ToolRenamed, Agent: "/subAgents/0", Tool: "find_pages", From: "search_docs"}
	fmt.Println(c)
	// Output:
	// /subAgents/0: tool-renamed tool "find_pages" (was "search_docs")
}

func ExampleSchema() {
	var s struct {
		Schema string `json:"$schema"`
	}
	_ = json.Unmarshal(definition.Schema(), &s)
	fmt.Println(s.Schema)
	// Output:
	// https://json-schema.org/draft/2020-12/schema
}

func ExampleDefinition_Record() {
	def, _ := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{
		definition.NewFuncTool("lookup", "Looks a word up.", nil, nil)}}, nil)
	for _, t := range def.Record().Tools {
		fmt.Println(t.Name, string(t.InputSchema))
	}
	// Output:
	// lookup {"type":"object"}
}

func ExampleNewCache() {
	// A long-lived process that records its agent again (a CI job that
	// checks several agents, a server that re-records on reload) keeps one
	// Fingerprinter and one Cache.
	opts := &definition.Options{Fingerprinter: fingerprint.New(nil), Cache: definition.NewCache()}
	tool := definition.NewFuncTool("lookup", "Looks a word up.",
		json.RawMessage(`{"type":"object","properties":{"word":{"type":"string"}}}`), nil)
	first, _ := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{tool}}, opts)
	again, _ := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{tool}}, opts)
	fmt.Println(first.Digest() == again.Digest())
	// Output:
	// true
}

// CheckTransport is the rule Build applies to a server's transport, for a
// program that checks a server before starting it: here at the server's
// place in an MCP client config.
func ExampleCheckTransport() {
	err := definition.CheckTransport("/mcpServers/live", "live", definition.TransportWebSocket)
	fmt.Println(err)
	fmt.Println(errors.Is(err, refusals.ErrWebSocket))
	fmt.Println(definition.CheckTransport("/mcpServers/docs", "docs", definition.TransportStreamableHTTP))
	// Output:
	// /mcpServers/live: websocket servers cannot be recorded: websocket ("live"); reach the server over streamable HTTP, SSE or stdio
	// true
	// <nil>
}

// A bound agent run: the loop binds its definition to the run's context
// once, and every call made with that context checks itself before
// anything is sent, whoever makes it. Here a native tool's function
// reaches for an MCP tool the agent is not given: its call is refused.
func ExampleDefinition_Bind() {
	conn, stop := exampleServer()
	defer stop()
	client, err := mcpservers.NewClient(map[string]mcpservers.Connection{"docs": conn}, nil)
	if err != nil {
		panic(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ts, err := client.Tools(ctx)
	if err != nil {
		panic(err)
	}
	search := ts[0]
	// A native tool whose code holds the MCP tool, out of Build's sight.
	summarize := definition.NewFuncTool("summarize", "Summarizes the docs.", nil,
		func(ctx context.Context, args map[string]any) (any, error) {
			return search.Call(ctx, map[string]any{"query": "all"})
		})
	def, err := definition.Build(&definition.Agent{Name: "writer", Tools: []definition.Tool{summarize}}, nil)
	if err != nil {
		panic(err)
	}

	run := def.Bind(ctx) // once per run
	_, err = summarize.Call(run, nil)
	fmt.Println(errors.Is(err, refusals.ErrUndescribed))
	fmt.Println(err)

	// Given the MCP tool too, the same code runs.
	def, err = definition.Build(&definition.Agent{Name: "writer", Tools: []definition.Tool{summarize, search}}, nil)
	if err != nil {
		panic(err)
	}
	out, err := summarize.Call(def.Bind(ctx), nil)
	if err != nil {
		panic(err)
	}
	text, _, _ := strings.Cut(out.(*mcpservers.Result).Text(), " Authorization") // the server echoes headers
	fmt.Println(text)
	// Output:
	// true
	// /tools: tool is not described by the definition: tool-unknown ("search_docs"): the definition describes no tool of this name; call only the tools the definition describes, or record the agent again
	// search_docs on docs: {"query":"all"}
}
