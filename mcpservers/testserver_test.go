package mcpservers

// The MCP servers the tests talk to. They are real mcp-go servers (and, for
// faults mcp-go would never commit, a small hand-written JSON-RPC server),
// run over real stdio pipes by re-executing the test binary, or over
// loopback HTTP in the test process.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// serverEnv selects the server a re-executed test binary runs.
const serverEnv = "MCPSERVERS_TEST_SERVER"

// clientEnv makes a re-executed test binary a client of the stdio server
// it names, whose standard error the test reads (see
// TestStdioTransportLogsNothing).
const clientEnv = "MCPSERVERS_TEST_CLIENT"

func TestMain(m *testing.M) {
	if mode := os.Getenv(serverEnv); mode != "" {
		os.Exit(runTestServer(mode))
	}
	if mode := os.Getenv(clientEnv); mode != "" {
		os.Exit(runTestClient(mode))
	}
	code := m.Run()
	if left := leftHandlers(); code == 0 && len(left) > 0 {
		fmt.Fprintf(os.Stderr, "%d tool handlers of the in-process test servers left running:\n%s\n", len(left), strings.Join(left, "\n\n"))
		code = 1
	}
	os.Exit(code)
}

// leftHandlers lists the stacks of goroutines still running a tool handler
// of a test server in this process, once they have had a few seconds to
// end: every call a test made must be over by the time the tests are.
func leftHandlers() []string {
	deadline := time.Now().Add(5 * time.Second)
	for {
		buf := make([]byte, 1<<22)
		buf = buf[:runtime.Stack(buf, true)]
		var left []string
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, "mcpservers.newDocsServer.func") {
				left = append(left, g)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// inProcessDocs is newDocsServer for a server run in the test process,
// whose tool handlers end when the test does: mcp-go's SSE server runs
// them detached from any request, and never ends the handler of a call
// whose session is gone (the event stream lost) or which was never
// cancelled.
func inProcessDocs(t testing.TB, extra ...server.ServerOption) *server.MCPServer {
	life, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	bound := server.WithToolHandlerMiddleware(func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			defer context.AfterFunc(life, cancel)()
			return next(ctx, req)
		}
	})
	return newDocsServer(append([]server.ServerOption{bound}, extra...)...)
}

// stdioServer is the connection to a test server over stdio.
func stdioServer(mode string, env ...string) Stdio {
	// A race-enabled child would sleep a second on exit (GORACE's
	// atexit_sleep_ms), slowing every Close.
	e := map[string]string{serverEnv: mode, "GORACE": "atexit_sleep_ms=0"}
	for i := 0; i+1 < len(env); i += 2 {
		e[env[i]] = env[i+1]
	}
	return Stdio{Command: testBinary(), Env: e}
}

// meetAtBarrier marks this server as started in dir, then waits until
// MCPSERVERS_BARRIER_N servers have, for at most 30 s: servers started one
// after the other, each waiting for the last to answer, never all meet.
func meetAtBarrier(dir string) bool {
	n, _ := strconv.Atoi(os.Getenv("MCPSERVERS_BARRIER_N"))
	if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(os.Getpid())), nil, 0o600); err != nil {
		return false
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if ents, err := os.ReadDir(dir); err == nil && len(ents) >= n {
			return true
		}
	}
	return false
}

func testBinary() string {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	return exe
}

