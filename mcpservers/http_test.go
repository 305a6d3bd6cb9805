package mcpservers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// swappable serves whichever streamable HTTP server it holds: swapping it
// is a server restart that forgets every session.
type swappable struct {
	cur   atomic.Pointer[server.StreamableHTTPServer]
	inits atomic.Int32
}

func (s *swappable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
		s.inits.Add(1)
	}
	s.cur.Load().ServeHTTP(w, r)
}

func TestTerminatedSessionIsRemade(t *testing.T) {
	sw := &swappable{}
	stateful := func() *server.StreamableHTTPServer {
		return server.NewStreamableHTTPServer(inProcessDocs(t), server.WithStateful(true))
	}
	sw.cur.Store(stateful())
	ts := httptest.NewServer(sw)
	t.Cleanup(ts.Close) // after the client's Close, which ends its GET stream
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": StreamableHTTP{URL: ts.URL}}, &ClientOptions{ProtocolVersion: mcp.ProtocolVersion20251125}))
	call(t, tools["echo"], nil)
	before := sw.inits.Load()

	sw.cur.Store(stateful())
	// The server answers 404 for the old session: it never ran the call,
	// which goes out again on a new session.
	if r := call(t, tools["echo"], map[string]any{"text": "again"}); !strings.Contains(r.Text(), "again") {
		t.Errorf("echo = %q", r.Text())
	}
	if sw.inits.Load() == before {
		t.Errorf("no new session")
	}
}

// countedSSEServer serves mcpSrv over SSE on loopback, counting the event
// streams opened; post, if set, sees each POST first and may take it.
func countedSSEServer(t *testing.T, mcpSrv *server.MCPServer, post func(http.ResponseWriter, *http.Request) bool) (*httptest.Server, *atomic.Int32) {
	ss := httptest.NewUnstartedServer(nil)
	ss.Start()
	t.Cleanup(ss.Close)
	streams := &atomic.Int32{}
	sse := server.NewSSEServer(mcpSrv, server.WithBaseURL(ss.URL))
	ss.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			streams.Add(1)
		}
		if r.Method == http.MethodPost && post != nil && post(w, r) {
			return
		}
		sse.ServeHTTP(w, r)
	})
	return ss, streams
}

// postSignal is a RoundTripper that says when the answer to a POST
// naming a tool has come back to the client.
type postSignal struct {
	tool     string
	answered chan struct{}
}

func (p *postSignal) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil && req.Method == http.MethodPost && bytes.Contains(body, []byte(`"name":"`+p.tool+`"`)) {
		p.answered <- struct{}{}
	}
	return resp, err
}

// A call whose answer can come only on an SSE stream that is lost ends
// with ErrConnectionLost, and the next call makes a new stream.
func TestSSEStreamLostMidCall(t *testing.T) {
	running := make(chan struct{}, 1)
	mcpSrv := inProcessDocs(t, server.WithToolHandlerMiddleware(func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.Name == "block" {
				running <- struct{}{}
			}
			return next(ctx, req)
		}
	}))
	ss, streams := countedSSEServer(t, mcpSrv, nil)
	posted := &postSignal{tool: "block", answered: make(chan struct{}, 1)}
	conn := SSE{URL: ss.URL + "/sse", HTTPClient: func() *http.Client { return &http.Client{Transport: posted} }}
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": conn}, nil))

	done := make(chan error, 1)
	go func() {
		_, err := tools["block"].Call(testCtx(t), nil)
		done <- err
	}()
	// Cut once the server runs the call and the client has its POST
	// answered: the call's answer can then come only on the stream.
	for _, ch := range []chan struct{}{running, posted.answered} {
		select {
		case <-ch:
		case err := <-done:
			t.Fatalf("the call ended before the stream was cut: %v", err)
		}
	}
	ss.CloseClientConnections()
	select {
	case err := <-done:
		wantKind(t, err, ErrConnectionLost, "docs")
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not end with its stream")
	}
	call(t, tools["echo"], nil)
	if n := streams.Load(); n != 2 {
		t.Errorf("%d event streams opened, want 2", n)
	}
}

