package mcpservers

import (
	"context"
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// BenchmarkCall compares a call through this package with mcp-go's own
// CallTool, on one in-process mcp-go client: the difference is this
// package's overhead.
func BenchmarkCall(b *testing.B) {
	ctx := context.Background()
	mc := inProcessSession(b)
	tools, err := SessionTools(ctx, mc)
	if err != nil {
		b.Fatal(err)
	}
	echo := byName(tools)["echo"]
	args := map[string]any{"text": "hello"}

	b.Run("mcpservers", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := echo.Call(ctx, args); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("mcp-go", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			req := mcp.CallToolRequest{}
			req.Params.Name = "echo"
			req.Params.Arguments = args
			if _, err := mc.CallTool(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkToolsStdio loads the tools of n stdio servers at once: started,
// negotiated and listed concurrently, it should take about as long as one.
//
// The servers start in about 10 ms of CPU each, so on a machine with fewer
// cores than servers, starting them is bound by the CPU; with startup=100ms
// each waits 100 ms first, as a server fetched by npx does, and ten take
// about as long as one.
func BenchmarkToolsStdio(b *testing.B) {
	for _, bc := range []struct {
		n     int
		delay string
	}{{1, "0s"}, {10, "0s"}, {1, "100ms"}, {10, "100ms"}} {
		b.Run(fmt.Sprintf("startup=%s/servers=%d", bc.delay, bc.n), func(b *testing.B) {
			n := bc.n
			conns := map[string]Connection{}
			for i := range n {
				conns[fmt.Sprintf("s%02d", i)] = stdioServer("many", "MCPSERVERS_TOOLS", "20", "MCPSERVERS_DELAY", bc.delay)
			}
			b.ReportAllocs()
			for b.Loop() {
				c, err := NewClient(conns, &ClientOptions{PrefixToolNames: true})
				if err != nil {
					b.Fatal(err)
				}
				tools, err := c.Tools(context.Background())
				if err != nil || len(tools) != 20*n {
					b.Fatal(len(tools), err)
				}
				b.StopTimer()
				c.Close()
				b.StartTimer()
			}
		})
	}
	// The same ten one after the other, for comparison: the sum.
	b.Run("startup=0s/servers=10/one-by-one", func(b *testing.B) {
		conns := map[string]Connection{}
		for i := range 10 {
			conns[fmt.Sprintf("s%02d", i)] = stdioServer("many", "MCPSERVERS_TOOLS", "20")
		}
		for b.Loop() {
			c, err := NewClient(conns, &ClientOptions{PrefixToolNames: true})
			if err != nil {
				b.Fatal(err)
			}
			for name := range conns {
				if _, err := c.Tools(context.Background(), name); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			c.Close()
			b.StartTimer()
		}
	})
}

// BenchmarkConnectPre2026 connects to servers that predate protocol
// version 2026-07-28: one that answers the discovery probe with "method not
// found", as the TypeScript SDK's do, and one that ignores it, which costs
// ClientOptions.DiscoverTimeout (1 s; mcp-go alone waits 5 s).
func BenchmarkConnectPre2026(b *testing.B) {
	for _, mode := range []string{"raw-odd", "raw-ignore-discover"} {
		b.Run(mode, func(b *testing.B) {
			conns := map[string]Connection{"old": stdioServer(mode)}
			for b.Loop() {
				c, err := NewClient(conns, nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := c.Tools(context.Background()); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				c.Close()
				b.StartTimer()
			}
		})
	}
}
