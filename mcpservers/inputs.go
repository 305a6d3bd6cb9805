package mcpservers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// answer fulfils a round of a server's requests for input (2026-07-28
// inputRequests), in key order, and renders the inputResponses to send back.
// An elicitation with neither a handler nor an answer interrupts the call
// before any other request is acted on, so that no handler runs for a round
// that is not sent.
func (sess *session) answer(ctx context.Context, cs *callState, requests map[string]json.RawMessage) (json.RawMessage, error) {
	srv := sess.srv
	keys := sortedKeys(requests)
	type input struct {
		key, method string
		params      json.RawMessage
	}
	inputs := make([]input, 0, len(keys))
	var pending []*ElicitationRequest
	for _, key := range keys {
		o, err := decodeObject(requests[key])
		if err != nil {
			return nil, srv.callError(cs.tool, ErrProtocol, fmt.Sprintf("input request %q cannot be read", key), err)
		}
		method, err := o.str("method")
		if err != nil {
			return nil, srv.callError(cs.tool, ErrProtocol, fmt.Sprintf("input request %q has no method", key), err)
		}
		in := input{key: key, method: method, params: o["params"]}
		if method == string(mcp.MethodElicitationCreate) && cs.opts.elicitation == nil {
			if _, ok := cs.answers[key]; !ok {
				er, err := parseElicitation(in.params)
				if err != nil {
					return nil, srv.callError(cs.tool, ErrProtocol, fmt.Sprintf("input request %q cannot be read: %v", key, err), err)
				}
				er.Server, er.Tool, er.Key = cs.server, cs.tool, key
				pending = append(pending, er)
			}
		}
		inputs = append(inputs, in)
	}
	if len(pending) > 0 {
		return nil, &ElicitationRequired{Server: cs.server, Tool: cs.tool, Requests: pending}
	}

	responses := make(map[string]json.RawMessage, len(inputs))
	for _, in := range inputs {
		var (
			out json.RawMessage
			err error
		)
		switch in.method {
		case string(mcp.MethodElicitationCreate):
			out, err = cs.elicit(ctx, in.key, in.params)
		case string(mcp.MethodSamplingCreateMessage):
			out, err = cs.sample(ctx, in.key, in.params)
		case string(mcp.MethodListRoots):
			out, err = cs.listRoots(ctx, in.key)
		default:
			return nil, srv.callError(cs.tool, ErrProtocol, fmt.Sprintf("input request %q asks for %q, which this client does not know", in.key, in.method), nil)
		}
		if err != nil {
			return nil, srv.inputError(cs.tool, in.key, err)
		}
		responses[in.key] = out
	}
	b, err := json.Marshal(responses)
	if err != nil {
		return nil, srv.callError(cs.tool, ErrHandler, "the answers cannot be encoded", err)
	}
	return b, nil
}

// errNoSampling and errNoRoots mean a server asked for what no handler
// provides.
var (
	errNoSampling = errors.New("the server asked for sampling, and there is no sampling handler")
	errNoRoots    = errors.New("the server asked for roots, and there is no roots handler")
)

// inputError reports a request the call could not answer.
func (s *remote) inputError(tool, key string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, errNoSampling) || errors.Is(err, errNoRoots) {
		return s.callError(tool, ErrNoHandler, err.Error(), err)
	}
	var proto *protocolError
	if errors.As(err, &proto) {
		return s.callError(tool, ErrProtocol, fmt.Sprintf("input request %q: %s", key, proto.msg), err)
	}
	return s.callError(tool, ErrHandler, fmt.Sprintf("input request %q: %s", key, s.red.Describe(err)), err)
}

// protocolError is a server request that cannot be read.
type protocolError struct{ msg string }

func (e *protocolError) Error() string { return e.msg }

// elicit answers an elicitation: with the handler, or from the answers the
// call was resumed with.
func (cs *callState) elicit(ctx context.Context, key string, params json.RawMessage) (json.RawMessage, error) {
	er, err := parseElicitation(params)
	if err != nil {
		return nil, &protocolError{err.Error()}
	}
	er.Server, er.Tool, er.Key = cs.server, cs.tool, key
	var resp *ElicitationResponse
	if h := cs.opts.elicitation; h != nil {
		if resp, err = h.Elicit(ctx, er); err != nil {
			return nil, err
		}
	} else {
		a := cs.answers[key]
		resp = &a
	}
	return encodeElicitation(resp, er)
}

func (cs *callState) sample(ctx context.Context, key string, params json.RawMessage) (json.RawMessage, error) {
	h := cs.opts.sampling
	if h == nil {
		return nil, errNoSampling
	}
	sr, err := parseSampling(params)
	if err != nil {
		return nil, &protocolError{err.Error()}
	}
	sr.Server, sr.Tool, sr.Key = cs.server, cs.tool, key
	res, err := h.CreateMessage(ctx, sr)
	if err != nil {
		return nil, err
	}
	return encodeSampling(res)
}

func (cs *callState) listRoots(ctx context.Context, key string) (json.RawMessage, error) {
	h := cs.opts.roots
	if h == nil {
		return nil, errNoRoots
	}
	roots, err := h.ListRoots(ctx, &RootsRequest{Server: cs.server, Tool: cs.tool, Key: key})
	if err != nil {
		return nil, err
	}
	return encodeRoots(roots)
}
