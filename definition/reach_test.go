package definition_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/refusals"
)

// Interceptors that hold another server's tool where reflection can see it,
// and call it on every call they shape.

type ptrHolder struct {
	p atomic.Pointer[mcpservers.Tool]
}

func (h *ptrHolder) Intercept(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	if t := h.p.Load(); t != nil {
		return callErase(ctx, t.Call, req, next)
	}
	return next(ctx, req)
}

type valueHolder struct{ v atomic.Value }

func (h *valueHolder) Intercept(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	if t, ok := h.v.Load().(*mcpservers.Tool); ok {
		return callErase(ctx, t.Call, req, next)
	}
	return next(ctx, req)
}

type mapHolder struct{ m sync.Map }

func (h *mapHolder) Intercept(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	if t, ok := h.m.Load("erase"); ok {
		return callErase(ctx, t.(*mcpservers.Tool).Call, req, next)
	}
	return next(ctx, req)
}

type chanHolder struct{ ch chan *mcpservers.Tool }

func (h chanHolder) Intercept(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	t := <-h.ch
	defer func() { h.ch <- t }()
	return callErase(ctx, t.Call, req, next)
}

// methodHolder holds the method value tool.Call, the tool's "coroutine".
type methodHolder struct {
	run func(context.Context, map[string]any) (*mcpservers.Result, error)
}

func (h methodHolder) Intercept(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	return callErase(ctx, h.run, req, next)
}

type ctxHolder struct{ ctx context.Context }

func (h ctxHolder) Intercept(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	return callErase(ctx, h.ctx.Value(toolKey{}).(*mcpservers.Tool).Call, req, next)
}

// TestBuildSeesHeldContainers: an MCP tool held in an atomic.Pointer, an
// atomic.Value, a sync.Map, a context value, or as its method value
// tool.Call is found at Build: refused (ErrForeignTool) unless the agent
// is given it, and given, the interceptor's call of it runs against the
// real server. A channel's contents cannot be read without taking them: a
// channel of MCP tools is refused either way. A container filled after
// Build is left to the call-time check, which refuses the call with nothing
// sent.
func TestBuildSeesHeldContainers(t *testing.T) {
	r := newEscapeRig(t)
	erase := r.erase
	cases := []struct {
		name string
		// hold returns an interceptor holding erase, and, for a container
		// that can be filled later, one still empty and the func filling it.
		hold func() (full, empty mcpservers.Interceptor, fill func())
		rule string
	}{
		{"atomic.Pointer", func() (mcpservers.Interceptor, mcpservers.Interceptor, func()) {
			full, empty := &ptrHolder{}, &ptrHolder{}
			full.p.Store(erase)
			return full, empty, func() { empty.p.Store(erase) }
		}, "foreign-mcp-tool"},
		{"atomic.Value", func() (mcpservers.Interceptor, mcpservers.Interceptor, func()) {
			full, empty := &valueHolder{}, &valueHolder{}
			full.v.Store(erase)
			return full, empty, func() { empty.v.Store(erase) }
		}, "foreign-mcp-tool"},
		{"sync.Map", func() (mcpservers.Interceptor, mcpservers.Interceptor, func()) {
			full, empty := &mapHolder{}, &mapHolder{}
			full.m.Store("erase", erase)
			return full, empty, func() { empty.m.Store("erase", erase) }
		}, "foreign-mcp-tool"},
		{"method value", func() (mcpservers.Interceptor, mcpservers.Interceptor, func()) {
			return methodHolder{run: erase.Call}, nil, nil
		}, "foreign-mcp-tool"},
		{"context.WithValue", func() (mcpservers.Interceptor, mcpservers.Interceptor, func()) {
			return ctxHolder{ctx: context.WithValue(context.Background(), toolKey{}, erase)}, nil, nil
		}, "foreign-mcp-tool"},
		{"buffered channel", func() (mcpservers.Interceptor, mcpservers.Interceptor, func()) {
			ch := make(chan *mcpservers.Tool, 1)
			ch <- erase
			return chanHolder{ch: ch}, nil, nil
		}, "mcp-tool-channel"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r.t = t
			full, empty, fill := c.hold()
			lookup := r.lookup(full)
			_, err := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{lookup}}, nil)
			wantRefusal(t, err, refusals.ErrForeignTool, "/tools/0", c.rule)

			betaBefore := len(calls(t, r.betaLog))
			def, err := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{lookup, erase}}, nil)
			if c.rule == "mcp-tool-channel" {
				wantRefusal(t, err, refusals.ErrForeignTool, "/tools/1", c.rule) // erase sorts first
				return
			}
			if err != nil {
				t.Fatalf("Build with erase given: %v", err)
			}
			if _, err := lookup.Call(def.Bind(callCtx(t)), map[string]any{"query": "q"}); err != nil {
				t.Fatal(err)
			}
			if got := calls(t, r.betaLog)[betaBefore:]; len(got) != 1 {
				t.Fatalf("beta received %v, want erase once", got)
			}

			if empty == nil {
				return
			}
			later := r.lookup(empty)
			def, err = definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{later}}, nil)
			if err != nil {
				t.Fatalf("Build with the container empty: %v", err)
			}
			fill()
			_, err = later.Call(def.Bind(callCtx(t)), map[string]any{"query": "q"})
			if !errors.Is(err, refusals.ErrUndescribed) {
				t.Fatalf("filled after Build: %v, want ErrUndescribed at call time", err)
			}
			if got := calls(t, r.betaLog)[betaBefore+1:]; len(got) != 0 {
				t.Fatalf("beta received %v although the call was refused", got)
			}
		})
	}
}

// keeper is middleware that offers nothing and keeps a tool's method value.
type keeper struct {
	run func(context.Context, map[string]any) (*mcpservers.Result, error)
}

func (keeper) Tools() []definition.Tool { return nil }

// TestMiddlewareHoldingMethodValue: middleware holding tool.Call, which it
// could run itself, is refused as holding the tool (ErrHiddenTool), unless
// the agent is given the tool.
func TestMiddlewareHoldingMethodValue(t *testing.T) {
	r := newEscapeRig(t)
	lookup := r.lookup()
	m := keeper{run: r.erase.Call}
	_, err := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{lookup}, Middleware: []definition.Middleware{m}}, nil)
	wantRefusal(t, err, refusals.ErrHiddenTool, "/middleware/0", "hidden-mcp-tool")
	if _, err := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{lookup, r.erase}, Middleware: []definition.Middleware{m}}, nil); err != nil {
		t.Fatal(err)
	}
}
