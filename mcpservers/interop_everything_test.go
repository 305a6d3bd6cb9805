package mcpservers_test

// Interop with @modelcontextprotocol/server-everything, the MCP reference
// server written with the TypeScript SDK (a pre-2026 server: it speaks
// 2025-11-25), over stdio and streamable HTTP.

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

var everythingTransports = []string{"stdio", "streamable_http", "sse"}

// everythingSession is a Client connected to one server-everything through
// a wire recorder, and a way to open an independent raw session with the
// same server.
type everythingSession struct {
	client  *mcpservers.Client
	log     func() *wireLog
	dialRaw func() rawConn
}

// openEverything starts server-everything for transport (a process per
// connection on stdio, one HTTP server otherwise) and a Client for it
// named "everything".
func openEverything(t *testing.T, transport string, opts *mcpservers.ClientOptions) *everythingSession {
	t.Helper()
	var (
		conn   mcpservers.Connection
		s      = &everythingSession{}
		marker = checkClean(t)
	)
	switch transport {
	case "stdio":
		bin := npmServer(t, "mcp-server-everything")
		rec := newStdioRecorder(t)
		conn = rec.wrap(t, mcpservers.Stdio{Command: bin, Args: []string{"stdio"}, Env: map[string]string{markerEnv: marker}})
		s.log = func() *wireLog { return rec.log(t) }
		s.dialRaw = func() rawConn { return dialRawStdio(t, bin, []string{"stdio"}, parentEnv(nil)) }
	case "streamable_http":
		srv := startEverythingHTTP(t)
		rec := newHTTPRecorder(t, srv.URL)
		conn = mcpservers.StreamableHTTP{URL: rec.URL}
		s.log = func() *wireLog { return rec.log(t) }
		s.dialRaw = func() rawConn { return dialRawHTTP(t, srv.URL) }
	case "sse":
		// The raw session for SSE is the same server over stdio: the
		// tools do not depend on the transport.
		srv := startEverythingSSE(t)
		rec := newHTTPRecorder(t, srv.URL)
		conn = mcpservers.SSE{URL: rec.URL}
		s.log = func() *wireLog { return rec.log(t) }
		bin := npmServer(t, "mcp-server-everything")
		s.dialRaw = func() rawConn { return dialRawStdio(t, bin, []string{"stdio"}, parentEnv(nil)) }
	default:
		t.Fatalf("unknown transport %q", transport)
	}
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{"everything": conn}, opts)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	s.client = c
	return s
}

// toolsByName loads the client's tools and indexes them by name.
func toolsByName(t *testing.T, c *mcpservers.Client) map[string]*mcpservers.Tool {
	t.Helper()
	ctx := testContext(t, 30*time.Second)
	tools, err := c.Tools(ctx)
	if err != nil {
		t.Fatalf("Tools: %v", err)
	}
	m := make(map[string]*mcpservers.Tool, len(tools))
	for _, tool := range tools {
		m[tool.Name()] = tool
	}
	return m
}

