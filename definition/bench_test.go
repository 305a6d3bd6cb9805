package definition_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/fingerprint"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// benchAgent is an agent of 200 MCP tools from 20 stdio servers, with 20
// interceptors on every tool.
func benchAgent(b *testing.B) *definition.Agent {
	b.Helper()
	conns := map[string]mcpservers.Connection{}
	for s := range 20 {
		name := fmt.Sprintf("server%02d", s)
		// Every tool has a schema of its own, as real servers' tools do.
		spec := serverSpec{Name: name}
		for t := range 10 {
			tool := fmt.Sprintf("%s_tool%02d", name, t)
			spec.Tools = append(spec.Tools, toolSpec{Name: tool, Description: "The " + tool + " tool: it does one thing well.",
				Schema:      json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"query_%d":{"type":"string","description":"what to look for"},"limit":{"type":"integer","minimum":1,"maximum":%d}},"required":["query_%d"]}`, t, 10+s, t)),
				Annotations: &annotations{ReadOnly: ptr(t%2 == 0)}})
		}
		conns[name] = stdio(b, spec, "--index", fmt.Sprint(s))
	}
	var ics []mcpservers.Interceptor
	for i := range 20 {
		switch i % 4 {
		case 0:
			ics = append(ics, auditInterceptor{header: fmt.Sprint(i)})
		case 1:
			ics = append(ics, tagger{secret: fmt.Sprint(i)})
		case 2:
			n := i
			ics = append(ics, mcpservers.InterceptorFunc(func(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
				req.Arguments["n"] = n
				return next(ctx, req)
			}))
		default:
			ics = append(ics, mcpservers.InterceptorFunc(passThrough))
		}
	}
	ts := load(b, conns, &mcpservers.ClientOptions{Interceptors: ics})
	if len(ts) != 200 {
		b.Fatalf("loaded %d tools", len(ts))
	}
	a := &definition.Agent{Name: "big"}
	for _, t := range ts {
		a.Tools = append(a.Tools, t)
	}
	return a
}

func passThrough(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	return next(ctx, req)
}

// BenchmarkBuild200Tools: tools loaded; warm reuses a Fingerprinter whose
// caches are filled, cold makes a new one per Build (every source file
// parsed again).
func BenchmarkBuild200Tools(b *testing.B) {
	a := benchAgent(b)
	b.Run("warm", func(b *testing.B) {
		fp := fingerprint.New(nil)
		opts := &definition.Options{Fingerprinter: fp, Cache: definition.NewCache()}
		if _, err := definition.Build(a, opts); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := definition.Build(a, opts); err != nil {
				b.Fatal(err)
			}
		}
	})
	// warm-no-cache reuses the Fingerprinter only: every schema is parsed.
	b.Run("warm-no-cache", func(b *testing.B) {
		opts := &definition.Options{Fingerprinter: fingerprint.New(nil)}
		if _, err := definition.Build(a, opts); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := definition.Build(a, opts); err != nil {
				b.Fatal(err)
			}
		}
	})
	// warm+document also validates and encodes the document, as an export
	// does.
	b.Run("warm+document", func(b *testing.B) {
		opts := &definition.Options{Fingerprinter: fingerprint.New(nil), Cache: definition.NewCache()}
		if _, err := definition.Build(a, opts); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			d, err := definition.Build(a, opts)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := d.Document(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := definition.Build(a, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkVet is the per-call check of an agent loop.
func BenchmarkVet(b *testing.B) {
	a := benchAgent(b)
	d, err := definition.Build(a, &definition.Options{Fingerprinter: fingerprint.New(nil), Cache: definition.NewCache()})
	if err != nil {
		b.Fatal(err)
	}
	tool := a.Tools[0]
	// memo: the tool presents what it presented when it last passed, as
	// an agent loop's calls do.
	b.Run("memo", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := d.Vet(tool); err != nil {
				b.Fatal(err)
			}
		}
	})
	// full: the tool recorded anew, as on its first call.
	b.Run("full", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := definition.VetFull(d, tool); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkBoundCall is a real stdio call, with and without a definition
// bound to its context: the cost of the call-time check. Report bound as a
// ratio to unbound.
func BenchmarkBoundCall(b *testing.B) {
	spec := docsSpec("docs", "search_docs")
	tool := load(b, map[string]mcpservers.Connection{"docs": stdio(b, spec)}, &mcpservers.ClientOptions{
		Interceptors: []mcpservers.Interceptor{auditInterceptor{header: "1"}, mcpservers.InterceptorFunc(passThrough)},
	})["search_docs"]
	d, err := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{tool}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	args := map[string]any{"query": "stdio"}
	for _, bench := range []struct {
		name string
		ctx  context.Context
	}{{"unbound", context.Background()}, {"bound", d.Bind(context.Background())}} {
		b.Run(bench.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tool.Call(bench.ctx, args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
