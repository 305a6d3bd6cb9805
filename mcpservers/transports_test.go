package mcpservers

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// hollowTransport answers tools/list, and answers tools/call with neither a
// response nor an error: what one of mcp-go's transports was seen to do,
// once, under load. A fake, because no real transport does it on demand.
type hollowTransport struct {
	calls     atomic.Int32
	nilResult bool // answer tools/call with a response with no result instead
	// lateNil answers tools/call only once its context's deadline has
	// passed by the clock, with neither response nor error: what mcp-go's
	// SSE transport does when it checks the clock before the context is
	// done (it returns ctx.Err(), which is still nil).
	lateNil bool
}

func (*hollowTransport) Start(context.Context) error { return nil }
func (h *hollowTransport) SendRequest(ctx context.Context, r transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	switch r.Method {
	case "tools/list":
		return &transport.JSONRPCResponse{JSONRPC: "2.0", ID: r.ID, Result: json.RawMessage(`{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`)}, nil
	case "tools/call":
		h.calls.Add(1)
		if deadline, ok := ctx.Deadline(); ok && h.lateNil {
			time.Sleep(time.Until(deadline))
			return nil, nil
		}
		if h.nilResult {
			return &transport.JSONRPCResponse{JSONRPC: "2.0", ID: r.ID}, nil
		}
		return nil, nil
	}
	return nil, errors.New("unexpected request " + r.Method)
}
func (*hollowTransport) SendNotification(context.Context, mcp.JSONRPCNotification) error { return nil }
func (*hollowTransport) SetNotificationHandler(func(mcp.JSONRPCNotification))            {}
func (*hollowTransport) Close() error                                                    { return nil }
func (*hollowTransport) GetSessionId() string                                            { return "" }

func TestTransportWithNeitherResponseNorError(t *testing.T) {
	for _, nilResult := range []bool{false, true} {
		h := &hollowTransport{nilResult: nilResult}
		mc := client.NewClient(h, client.WithSession())
		tools, err := SessionTools(testCtx(t), mc)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tools[0].Call(testCtx(t), nil)
		e := wantKind(t, err, ErrProtocol, "session")
		if e.Tool != "t" || errors.Is(err, ErrConnectionLost) {
			t.Errorf("nilResult=%v: err = %v, want a protocol error for the call of t", nilResult, err)
		}
		if n := h.calls.Load(); n != 1 {
			t.Errorf("nilResult=%v: the call was sent %d times, want once", nilResult, n)
		}
	}
}

// TestLateNilAnswerIsTheDeadline: neither a response nor an error, from a
// transport that gave up on the request at its context's deadline, is the
// deadline's error, as the call's context soon says.
func TestLateNilAnswerIsTheDeadline(t *testing.T) {
	h := &hollowTransport{lateNil: true}
	tools, err := SessionTools(testCtx(t), client.NewClient(h, client.WithSession()))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		_, err := tools[0].Call(ctx, nil)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrProtocol) {
			t.Errorf("call %d: %v, want context.DeadlineExceeded", i, err)
		}
	}
}

func TestNoResponse(t *testing.T) {
	if err := noResponse(context.Background()); err != errNoResponse {
		t.Errorf("no deadline: %v, want errNoResponse", err)
	}
	if err := noResponse(testCtx(t)); err != errNoResponse {
		t.Errorf("a deadline 30 s away: %v, want errNoResponse", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if err := noResponse(ctx); err != context.DeadlineExceeded {
		t.Errorf("a deadline 10 ms away: %v, want context.DeadlineExceeded once it passes", err)
	}
}

func TestVetRefusesNoResponse(t *testing.T) {
	req := transport.JSONRPCRequest{Method: "initialize"}
	if resp, err := vet(context.Background(), req, nil, nil); resp != nil || !errors.Is(err, errNoResponse) {
		t.Errorf("vet(nil, nil) = %v, %v; want errNoResponse", resp, err)
	}
	cause := errors.New("cause")
	if _, err := vet(context.Background(), req, nil, cause); err != cause {
		t.Errorf("vet(nil, err) = %v, want the transport's error", err)
	}
	ok := &transport.JSONRPCResponse{Result: json.RawMessage(`{}`)}
	if resp, err := vet(context.Background(), req, ok, nil); resp != ok || err != nil {
		t.Errorf("vet(response, nil) = %v, %v; want the response", resp, err)
	}
}
