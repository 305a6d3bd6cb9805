package mcpservers_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

// notesServer is a small MCP server for the examples.
func notesServer() *server.MCPServer {
	s := server.NewMCPServer("notes", "1.0.0", server.WithInstructions("Keeps notes."))
	s.AddTool(mcp.NewTool("search",
		mcp.WithDescription("Search the notes"),
		mcp.WithString("query", mcp.Required()),
		mcp.WithReadOnlyHintAnnotation(true),
	), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("found: " + req.GetString("query", "")), nil
	})
	s.AddTool(mcp.NewTool("delete",
		mcp.WithDescription("Delete a note, after asking"),
		mcp.WithString("id", mcp.Required()),
	), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if ans := server.ElicitationResponse(req.Params.InputResponses, "confirm"); ans != nil {
			return mcp.NewToolResultText("delete " + req.GetString("id", "") + ": " + string(ans.Action)), nil
		}
		return server.NewInputRequestBuilder("").Elicit("confirm", mcp.ElicitationParams{
			Message:         "Delete note " + req.GetString("id", "") + "?",
			RequestedSchema: map[string]any{"type": "object"},
		}).ToolResult(), nil
	})
	return s
}

// serveNotes serves notesServer over streamable HTTP on 127.0.0.1.
func serveNotes() (url string, stop func()) {
	ts := httptest.NewServer(server.NewStreamableHTTPServer(notesServer()))
	return ts.URL + "/mcp", ts.Close
}

