package definition

import (
	"context"
	"strings"
)

// A definition bound to a context makes every call made with that context
// check itself against the definition before anything is sent: an agent
// loop binds its definition once per run, and the tools, their
// interceptors, middleware and the code they call all receive that context.
// mcpservers' Tool.Call and Resume, and FuncTool.Call, vet themselves with
// VetCall; a tool the definition does not describe is refused where its
// call is made, whoever makes it.

type bindingKey struct{}

// binding is one definition bound to a context, and the bindings it was
// made inside: a call must pass them all, so binding again can only narrow
// what runs.
type binding struct {
	d         *Definition
	subAgents []string
	path      string // subAgents joined, the vet memo's key
	outer     *binding
}

// Bind returns a context carrying d: calls made with it, or with a context
// derived from it, vet the tool called against d (against the sub-agent
// subAgents names, and its sub-agents in turn, if given) before anything is
// sent, and are refused with an error for which
// errors.Is(err, refusals.ErrUndescribed) holds when d does not describe
// the tool. An agent loop binds its definition once per run:
//
//	ctx = def.Bind(ctx)
//	result, err := tool.Call(ctx, args) // vetted against def
//
// Binding a context that already carries a definition keeps the outer one
// too: a call must pass both. A nil or zero d refuses every call made with
// the context. A nil ctx is taken as context.Background().
func (d *Definition) Bind(ctx context.Context, subAgents ...string) context.Context {
	if ctx == nil {
		ctx = context.Background()
	}
	outer, _ := ctx.Value(bindingKey{}).(*binding)
	b := &binding{d: d, subAgents: append([]string(nil), subAgents...), outer: outer}
	b.path = memoPath(b.subAgents)
	return context.WithValue(ctx, bindingKey{}, b)
}

// FromContext returns the definition bound to ctx, innermost first, and the
// sub-agent it was bound for (nil for the top-level agent). ok is false when
// ctx carries none.
func FromContext(ctx context.Context) (d *Definition, subAgents []string, ok bool) {
	if ctx == nil {
		return nil, nil, false
	}
	b, _ := ctx.Value(bindingKey{}).(*binding)
	if b == nil {
		return nil, nil, false
	}
	return b.d, append([]string(nil), b.subAgents...), true
}

// VetCall vets tool t against every definition bound to ctx (see Bind),
// as Vet does, and returns the first refusal. With no definition bound it
// returns nil: the call goes ahead as it would without an agent. A tool's
// Call runs it before anything else; another Tool implementation should
// too.
func VetCall(ctx context.Context, t Tool) error {
	if ctx == nil {
		return nil
	}
	b, _ := ctx.Value(bindingKey{}).(*binding)
	for ; b != nil; b = b.outer {
		if err := b.d.vet(t, b.subAgents, b.path); err != nil {
			return err
		}
	}
	return nil
}

// memoPath is the sub-agent path as one string: names cannot hold NUL
// (the rule for names).
func memoPath(subAgents []string) string {
	if len(subAgents) == 0 {
		return ""
	}
	return strings.Join(subAgents, "\x00") + "\x00"
}
