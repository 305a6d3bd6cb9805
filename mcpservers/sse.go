package mcpservers

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/guardian-agent/guardian-go/internal/weborigin"
)

// mcp-go's SSE transport drops the requests a server before 2026-07-28
// sends on the event stream (sampling, elicitation, roots during a call),
// and the server then waits forever. This package reads them off the event
// stream as it passes through the connection's RoundTripper, answers them
// with mcp-go's own client handlers, and posts the answer to the session's
// message endpoint, as the SSE transport would if it could.

// sseConn passes an SSE transport through, vetting its answers, and takes
// the request handler mcp-go's client offers
// transports that can carry server requests.
type sseConn struct {
	t *transport.SSE

	mu      sync.Mutex
	handler transport.RequestHandler
}

func (s *sseConn) Start(ctx context.Context) error { return s.t.Start(ctx) }
func (s *sseConn) SendRequest(ctx context.Context, r transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	resp, err := s.t.SendRequest(ctx, r)
	if err != nil && strings.HasPrefix(err.Error(), "timeout waiting for SSE response") {
		// mcp-go arms a timer of its own for the time left before ctx's
		// deadline (the response timeout it would otherwise use is set to
		// forever), and it often fires a moment before ctx is done. The
		// request was ended by its deadline: say so, as on the other
		// transports.
		if ctxErr := awaitDeadline(ctx); ctxErr != nil {
			err = ctxErr
		}
	}
	return vet(ctx, r, resp, err)
}

func (s *sseConn) SendNotification(ctx context.Context, n mcp.JSONRPCNotification) error {
	return s.t.SendNotification(ctx, n)
}
func (s *sseConn) SetNotificationHandler(h func(mcp.JSONRPCNotification)) {
	s.t.SetNotificationHandler(h)
}
func (s *sseConn) Close() error                           { return s.t.Close() }
func (s *sseConn) GetSessionId() string                   { return s.t.GetSessionId() }
func (s *sseConn) SetProtocolVersion(v string)            { s.t.SetProtocolVersion(v) }
func (s *sseConn) SetConnectionLostHandler(h func(error)) { s.t.SetConnectionLostHandler(h) }
func (s *sseConn) SetRequestHandler(h transport.RequestHandler) {
	s.mu.Lock()
	s.handler = h
	s.mu.Unlock()
}

var (
	_ transport.BidirectionalInterface = (*sseConn)(nil)
	_ transport.HTTPConnection         = (*sseConn)(nil)
)

// serverRequest answers one request a server sent on the SSE stream. It
// runs on a goroutine of its own, until answered or the session ends.
func (sess *session) serverRequest(conn *sseConn, hc *http.Client, data []byte) {
	var req transport.JSONRPCRequest
	if json.Unmarshal(data, &req) != nil || req.Method == "" || req.ID.IsNil() {
		return
	}
	conn.mu.Lock()
	h := conn.handler
	conn.mu.Unlock()
	if h == nil {
		return
	}
	sess.bg.Add(1)
	go func() {
		defer sess.bg.Done()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			select {
			case <-sess.lost:
				cancel()
			case <-ctx.Done():
			}
		}()
		resp, err := h(ctx, req)
		if err != nil {
			// The handlers' errors are this package's own, and say nothing
			// of what the user's handler returned.
			resp = transport.NewJSONRPCErrorResponse(req.ID, mcp.INTERNAL_ERROR, err.Error(), nil)
		}
		endpoint := conn.t.GetEndpoint()
		if resp == nil || endpoint == nil {
			return
		}
		body, err := json.Marshal(resp)
		if err != nil {
			return
		}
		post, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint.String(), bytes.NewReader(body))
		if err != nil {
			return
		}
		post.Header.Set("Content-Type", "application/json")
		if r, err := hc.Do(post); err == nil {
			r.Body.Close()
		}
	}()
}

// maxEvent bounds an SSE event the tap holds while it is incomplete; a
// larger one is not looked at, which is harmless: it is not a request.
const maxEvent = 4 << 20

// sseTap watches an event stream for JSON-RPC requests from the server. It
// sees the bytes as the transport reads them and never changes them.
type sseTap struct {
	onRequest  func([]byte)
	onEndpoint func(string) // an endpoint event's data; may be nil
	line       []byte
	event      string
	data       []byte
	skip       bool
}

func (t *sseTap) feed(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.add(p)
			return
		}
		t.add(p[:i])
		t.endLine()
		p = p[i+1:]
	}
}

func (t *sseTap) add(b []byte) {
	if len(t.line)+len(b) > maxEvent {
		t.skip = true
		return
	}
	t.line = append(t.line, b...)
}

func (t *sseTap) endLine() {
	line := bytes.TrimSuffix(t.line, []byte("\r"))
	t.line = t.line[:0]
	switch {
	case t.skip:
		if len(line) == 0 {
			t.skip, t.event, t.data = false, "", t.data[:0]
		}
	case len(line) == 0:
		switch {
		case (t.event == "" || t.event == "message") && len(t.data) > 0 && isRequest(t.data):
			t.onRequest(bytes.Clone(t.data))
		case t.event == "endpoint" && t.onEndpoint != nil:
			t.onEndpoint(string(t.data))
		}
		t.event, t.data = "", t.data[:0]
	case bytes.HasPrefix(line, []byte("data:")):
		v := bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))
		if len(t.data)+len(v) > maxEvent {
			t.skip = true
			return
		}
		if len(t.data) > 0 {
			t.data = append(t.data, '\n')
		}
		t.data = append(t.data, v...)
	case bytes.HasPrefix(line, []byte("event:")):
		t.event = string(bytes.TrimSpace(bytes.TrimPrefix(line, []byte("event:"))))
	}
}

// isRequest reports whether a message is a JSON-RPC request: a method and
// an id.
func isRequest(data []byte) bool {
	var m struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	return json.Unmarshal(data, &m) == nil && m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null"
}

// checkEndpoint ends the session when the server names an SSE endpoint on
// another origin than the connection's URL (see origin.go): mcp-go would
// ignore one on another host, waiting 30 s for a better one, and take one
// that only changes the scheme (https to http), sending every message,
// credentials included, in clear.
func (sess *session) checkEndpoint(data string) {
	base, err := url.Parse(sess.srv.cfg.url)
	if err != nil {
		return
	}
	home, _ := weborigin.Of(base)
	// As mcp-go reads it.
	u, err := base.Parse(strings.TrimSpace(data))
	if err != nil || home.Same(u) {
		return
	}
	sess.markLost(elsewhere(0, "named an SSE endpoint on", u), true)
}
