package mcpservers_test

// A pre-2026 server that answers every method it does not know with an
// empty result, as the MCP conformance suite's "initialize" scenario server
// does: server/discover gets {} instead of "method not found". That is no
// 2026-07-28 discover result (it names no supported version), so the client
// must fall back to the initialize handshake. Hermetic: no npm needed.

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

// permissiveServer is a streamable HTTP MCP server at 2025-11-25 that
// answers unknown methods with {} and records the methods it was sent.
type permissiveServer struct {
	mu      sync.Mutex
	methods []string
}

func (s *permissiveServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"params"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "parse error", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.methods = append(s.methods, req.Method)
	s.mu.Unlock()
	if len(req.ID) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	var result any = map[string]any{}
	switch req.Method {
	case "initialize":
		version := req.Params.ProtocolVersion
		if version != "2025-06-18" && version != "2025-11-25" {
			version = "2025-11-25"
		}
		result = map[string]any{
			"protocolVersion": version,
			"serverInfo":      map[string]any{"name": "permissive-server", "version": "1.0.0"},
			"capabilities":    map[string]any{"tools": map[string]any{}},
		}
	case "tools/list":
		result = map[string]any{"tools": []any{map[string]any{
			"name": "hello", "inputSchema": map[string]any{"type": "object"},
		}}}
	case "tools/call":
		result = map[string]any{"content": []any{map[string]any{"type": "text", "text": "hello back"}}}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
}

func (s *permissiveServer) sent() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.methods...)
}

func TestInteropDiscoverAnsweredWithEmptyResult(t *testing.T) {
	checkClean(t)
	srv := &permissiveServer{}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{"permissive": mcpservers.StreamableHTTP{URL: hs.URL}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := testContext(t, 10*time.Second)
	tools, err := c.Tools(ctx)
	if err != nil {
		t.Fatalf("Tools: %v", err)
	}
	if sent := srv.sent(); !slices.Contains(sent, "initialize") {
		t.Errorf("the client never sent initialize (methods sent: %q): it took an empty server/discover result for a 2026-07-28 server", sent)
	}
	if len(tools) != 1 {
		t.Fatalf("tools = %q, want [hello]", toolNames(tools))
	}
	info := tools[0].Server()
	if info.ProtocolVersion != "2025-11-25" || info.Implementation.Name != "permissive-server" {
		t.Errorf("Server() = %+v, want protocol 2025-11-25 and the serverInfo of the initialize result", info)
	}
	r, err := tools[0].Call(ctx, map[string]any{})
	if err != nil || r.Text() != "hello back" {
		t.Errorf("Call: %+v, %v", r, err)
	}
}
