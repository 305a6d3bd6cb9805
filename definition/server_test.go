package definition_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// The tests load tools from real MCP servers: the test binary itself,
// re-executed as an mcp-go server over stdio, and mcp-go servers on
// loopback HTTP (streamable HTTP and SSE) in this process.

const serverEnv = "GUARDIAN_DEFINITION_TEST_SERVER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(serverEnv); spec != "" {
		os.Exit(serveStdio(spec))
	}
	os.Exit(m.Run())
}

// serverSpec describes a test server's tools.
type serverSpec struct {
	Name  string     `json:"name"`
	Tools []toolSpec `json:"tools"`
	// EchoEnv names an environment variable whose value calls return, to
	// show that Env reached the server.
	EchoEnv string `json:"echoEnv,omitempty"`
	// CallLog names a file the server appends a line to for every
	// tools/call request it receives, before it looks the tool up: the
	// test reads what reached the server.
	CallLog string `json:"callLog,omitempty"`
}

type toolSpec struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description"`
	Schema       json.RawMessage `json:"schema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  *annotations    `json:"annotations,omitempty"`
}

type annotations struct {
	Title       string `json:"title,omitempty"`
	ReadOnly    *bool  `json:"readOnly,omitempty"`
	Destructive *bool  `json:"destructive,omitempty"`
	Idempotent  *bool  `json:"idempotent,omitempty"`
	OpenWorld   *bool  `json:"openWorld,omitempty"`
}

func ptr[T any](v T) *T { return &v }

func newMCPServer(spec serverSpec) *server.MCPServer {
	opts := []server.ServerOption{server.WithToolCapabilities(false)}
	if spec.CallLog != "" {
		hooks := &server.Hooks{}
		hooks.AddBeforeAny(func(ctx context.Context, id any, method mcp.MCPMethod, message any) {
			if method != mcp.MethodToolsCall {
				return
			}
			name := ""
			if r, ok := message.(*mcp.CallToolRequest); ok {
				name = r.Params.Name
			}
			f, err := os.OpenFile(spec.CallLog, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
			if err != nil {
				return
			}
			fmt.Fprintf(f, "tools/call %s\n", name)
			f.Close()
		})
		opts = append(opts, server.WithHooks(hooks))
	}
	s := server.NewMCPServer(spec.Name, "1.0.0", opts...)
	for _, ts := range spec.Tools {
		schema := ts.Schema
		if schema == nil {
			schema = json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`)
		}
		tool := mcp.NewToolWithRawSchema(ts.Name, ts.Description, schema)
		tool.Title = ts.Title
		tool.RawOutputSchema = ts.OutputSchema
		if a := ts.Annotations; a != nil {
			tool.Annotations = mcp.ToolAnnotation{Title: a.Title, ReadOnlyHint: a.ReadOnly, DestructiveHint: a.Destructive,
				IdempotentHint: a.Idempotent, OpenWorldHint: a.OpenWorld}
		}
		name := ts.Name
		s.AddTool(tool, func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			args, _ := json.Marshal(req.GetArguments())
			text := fmt.Sprintf("%s on %s: %s", name, spec.Name, args)
			if spec.EchoEnv != "" {
				text += " env=" + os.Getenv(spec.EchoEnv)
			}
			for _, h := range []string{"X-Canary", "X-Api-Key", "Authorization", "X-Factory"} {
				if v := req.Header.Get(h); v != "" {
					text += " " + h + "=" + v
				}
			}
			return mcp.NewToolResultText(text), nil
		})
	}
	return s
}

func serveStdio(raw string) int {
	var spec serverSpec
	if err := json.Unmarshal([]byte(raw), &spec); err != nil {
		fmt.Fprintln(os.Stderr, "bad spec:", err)
		return 2
	}
	if err := server.ServeStdio(newMCPServer(spec)); err != nil {
		return 1
	}
	return 0
}

// stdio is a connection to a test server over stdio. The command is
// ./testserver, a link to the test binary in a directory of its own (Dir,
// never recorded), so documents are the same on every machine, in every
// build mode, and whatever the test binary is called (go test -c -o).
func stdio(t testing.TB, spec serverSpec, args ...string) mcpservers.Stdio {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(dir, "testserver")); err != nil {
		t.Fatal(err)
	}
	return mcpservers.Stdio{
		Command: "./testserver",
		Args:    args,
		Dir:     dir,
		// A race-enabled child would sleep a second on exit.
		Env: map[string]string{serverEnv: string(raw), "GORACE": "atexit_sleep_ms=0"},
	}
}

// httpServer serves spec over loopback HTTP, streamable HTTP or SSE. The
// connection's URL names localhost at a fixed port, which its HTTPClient
// factory dials on the real loopback listener instead, so the URL, and the
// document, do not depend on the port the listener got.
func httpServer(t testing.TB, spec serverSpec, sse bool, port int) mcpservers.Connection {
	t.Helper()
	base := fmt.Sprintf("http://localhost:%d", port)
	mcpSrv := newMCPServer(spec)
	var handler http.Handler
	path := "/mcp"
	if sse {
		path = "/sse"
		handler = server.NewSSEServer(mcpSrv, server.WithBaseURL(base))
	} else {
		handler = server.NewStreamableHTTPServer(mcpSrv)
	}
	ts := httptest.NewServer(handler)
	t.Cleanup(ts.Close)
	addr := ts.Listener.Addr().String()
	factory := func() *http.Client {
		d := &net.Dialer{Timeout: 5 * time.Second}
		return &http.Client{Transport: &http.Transport{
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return d.DialContext(ctx, network, addr)
			},
		}}
	}
	url := base + path
	if sse {
		return mcpservers.SSE{URL: url, HTTPClient: factory}
	}
	return mcpservers.StreamableHTTP{URL: url, HTTPClient: factory}
}

// load connects a client to conns and returns its tools by name.
func load(t testing.TB, conns map[string]mcpservers.Connection, opts *mcpservers.ClientOptions) map[string]*mcpservers.Tool {
	t.Helper()
	c, err := mcpservers.NewClient(conns, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tools, err := c.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*mcpservers.Tool{}
	for _, tool := range tools {
		out[tool.Name()] = tool
	}
	return out
}

func tools(ts ...*mcpservers.Tool) []definition.Tool {
	out := make([]definition.Tool, len(ts))
	for i, t := range ts {
		out[i] = t
	}
	return out
}

func docsSpec(name string, toolNames ...string) serverSpec {
	s := serverSpec{Name: name}
	for _, n := range toolNames {
		s.Tools = append(s.Tools, toolSpec{Name: n, Description: "The " + n + " tool of " + name + "."})
	}
	return s
}
