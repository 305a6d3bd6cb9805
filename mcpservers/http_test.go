package mcpservers

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
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
		return server.NewStreamableHTTPServer(newDocsServer(), server.WithStateful(true))
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

func TestSSEStreamLostMidCall(t *testing.T) {
	mcpSrv := newDocsServer()
	ss := httptest.NewUnstartedServer(nil)
	ss.Start()
	t.Cleanup(ss.Close)
	sse := server.NewSSEServer(mcpSrv, server.WithBaseURL(ss.URL))
	ss.Config.Handler = sse
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": SSE{URL: ss.URL + "/sse"}}, nil))

	done := make(chan error, 1)
	go func() {
		_, err := tools["block"].Call(testCtx(t), nil)
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	ss.CloseClientConnections()
	select {
	case err := <-done:
		wantKind(t, err, ErrConnectionLost, "docs")
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not end with its stream")
	}
	// The next call makes a new stream.
	call(t, tools["echo"], nil)
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
