package mcpservers_test

// The three npm servers behind one Client, and what it costs to connect to
// them.

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

// npmConnections are the three npm servers over stdio, on temporary state.
// Each server's environment holds marker (see checkClean), if not empty.
func npmConnections(t testing.TB, marker string) map[string]mcpservers.Connection {
	t.Helper()
	dir := t.TempDir()
	env := func(kv ...string) map[string]string {
		m := map[string]string{}
		if marker != "" {
			m[markerEnv] = marker
		}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	return map[string]mcpservers.Connection{
		"everything": mcpservers.Stdio{Command: npmServer(t, "mcp-server-everything"), Env: env()},
		"filesystem": mcpservers.Stdio{Command: npmServer(t, "mcp-server-filesystem"), Args: []string{dir}, Env: env()},
		"memory": mcpservers.Stdio{Command: npmServer(t, "mcp-server-memory"),
			Env: env("MEMORY_FILE_PATH", filepath.Join(dir, "memory.jsonl"))},
	}
}

// TestInteropThreeServers loads the three servers' tools with one Tools
// call (they connect concurrently), in the documented order: by server
// name, then as each server listed them.
func TestInteropThreeServers(t *testing.T) {
	conns := npmConnections(t, checkClean(t))
	c, err := mcpservers.NewClient(conns, &mcpservers.ClientOptions{Stderr: newLineWriter(t, "server stderr: ")})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := testContext(t, 60*time.Second)
	start := time.Now()
	all, err := c.Tools(ctx)
	if err != nil {
		t.Fatalf("Tools: %v", err)
	}
	t.Logf("three servers connected and listed concurrently in %v", time.Since(start))

	var want []string
	for _, server := range []string{"everything", "filesystem", "memory"} {
		one, err := c.Tools(ctx, server)
		if err != nil {
			t.Fatalf("Tools(%q): %v", server, err)
		}
		if len(one) == 0 {
			t.Fatalf("Tools(%q) is empty", server)
		}
		for _, tool := range one {
			if tool.Server().Name != server {
				t.Errorf("Tools(%q) gave tool %q of server %q", server, tool.Name(), tool.Server().Name)
			}
			want = append(want, server+"/"+tool.Name())
		}
	}
	var got []string
	for _, tool := range all {
		got = append(got, tool.Server().Name+"/"+tool.Name())
	}
	if !slices.Equal(got, want) {
		t.Errorf("Tools() order\n got: %q\nwant: %q", got, want)
	}

	if _, err := c.Tools(ctx, "nonesuch"); !errors.Is(err, mcpservers.ErrUnknownServer) {
		t.Errorf("Tools(nonesuch) error = %v, want ErrUnknownServer", err)
	}

	// Every tool still calls its own server.
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"echo", map[string]any{"message": "from everything"}, "Echo: from everything"},
		{"list_allowed_directories", map[string]any{}, "Allowed directories:"},
		{"read_graph", map[string]any{}, `"entities": []`},
	} {
		tool := toolsIndex(all)[c.tool]
		if tool == nil {
			t.Fatalf("no tool %q", c.tool)
		}
		r, err := tool.Call(ctx, c.args)
		if err != nil || r.IsError || !strings.Contains(r.Text(), c.want) {
			t.Errorf("%s: %+v, %v; want text with %q", c.tool, r, err, c.want)
		}
	}
}