// TestInteropEverythingTools checks that the tools loaded from
// server-everything are exactly what it sent: byte for byte against the
// listing recorded on the wire of the same session, and as canonical JSON
// against a listing our own raw client asks for in an independent session
// declaring the same capabilities. Its tool set depends on the client's
// capabilities, so it is checked with every handler and with none.
func TestInteropEverythingTools(t *testing.T) {
	for _, transport := range everythingTransports {
		for _, handlers := range []bool{true, false} {
			name := transport + "/no_handlers"
			if handlers {
				name = transport + "/all_handlers"
			}
			t.Run(name, func(t *testing.T) {
				opts := &mcpservers.ClientOptions{Stderr: newLineWriter(t, "server stderr: ")}
				if handlers {
					opts = (&recordingHandlers{}).options(t)
				}
				s := openEverything(t, transport, opts)
				ctx := testContext(t, 60*time.Second)
				start := time.Now()
				tools, err := s.client.Tools(ctx)
				if err != nil {
					t.Fatalf("Tools: %v", err)
				}
				t.Logf("connected and listed %d tools in %v", len(tools), time.Since(start))

				log := s.log()
				wire := log.toolListing(t)
				assertToolsMatch(t, tools, wire, true)
				checkTranscript(t, "everything-"+strings.ReplaceAll(name, "/", "-"), log)

				initParams, initResult := log.initialize(t)
				var ip struct {
					Capabilities json.RawMessage `json:"capabilities"`
				}
				if err := json.Unmarshal(initParams, &ip); err != nil {
					t.Fatal(err)
				}
				t.Logf("client capabilities on the wire: %s", ip.Capabilities)
				raw := s.dialRaw()
				if _, err := rawInitialize(ctx, raw, ip.Capabilities); err != nil {
					t.Fatalf("raw session: %v", err)
				}
				rawTools, err := rawListTools(ctx, raw)
				if err != nil {
					t.Fatalf("raw session: %v", err)
				}
				assertToolsMatch(t, tools, rawTools, false)

				// Which optional tools the server offers tells which
				// capabilities the client declared: sampling and roots
				// only with their handlers; elicitation always, since a
				// client without a handler interrupts the call instead.
				names := slices.Collect(maps.Keys(toolsIndex(tools)))
				for _, c := range []struct {
					tool string
					want bool
				}{
					{"trigger-sampling-request", handlers},
					{"get-roots-list", handlers},
					{"trigger-elicitation-request", true},
					{"echo", true},
				} {
					if got := slices.Contains(names, c.tool); got != c.want {
						t.Errorf("tool %q offered = %v, want %v (capabilities %s)", c.tool, got, c.want, ip.Capabilities)
					}
				}

				assertServerInfo(t, tools, initResult, transport)
			})
		}
	}
}

func toolsIndex(tools []*mcpservers.Tool) map[string]*mcpservers.Tool {
	m := map[string]*mcpservers.Tool{}
	for _, t := range tools {
		m[t.Name()] = t
	}
	return m
}

// assertServerInfo checks every tool's ServerInfo against the initialize
// result on the wire.
func assertServerInfo(t *testing.T, tools []*mcpservers.Tool, initResult json.RawMessage, transport string) {
	t.Helper()
	var ir struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct {
			Name    string `json:"name"`
			Version string `json:"version"`
			Title   string `json:"title"`
		} `json:"serverInfo"`
		Instructions string `json:"instructions"`
	}
	if err := json.Unmarshal(initResult, &ir); err != nil {
		t.Fatal(err)
	}
	if ir.ProtocolVersion != "2025-11-25" || ir.ServerInfo.Name != "mcp-servers/everything" {
		t.Fatalf("unexpected server on the wire: %s, %q", ir.ProtocolVersion, ir.ServerInfo.Name)
	}
	want := mcpservers.ServerInfo{
		Name:      "everything",
		Transport: definition.Transport(transport),
		Implementation: mcpservers.Implementation{
			Name:    ir.ServerInfo.Name,
			Version: ir.ServerInfo.Version,
			Title:   ir.ServerInfo.Title,
		},
		ProtocolVersion: ir.ProtocolVersion,
		Instructions:    ir.Instructions,
	}
	for _, tool := range tools {
		if got := tool.Server(); got != want {
			t.Errorf("tool %q: Server() =\n%+v\nwant\n%+v", tool.Name(), got, want)
			return
		}
	}
}

