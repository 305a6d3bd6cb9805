package mcpservers

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/fingerprint"
	"github.com/mark3labs/mcp-go/client"
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

// BenchmarkLoadStdio starts one stdio server with 50 tools, negotiates and
// lists its tools, through this package with default options and through
// raw mcp-go doing the same (NewStdioMCPClient, Initialize with its
// server/discover probe, ListTools): the ratio of the two is what this
// package adds to starting a server. Closing is left out of both. The
// ratio sub-benchmark alternates the two and reports the ratio of their
// medians, which other work on the machine disturbs less than two runs
// one after the other.
func BenchmarkLoadStdio(b *testing.B) {
	const n = 50
	conn := stdioServer("many", "MCPSERVERS_TOOLS", strconv.Itoa(n))
	conns := map[string]Connection{"many": conn}
	env := os.Environ()
	for k, v := range conn.Env {
		env = append(env, k+"="+v)
	}
	// Each returns how long the load took, and closes after.
	ours := func(b *testing.B) time.Duration {
		_, d := timedLoad(b, conns, nil, n)
		return d
	}
	raw := func(b *testing.B) time.Duration {
		ctx := context.Background()
		t0 := time.Now()
		mc, err := client.NewStdioMCPClient(conn.Command, env)
		if err != nil {
			b.Fatal(err)
		}
		init := mcp.InitializeRequest{}
		init.Params.ClientInfo = mcp.Implementation{Name: "bench", Version: "1"}
		if _, err := mc.Initialize(ctx, init); err != nil {
			b.Fatal(err)
		}
		res, err := mc.ListTools(ctx, mcp.ListToolsRequest{})
		if err != nil || len(res.Tools) != n {
			b.Fatal(err)
		}
		d := time.Since(t0)
		mc.Close()
		return d
	}
	for _, bc := range []struct {
		name string
		load func(*testing.B) time.Duration
	}{{"mcpservers", ours}, {"mcp-go", raw}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var total time.Duration
			// The timer runs through each load and its close: stopping it
			// would leave b.Loop timing almost nothing and growing b.N
			// until the run took hours. load-ms/op is the load alone.
			for b.Loop() {
				total += bc.load(b)
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "load-ms/op")
		})
	}
	b.Run("ratio", func(b *testing.B) {
		var a, r []time.Duration
		for b.Loop() {
			a = append(a, ours(b))
			r = append(r, raw(b))
		}
		b.ReportMetric(float64(median(a))/float64(median(r)), "mcpservers/mcp-go")
	})
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkBuildShare is what building a definition adds to loading: the
// 50 tools of one stdio server, given one InterceptorFunc, built cold (a
// new Fingerprinter, every source file read again, as a program's first
// Build) and warm (the Fingerprinter of an earlier Build). Each reports
// its median as a share of the median load of the same tools in the same
// run (load: NewClient and Tools, as in BenchmarkLoadStdio).
func BenchmarkBuildShare(b *testing.B) {
	const n = 50
	conns := map[string]Connection{"many": stdioServer("many", "MCPSERVERS_TOOLS", strconv.Itoa(n))}
	opts := &ClientOptions{Interceptors: []Interceptor{InterceptorFunc(func(ctx context.Context, req *CallRequest, next CallFunc) (*Result, error) {
		return next(ctx, req)
	})}}
	load := func(b *testing.B) ([]*Tool, time.Duration) { return timedLoad(b, conns, opts, n) }
	tools, _ := load(b)
	agent := &definition.Agent{Name: "bench"}
	for _, t := range tools {
		agent.Tools = append(agent.Tools, t)
	}
	build := func(b *testing.B, o *definition.Options) time.Duration {
		t0 := time.Now()
		if _, err := definition.Build(agent, o); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	warm := &definition.Options{Fingerprinter: fingerprint.New(nil)}
	build(b, warm)
	for _, bc := range []struct {
		name string
		opts func() *definition.Options
	}{
		{"cold", func() *definition.Options { return nil }},
		{"warm", func() *definition.Options { return warm }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var loads, builds []time.Duration
			// The timer runs through the load too (see BenchmarkLoadStdio);
			// the metrics are the medians of the timed parts.
			for b.Loop() {
				_, l := load(b)
				loads = append(loads, l)
				builds = append(builds, build(b, bc.opts()))
			}
			b.ReportMetric(float64(median(builds).Microseconds())/1000, "build-ms")
			b.ReportMetric(float64(median(loads).Microseconds())/1000, "load-ms")
			b.ReportMetric(100*float64(median(builds))/float64(median(loads)), "%-of-load")
		})
	}
}

// timedLoad makes a Client of conns and loads its n tools, timing both,
// then closes it: the tools keep their records, which is all Build reads.
func timedLoad(b *testing.B, conns map[string]Connection, opts *ClientOptions, n int) ([]*Tool, time.Duration) {
	t0 := time.Now()
	c, err := NewClient(conns, opts)
	if err != nil {
		b.Fatal(err)
	}
	tools, err := c.Tools(context.Background())
	if err != nil || len(tools) != n {
		b.Fatal(len(tools), err)
	}
	d := time.Since(t0)
	c.Close()
	return tools, d
}
