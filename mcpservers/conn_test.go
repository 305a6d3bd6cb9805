package mcpservers

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

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
}

func (*hollowTransport) Start(context.Context) error { return nil }
func (h *hollowTransport) SendRequest(_ context.Context, r transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	switch r.Method {
	case "tools/list":
		return &transport.JSONRPCResponse{JSONRPC: "2.0", ID: r.ID, Result: json.RawMessage(`{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`)}, nil
	case "tools/call":
		h.calls.Add(1)
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

func TestVetRefusesNoResponse(t *testing.T) {
	req := transport.JSONRPCRequest{Method: "initialize"}
	if resp, err := vet(req, nil, nil); resp != nil || !errors.Is(err, errNoResponse) {
		t.Errorf("vet(nil, nil) = %v, %v; want errNoResponse", resp, err)
	}
	cause := errors.New("cause")
	if _, err := vet(req, nil, cause); err != cause {
		t.Errorf("vet(nil, err) = %v, want the transport's error", err)
	}
	ok := &transport.JSONRPCResponse{Result: json.RawMessage(`{}`)}
	if resp, err := vet(req, ok, nil); resp != ok || err != nil {
		t.Errorf("vet(response, nil) = %v, %v; want the response", resp, err)
	}
}
