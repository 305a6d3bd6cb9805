package mcpservers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// postLog records the JSON-RPC messages POSTed to a server, with the
// X-Call header each came with.
type postLog struct {
	mu   sync.Mutex
	msgs []postedMsg
}

type postedMsg struct {
	Method string          `json:"method"`
	ID     json.RawMessage `json:"id"`
	Params json.RawMessage `json:"params"`
	header string
}

func (l *postLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			var m postedMsg
			if json.Unmarshal(body, &m) == nil {
				m.header = r.Header.Get("X-Call")
				l.mu.Lock()
				l.msgs = append(l.msgs, m)
				l.mu.Unlock()
			}
		}
		h.ServeHTTP(w, r)
	})
}

// cancellation finds the notifications/cancelled sent for the last call of
// tool.
func (l *postLog) cancellation(tool string) (notice *postedMsg, callID json.RawMessage) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range l.msgs {
		var p struct {
			Name string `json:"name"`
		}
		if m.Method == "tools/call" && json.Unmarshal(m.Params, &p) == nil && p.Name == tool {
			callID = m.ID
		}
	}
	for i, m := range l.msgs {
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if m.Method == "notifications/cancelled" && json.Unmarshal(m.Params, &p) == nil && callID != nil && bytes.Equal(p.RequestID, callID) {
			return &l.msgs[i], callID
		}
	}
	return nil, callID
}

// TestCancelledCallTellsTheServer cancels a call, once the server is
// running it, on each HTTP transport and protocol era, and checks that the
// server's tool handler is ended: by a notifications/cancelled over SSE and
// pre-2026 streamable HTTP (where the specification says the client should
// send one, and a dropped stream is no cancellation; mcp-go's SSE server
// runs the handler detached from any request), and by the ending of the
// request's stream over 2026-07-28 streamable HTTP, where nothing is sent.
// (It waits for the handler to start: mcp-go's servers handle each message
// on a goroutine of their own, and a notice that overtakes its call is
// lost.)
func TestCancelledCallTellsTheServer(t *testing.T) {
	started, ended := make(chan struct{}, 16), make(chan struct{}, 16)
	endings := server.WithToolHandlerMiddleware(func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.Name == "block" {
				started <- struct{}{}
				defer func() { ended <- struct{}{} }()
			}
			return next(ctx, req)
		}
	})
	log := &postLog{}
	st := httptest.NewServer(log.wrap(server.NewStreamableHTTPServer(inProcessDocs(t, endings))))
	t.Cleanup(st.Close)
	ss := httptest.NewUnstartedServer(nil)
	ss.Start()
	t.Cleanup(ss.Close)
	sse := server.NewSSEServer(inProcessDocs(t, endings), server.WithBaseURL(ss.URL))
	ss.Config.Handler = log.wrap(sse)
	t.Cleanup(sse.CloseSessions)

	header := InterceptorFunc(func(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) {
		req.Header = http.Header{"X-Call": {"call-header"}}
		return next(ctx, req)
	})
	cases := []struct {
		name       string
		conn       Connection
		version    string
		wantNotice bool
	}{
		{"streamable", StreamableHTTP{URL: st.URL + "/mcp"}, "", false},
		{"streamable-2025-11-25", StreamableHTTP{URL: st.URL + "/mcp"}, mcp.ProtocolVersion20251125, true},
		{"sse", SSE{URL: ss.URL + "/sse"}, "", true},
		{"sse-2025-11-25", SSE{URL: ss.URL + "/sse"}, mcp.ProtocolVersion20251125, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tools := loadTools(t, newClient(t, map[string]Connection{"docs": tc.conn}, &ClientOptions{
				ProtocolVersion: tc.version, Interceptors: []Interceptor{header},
			}))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				_, err := tools["block"].Call(ctx, nil)
				done <- err
			}()
			select {
			case <-started:
			case <-time.After(10 * time.Second):
				t.Fatal("the server never ran the call")
			}
			cancel()
			wantKind(t, <-done, context.Canceled, "docs")
			select {
			case <-ended:
			case <-time.After(5 * time.Second):
				t.Fatal("the server's handler of the call was never ended")
			}
			// The notice is sent off the call's path: wait for it to be
			// answered, or for there to be none. (Over pre-2026 streamable
			// HTTP the handler ends as soon as the call's stream is
			// dropped, before the notice arrives.)
			noticesDone(tools["block"])
			notice, callID := log.cancellation("block")
			if callID == nil {
				t.Fatal("the call was never POSTed")
			}
			if !tc.wantNotice {
				if notice != nil {
					t.Errorf("notifications/cancelled sent over 2026-07-28 streamable HTTP: %s", notice.Params)
				}
				return
			}
			if notice == nil {
				t.Fatalf("no notifications/cancelled for the call %s", callID)
			}
			var p struct {
				Reason string `json:"reason"`
			}
			if err := json.Unmarshal(notice.Params, &p); err != nil || p.Reason != "cancelled" {
				t.Errorf("notice params = %s, want reason \"cancelled\"", notice.Params)
			}
			if notice.header != "call-header" {
				t.Errorf("notice X-Call header = %q, want the call's own header", notice.header)
			}
			// The connection goes on.
			call(t, tools["echo"], nil)
		})
	}
}

// TestCancelNotSentForUnsentRequest: a call whose context ended before its
// request went out sends neither the request nor a cancellation of it.
func TestCancelNotSentForUnsentRequest(t *testing.T) {
	log := &postLog{}
	st := httptest.NewServer(log.wrap(server.NewStreamableHTTPServer(inProcessDocs(t))))
	t.Cleanup(st.Close)
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": StreamableHTTP{URL: st.URL + "/mcp"}}, &ClientOptions{ProtocolVersion: mcp.ProtocolVersion20251125}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := tools["block"].Call(ctx, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// A notice would be on its way now; the request itself would have
	// gone before Call returned.
	noticesDone(tools["block"])
	log.mu.Lock()
	defer log.mu.Unlock()
	for _, m := range log.msgs {
		if m.Method == "tools/call" || m.Method == "notifications/cancelled" {
			t.Errorf("%s sent for a call whose context had ended before it was sent", m.Method)
		}
	}
}