// A call whose POST the connection drops, its SSE stream still open,
// ends with ErrConnectionLost; as Tool.Call promises, the next call
// reconnects (before, it went on with the old session, and under load a
// stream lost with the POST then failed it too).
func TestSSEPostLostMidCall(t *testing.T) {
	ss, streams := countedSSEServer(t, inProcessDocs(t), func(w http.ResponseWriter, r *http.Request) bool {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if !bytes.Contains(body, []byte(`"name":"block"`)) {
			return false
		}
		// The connection drops under the POST, unanswered.
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
		return true
	})
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": SSE{URL: ss.URL + "/sse"}}, nil))
	_, err := tools["block"].Call(testCtx(t), nil)
	wantKind(t, err, ErrConnectionLost, "docs")
	call(t, tools["echo"], nil)
	if n := streams.Load(); n != 2 {
		t.Errorf("%d event streams opened, want 2: the next call did not reconnect", n)
	}
}

func TestSSEReadTimeout(t *testing.T) {
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("event: endpoint\ndata: /message\n\n"))
		w.(http.Flusher).Flush()
		<-r.Context().Done() // then nothing, ever
	}))
	t.Cleanup(silent.Close)
	c := newClient(t, map[string]Connection{"quiet": SSE{URL: silent.URL + "/sse", SSEReadTimeout: 200 * time.Millisecond}}, nil)
	start := time.Now()
	_, err := c.Tools(testCtx(t))
	if err == nil {
		t.Fatal("a server that never answers gave tools")
	}
	wantKind(t, err, ErrConnect, "quiet")
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}

// stuck is a RoundTripper that never manages to send.
type stuck struct{}

func (stuck) RoundTrip(r *http.Request) (*http.Response, error) {
	<-r.Context().Done()
	return nil, r.Context().Err()
}

func TestHTTPTimeoutBoundsConnecting(t *testing.T) {
	conn := StreamableHTTP{
		URL:        "http://127.0.0.1:1/mcp",
		Timeout:    100 * time.Millisecond,
		HTTPClient: func() *http.Client { return &http.Client{Transport: stuck{}} },
	}
	start := time.Now()
	_, err := newClient(t, map[string]Connection{"slow": conn}, &ClientOptions{ProtocolVersion: mcp.ProtocolVersion20251125}).Tools(context.Background())
	wantKind(t, err, ErrConnect, "slow")
	if !strings.Contains(err.Error(), "timeout") {
		t.Errorf("err = %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestHTTPTimeoutDoesNotCutLongCalls(t *testing.T) {
	hs := startHTTP(t)
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": StreamableHTTP{URL: hs.streamable, Timeout: 50 * time.Millisecond}}, nil))
	ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := tools["block"].Call(ctx, nil)
	// The call runs until its own deadline, not the connect timeout.
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) < 350*time.Millisecond {
		t.Errorf("after %v: %v", time.Since(start), err)
	}
}

// forgetful serves a stateful streamable HTTP server the way the
// TypeScript SDK's example servers do (server-everything among them): a
// request naming a session the server does not know gets HTTP 400 with a
// JSON-RPC error, "No valid session ID provided", where the specification
// says 404. forget restarts it: every session is forgotten.
type forgetful struct {
	newServer func() *server.MCPServer

	mu       sync.Mutex
	cur      *server.StreamableHTTPServer
	known    map[string]bool
	inits    int
	calls    map[string]int // tools/call requests the server ran, by tool
	refuse   string         // a tool whose calls are always refused, as for an unknown session
	refusals int
}

func newForgetful(t testing.TB) *forgetful {
	f := &forgetful{calls: map[string]int{}, newServer: func() *server.MCPServer { return inProcessDocs(t) }}
	f.forget()
	return f
}

func (f *forgetful) forget() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cur = server.NewStreamableHTTPServer(f.newServer(), server.WithStateful(true))
	f.known = map[string]bool{}
}

