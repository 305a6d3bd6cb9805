package mcpservers

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// legacySSEServer is a hand-written pre-2026 HTTP+SSE server whose tool
// asks the client for input with a request on the event stream, as
// servers of other SDKs do, and as mcp-go's SSE server cannot.
type legacySSEServer struct {
	out     chan string
	mu      sync.Mutex
	waiting map[string]chan json.RawMessage
	next    int
}

func newLegacySSEServer(t *testing.T) string {
	s := &legacySSEServer{out: make(chan string, 16), waiting: map[string]chan json.RawMessage{}}
	ts := httptest.NewServer(s)
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	return ts.URL + "/sse"
}

func (s *legacySSEServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/sse":
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: endpoint\ndata: /message?sessionId=1\n\n")
		w.(http.Flusher).Flush()
		for {
			select {
			case msg := <-s.out:
				fmt.Fprintf(w, "event: message\ndata: %s\n\n", msg)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	case r.Method == http.MethodPost && r.URL.Path == "/message":
		body, _ := io.ReadAll(r.Body)
		w.WriteHeader(http.StatusAccepted)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(body, &m) != nil || m.ID == nil {
			return
		}
		reply := func(result string) { s.out <- fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, result) }
		switch m.Method {
		case "":
			s.mu.Lock()
			ch := s.waiting[string(m.ID)]
			s.mu.Unlock()
			if ch != nil {
				if m.Error != nil {
					ch <- m.Error
				} else {
					ch <- m.Result
				}
			}
		case "server/discover":
			s.out <- fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, m.ID)
		case "initialize":
			reply(`{"protocolVersion":"2024-11-05","capabilities":{"tools":{}},"serverInfo":{"name":"legacy-sse","version":"1"}}`)
		case "tools/list":
			reply(`{"tools":[{"name":"ask","inputSchema":{"type":"object"}}]}`)
		case "tools/call":
			go func(id json.RawMessage) {
				ch := make(chan json.RawMessage, 1)
				s.mu.Lock()
				s.next++
				reqID := fmt.Sprintf(`"srv-%d"`, s.next)
				s.waiting[reqID] = ch
				s.mu.Unlock()
				s.out <- `{"jsonrpc":"2.0","id":` + reqID + `,"method":"elicitation/create","params":{"message":"ok?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}`
				answer := <-ch
				text, _ := json.Marshal(string(answer))
				s.out <- fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":%s}]}}`, id, text)
			}(m.ID)
		}
	default:
		http.NotFound(w, r)
	}
}

func TestLegacySSEServerRequests(t *testing.T) {
	url := newLegacySSEServer(t)
	opts := &ClientOptions{Elicitation: ElicitationHandlerFunc(func(ctx contextT, r *ElicitationRequest) (*ElicitationResponse, error) {
		if r.Message != "ok?" || r.Server != "old" || r.Tool != "ask" {
			t.Errorf("request = %+v", r)
		}
		return &ElicitationResponse{Action: ElicitationAccept, Content: map[string]any{"ok": true}}, nil
	})}
	tools := loadTools(t, newClient(t, map[string]Connection{"old": SSE{URL: url}}, opts))
	if got := call(t, tools["ask"], nil).Text(); got != `{"action":"accept","content":{"ok":true}}` {
		t.Errorf("with a handler: %s", got)
	}
	if v := tools["ask"].Server().ProtocolVersion; v != "2024-11-05" {
		t.Errorf("protocol version %q", v)
	}
}

func TestLegacySSEServerRequestsInterrupt(t *testing.T) {
	url := newLegacySSEServer(t)
	tools := loadTools(t, newClient(t, map[string]Connection{"old": SSE{URL: url}}, nil))
	_, err := tools["ask"].Call(testCtx(t), nil)
	var need *ElicitationRequired
	if !errors.As(err, &need) || len(need.Requests) != 1 || need.Requests[0].Key != "elicitation-1" {
		t.Fatalf("Call = %v, want an interruption", err)
	}
	r, err := need.Resume(testCtx(t), map[string]ElicitationResponse{"elicitation-1": {Action: ElicitationDecline}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Text() != `{"action":"decline"}` {
		t.Errorf("resumed: %s", r.Text())
	}
}

// lateAnswer is an HTTP client transport that holds the close of a
// tools/call POST's response until the call's result has come on the
// event stream and been read past (mcp-go has delivered it): a loaded
// machine, where the goroutine sending a call is slow to get back to
// waiting, made wide.
type lateAnswer struct {
	base    http.RoundTripper
	results chan struct{} // one per result read off the event stream
}

func (l *lateAnswer) RoundTrip(r *http.Request) (*http.Response, error) {
	isCall := false
	if r.Method == http.MethodPost && r.GetBody != nil {
		if b, err := r.GetBody(); err == nil {
			body, _ := io.ReadAll(b)
			isCall = strings.Contains(string(body), `"method":"tools/call"`)
		}
	}
	resp, err := l.base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	switch {
	case r.Method == http.MethodGet:
		resp.Body = &resultSpotter{ReadCloser: resp.Body, results: l.results}
	case isCall:
		resp.Body = &heldClose{ReadCloser: resp.Body, until: l.results}
	}
	return resp, nil
}

// resultSpotter signals once a call result read off the stream has been
// taken in: on the next Read after the one that returned it.
type resultSpotter struct {
	io.ReadCloser
	results chan struct{}
	pending bool
}

func (s *resultSpotter) Read(p []byte) (int, error) {
	if s.pending {
		s.pending = false
		s.results <- struct{}{}
	}
	n, err := s.ReadCloser.Read(p)
	if strings.Contains(string(p[:n]), `"result":{"content"`) {
		s.pending = true
	}
	return n, err
}

type heldClose struct {
	io.ReadCloser
	until chan struct{}
}

func (h *heldClose) Close() error {
	select {
	case <-h.until:
	case <-time.After(5 * time.Second):
	}
	return h.ReadCloser.Close()
}

// An interrupted call whose server's answer (to the client's refusal)
// comes before the call's sender gets back to waiting still interrupts:
// mcp-go's transport picks at random between the response and the done
// context, and the call used to return the server's answer to the
// refusal as its result, now and then (1 run in 50 on a loaded machine).
func TestLegacySSEInterruptBeatsLateAnswer(t *testing.T) {
	url := newLegacySSEServer(t)
	la := &lateAnswer{base: http.DefaultTransport, results: make(chan struct{}, 64)}
	conn := SSE{URL: url, HTTPClient: func() *http.Client { return &http.Client{Transport: la} }}
	tools := loadTools(t, newClient(t, map[string]Connection{"old": conn}, nil))
	for i := range 20 {
		_, err := tools["ask"].Call(testCtx(t), nil)
		var need *ElicitationRequired
		if !errors.As(err, &need) {
			t.Fatalf("call %d = %v, want an interruption", i, err)
		}
	}
}