func runTestServer(mode string) int {
	// A start-up delay stands in for a server that takes its time (npx
	// fetching a package) without using the CPU.
	if d, err := time.ParseDuration(os.Getenv("MCPSERVERS_DELAY")); err == nil {
		time.Sleep(d)
	}
	if dir := os.Getenv("MCPSERVERS_BARRIER"); dir != "" && !meetAtBarrier(dir) {
		fmt.Fprintln(os.Stderr, "barrier: the other servers never started")
		return 5
	}
	switch mode {
	case "docs":
		if err := server.ServeStdio(newDocsServer()); err != nil {
			return 1
		}
	case "many":
		n, _ := strconv.Atoi(os.Getenv("MCPSERVERS_TOOLS"))
		limit, _ := strconv.Atoi(os.Getenv("MCPSERVERS_PAGE"))
		if err := server.ServeStdio(newManyServer(n, limit)); err != nil {
			return 1
		}
	case "exit-init":
		// Read the first request, then die before answering it.
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		fmt.Fprintln(os.Stderr, "exit-init: giving up")
		return 3
	case "once":
		// Serve the first time only: a restart dies at once.
		marker := os.Getenv("MCPSERVERS_MARKER")
		if _, err := os.Stat(marker); err == nil {
			return 4
		}
		_ = os.WriteFile(marker, nil, 0o600)
		if err := server.ServeStdio(newDocsServer()); err != nil {
			return 1
		}
	case "endless-line":
		// Answer with a line that never ends.
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		chunk := []byte(strings.Repeat("a", 4096))
		for {
			if _, err := os.Stdout.Write(chunk); err != nil {
				return 0
			}
		}
	case "silent":
		// Read everything, answer nothing.
		_, _ = bufio.NewReader(os.Stdin).WriteTo(discardWriter{})
	case "echo-fields":
		return runEchoFields()
	case "replay":
		return runReplay()
	case "grandchild":
		// Start a grandchild that would outlive us, then serve.
		cmd := exec.Command("sleep", "300")
		if err := cmd.Start(); err != nil {
			return 1
		}
		fmt.Fprintf(os.Stderr, "grandchild=%d\n", cmd.Process.Pid)
		if err := server.ServeStdio(newDocsServer()); err != nil {
			return 1
		}
	case "escaped-holder":
		// Leave behind a process in a group of its own that holds our
		// stderr, then fail: the pipe never ends while it lives.
		cmd := exec.Command("sleep", "300")
		cmd.Stderr = os.Stderr
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			return 1
		}
		fmt.Fprintf(os.Stderr, "holder=%d\n", cmd.Process.Pid)
		fmt.Fprintln(os.Stderr, "last words")
		return 3
	default:
		if strings.HasPrefix(mode, "raw-") {
			return rawServer(strings.TrimPrefix(mode, "raw-"))
		}
		fmt.Fprintln(os.Stderr, "unknown test server", mode)
		return 2
	}
	return 0
}

type discardWriter struct{}

func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }

// rawSchema is a tool schema with the keywords mcp-go's decoded mcp.Tool
// drops: a top-level description and anyOf.
const rawSchema = `{"type":"object","description":"top-level description","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"anyOf":[{"required":["a"]},{"required":["b"]}]}`

type searchOut struct {
	Results []string `json:"results" jsonschema:"matching document titles"`
}