func (f *forgetful) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if r.Method == http.MethodPost {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		_ = json.Unmarshal(body, &msg)
	}
	f.mu.Lock()
	cur := f.cur
	id := r.Header.Get("Mcp-Session-Id")
	if id != "" && (!f.known[id] || (msg.Method == "tools/call" && msg.Params.Name == f.refuse)) {
		f.refusals++
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}`)
		return
	}
	if msg.Method == "initialize" {
		f.inits++
	}
	if msg.Method == "tools/call" {
		f.calls[msg.Params.Name]++
	}
	f.mu.Unlock()
	cur.ServeHTTP(&sessionNoter{ResponseWriter: w, f: f}, r)
}

// sessionNoter notes the session IDs the server hands out.
type sessionNoter struct {
	http.ResponseWriter
	f     *forgetful
	wrote bool
}

func (s *sessionNoter) WriteHeader(code int) {
	if s.wrote {
		return
	}
	s.wrote = true
	if id := s.Header().Get("Mcp-Session-Id"); id != "" {
		s.f.mu.Lock()
		s.f.known[id] = true
		s.f.mu.Unlock()
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *sessionNoter) Write(p []byte) (int, error) {
	s.WriteHeader(http.StatusOK)
	return s.ResponseWriter.Write(p)
}

func (s *sessionNoter) Flush() { s.ResponseWriter.(http.Flusher).Flush() }

func (f *forgetful) stats() (inits, refusals int, calls map[string]int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.inits, f.refusals, maps.Clone(f.calls)
}

// TestSessionRefusedWith400IsRemade restarts a server that answers 400 for
// a session it does not know: the call it refused never ran, and goes out
// once more on a new session, where it runs once.
func TestSessionRefusedWith400IsRemade(t *testing.T) {
	f := newForgetful(t)
	ts := httptest.NewServer(f)
	t.Cleanup(ts.Close)
	c := newClient(t, map[string]Connection{"docs": StreamableHTTP{URL: ts.URL}}, &ClientOptions{ProtocolVersion: mcp.ProtocolVersion20251125})
	tools := loadTools(t, c)
	call(t, tools["echo"], map[string]any{"text": "one"})

	f.forget()
	if r := call(t, tools["echo"], map[string]any{"text": "two"}); !strings.Contains(r.Text(), "two") {
		t.Errorf("echo = %q", r.Text())
	}
	inits, refusals, calls := f.stats()
	if inits != 2 || refusals == 0 || calls["echo"] != 2 {
		t.Errorf("initialize sent %d times, %d requests refused, echo ran %d times; want 2 sessions, a refusal, and each call run once", inits, refusals, calls["echo"])
	}
	// A listing refused the same way is repeated on a new session too.
	f.forget()
	if _, err := c.Tools(testCtx(t)); err != nil {
		t.Errorf("Tools after a restart: %v", err)
	}
	if inits, _, _ := f.stats(); inits != 3 {
		t.Errorf("initialize sent %d times, want 3", inits)
	}
}

// TestSessionRefusedOnNewSessionToo: a server that refuses a call on the
// new session as well has its answer reported, after one new session.
func TestSessionRefusedOnNewSessionToo(t *testing.T) {
	f := newForgetful(t)
	f.refuse = "echo"
	ts := httptest.NewServer(f)
	t.Cleanup(ts.Close)
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": StreamableHTTP{URL: ts.URL}}, &ClientOptions{ProtocolVersion: mcp.ProtocolVersion20251125}))
	_, err := tools["echo"].Call(testCtx(t), nil)
	e := wantKind(t, err, ErrServer, "docs")
	var rpc *RPCError
	if !errors.As(err, &rpc) || rpc.Code != -32000 || !strings.Contains(err.Error(), "HTTP status 400") || e.Tool != "echo" {
		t.Errorf("err = %v, want the server's 400 and its JSON-RPC error", err)
	}
	inits, refusals, calls := f.stats()
	if inits != 2 || refusals != 2 || calls["echo"] != 0 {
		t.Errorf("initialize sent %d times, %d requests refused, echo ran %d times; want one new session and two refusals", inits, refusals, calls["echo"])
	}
	// The connection still works for the other tools.
	call(t, tools["whoami"], nil)
}

// TestInvalidHeaderToolIsReported serves, on modern streamable HTTP, a tool
// whose x-mcp-header annotation is on an object (SEP-2243 allows only
// primitives). mcp-go's server refuses to register one, so a tool filter
// adds it to the listing. The client must leave it out, and say so: by
// default no tools and an error naming it; with AllowPartial the rest.
func TestInvalidHeaderToolIsReported(t *testing.T) {
	bad := mcp.NewToolWithRawSchema("bad_header", "mirrors an object into a header",
		json.RawMessage(`{"type":"object","properties":{"region":{"type":"object","x-mcp-header":"Region"}}}`))
	good := mcp.NewToolWithRawSchema("good_header", "mirrors a string into a header",
		json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`))
	s := inProcessDocs(t, server.WithToolFilter(func(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
		return append(tools, bad, good)
	}))
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(ts.Close)
	conns := map[string]Connection{"hdr": StreamableHTTP{URL: ts.URL + "/mcp"}}

	check := func(t *testing.T, err error) {
		t.Helper()
		e := wantKind(t, err, ErrProtocol, "hdr")
		if e.Tool != "bad_header" || !strings.Contains(err.Error(), `"bad_header"`) || !strings.Contains(err.Error(), "x-mcp-header") {
			t.Errorf("err = %v, want one naming the tool bad_header and x-mcp-header", err)
		}
	}
	t.Run("default", func(t *testing.T) {
		tools, err := newCheckedClient(t, conns, nil).Tools(testCtx(t))
		check(t, err)
		if tools != nil {
			t.Errorf("tools = %v, want none", names(tools))
		}
	})
	t.Run("AllowPartial", func(t *testing.T) {
		tools, err := newCheckedClient(t, conns, &ClientOptions{AllowPartial: true}).Tools(testCtx(t))
		check(t, err)
		got := byName(tools)
		if got["bad_header"] != nil || got["good_header"] == nil || got["search_docs"] == nil {
			t.Fatalf("tools = %v, want every tool but bad_header", names(tools))
		}
		if v := got["good_header"].Server().ProtocolVersion; v != mcp.ProtocolVersion20260728 {
			t.Errorf("protocol %q, want 2026-07-28 (x-mcp-header applies there only)", v)
		}
		call(t, got["search_docs"], map[string]any{"query": "guide"})
	})
}

