package mcpservers

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
)

// legacyHandlers answer the requests a server before 2026-07-28 sends
// during a call, for mcp-go's client. Such a request does not say which
// call it belongs to: over streamable HTTP it comes on the call's own
// stream, whose context says; over stdio and the GET stream it is taken to
// belong to the call in flight when there is exactly one.
type legacyHandlers struct{ sess *session }

func (h legacyHandlers) callOf(ctx context.Context) *callState {
	if cs, ok := ctx.Value(callStateKey{}).(*callState); ok {
		return cs
	}
	return h.sess.soleCall()
}

// Errors sent back to the server say nothing of the handler's own error,
// which may hold anything.
var (
	errLegacyHandler    = errors.New("the client's handler failed")
	errLegacyNoHandler  = errors.New("the client has no handler for this request")
	errLegacyUnreadable = errors.New("the client cannot read the request")
	// errLegacyInterrupted answers a request that interrupts its call.
	errLegacyInterrupted = errors.New("the client interrupted the call to ask its user; the call will be made again")
)

func (h legacyHandlers) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	raw, err := json.Marshal(req.Params)
	if err != nil {
		return nil, errLegacyUnreadable
	}
	er, err := parseElicitation(raw)
	if err != nil {
		return nil, errLegacyUnreadable
	}
	er.Server = h.sess.srv.cfg.name
	cs := h.callOf(ctx)
	opts := h.sess.srv.opts
	if cs != nil {
		opts = cs.opts
		er.Tool, er.Key = cs.tool, cs.nextLegacyKey()
	}
	var resp *ElicitationResponse
	switch {
	case opts.elicitation != nil:
		resp, err = opts.elicitation.Elicit(ctx, er)
		if err != nil {
			if cs != nil {
				cs.cancel(&handlerFailure{err})
			}
			return nil, errLegacyHandler
		}
	case cs == nil:
		return nil, errLegacyNoHandler
	default:
		a, ok := cs.answers[er.Key]
		if !ok {
			// Interrupt the call. The server is answered with an error, not
			// "cancel": a tool told the user cancelled may go on and ask
			// again, and nothing says which call a later question is for.
			cs.interrupt(er)
			return nil, errLegacyInterrupted
		}
		resp = &a
	}
	b, err := encodeElicitation(resp, er)
	if err != nil {
		if cs != nil {
			cs.cancel(&handlerFailure{err})
		}
		return nil, errLegacyHandler
	}
	var out mcp.ElicitationResult
	if err := json.Unmarshal(b, &out.ElicitationResponse); err != nil {
		return nil, errLegacyHandler
	}
	return &out, nil
}

func (h legacyHandlers) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	raw, err := json.Marshal(req.CreateMessageParams)
	if err != nil {
		return nil, errLegacyUnreadable
	}
	sr, err := parseSampling(raw)
	if err != nil {
		return nil, errLegacyUnreadable
	}
	sr.Server = h.sess.srv.cfg.name
	cs := h.callOf(ctx)
	opts := h.sess.srv.opts
	if cs != nil {
		opts, sr.Tool = cs.opts, cs.tool
	}
	if opts.sampling == nil {
		return nil, errLegacyNoHandler
	}
	res, err := opts.sampling.CreateMessage(ctx, sr)
	if err == nil {
		var b json.RawMessage
		if b, err = encodeSampling(res); err == nil {
			var out mcp.CreateMessageResult
			if err = json.Unmarshal(b, &out); err == nil {
				return &out, nil
			}
		}
	}
	if cs != nil {
		cs.cancel(&handlerFailure{err})
	}
	return nil, errLegacyHandler
}

func (h legacyHandlers) ListRoots(ctx context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	cs := h.callOf(ctx)
	opts := h.sess.srv.opts
	rr := &RootsRequest{Server: h.sess.srv.cfg.name}
	if cs != nil {
		opts, rr.Tool = cs.opts, cs.tool
	}
	if opts.roots == nil {
		return nil, errLegacyNoHandler
	}
	roots, err := opts.roots.ListRoots(ctx, rr)
	if err != nil {
		if cs != nil {
			cs.cancel(&handlerFailure{err})
		}
		return nil, errLegacyHandler
	}
	out := &mcp.ListRootsResult{Roots: make([]mcp.Root, 0, len(roots))}
	for _, r := range slices.Clone(roots) {
		out.Roots = append(out.Roots, mcp.Root{URI: r.URI, Name: r.Name})
	}
	return out, nil
}
