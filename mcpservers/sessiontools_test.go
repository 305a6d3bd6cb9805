package mcpservers

import (
	"errors"
	"os"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/guardian-agent/guardian-go/definition"
)

// inProcessSession is an mcp-go client the caller started and initialized.
func inProcessSession(t testing.TB) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClient(newDocsServer())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx := testCtx(t)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSessionTools(t *testing.T) {
	tools, err := SessionTools(testCtx(t), inProcessSession(t))
	if err != nil {
		t.Fatal(err)
	}
	want := wireTools(t, newDocsServer())
	if len(tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(tools), len(want))
	}
	for _, tool := range tools {
		if compact(t, tool.Raw()) != compact(t, want[tool.Name()]) {
			t.Errorf("%s: Raw() = %s", tool.Name(), tool.Raw())
		}
	}
	m := byName(tools)
	rec := m["echo"].MCPRecord()
	if !rec.SessionBound || rec.Server.Name != "probe-docs" || len(rec.Code) != 0 {
		t.Errorf("record = %+v", rec)
	}
	if info := m["echo"].Server(); info.Implementation.Version != "0.3.1" || info.ProtocolVersion != mcp.ProtocolVersion20260728 {
		t.Errorf("server = %+v", info)
	}
	if r := call(t, m["search_docs"], map[string]any{"query": "stdio"}); compact(t, r.StructuredContent) != `{"results":["stdio transport"]}` {
		t.Errorf("search_docs = %s", r.StructuredContent)
	}
	_, err = m["confirm_delete"].Call(testCtx(t), map[string]any{"id": "d"})
	var need *ElicitationRequired
	if !errors.As(err, &need) {
		t.Fatalf("confirm_delete = %v, want an interruption", err)
	}
	r, err := need.Resume(testCtx(t), map[string]ElicitationResponse{"confirm": {Action: ElicitationAccept, Content: map[string]any{"ok": false}}})
	if err != nil || r.Text() != `action=accept content={"ok":false}` {
		t.Errorf("Resume = %v, %v", r, err)
	}
}

func TestSessionToolsOverStdio(t *testing.T) {
	c, err := client.NewStdioMCPClient(testBinary(), append(os.Environ(), serverEnv+"=docs", "GORACE=atexit_sleep_ms=0"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Initialize(testCtx(t), mcp.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	tools, err := SessionTools(testCtx(t), c)
	if err != nil {
		t.Fatal(err)
	}
	echo := byName(tools)["echo"]
	if echo.Server().Transport != definition.TransportStdio {
		t.Errorf("transport = %q", echo.Server().Transport)
	}
	call(t, echo, map[string]any{"text": "x"})
	c.Close()
	_, err = echo.Call(testCtx(t), nil)
	wantKind(t, err, ErrClosed, "probe-docs")
}

func TestSessionToolsRefusesUnusableClients(t *testing.T) {
	if _, err := SessionTools(testCtx(t), nil); !errors.Is(err, ErrConnect) {
		t.Errorf("nil client: %v", err)
	}
	c, err := client.NewInProcessClient(newDocsServer())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := SessionTools(testCtx(t), c); !errors.Is(err, ErrConnect) {
		t.Errorf("uninitialized client: %v", err)
	}
}