// TestInteropEverythingCalls calls server-everything's tools with every
// handler set, and checks each Result is exactly what the server answered
// on the wire: every content type it offers (text, image, resource link,
// embedded text and blob resources, annotations), structured content,
// isError, progress, logging, sampling, elicitation and roots.
func TestInteropEverythingCalls(t *testing.T) {
	for _, transport := range everythingTransports {
		t.Run(transport, func(t *testing.T) {
			h := &recordingHandlers{}
			s := openEverything(t, transport, h.options(t))
			tools := toolsByName(t, s.client)
			ctx := testContext(t, 120*time.Second)

			call := func(t *testing.T, name string, args map[string]any) *mcpservers.Result {
				t.Helper()
				tool := tools[name]
				if tool == nil {
					t.Fatalf("server-everything offers no tool %q", name)
				}
				before := maps.Clone(args)
				r, err := tool.Call(ctx, args)
				if err != nil {
					t.Fatalf("Call(%q) error: %v", name, err)
				}
				if !reflect.DeepEqual(args, before) {
					t.Errorf("Call(%q) modified its args: %v, was %v", name, args, before)
				}
				assertResultMatchesWire(t, s.log(), name, r)
				return r
			}
			wantText := func(t *testing.T, r *mcpservers.Result, want string) {
				t.Helper()
				if r.IsError {
					t.Errorf("IsError = true, want false; text %q", r.Text())
				}
				if got := r.Text(); got != want {
					t.Errorf("Text() = %q, want %q", got, want)
				}
			}

			t.Run("echo", func(t *testing.T) {
				wantText(t, call(t, "echo", map[string]any{"message": "héllo <wörld> & \u2028"}), "Echo: héllo <wörld> & \u2028")
			})
			t.Run("get-sum", func(t *testing.T) {
				wantText(t, call(t, "get-sum", map[string]any{"a": 2, "b": 3.5}), "The sum of 2 and 3.5 is 5.5.")
			})
			t.Run("image", func(t *testing.T) {
				r := call(t, "get-tiny-image", map[string]any{})
				if got := contentTypes(r); !slices.Equal(got, []string{"text", "image", "text"}) {
					t.Fatalf("content types = %q", got)
				}
				img := r.Content[1].(*mcpservers.ImageContent)
				png, err := base64.StdEncoding.DecodeString(img.Data)
				if err != nil || !strings.HasPrefix(string(png), "\x89PNG\r\n\x1a\n") || img.MIMEType != "image/png" {
					t.Errorf("image: %s, %d bytes, decode error %v; want a PNG", img.MIMEType, len(png), err)
				}
			})
			t.Run("annotated_content", func(t *testing.T) {
				r := call(t, "get-annotated-message", map[string]any{"messageType": "error", "includeImage": true})
				text, ok := r.Content[0].(*mcpservers.TextContent)
				if !ok || !sameJSON(text.Annotations, []byte(`{"audience":["user","assistant"],"priority":1}`)) {
					t.Errorf("first block = %#v, want text annotated for user and assistant at priority 1", r.Content[0])
				}
			})
			t.Run("resource_links", func(t *testing.T) {
				r := call(t, "get-resource-links", map[string]any{"count": 2})
				if got := contentTypes(r); !slices.Equal(got, []string{"text", "resource_link", "resource_link"}) {
					t.Fatalf("content types = %q", got)
				}
				link := r.Content[1].(*mcpservers.ResourceLink)
				if link.URI != "demo://resource/dynamic/blob/1" || link.Name != "Blob Resource 1" || link.MIMEType != "text/plain" {
					t.Errorf("first link = %+v", link)
				}
			})
			t.Run("embedded_text_resource", func(t *testing.T) {
				r := call(t, "get-resource-reference", map[string]any{"resourceType": "Text", "resourceId": 3})
				res, ok := r.Content[1].(*mcpservers.EmbeddedResource)
				if !ok || res.Resource.URI != "demo://resource/dynamic/text/3" || res.Resource.Text == "" || res.Resource.Blob != "" {
					t.Errorf("second block = %#v, want an embedded text resource", r.Content[1])
				}
			})
			t.Run("embedded_blob_resource", func(t *testing.T) {
				r := call(t, "get-resource-reference", map[string]any{"resourceType": "Blob", "resourceId": 2})
				res, ok := r.Content[1].(*mcpservers.EmbeddedResource)
				if !ok || res.Resource.URI != "demo://resource/dynamic/blob/2" || res.Resource.Blob == "" || res.Resource.Text != "" {
					t.Fatalf("second block = %#v, want an embedded blob resource", r.Content[1])
				}
				if _, err := base64.StdEncoding.DecodeString(res.Resource.Blob); err != nil {
					t.Errorf("blob is not base64: %v", err)
				}
			})
			t.Run("structured_content", func(t *testing.T) {
				r := call(t, "get-structured-content", map[string]any{"location": "Chicago"})
				if r.StructuredContent == nil {
					t.Fatal("StructuredContent = nil, want the weather")
				}
				// The tool also sends the same object as text, for old clients.
				if !sameJSON(r.StructuredContent, []byte(r.Text())) {
					t.Errorf("StructuredContent = %s, text = %s", r.StructuredContent, r.Text())
				}
				var weather map[string]any
				if err := json.Unmarshal(r.StructuredContent, &weather); err != nil {
					t.Fatal(err)
				}
				for _, k := range []string{"temperature", "conditions", "humidity"} {
					if _, ok := weather[k]; !ok {
						t.Errorf("structured content lacks %q required by the output schema", k)
					}
				}
			})
			t.Run("no_structured_content", func(t *testing.T) {
				if r := call(t, "echo", map[string]any{"message": "x"}); r.StructuredContent != nil {
					t.Errorf("StructuredContent = %s, want nil: the server sent none", r.StructuredContent)
				}
			})
			t.Run("is_error_from_tool", func(t *testing.T) {
				r := call(t, "get-resource-reference", map[string]any{"resourceType": "Text", "resourceId": 0})
				if !r.IsError || r.Text() != "Invalid resourceId: 0. Must be a finite positive integer." {
					t.Errorf("IsError = %v, Text() = %q; want the tool's error", r.IsError, r.Text())
				}
			})
			t.Run("is_error_from_invalid_arguments", func(t *testing.T) {
				r := call(t, "get-sum", map[string]any{"a": "two", "b": 2})
				if !r.IsError || !strings.Contains(r.Text(), "Input validation error") {
					t.Errorf("IsError = %v, Text() = %q; want an input validation error", r.IsError, r.Text())
				}
			})
			t.Run("progress", func(t *testing.T) {
				const name = "trigger-long-running-operation"
				wantText(t, call(t, name, map[string]any{"duration": 0.3, "steps": 3}),
					"Long running operation completed. Duration: 0.3 seconds, Steps: 3.")
				// Progress is delivered on the callback goroutine and may
				// arrive after the result.
				if !waitFor(10*time.Second, func() bool { return len(h.progressFor(name)) >= 3 }) {
					t.Fatalf("progress reports = %+v, want 3", h.progressFor(name))
				}
				for i, p := range h.progressFor(name) {
					if p.Server != "everything" || p.Progress != float64(i+1) || p.Total != 3 {
						t.Errorf("progress %d = %+v, want %d of 3 from server everything", i, p, i+1)
					}
				}
			})
			t.Run("logging", func(t *testing.T) {
				before := h.logCount()
				call(t, "toggle-simulated-logging", map[string]any{})
				defer call(t, "toggle-simulated-logging", map[string]any{}) // stop it again
				if !waitFor(10*time.Second, func() bool { return h.logCount() > before }) {
					t.Fatal("no log message arrived after the server started logging")
				}
				levels := []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}
				for _, m := range h.logsCopy()[before:] {
					var data string
					if m.Server != "everything" || !slices.Contains(levels, m.Level) || json.Unmarshal(m.Data, &data) != nil || data == "" {
						t.Errorf("log message = %+v", m)
					}
				}
			})
			t.Run("sampling", func(t *testing.T) {
				r := call(t, "trigger-sampling-request", map[string]any{"prompt": "What is 2+2?", "maxTokens": 16})
				if r.IsError || !strings.Contains(r.Text(), testModelReply) || !strings.Contains(r.Text(), testModel) {
					t.Errorf("Text() = %q, want the test model's reply", r.Text())
				}
				req := h.lastSampling()
				if req == nil {
					t.Fatal("the sampling handler was not called")
				}
				if req.Server != "everything" || req.MaxTokens != 16 || req.SystemPrompt != "You are a helpful test server." ||
					req.Temperature == nil || *req.Temperature != 0.7 || len(req.Messages) != 1 || req.Messages[0].Role != "user" {
					t.Errorf("sampling request = %+v", req)
				}
				if len(req.Messages) == 1 && len(req.Messages[0].Content) == 1 {
					if tc, ok := req.Messages[0].Content[0].(*mcpservers.TextContent); !ok || tc.Text != "Resource trigger-sampling-request context: What is 2+2?" {
						t.Errorf("sampling message content = %#v", req.Messages[0].Content[0])
					}
				}
				sent := s.log().serverRequests("sampling/createMessage")
				if len(sent) == 0 {
					t.Fatal("no sampling/createMessage on the wire")
				}
				if !sameJSON(req.Params, sent[len(sent)-1].Params) {
					t.Errorf("SamplingRequest.Params = %s, want what the server sent: %s", req.Params, sent[len(sent)-1].Params)
				}
			})
			t.Run("elicitation", func(t *testing.T) {
				const name = "trigger-elicitation-request"
				for _, c := range []struct {
					answer mcpservers.ElicitationResponse
					want   string
				}{
					{mcpservers.ElicitationResponse{Action: mcpservers.ElicitationAccept, Content: map[string]any{"name": "Ada Lovelace", "check": true, "integer": 7}},
						"- Name: Ada Lovelace\n- Agreed to terms: true\n- Favorite Integer: 7"},
					{mcpservers.ElicitationResponse{Action: mcpservers.ElicitationDecline}, "User declined"},
					{mcpservers.ElicitationResponse{Action: mcpservers.ElicitationCancel}, "User cancelled"},
				} {
					h.setAnswer(c.answer)
					r := call(t, name, map[string]any{})
					if r.IsError || !strings.Contains(r.Text(), c.want) {
						t.Errorf("answer %s: Text() = %q, want it to contain %q", c.answer.Action, r.Text(), c.want)
					}
					assertElicitationRequest(t, h.lastElicit(), s.log())
				}
			})
			t.Run("roots", func(t *testing.T) {
				r := call(t, "get-roots-list", map[string]any{})
				want := "1. " + testRootName + "\n   URI: " + testRootURI
				if r.IsError || !strings.Contains(r.Text(), want) {
					t.Errorf("Text() = %q, want it to list %q", r.Text(), want)
				}
			})
		})
	}
}