func ExampleNewClient() {
	url, stop := serveNotes()
	defer stop()

	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{
		"notes": mcpservers.StreamableHTTP{URL: url, Headers: map[string]string{"Authorization": "Bearer ..."}},
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	tools, err := c.Tools(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools {
		fmt.Printf("%s: %s\n", t.Name(), t.Description())
	}
	// Output:
	// delete: Delete a note, after asking
	// search: Search the notes
}

func ExampleNewClient_refused() {
	_, err := mcpservers.NewClient(map[string]mcpservers.Connection{
		"docs":  mcpservers.StreamableHTTP{URL: "https://user:secret@[::1/mcp"},
		"local": mcpservers.Stdio{Command: "server", Dir: "relative/dir"},
	}, nil)
	fmt.Println(err)
	// Output:
	// /mcpServers/docs/url: invalid: url-malformed ("docs"): the URL cannot be parsed; give an absolute http or https URL
	// /mcpServers/local/cwd: invalid: cwd-relative ("local"): the working directory is a relative path; give an absolute path, or none for the current directory
}

func ExampleClient_Tools() {
	url, stop := serveNotes()
	defer stop()
	c, _ := mcpservers.NewClient(map[string]mcpservers.Connection{
		"notes":   mcpservers.StreamableHTTP{URL: url},
		"archive": mcpservers.StreamableHTTP{URL: url},
	}, &mcpservers.ClientOptions{PrefixToolNames: true})
	defer c.Close()

	tools, err := c.Tools(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools {
		info := t.Server()
		fmt.Printf("%s calls %q on %s (%s %s)\n", t.Name(), t.MCPName(), info.Name, info.Implementation.Name, info.Implementation.Version)
	}
	// Output:
	// archive_delete calls "delete" on archive (notes 1.0.0)
	// archive_search calls "search" on archive (notes 1.0.0)
	// notes_delete calls "delete" on notes (notes 1.0.0)
	// notes_search calls "search" on notes (notes 1.0.0)
}

func ExampleTool_Call() {
	url, stop := serveNotes()
	defer stop()
	c, _ := mcpservers.NewClient(map[string]mcpservers.Connection{"notes": mcpservers.StreamableHTTP{URL: url}}, nil)
	defer c.Close()
	tools, _ := c.Tools(context.Background())

	for _, t := range tools {
		if t.Name() != "search" {
			continue
		}
		res, err := t.Call(context.Background(), map[string]any{"query": "groceries"})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(res.Text(), res.IsError)
		fmt.Println(t.Annotations().MayBeDestructive())
	}
	// Output:
	// found: groceries false
	// false
}

func ExampleElicitationRequired() {
	url, stop := serveNotes()
	defer stop()
	// No elicitation handler: a call whose server asks the user is
	// interrupted, and resumed with the answer.
	c, _ := mcpservers.NewClient(map[string]mcpservers.Connection{"notes": mcpservers.StreamableHTTP{URL: url}}, nil)
	defer c.Close()
	tools, _ := c.Tools(context.Background(), "notes")
	del := tools[0]

	_, err := del.Call(context.Background(), map[string]any{"id": "n-1"})
	var need *mcpservers.ElicitationRequired
	if !errors.As(err, &need) {
		log.Fatal(err)
	}
	for _, r := range need.Requests {
		fmt.Printf("%s asks %q: %s\n", need.Tool, r.Key, r.Message)
	}
	// Resuming reruns the tool from the start, answering as it asks.
	res, err := need.Resume(context.Background(), map[string]mcpservers.ElicitationResponse{
		"confirm": {Action: mcpservers.ElicitationDecline},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text())
	// Output:
	// delete asks "confirm": Delete note n-1?
	// delete n-1: decline
}

// audit is an interceptor: a struct, so that a definition can see what it
// holds.
type audit struct{ prefix string }

func (a audit) Intercept(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	fmt.Printf("%s%s.%s(%v)\n", a.prefix, req.Server, req.Name, req.Arguments)
	req.Header = http.Header{"X-Request-Source": {"example"}}
	return next(ctx, req)
}

func ExampleInterceptor() {
	url, stop := serveNotes()
	defer stop()
	short := mcpservers.InterceptorFunc(func(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
		if req.Arguments["query"] == "" {
			return &mcpservers.Result{Content: []mcpservers.Content{&mcpservers.TextContent{Text: "empty query"}}, IsError: true}, nil
		}
		return next(ctx, req)
	})
	c, _ := mcpservers.NewClient(map[string]mcpservers.Connection{"notes": mcpservers.StreamableHTTP{URL: url}},
		&mcpservers.ClientOptions{Interceptors: []mcpservers.Interceptor{audit{"audit: "}, short}})
	defer c.Close()
	tools, _ := c.Tools(context.Background())
	search := tools[1]

	for _, q := range []string{"milk", ""} {
		res, _ := search.Call(context.Background(), map[string]any{"query": q})
		fmt.Println(res.Text())
	}
	// Output:
	// audit: notes.search(map[query:milk])
	// found: milk
	// audit: notes.search(map[query:])
	// empty query
}

func ExampleTool_MCPRecord() {
	url, stop := serveNotes()
	defer stop()
	c, _ := mcpservers.NewClient(map[string]mcpservers.Connection{
		"notes": mcpservers.StreamableHTTP{URL: url, Headers: map[string]string{"Authorization": "Bearer never-recorded"}},
	}, &mcpservers.ClientOptions{Interceptors: []mcpservers.Interceptor{audit{}}})
	defer c.Close()
	tools, _ := c.Tools(context.Background())

	rec := tools[0].MCPRecord()
	fmt.Println(rec.Server.Name, rec.Server.Transport, rec.SessionBound)
	for _, code := range rec.Code {
		fmt.Printf("%s %T\n", code.Role, code.Value)
	}
	// Output:
	// notes streamable_http false
	// interceptor mcpservers_test.audit
}

func ExampleSessionTools() {
	// An mcp-go client the caller connected itself.
	mc, _ := client.NewInProcessClient(notesServer())
	defer mc.Close()
	ctx := context.Background()
	_ = mc.Start(ctx)
	if _, err := mc.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		log.Fatal(err)
	}

	tools, err := mcpservers.SessionTools(ctx, mc)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools {
		fmt.Println(t.Name(), t.MCPRecord().SessionBound)
	}
	// Output:
	// delete true
	// search true
}

func ExampleClient_Close() {
	url, stop := serveNotes()
	defer stop()
	c, _ := mcpservers.NewClient(map[string]mcpservers.Connection{"notes": mcpservers.StreamableHTTP{URL: url}}, nil)
	tools, _ := c.Tools(context.Background())

	fmt.Println(c.Close(), c.Close())
	_, err := tools[0].Call(context.Background(), nil)
	fmt.Println(errors.Is(err, mcpservers.ErrClosed))
	// Output:
	// <nil> <nil>
	// true
}

func ExampleAnnotations_MayBeDestructive() {
	no := false
	fmt.Println(mcpservers.Annotations{}.MayBeDestructive())
	fmt.Println(mcpservers.Annotations{DestructiveHint: &no}.MayBeDestructive())
	// Output:
	// true
	// false
}

func ExampleTool_InputSchema() {
	// A schema with keywords mcp-go's decoded mcp.Tool drops: a top-level
	// description and anyOf.
	s := server.NewMCPServer("lookup", "1.0.0")
	s.AddTool(mcp.NewToolWithRawSchema("lookup", "Look a record up",
		[]byte(`{"type":"object","description":"by id or by name","properties":{"id":{"type":"integer"},"name":{"type":"string"}},"anyOf":[{"required":["id"]},{"required":["name"]}]}`)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("found"), nil
		})
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	defer ts.Close()

	c, _ := mcpservers.NewClient(map[string]mcpservers.Connection{"lookup": mcpservers.StreamableHTTP{URL: ts.URL + "/mcp"}}, nil)
	defer c.Close()
	tools, err := c.Tools(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(tools[0].InputSchema()))
	// Output:
	// {"type":"object","description":"by id or by name","properties":{"id":{"type":"integer"},"name":{"type":"string"}},"anyOf":[{"required":["id"]},{"required":["name"]}]}
}

// Detail is the cause's description without the server and operation
// Error prints around it, for a report that names them itself.
func ExampleError_Detail() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	client, err := mcpservers.NewClient(map[string]mcpservers.Connection{
		"docs": mcpservers.Stdio{Command: "./no-such-server", Dir: dir},
	}, nil)
	if err != nil {
		panic(err)
	}
	defer client.Close()
	_, err = client.Tools(context.Background())
	var e *mcpservers.Error
	if errors.As(err, &e) {
		fmt.Printf("%s: %s: %v\n", e.Server, e.Op, e.Kind)
		fmt.Println(e.Detail())
	}
	// Output:
	// docs: connect: cannot connect
	// command not found
}
