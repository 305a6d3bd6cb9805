package mcpservers_test

// The three npm servers behind one Client, and what it costs to connect to
// them.

import (
	"errors"
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
