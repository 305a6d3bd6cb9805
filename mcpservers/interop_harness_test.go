package mcpservers_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

// TestInteropWireRecorders checks the interop tests' own instruments
// against each other, without mcpservers: what our raw client reads through
// a recorder must be what the recorder recorded, byte for byte.
func TestInteropWireRecorders(t *testing.T) {
	caps := json.RawMessage(`{"elicitation":{},"sampling":{}}`)
	check := func(t *testing.T, raw rawConn, log func() *wireLog) {
		ctx := testContext(t, 30*time.Second)
		init, err := rawInitialize(ctx, raw, caps)
		if err != nil {
			t.Fatal(err)
		}
		tools, err := rawListTools(ctx, raw)
		if err != nil {
			t.Fatal(err)
		}
		if len(tools) < 10 {
			t.Fatalf("server-everything listed %d tools, want its dozen and more", len(tools))
		}
		l := log()
		params, result := l.initialize(t)
		if !bytes.Equal(result, init) {
			t.Errorf("recorded initialize result differs from the one read:\n%s\n%s", result, init)
		}
		var p struct {
			Capabilities json.RawMessage `json:"capabilities"`
		}
		if err := json.Unmarshal(params, &p); err != nil || !sameJSON(p.Capabilities, caps) {
			t.Errorf("recorded capabilities = %s (%v), want %s", p.Capabilities, err, caps)
		}
		wire := l.toolListing(t)
		if len(wire) != len(tools) {
			t.Fatalf("recorded %d tools, read %d", len(wire), len(tools))
		}
		for i := range wire {
			if !bytes.Equal(wire[i], tools[i]) {
				t.Errorf("tool %d: recorded %s, read %s", i, wire[i], tools[i])
			}
		}
		if _, err := raw.call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "hi"}}); err != nil {
			t.Fatal(err)
		}
		call := log().lastCall(t, "echo")
		if call.Resp == nil || wireResultJSON(t, call.Resp.Result) != `{"content":[{"text":"Echo: hi","type":"text"}]}` {
			t.Errorf("recorded echo call = %+v", call.Resp)
		}
	}
	t.Run("stdio", func(t *testing.T) {
		bin := npmServer(t, "mcp-server-everything")
		rec := newStdioRecorder(t)
		conn := rec.wrap(t, stdioConn(bin))
		check(t, dialRawStdio(t, conn.Command, conn.Args, parentEnv(nil)), func() *wireLog { return rec.log(t) })
	})
	t.Run("streamable_http", func(t *testing.T) {
		srv := startEverythingHTTP(t)
		rec := newHTTPRecorder(t, srv.URL)
		check(t, dialRawHTTP(t, rec.URL), func() *wireLog { return rec.log(t) })
	})
}

func stdioConn(bin string) mcpservers.Stdio {
	return mcpservers.Stdio{Command: bin, Args: []string{"stdio"}}
}
