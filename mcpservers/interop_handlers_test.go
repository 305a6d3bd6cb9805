package mcpservers_test

import (
	"context"
	"sync"
	"testing"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

// The model's answer the sampling handler gives, and the root the roots
// handler lists.
const (
	testModel      = "guardian-interop-model"
	testModelReply = "four, said the test's model"
	testRootURI    = "file:///tmp/guardian-interop-root"
	testRootName   = "interop-root"
)

// recordingHandlers answers a server's sampling, elicitation and roots
// requests and records them, with the logs and progress reports it gets.
// It is a struct with methods, as the mcpservers docs recommend for code
// that shapes calls.
type recordingHandlers struct {
	mu       sync.Mutex
	answer   mcpservers.ElicitationResponse // how Elicit answers
	sampling []*mcpservers.SamplingRequest
	elicit   []*mcpservers.ElicitationRequest
	roots    []*mcpservers.RootsRequest
	logs     []mcpservers.LogMessage
	progress []mcpservers.Progress
}

func (h *recordingHandlers) CreateMessage(_ context.Context, req *mcpservers.SamplingRequest) (*mcpservers.SamplingResult, error) {
	h.mu.Lock()
	h.sampling = append(h.sampling, req)
	h.mu.Unlock()
	return &mcpservers.SamplingResult{
		Role:       "assistant",
		Content:    []mcpservers.Content{&mcpservers.TextContent{Text: testModelReply}},
		Model:      testModel,
		StopReason: "endTurn",
	}, nil
}

func (h *recordingHandlers) Elicit(_ context.Context, req *mcpservers.ElicitationRequest) (*mcpservers.ElicitationResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.elicit = append(h.elicit, req)
	a := h.answer
	return &a, nil
}

func (h *recordingHandlers) ListRoots(_ context.Context, req *mcpservers.RootsRequest) ([]mcpservers.Root, error) {
	h.mu.Lock()
	h.roots = append(h.roots, req)
	h.mu.Unlock()
	return []mcpservers.Root{{URI: testRootURI, Name: testRootName}}, nil
}

func (h *recordingHandlers) onLog(m mcpservers.LogMessage) {
	h.mu.Lock()
	h.logs = append(h.logs, m)
	h.mu.Unlock()
}

func (h *recordingHandlers) onProgress(p mcpservers.Progress) {
	h.mu.Lock()
	h.progress = append(h.progress, p)
	h.mu.Unlock()
}

func (h *recordingHandlers) setAnswer(a mcpservers.ElicitationResponse) {
	h.mu.Lock()
	h.answer = a
	h.mu.Unlock()
}

// options gives a client every handler and callback, logging at debug.
func (h *recordingHandlers) options(t testing.TB) *mcpservers.ClientOptions {
	return &mcpservers.ClientOptions{
		Sampling:    h,
		Elicitation: h,
		Roots:       h,
		OnLog:       h.onLog,
		OnProgress:  h.onProgress,
		LogLevel:    "debug",
		Stderr:      newLineWriter(t, "server stderr: "),
	}
}

func (h *recordingHandlers) lastSampling() *mcpservers.SamplingRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.sampling) == 0 {
		return nil
	}
	return h.sampling[len(h.sampling)-1]
}

func (h *recordingHandlers) lastElicit() *mcpservers.ElicitationRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.elicit) == 0 {
		return nil
	}
	return h.elicit[len(h.elicit)-1]
}

func (h *recordingHandlers) progressFor(tool string) []mcpservers.Progress {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []mcpservers.Progress
	for _, p := range h.progress {
		if p.Tool == tool {
			out = append(out, p)
		}
	}
	return out
}

func (h *recordingHandlers) logCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.logs)
}

func (h *recordingHandlers) logsCopy() []mcpservers.LogMessage {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]mcpservers.LogMessage(nil), h.logs...)
}

// renameInterceptor sends calls of one tool to another tool, with other
// arguments: an interceptor changing a call's name and arguments.
type renameInterceptor struct {
	From, To string
	Args     map[string]any
}

func (r renameInterceptor) Intercept(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	if req.Name == r.From {
		req.Name = r.To
		req.Arguments = r.Args
	}
	return next(ctx, req)
}
