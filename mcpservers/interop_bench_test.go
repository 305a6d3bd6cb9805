package mcpservers_test

// What connecting to and calling the npm servers costs. Connecting to
// server-everything, a pre-2026 server, must not stall on the 2026-07-28
// server/discover probe: compare connect-ms with the raw client's, which
// sends initialize straight away.
//
//	go test -run '^$' -bench 'InteropConnect' -benchmem -benchtime=6x -count=3 ./mcpservers
//	go test -run '^$' -bench 'InteropCall' -benchmem -benchtime=2s -count=3 ./mcpservers

import (
	"testing"
	"time"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

func BenchmarkInteropConnect(b *testing.B) {
	b.Run("everything/stdio", func(b *testing.B) {
		benchConnect(b, map[string]mcpservers.Connection{
			"everything": mcpservers.Stdio{Command: npmServer(b, "mcp-server-everything")},
		})
	})
	b.Run("everything/streamable_http", func(b *testing.B) {
		srv := startEverythingHTTP(b)
		benchConnect(b, map[string]mcpservers.Connection{"everything": mcpservers.StreamableHTTP{URL: srv.URL}})
	})
	b.Run("everything/sse", func(b *testing.B) {
		srv := startEverythingSSE(b)
		benchConnect(b, map[string]mcpservers.Connection{"everything": mcpservers.SSE{URL: srv.URL}})
	})
	b.Run("filesystem/stdio", func(b *testing.B) {
		benchConnect(b, map[string]mcpservers.Connection{
			"filesystem": mcpservers.Stdio{Command: npmServer(b, "mcp-server-filesystem"), Args: []string{b.TempDir()}},
		})
	})
	b.Run("memory/stdio", func(b *testing.B) {
		conns := npmConnections(b, "")
		benchConnect(b, map[string]mcpservers.Connection{"memory": conns["memory"]})
	})
	b.Run("all_three/stdio", func(b *testing.B) {
		benchConnect(b, npmConnections(b, ""))
	})
}

// benchConnect measures NewClient, Tools (connect, initialize, list) and
// Close, and reports the Tools and Close parts on their own.
func benchConnect(b *testing.B, conns map[string]mcpservers.Connection) {
	var connect, closing time.Duration
	n := 0
	for b.Loop() {
		c, err := mcpservers.NewClient(conns, nil)
		if err != nil {
			b.Fatal(err)
		}
		ctx := testContext(b, 30*time.Second)
		t0 := time.Now()
		if _, err := c.Tools(ctx); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := c.Close(); err != nil {
			b.Fatal(err)
		}
		connect += t1.Sub(t0)
		closing += time.Since(t1)
		n++
	}
	b.ReportMetric(float64(connect.Microseconds())/1000/float64(n), "connect-ms/op")
	b.ReportMetric(float64(closing.Microseconds())/1000/float64(n), "close-ms/op")
}

// BenchmarkInteropConnectRaw is the floor: our raw client starting
// server-everything, initializing and listing its tools, with no
// server/discover probe and no mcp-go.
func BenchmarkInteropConnectRaw(b *testing.B) {
	bin := npmServer(b, "mcp-server-everything")
	for b.Loop() {
		ctx := testContext(b, 30*time.Second)
		raw := dialRawStdio(b, bin, nil, parentEnv(nil))
		if _, err := rawInitialize(ctx, raw, nil); err != nil {
			b.Fatal(err)
		}
		if _, err := rawListTools(ctx, raw); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		raw.close()
		b.StartTimer()
	}
}

// BenchmarkInteropCallEcho is one echo call to server-everything on a live
// connection.
func BenchmarkInteropCallEcho(b *testing.B) {
	for _, transport := range everythingTransports {
		b.Run(transport, func(b *testing.B) {
			var conn mcpservers.Connection
			switch transport {
			case "stdio":
				conn = mcpservers.Stdio{Command: npmServer(b, "mcp-server-everything")}
			case "streamable_http":
				conn = mcpservers.StreamableHTTP{URL: startEverythingHTTP(b).URL}
			case "sse":
				conn = mcpservers.SSE{URL: startEverythingSSE(b).URL}
			}
			c, err := mcpservers.NewClient(map[string]mcpservers.Connection{"everything": conn}, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			ctx := testContext(b, 5*time.Minute)
			tools, err := c.Tools(ctx)
			if err != nil {
				b.Fatal(err)
			}
			echo := toolsIndex(tools)["echo"]
			args := map[string]any{"message": "bench"}
			for b.Loop() {
				if _, err := echo.Call(ctx, args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkInteropCallEchoRaw is the floor for a call: our raw client's
// echo call to server-everything, with no mcp-go and no mcpservers.
func BenchmarkInteropCallEchoRaw(b *testing.B) {
	for _, transport := range []string{"stdio", "streamable_http"} {
		b.Run(transport, func(b *testing.B) {
			var raw rawConn
			if transport == "stdio" {
				raw = dialRawStdio(b, npmServer(b, "mcp-server-everything"), nil, parentEnv(nil))
			} else {
				raw = dialRawHTTP(b, startEverythingHTTP(b).URL)
			}
			ctx := testContext(b, 5*time.Minute)
			if _, err := rawInitialize(ctx, raw, nil); err != nil {
				b.Fatal(err)
			}
			params := map[string]any{"name": "echo", "arguments": map[string]any{"message": "bench"}}
			for b.Loop() {
				if _, err := raw.call(ctx, "tools/call", params); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
