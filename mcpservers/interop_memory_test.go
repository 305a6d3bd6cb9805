package mcpservers_test

// Interop with @modelcontextprotocol/server-memory over stdio: a knowledge
// graph kept in a file named by MEMORY_FILE_PATH.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

func TestInteropMemory(t *testing.T) {
	bin := npmServer(t, "mcp-server-memory")
	marker := checkClean(t)
	memFile := filepath.Join(t.TempDir(), "memory.jsonl")
	conn := mcpservers.Stdio{Command: bin, Env: map[string]string{"MEMORY_FILE_PATH": memFile, markerEnv: marker}}
	rec := newStdioRecorder(t)
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{"memory": rec.wrap(t, conn)},
		&mcpservers.ClientOptions{Stderr: newLineWriter(t, "server stderr: ")})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := testContext(t, 60*time.Second)
	tools, err := c.Tools(ctx)
	if err != nil {
		t.Fatalf("Tools: %v", err)
	}

	t.Run("tools_match_the_wire", func(t *testing.T) {
		log := rec.log(t)
		assertToolsMatch(t, tools, log.toolListing(t), true)
		checkTranscript(t, "memory-stdio", log)
		raw := dialRawStdio(t, bin, nil, parentEnv(map[string]string{"MEMORY_FILE_PATH": filepath.Join(t.TempDir(), "raw.jsonl")}))
		if _, err := rawInitialize(ctx, raw, nil); err != nil {
			t.Fatal(err)
		}
		rawTools, err := rawListTools(ctx, raw)
		if err != nil {
			t.Fatal(err)
		}
		assertToolsMatch(t, tools, rawTools, false)
	})

	byName := toolsIndex(tools)
	call := func(t *testing.T, name string, args map[string]any) *mcpservers.Result {
		t.Helper()
		tool := byName[name]
		if tool == nil {
			t.Fatalf("server-memory offers no tool %q", name)
		}
		r, err := tool.Call(ctx, args)
		if err != nil {
			t.Fatalf("Call(%q): %v", name, err)
		}
		if r.IsError {
			t.Fatalf("Call(%q): IsError, %q", name, r.Text())
		}
		assertResultMatchesWire(t, rec.log(t), name, r)
		return r
	}

	call(t, "create_entities", map[string]any{"entities": []any{
		map[string]any{"name": "Ada Lovelace", "entityType": "person", "observations": []any{"wrote the first program"}},
		map[string]any{"name": "Analytical Engine", "entityType": "machine", "observations": []any{}},
	}})
	call(t, "create_relations", map[string]any{"relations": []any{
		map[string]any{"from": "Ada Lovelace", "to": "Analytical Engine", "relationType": "programmed"},
	}})
	call(t, "add_observations", map[string]any{"observations": []any{
		map[string]any{"entityName": "Ada Lovelace", "contents": []any{"born in 1815"}},
	}})

	wantGraph := `{"entities":[` +
		`{"entityType":"person","name":"Ada Lovelace","observations":["wrote the first program","born in 1815"]},` +
		`{"entityType":"machine","name":"Analytical Engine","observations":[]}],` +
		`"relations":[{"from":"Ada Lovelace","relationType":"programmed","to":"Analytical Engine"}]}`
	t.Run("read_graph", func(t *testing.T) {
		r := call(t, "read_graph", map[string]any{})
		if got := canonicalJSON(r.StructuredContent); got != wantGraph {
			t.Errorf("graph =\n%s\nwant\n%s", got, wantGraph)
		}
	})
	t.Run("search_nodes", func(t *testing.T) {
		r := call(t, "search_nodes", map[string]any{"query": "Engine"})
		var g struct {
			Entities []struct{ Name string } `json:"entities"`
		}
		if err := json.Unmarshal(r.StructuredContent, &g); err != nil || len(g.Entities) != 1 || g.Entities[0].Name != "Analytical Engine" {
			t.Errorf("search result = %s", r.StructuredContent)
		}
	})
	t.Run("open_nodes", func(t *testing.T) {
		r := call(t, "open_nodes", map[string]any{"names": []any{"Ada Lovelace"}})
		if !strings.Contains(string(r.StructuredContent), "born in 1815") {
			t.Errorf("open_nodes = %s", r.StructuredContent)
		}
	})
	t.Run("kept_in_the_file_Env_named", func(t *testing.T) {
		b, err := os.ReadFile(memFile)
		if err != nil || !strings.Contains(string(b), "Analytical Engine") {
			t.Fatalf("memory file: %v, %q", err, b)
		}
		// A new client, a new server process: the graph is still there.
		c2, err := mcpservers.NewClient(map[string]mcpservers.Connection{"memory": conn}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c2.Close()
		r, err := toolsByName(t, c2)["read_graph"].Call(ctx, map[string]any{})
		if err != nil || canonicalJSON(r.StructuredContent) != wantGraph {
			t.Errorf("graph read by a second server = %v, %v", r, err)
		}
	})
}