// assertElicitationRequest checks an elicitation request a handler or an
// interrupted call got against the last elicitation/create on the wire.
func assertElicitationRequest(t *testing.T, req *mcpservers.ElicitationRequest, log *wireLog) {
	t.Helper()
	if req == nil {
		t.Fatal("no elicitation request")
	}
	sent := log.serverRequests("elicitation/create")
	if len(sent) == 0 {
		t.Fatal("no elicitation/create on the wire")
	}
	var p struct {
		Message         string          `json:"message"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	if err := json.Unmarshal(sent[len(sent)-1].Params, &p); err != nil {
		t.Fatal(err)
	}
	if req.Server != "everything" || req.Mode != "form" || req.Message != p.Message {
		t.Errorf("elicitation request: server %q, mode %q, message %q; want everything, form, %q", req.Server, req.Mode, req.Message, p.Message)
	}
	if !sameJSON(req.RequestedSchema, p.RequestedSchema) {
		t.Errorf("RequestedSchema =\n%s\nwant what the server sent:\n%s", canonicalJSON(req.RequestedSchema), canonicalJSON(p.RequestedSchema))
	}
}

func contentTypes(r *mcpservers.Result) []string {
	out := make([]string, len(r.Content))
	for i, c := range r.Content {
		out[i] = c.Type()
	}
	return out
}

// TestInteropEverythingElicitationResume calls server-everything's
// elicitation tool with no elicitation handler: the call is interrupted
// with the server's request, and resumed with the user's answers.
func TestInteropEverythingElicitationResume(t *testing.T) {
	const name = "trigger-elicitation-request"
	for _, transport := range everythingTransports {
		t.Run(transport, func(t *testing.T) {
			s := openEverything(t, transport, &mcpservers.ClientOptions{Stderr: newLineWriter(t, "server stderr: ")})
			tool := toolsByName(t, s.client)[name]
			if tool == nil {
				t.Fatalf("server-everything offers no %q: the client did not declare elicitation", name)
			}
			ctx := testContext(t, 60*time.Second)

			_, err := tool.Call(ctx, map[string]any{})
			var er *mcpservers.ElicitationRequired
			if !errors.As(err, &er) || !errors.Is(err, mcpservers.ErrElicitationRequired) {
				t.Fatalf("Call error = %v, want an *ElicitationRequired", err)
			}
			if er.Server != "everything" || er.Tool != name || len(er.Requests) != 1 {
				t.Fatalf("ElicitationRequired = %+v, want one request from everything's %q", er, name)
			}
			req := er.Requests[0]
			if req.Key != "elicitation-1" {
				t.Errorf("request key = %q, want elicitation-1", req.Key)
			}
			assertElicitationRequest(t, req, s.log())
			if msg := err.Error(); !strings.Contains(msg, `"everything"`) || !strings.Contains(msg, name) {
				t.Errorf("error message %q does not name the server and tool", msg)
			}

			r, err := er.Resume(ctx, map[string]mcpservers.ElicitationResponse{
				req.Key: {Action: mcpservers.ElicitationAccept, Content: map[string]any{"name": "Grace Hopper", "check": false}},
			})
			if err != nil {
				t.Fatalf("Resume: %v", err)
			}
			if r.IsError || !strings.Contains(r.Text(), "- Name: Grace Hopper\n- Agreed to terms: false") {
				t.Errorf("resumed Text() = %q, want Grace's answers", r.Text())
			}
			assertResultMatchesWire(t, s.log(), name, r)

			r, err = tool.Resume(ctx, map[string]any{}, map[string]mcpservers.ElicitationResponse{
				"elicitation-1": {Action: mcpservers.ElicitationDecline},
			})
			if err != nil {
				t.Fatalf("Tool.Resume: %v", err)
			}
			if !strings.Contains(r.Text(), "User declined") {
				t.Errorf("declined Text() = %q", r.Text())
			}

			// Resuming reruns the tool: the server saw three calls.
			if n := len(s.log().requests("tools/call")); n != 3 {
				t.Errorf("tools/call requests on the wire = %d, want 3 (the interrupted call and two reruns)", n)
			}
		})
	}
}

// TestInteropEverythingInterceptor renames calls on their way to a real
// server: the server answers the call it was sent.
func TestInteropEverythingInterceptor(t *testing.T) {
	for _, transport := range everythingTransports {
		t.Run(transport, func(t *testing.T) {
			opts := &mcpservers.ClientOptions{
				Interceptors: []mcpservers.Interceptor{
					renameInterceptor{From: "echo", To: "get-sum", Args: map[string]any{"a": 40, "b": 2}},
					renameInterceptor{From: "get-tiny-image", To: "no-such-tool", Args: map[string]any{}},
				},
				Stderr: newLineWriter(t, "server stderr: "),
			}
			s := openEverything(t, transport, opts)
			tools := toolsByName(t, s.client)
			ctx := testContext(t, 30*time.Second)

			r, err := tools["echo"].Call(ctx, map[string]any{"message": "ignored"})
			if err != nil || r.Text() != "The sum of 40 and 2 is 42." {
				t.Errorf("renamed echo: %v, %v; want get-sum's answer", r, err)
			}
			assertResultMatchesWire(t, s.log(), "get-sum", r)

			r, err = tools["get-tiny-image"].Call(ctx, map[string]any{})
			if err != nil || !r.IsError || !strings.Contains(r.Text(), "no-such-tool not found") {
				t.Errorf("call renamed to an unknown tool: %+v, %v; want the server's isError", r, err)
			}
		})
	}
}

// TestInteropEverythingEnv checks what environment a stdio server gets:
// what Env gives, and not the parent's other variables.
func TestInteropEverythingEnv(t *testing.T) {
	bin := npmServer(t, "mcp-server-everything")
	marker := checkClean(t)
	t.Setenv("GUARDIAN_INTEROP_PARENT_ONLY", "parent-value")
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{
		"everything": mcpservers.Stdio{Command: bin, Env: map[string]string{"GUARDIAN_INTEROP_GIVEN": "given-value", markerEnv: marker}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tool := toolsByName(t, c)["get-env"]
	if tool == nil {
		t.Fatal("no get-env tool")
	}
	r, err := tool.Call(testContext(t, 30*time.Second), map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	var env map[string]string
	if err := json.Unmarshal([]byte(r.Text()), &env); err != nil {
		t.Fatalf("get-env text is not a JSON object: %v", err)
	}
	if env["GUARDIAN_INTEROP_GIVEN"] != "given-value" {
		t.Errorf("the server did not get Env: GUARDIAN_INTEROP_GIVEN = %q", env["GUARDIAN_INTEROP_GIVEN"])
	}
	if _, ok := env["GUARDIAN_INTEROP_PARENT_ONLY"]; ok {
		t.Error("the server inherited a parent variable outside the safe subset")
	}
	if env["PATH"] == "" {
		t.Error("the server did not inherit PATH")
	}
}

// TestInteropEverythingRecord checks the record a definition reads from a
// tool of a real server: the connection as given (its Env is not part of
// it), and the code that shapes calls in role order.
func TestInteropEverythingRecord(t *testing.T) {
	bin := npmServer(t, "mcp-server-everything")
	marker := checkClean(t)
	h := &recordingHandlers{}
	opts := h.options(t)
	ic := renameInterceptor{From: "nothing", To: "nothing"}
	opts.Interceptors = []mcpservers.Interceptor{ic}
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{
		"everything": mcpservers.Stdio{Command: bin, Args: []string{"stdio"}, Env: map[string]string{markerEnv: marker}},
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tools, err := c.Tools(testContext(t, 30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools {
		rec := tool.MCPRecord()
		want := definition.Server{Name: "everything", Transport: definition.TransportStdio, Command: bin, Args: []string{"stdio"}}
		if !reflect.DeepEqual(rec.Server, want) {
			t.Errorf("tool %q: record server = %+v, want %+v", tool.Name(), rec.Server, want)
		}
		if rec.SessionBound {
			t.Errorf("tool %q: SessionBound = true for a Client's tool", tool.Name())
		}
		var roles []definition.Role
		for _, code := range rec.Code {
			roles = append(roles, code.Role)
		}
		wantRoles := []definition.Role{definition.RoleInterceptor, definition.RoleSampling, definition.RoleElicitation, definition.RoleRoots}
		if !slices.Equal(roles, wantRoles) {
			t.Errorf("tool %q: code roles = %q, want %q", tool.Name(), roles, wantRoles)
		}
		if len(rec.Code) == 4 {
			if got, ok := rec.Code[0].Value.(renameInterceptor); !ok || !reflect.DeepEqual(got, ic) {
				t.Errorf("tool %q: interceptor in the record = %#v, want %#v", tool.Name(), rec.Code[0].Value, ic)
			}
			if rec.Code[1].Value != mcpservers.SamplingHandler(h) {
				t.Errorf("tool %q: sampling handler in the record = %#v", tool.Name(), rec.Code[1].Value)
			}
		}
	}
}