// newDocsServer is the test server: one tool per feature.
func newDocsServer(extra ...server.ServerOption) *server.MCPServer {
	s := server.NewMCPServer("probe-docs", "0.3.1", append([]server.ServerOption{
		server.WithToolCapabilities(true),
		server.WithLogging(),
		server.WithInstructions("probe server for mcpservers tests"),
		server.WithTitle("Probe Docs Server"),
	}, extra...)...)

	search := mcp.NewTool("search_docs",
		mcp.WithDescription("Search the docs; returns matching titles"),
		mcp.WithString("query", mcp.Required(), mcp.Description("search text")),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithOutputSchema[searchOut]())
	search.Meta = mcp.NewMetaFromMap(map[string]any{"example.com/owner": "docs-team"})
	s.AddTool(search, func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		q, err := req.RequireString("query")
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		out := searchOut{Results: []string{}}
		for _, d := range []string{"install guide", "client transports", "stdio transport"} {
			if strings.Contains(d, q) {
				out.Results = append(out.Results, d)
			}
		}
		b, _ := json.Marshal(out.Results)
		return mcp.NewToolResultStructured(out, string(b)), nil
	})

	s.AddTool(mcp.NewTool("delete_doc",
		mcp.WithDescription("Delete a document"),
		mcp.WithString("id", mcp.Required()),
		mcp.WithToolAnnotation(mcp.ToolAnnotation{Title: "Delete document", ReadOnlyHint: mcp.ToBoolPtr(false),
			DestructiveHint: mcp.ToBoolPtr(true), IdempotentHint: mcp.ToBoolPtr(true), OpenWorldHint: mcp.ToBoolPtr(false)}),
	), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("deleted " + req.GetString("id", "")), nil
	})

	s.AddTool(mcp.NewToolWithRawSchema("raw_schema_tool", "returns every content type", json.RawMessage(rawSchema)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				mcp.NewTextContent("text part"),
				mcp.NewImageContent("iVBORw0KGgo=", "image/png"),
				mcp.NewAudioContent("UklGRg==", "audio/wav"),
				mcp.NewResourceLink("file:///doc/1", "doc1", "a linked doc", "text/plain"),
				mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: "file:///doc/2", MIMEType: "text/plain", Text: "embedded"}),
				mcp.NewEmbeddedResource(mcp.BlobResourceContents{URI: "file:///doc/3", MIMEType: "application/octet-stream", Blob: "AAEC"}),
			}}, nil
		})

	s.AddTool(mcp.NewTool("confirm_delete", mcp.WithDescription("Deletes after asking the user"), mcp.WithString("id", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if ans := server.ElicitationResponse(req.Params.InputResponses, "confirm"); ans != nil {
				content, _ := json.Marshal(ans.Content)
				return mcp.NewToolResultText(fmt.Sprintf("action=%s content=%s", ans.Action, content)), nil
			}
			return server.NewInputRequestBuilder("awaiting:"+req.GetString("id", "")).
				Elicit("confirm", mcp.ElicitationParams{Mode: mcp.ElicitationModeForm, Message: "Really delete " + req.GetString("id", "") + "?",
					RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}}}).ToolResult(), nil
		})

	// two_questions asks one question, then, once answered, another,
	// keeping the first answer in the request state as MRTR servers must.
	s.AddTool(mcp.NewTool("two_questions", mcp.WithDescription("asks twice")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			schema := map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}
			state := req.Params.RequestState
			if second := server.ElicitationResponse(req.Params.InputResponses, "second"); second != nil && strings.HasPrefix(state, "first=") {
				return mcp.NewToolResultText(fmt.Sprintf("%s second=%s", state, second.Action)), nil
			}
			if first := server.ElicitationResponse(req.Params.InputResponses, "first"); first != nil {
				return server.NewInputRequestBuilder("first="+string(first.Action)).
					Elicit("second", mcp.ElicitationParams{Message: "second?", RequestedSchema: schema}).ToolResult(), nil
			}
			return server.NewInputRequestBuilder("").Elicit("first", mcp.ElicitationParams{Message: "first?", RequestedSchema: schema}).ToolResult(), nil
		})

	// defaults_form asks for a form whose fields have defaults (SEP-1034).
	s.AddTool(mcp.NewTool("defaults_form", mcp.WithDescription("asks with defaults")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if ans := server.ElicitationResponse(req.Params.InputResponses, "form"); ans != nil {
				b, _ := json.Marshal(ans.Content)
				return mcp.NewToolResultText(string(ans.Action) + " " + string(b)), nil
			}
			return server.NewInputRequestBuilder("").Elicit("form", mcp.ElicitationParams{Message: "who?", RequestedSchema: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"name":       map[string]any{"type": "string", "default": "Ada"},
					"age":        map[string]any{"type": "integer", "default": 36},
					"subscribed": map[string]any{"type": "boolean", "default": true},
					"note":       map[string]any{"type": "string"},
				},
			}}).ToolResult(), nil
		})

	s.AddTool(mcp.NewTool("ask_model", mcp.WithDescription("asks the client's model")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if resp, ok := server.InputResponse(req.Params.InputResponses, "draft"); ok {
				if err := resp.DecodeFor(mcp.MethodSamplingCreateMessage); err != nil || resp.Sampling == nil {
					return mcp.NewToolResultError("no sampling answer"), nil
				}
				text := ""
				if tc, ok := resp.Sampling.Content.(map[string]any); ok {
					text, _ = tc["text"].(string)
				} else if tc, ok := resp.Sampling.Content.(mcp.TextContent); ok {
					text = tc.Text
				}
				return mcp.NewToolResultText("model=" + resp.Sampling.Model + " text=" + text), nil
			}
			return server.NewInputRequestBuilder("").Sample("draft", mcp.CreateMessageParams{
				Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("write a haiku")}},
				MaxTokens: 50, SystemPrompt: "be brief",
			}).ToolResult(), nil
		})

	s.AddTool(mcp.NewTool("list_roots", mcp.WithDescription("asks for the client's roots")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if resp, ok := server.InputResponse(req.Params.InputResponses, "roots"); ok {
				if err := resp.DecodeFor(mcp.MethodListRoots); err != nil || resp.Roots == nil {
					return mcp.NewToolResultError("no roots answer"), nil
				}
				var uris []string
				for _, r := range resp.Roots.Roots {
					uris = append(uris, r.URI+"|"+r.Name)
				}
				return mcp.NewToolResultText(strings.Join(uris, ",")), nil
			}
			return server.NewInputRequestBuilder("").Roots("roots").ToolResult(), nil
		})

	s.AddTool(mcp.NewTool("failing_tool", mcp.WithDescription("always fails")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("boom"), nil
		})

	s.AddTool(mcp.NewTool("slow_task", mcp.WithDescription("emits progress and a log message")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			srv := server.ServerFromContext(ctx)
			if req.Params.Meta != nil && req.Params.Meta.ProgressToken != nil {
				for i := 1; i <= 2; i++ {
					_ = srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
						"progressToken": req.Params.Meta.ProgressToken, "progress": i, "total": 2, "message": fmt.Sprintf("step %d", i)})
				}
			}
			_ = srv.SendLogMessageToClient(ctx, mcp.NewLoggingMessageNotification(mcp.LoggingLevelWarning, "probe", "log from slow_task"))
			// mcp-go's streamable HTTP server drops a notification its
			// forwarder has taken off the queue but not yet written when
			// the handler returns (about 1 call in 40 lost its log
			// message). A moment's wait lets the notifications out first,
			// so that the tests see what our client does with them, not
			// that server's race.
			time.Sleep(settleNotifications)
			return mcp.NewToolResultText("done"), nil
		})

	// echo returns its arguments and the test headers it received.
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("echoes"), mcp.WithString("text")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			out := map[string]any{"arguments": req.GetArguments()}
			for _, h := range []string{"X-Static", "X-Call", "Authorization"} {
				if v := req.Header.Get(h); v != "" {
					out[h] = v
				}
			}
			b, _ := json.Marshal(out)
			return mcp.NewToolResultText(string(b)), nil
		})

	s.AddTool(mcp.NewTool("whoami", mcp.WithDescription("reports the process"), mcp.WithString("var")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			wd, _ := os.Getwd()
			_, hasPath := os.LookupEnv("PATH")
			_, hasSecret := os.LookupEnv("MCPSERVERS_PARENT_ONLY")
			v := os.Getenv(req.GetString("var", ""))
			return mcp.NewToolResultText(fmt.Sprintf("pid=%d wd=%s var=%s path=%v parentOnly=%v args=%q", os.Getpid(), wd, v, hasPath, hasSecret, os.Args[1:])), nil
		})

	s.AddTool(mcp.NewTool("exit_now", mcp.WithDescription("dies mid-call")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			os.Exit(7)
			return nil, nil
		})

	s.AddTool(mcp.NewTool("block", mcp.WithDescription("never returns")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			<-ctx.Done()
			return mcp.NewToolResultText("cancelled"), nil
		})
	return s
}