// methodCounter serves next, counting the JSON-RPC methods POSTed to it; a
// tools/call is answered, while refuseCalls is set, with the 404 and
// "method not found" mcp-go's server gives on 2026-07-28 for a method it
// does not know.
type methodCounter struct {
	next        http.Handler
	refuseCalls atomic.Bool
	mu          sync.Mutex
	seen        map[string]int
}

func (m *methodCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body, &msg)
		m.mu.Lock()
		if m.seen == nil {
			m.seen = map[string]int{}
		}
		m.seen[msg.Method]++
		m.mu.Unlock()
		if msg.Method == "tools/call" && m.refuseCalls.Load() {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, msg.ID)
			return
		}
	}
	m.next.ServeHTTP(w, r)
}

func (m *methodCounter) count(method string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.seen[method]
}

// TestModernMethodNotFound: on 2026-07-28 streamable HTTP, mcp-go's server
// answers a method it does not know with HTTP 404, which mcp-go's client
// reports as a terminated session. There are no sessions on 2026-07-28: it
// is the server's answer (ErrServer, "HTTP status 404"), and the
// connection is neither remade nor the request repeated.
func TestModernMethodNotFound(t *testing.T) {
	t.Run("list", func(t *testing.T) {
		// A server with no tools capability does not know tools/list.
		m := &methodCounter{next: server.NewStreamableHTTPServer(server.NewMCPServer("toolless", "1.0.0"))}
		ts := httptest.NewServer(m)
		t.Cleanup(ts.Close)
		c := newCheckedClient(t, map[string]Connection{"toolless": StreamableHTTP{URL: ts.URL + "/mcp"}}, nil)
		for range 2 {
			tools, err := c.Tools(testCtx(t))
			wantKind(t, err, ErrServer, "toolless")
			if !strings.Contains(err.Error(), "HTTP status 404") || tools != nil {
				t.Fatalf("tools %v, err = %v, want none and HTTP status 404", names(tools), err)
			}
		}
		if d, i, l := m.count("server/discover"), m.count("initialize"), m.count("tools/list"); d != 1 || i != 0 || l != 2 {
			t.Errorf("server/discover %d, initialize %d, tools/list %d times; want 1, 0 (2026-07-28, connected once) and 2 (once per Tools)", d, i, l)
		}
	})
	t.Run("call", func(t *testing.T) {
		m := &methodCounter{next: server.NewStreamableHTTPServer(inProcessDocs(t))}
		ts := httptest.NewServer(m)
		t.Cleanup(ts.Close)
		tools := loadTools(t, newCheckedClient(t, map[string]Connection{"docs": StreamableHTTP{URL: ts.URL + "/mcp"}}, nil))
		echo := tools["echo"]
		if v := echo.Server().ProtocolVersion; v != mcp.ProtocolVersion20260728 {
			t.Fatalf("protocol %q, want 2026-07-28", v)
		}
		m.refuseCalls.Store(true)
		_, err := echo.Call(testCtx(t), map[string]any{"text": "hi"})
		e := wantKind(t, err, ErrServer, "docs")
		if e.Tool != "echo" || !strings.Contains(err.Error(), "HTTP status 404") {
			t.Errorf("err = %v, want one for echo with HTTP status 404", err)
		}
		if n := m.count("tools/call"); n != 1 {
			t.Errorf("the refused call was sent %d times, want 1", n)
		}
		m.refuseCalls.Store(false)
		call(t, echo, map[string]any{"text": "hi"})
		if d, i := m.count("server/discover"), m.count("initialize"); d != 1 || i != 0 {
			t.Errorf("server/discover %d, initialize %d times; want 1 and 0: the connection was remade", d, i)
		}
	})
}