// TestInteropPrefixedNames loads the three servers with prefixed names:
// what the model sees is "<server>_<tool>" in the providers' alphabet, and
// calls still use the MCP name.
func TestInteropPrefixedNames(t *testing.T) {
	c, err := mcpservers.NewClient(npmConnections(t, checkClean(t)), &mcpservers.ClientOptions{PrefixToolNames: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := testContext(t, 60*time.Second)
	tools, err := c.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	for _, tool := range tools {
		if want := tool.Server().Name + "_" + tool.MCPName(); tool.Name() != want || !valid.MatchString(tool.Name()) {
			t.Errorf("Name() = %q for %q of %q, want %q", tool.Name(), tool.MCPName(), tool.Server().Name, want)
		}
	}
	echo := toolsIndex(tools)["everything_echo"]
	if echo == nil {
		t.Fatal("no everything_echo")
	}
	r, err := echo.Call(ctx, map[string]any{"message": "prefixed"})
	if err != nil || r.Text() != "Echo: prefixed" {
		t.Errorf("everything_echo: %+v, %v", r, err)
	}
}

// TestInteropCollisionsAndPartialFailure: two server-everything processes
// offer the same names (an error unless prefixed), and a server that
// cannot start fails alone with AllowPartial.
func TestInteropCollisionsAndPartialFailure(t *testing.T) {
	marker := checkClean(t)
	bin := npmServer(t, "mcp-server-everything")
	everything := mcpservers.Stdio{Command: bin, Env: map[string]string{markerEnv: marker}}
	ctx := testContext(t, 60*time.Second)

	t.Run("collision", func(t *testing.T) {
		c, err := mcpservers.NewClient(map[string]mcpservers.Connection{"a": everything, "b": everything}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		tools, err := c.Tools(ctx)
		if !errors.Is(err, mcpservers.ErrNameCollision) || tools != nil {
			t.Errorf("Tools = %d tools, %v; want no tools and ErrNameCollision", len(tools), err)
		}
	})
	t.Run("partial", func(t *testing.T) {
		// node runs, but the server it runs exits at once with status 3.
		broken := mcpservers.Stdio{Command: "node", Args: []string{"-e", "process.exit(3)"}, Env: map[string]string{markerEnv: marker}}
		conns := map[string]mcpservers.Connection{"broken": broken, "everything": everything}
		c, err := mcpservers.NewClient(conns, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		var e *mcpservers.Error
		if tools, err := c.Tools(ctx); tools != nil || !errors.As(err, &e) || e.Server != "broken" || !errors.Is(err, mcpservers.ErrConnect) {
			t.Errorf("Tools = %d tools, %v; want no tools and an ErrConnect *Error naming broken", len(tools), err)
		}
		p, err := mcpservers.NewClient(conns, &mcpservers.ClientOptions{AllowPartial: true})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		tools, err := p.Tools(ctx)
		if !errors.As(err, &e) || e.Server != "broken" {
			t.Errorf("AllowPartial: error = %v, want one naming broken", err)
		}
		if len(tools) == 0 || toolsIndex(tools)["echo"] == nil {
			t.Fatalf("AllowPartial: tools = %q, want everything's", toolNames(tools))
		}
		for _, tool := range tools {
			if tool.Server().Name != "everything" {
				t.Errorf("tool %q of %q", tool.Name(), tool.Server().Name)
			}
		}
	})
}

// TestInteropEverythingOneSession: loading the tools twice and calling
// them reuses the one connection: one process, one initialize.
func TestInteropEverythingOneSession(t *testing.T) {
	for _, transport := range everythingTransports {
		t.Run(transport, func(t *testing.T) {
			s := openEverything(t, transport, nil)
			ctx := testContext(t, 30*time.Second)
			for range 2 {
				if _, err := s.client.Tools(ctx); err != nil {
					t.Fatal(err)
				}
			}
			echo := toolsByName(t, s.client)["echo"]
			for i := range 5 {
				if _, err := echo.Call(ctx, map[string]any{"message": fmt.Sprint(i)}); err != nil {
					t.Fatal(err)
				}
			}
			log := s.log()
			if n := len(log.requests("initialize")); n != 1 {
				t.Errorf("initialize requests = %d, want 1", n)
			}
			if n := len(log.requests("tools/list")); n != 3 {
				t.Errorf("tools/list requests = %d, want 3 (one per Tools call)", n)
			}
		})
	}
}

// TestInteropEverythingPinnedVersion pins the protocol version: no
// server/discover probe, and the server speaks the version asked for.
func TestInteropEverythingPinnedVersion(t *testing.T) {
	s := openEverything(t, "stdio", &mcpservers.ClientOptions{ProtocolVersion: "2025-06-18"})
	tools, err := s.client.Tools(testContext(t, 30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	log := s.log()
	if n := len(log.requests("server/discover")); n != 0 {
		t.Errorf("server/discover requests = %d, want none when pinned", n)
	}
	params, _ := log.initialize(t)
	if !strings.Contains(string(params), `"protocolVersion":"2025-06-18"`) {
		t.Errorf("initialize params = %s, want protocolVersion 2025-06-18", params)
	}
	if v := tools[0].Server().ProtocolVersion; v != "2025-06-18" {
		t.Errorf("ProtocolVersion = %q, want 2025-06-18", v)
	}
}