// settleNotifications is how long slow_task waits after sending its
// notifications before it returns.
const settleNotifications = 100 * time.Millisecond

// newManyServer offers n tools, limit per page.
func newManyServer(n, limit int) *server.MCPServer {
	opts := []server.ServerOption{server.WithToolCapabilities(false)}
	if limit > 0 {
		opts = append(opts, server.WithPaginationLimit(limit))
	}
	s := server.NewMCPServer("many", "1.0.0", opts...)
	for i := range n {
		s.AddTool(mcp.NewTool(fmt.Sprintf("tool_%05d", i), mcp.WithDescription(fmt.Sprintf("tool number %d", i))),
			func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText(req.Params.Name), nil
			})
	}
	return s
}

// runTestClient loads the tools of the stdio test server mode and closes
// the client, as `guardian record` does; what it prints is the test's.
func runTestClient(mode string) int {
	c, err := NewClient(map[string]Connection{"srv": stdioServer(mode)}, nil)
	if err != nil {
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, _ = c.Tools(ctx)
	c.Close()
	return 0
}

// rawServer is a hand-written pre-2026 JSON-RPC server over stdio, for
// faults an mcp-go server would not commit.
func rawServer(fault string) int {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	send := func(v any) {
		b, _ := json.Marshal(v)
		out.Write(b)
		out.WriteByte('\n')
		out.Flush()
	}
	answer := func(id json.RawMessage, result string) {
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", id, result)
		out.Flush()
	}
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return 0
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal([]byte(line), &req) != nil || req.ID == nil {
			continue // a notification
		}
		if fault == "garbage" {
			out.WriteString("this is not JSON\n{\"half\":\n\x00\x01\n")
			out.Flush()
		}
		switch req.Method {
		case "server/discover":
			switch fault {
			case "ignore-discover":
				continue
			case "empty-discover":
				// As the MCP conformance suite's servers answer what
				// they do not know.
				answer(req.ID, `{}`)
				continue
			case "old-discover":
				answer(req.ID, `{"supportedVersions":["2025-06-18","2025-03-26"]}`)
				continue
			}
			send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "Method not found"}})
		case "initialize":
			answer(req.ID, `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"9"},"instructions":"raw server"}`)
		case "tools/list":
			var p struct {
				Cursor string `json:"cursor"`
			}
			_ = json.Unmarshal(req.Params, &p)
			switch fault {
			case "flood":
				// Requests of its own, more than a client answers
				// before the server is gone; then the page, and away
				// without reading the answers.
				for i := range 2000 {
					fmt.Fprintf(out, `{"jsonrpc":"2.0","id":"flood-%d","method":"ping"}`+"\n", i)
				}
				answer(req.ID, `{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`)
				return 0
			case "repeat-cursor":
				answer(req.ID, fmt.Sprintf(`{"tools":[{"name":"t_%s","inputSchema":{"type":"object"}}],"nextCursor":"again"}`, p.Cursor))
			case "list-error":
				send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32603, "message": "listing broke"}})
			case "bad-page":
				// A result that is no page at all.
				answer(req.ID, `["tools"]`)
			case "echo-env":
				// A tool whose schema's default is an environment value
				// the server was given, JSON-escaped as a server may
				// write it ('/' as \/, letters as \u00XX), beside a
				// clean one.
				answer(req.ID, `{"tools":[{"name":"fine","inputSchema":{"type":"object"}},`+
					`{"name":"leaky","inputSchema":{"type":"object","properties":{"password":{"type":"string","default":"`+
					escapeJSONHard(os.Getenv("MY_PASSWORD"))+`"}}}}]}`)
			case "no-schema":
				answer(req.ID, `{"tools":[{"name":"fine","inputSchema":{"type":"object"}},{"name":"schemaless"}]}`)
			default:
				answer(req.ID, `{"tools":[{"name":"odd","description":"returns odd content","inputSchema":{"type":"object","properties":{}},"annotations":{"readOnlyHint":"yes","destructiveHint":false}}]}`)
			}
		case "tools/call":
			if fault == "bad-result" {
				answer(req.ID, `{"content":5}`)
				continue
			}
			if fault == "endless-call" {
				// An answer whose line never ends.
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, req.ID)
				chunk := strings.Repeat("a", 4096)
				for {
					if _, err := out.WriteString(chunk); err != nil {
						return 0
					}
				}
			}
			answer(req.ID, `{"content":[{"type":"text","text":"before"},{"type":"hologram","frames":3},{"type":"image","data":42},{"type":"text","text":"after"}],"structuredContent":{"n":1},"isError":false}`)
		default:
			send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "Method not found"}})
		}
	}
}

// escapeJSONHard writes s as the inside of a JSON string, every '/' as
// \/ and every ASCII letter as a \u escape: valid JSON in which s does
// not appear as it is.
func escapeJSONHard(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		switch {
		case c == '/':
			b.WriteString(`\/`)
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			fmt.Fprintf(&b, `\u%04X`, c)
		case c == '"' || c == '\\' || c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// httpServers serves newDocsServer over streamable HTTP and SSE on
// 127.0.0.1, for the test's lifetime.
type httpServers struct {
	streamable, sse string
}

func startHTTP(t testing.TB, streamableOpts ...server.StreamableHTTPOption) *httpServers {
	t.Helper()
	hs := &httpServers{}
	st := httptest.NewServer(server.NewStreamableHTTPServer(inProcessDocs(t), streamableOpts...))
	t.Cleanup(st.Close)
	hs.streamable = st.URL + "/mcp"

	ss := httptest.NewUnstartedServer(nil)
	ss.Start()
	sseSrv := server.NewSSEServer(inProcessDocs(t), server.WithBaseURL(ss.URL))
	ss.Config.Handler = sseSrv
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		sseSrv.CloseSessions()
		_ = ctx
		ss.CloseClientConnections()
		ss.Close()
	})
	hs.sse = ss.URL + "/sse"
	return hs
}
