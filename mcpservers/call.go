package mcpservers

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/mark3labs/mcp-go/client/transport"
)

// callState is one tool call in flight: what the server's requests during
// the call are answered with, and how the call is ended early.
type callState struct {
	server, tool string
	opts         *options
	answers      map[string]ElicitationResponse
	cancel       context.CancelCauseFunc

	mu        sync.Mutex
	legacySeq int
	pending   []*ElicitationRequest
}

type (
	callStateKey struct{}
	answersKey   struct{}
	writtenKey   struct{} // *atomic.Bool: an HTTP request of the call was sent
)

// handlerFailure ends a call whose handler failed.
type handlerFailure struct{ err error }

func (h *handlerFailure) Error() string { return "handler failed: " + h.err.Error() }
func (h *handlerFailure) Unwrap() error { return h.err }

// errNotSent means a call failed before it reached the server, on a dead
// session: it is safe to send again on a new one.
var errNotSent = errors.New("not sent")

// notSent is errNotSent with the call's error, should it not be sent
// again.
type notSent struct{ report error }

func (e *notSent) Error() string { return errNotSent.Error() }
func (e *notSent) Unwrap() error { return errNotSent }

// Round-trip bounds, as mcp-go's client: at most this many rounds of a
// server asking for input, or of it asking to retry without asking
// anything.
const (
	maxInputRounds   = 10
	maxSheddingRound = 3
)

// send is the end of a tool's interceptor chain: it calls the server.
func (t *Tool) send(ctx context.Context, req *CallRequest) (*Result, error) {
	// An interceptor calls next with what it likes.
	if req == nil {
		return nil, invalidUse(t.srv.cfg.name, t.wt.name, "call", "an interceptor called next with a nil *CallRequest")
	}
	if ctx == nil {
		return nil, invalidUse(t.srv.cfg.name, req.Name, "call", "an interceptor called next with a nil context")
	}
	answers, _ := ctx.Value(answersKey{}).(map[string]ElicitationResponse)
	if len(req.Header) > 0 {
		ctx = context.WithValue(ctx, callHeaderKey{}, req.Header.Clone())
	}
	var args json.RawMessage
	if req.Arguments != nil {
		b, err := json.Marshal(req.Arguments)
		if err != nil {
			return nil, t.srv.callError(req.Name, ErrBadArguments, "the arguments cannot be encoded as JSON", err)
		}
		args = b
	}
	for attempt := 0; ; attempt++ {
		sess, err := t.srv.session(ctx)
		if err != nil {
			return nil, t.srv.asCallError(req.Name, err)
		}
		res, err := sess.call(ctx, t, req.Name, args, answers)
		if errors.Is(err, errNotSent) {
			if attempt == 0 && !t.srv.fixed {
				continue
			}
			if ns, ok := err.(*notSent); ok {
				return nil, ns.report
			}
			return nil, t.srv.callError(req.Name, ErrConnect, "the connection died and could not be made again: "+sess.lostReason().Error(), nil)
		}
		return res, err
	}
}

// callParams renders tools/call params by hand: the arguments are already
// JSON, and encoding/json would scan them again.
func callParams(name string, args, meta, responses, state json.RawMessage) json.RawMessage {
	n, _ := json.Marshal(name)
	b := make([]byte, 0, len(n)+len(args)+len(meta)+len(responses)+len(state)+80)
	b = append(b, `{"name":`...)
	b = append(b, n...)
	if args != nil {
		b = append(b, `,"arguments":`...)
		b = append(b, args...)
	}
	if meta != nil {
		b = append(b, `,"_meta":`...)
		b = append(b, meta...)
	}
	if responses != nil {
		b = append(b, `,"inputResponses":`...)
		b = append(b, responses...)
	}
	if state != nil {
		b = append(b, `,"requestState":`...)
		b = append(b, state...)
	}
	return append(b, '}')
}

// call makes one call on this session, answering the server's requests for
// input (2026-07-28 multi round-trip) until it gives a result.
func (sess *session) call(ctx context.Context, t *Tool, name string, args json.RawMessage, answers map[string]ElicitationResponse) (*Result, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	cs := &callState{server: sess.srv.cfg.name, tool: name, opts: t.opts, answers: answers, cancel: cancel}
	if !sess.track(cs) {
		return nil, errNotSent
	}
	defer sess.untrack(cs)
	ctx = context.WithValue(ctx, callStateKey{}, cs)
	var written *atomic.Bool
	if sess.http {
		written = new(atomic.Bool)
		ctx = context.WithValue(ctx, writtenKey{}, written)
	}
	token := ""
	if t.opts.onProgress != nil && sess.srv.cb != nil {
		token = sess.srv.cb.register(cs.server, name, t.opts.onProgress)
	}
	meta := sess.metaFor(token)

	var responses, state json.RawMessage
	shedding := 0
	for round := 1; ; round++ {
		raw, err := sess.send(ctx, "tools/call", callParams(name, args, meta, responses, state))
		if err == nil && endedHere(ctx) {
			// The call was ended here (interrupted to ask the user, or a
			// handler failed) and the server was told so; its answer to
			// that arrived as well, and mcp-go's transports pick at random
			// between a response and a done context that are both ready.
			// The outcome is ours: the answer is to our refusal.
			err = context.Cause(ctx)
		}
		if err != nil {
			return nil, sess.callFailure(ctx, cs, err, round, written)
		}
		cr, err := parseCallResult(raw)
		if err != nil {
			return nil, sess.srv.callError(name, ErrProtocol, "the result cannot be read: "+sess.srv.red.Describe(err), err)
		}
		if !cr.inputRequired {
			return cr.result, nil
		}
		if len(cr.inputRequests) == 0 {
			if shedding++; shedding >= maxSheddingRound {
				return nil, sess.srv.callError(name, ErrProtocol, "the server asked "+strconv.Itoa(shedding)+" times to retry without asking for input", nil)
			}
		} else {
			shedding = 0
		}
		if round >= maxInputRounds {
			return nil, sess.srv.callError(name, ErrProtocol, "the server asked for input "+strconv.Itoa(round)+" times", nil)
		}
		responses, err = sess.answer(ctx, cs, cr.inputRequests)
		if err != nil {
			if ctx.Err() != nil {
				return nil, sess.callFailure(ctx, cs, err, round, written)
			}
			return nil, err
		}
		state = cr.requestState
	}
}

// endedHere reports whether a call's context was ended by this package on
// the call's own account: interrupted for elicitation, or a handler failed.
func endedHere(ctx context.Context) bool {
	if ctx.Err() == nil {
		return false
	}
	cause := context.Cause(ctx)
	var hf *handlerFailure
	return errors.Is(cause, errInterrupted) || errors.As(cause, &hf)
}

// callFailure explains why a request of a call failed.
func (sess *session) callFailure(ctx context.Context, cs *callState, err error, round int, written *atomic.Bool) error {
	srv := sess.srv
	name := cs.tool
	if re, detail, ok := refusedRedirect(ctx, srv.red, err); ok && !endedHere(ctx) && !errors.Is(context.Cause(ctx), errClosedClient) {
		// The server answered with a redirect, or named an endpoint,
		// that is not followed: nothing was sent there.
		return srv.callError(name, ErrRedirect, detail, re)
	}
	if ctx.Err() != nil {
		cause := context.Cause(ctx)
		var hf *handlerFailure
		switch {
		case errors.Is(cause, errInterrupted):
			return cs.interruption()
		case errors.As(cause, &hf):
			return srv.callError(name, ErrHandler, srv.red.Describe(hf.err), hf.err)
		case errors.Is(cause, errClosedClient):
			return srv.callError(name, ErrClosed, "", nil)
		case errors.Is(cause, errStreamLost), errors.Is(cause, errSessionLost):
			return srv.callError(name, ErrConnectionLost, sess.lostReason().Error(), cause)
		}
		return srv.callError(name, ctx.Err(), "", nil)
	}
	if errors.Is(err, errNoResponse) || errors.Is(err, errNoResult) {
		return srv.callError(name, ErrProtocol, err.Error(), err)
	}
	var refused *sessionRefused
	if errors.As(err, &refused) {
		// The server did not run the call: send it again, once, on a new
		// session. Should that be refused too, the server's answer is the
		// call's error.
		sess.markLost(errSessionEnded, false)
		detail := "HTTP status " + strconv.Itoa(refused.status)
		var rpc *RPCError
		if errors.As(err, &rpc) {
			detail += ": " + rpc.Error()
		}
		if round == 1 {
			return &notSent{report: srv.callError(name, ErrServer, detail, err)}
		}
		return srv.callError(name, ErrConnectionLost, refused.Error(), err)
	}
	var rpc *RPCError
	if errors.As(err, &rpc) {
		return srv.callError(name, ErrServer, rpc.Error(), rpc)
	}
	if errors.Is(err, transport.ErrSessionTerminated) {
		if sess.modern {
			// 2026-07-28 has no sessions: mcp-go reports any 404, such as
			// a method the server does not know, as a terminated session.
			return srv.callError(name, ErrServer, "HTTP status 404", err)
		}
		// The server has forgotten the session, so it did not run the call.
		sess.markLost(errSessionEnded, false)
		if round == 1 {
			return errNotSent
		}
		return srv.callError(name, ErrConnectionLost, errSessionEnded.Error(), err)
	}
	srv.mu.Lock()
	closed := srv.closed
	srv.mu.Unlock()
	if closed || srv.fixed && errors.Is(err, transport.ErrTransportClosed) {
		return srv.callError(name, ErrClosed, "", nil)
	}
	if sess.proc != nil && round == 1 && unwritten(err) {
		// The request never reached the pipe: the server did not get it.
		sess.markLost(errSessionLost, false)
		return errNotSent
	}
	if sess.proc != nil || sess.isLost() {
		return srv.callError(name, ErrConnectionLost, sess.lostReason().Error(), err)
	}
	if written != nil && !written.Load() {
		return srv.callError(name, ErrConnect, describeTransportError(srv.red, err), err)
	}
	if _, ok := httpStatus(err); ok {
		return srv.callError(name, ErrServer, describeTransportError(srv.red, err), err)
	}
	if isDecodeError(err) {
		return srv.callError(name, ErrProtocol, describeTransportError(srv.red, err), err)
	}
	// On SSE the POST and the stream are one session: a POST lost under
	// the call says the stream may be going too (its loss can be seen
	// only after this), so the next call makes a new session. A
	// streamable HTTP POST carries its own answer; its loss says nothing
	// of the calls beside it, which a new session would end.
	if srv.cfg.transport == definition.TransportSSE {
		sess.markLost(errSessionLost, false)
	}
	return srv.callError(name, ErrConnectionLost, describeTransportError(srv.red, err), err)
}

// unwritten reports whether a stdio request failed to be written at all:
// the server's end of the pipe was gone.
func unwritten(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed)
}

// isDecodeError tells mcp-go's "cannot read the response" errors.
func isDecodeError(err error) bool {
	s := err.Error()
	return strings.Contains(s, "failed to decode response") || strings.Contains(s, "unexpected content type")
}

// callError is an *Error for a call.
func (s *remote) callError(tool string, kind error, detail string, cause error) *Error {
	return &Error{Server: s.cfg.name, Tool: tool, Op: "call", Kind: kind, Err: cause, detail: detail}
}

// asCallError reports a failure to get a session as the call's.
func (s *remote) asCallError(tool string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		c := *e
		c.Op, c.Tool = "call", tool
		return &c
	}
	if errors.Is(err, errClosedClient) {
		return s.callError(tool, ErrClosed, "", nil)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return s.callError(tool, err, "", nil)
	}
	return s.callError(tool, ErrConnect, s.red.Describe(err), err)
}

// nextLegacyKey names a request a pre-2026 server sent during the call:
// they have no key of their own.
func (cs *callState) nextLegacyKey() string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.legacySeq++
	return "elicitation-" + strconv.Itoa(cs.legacySeq)
}

// interrupt ends the call to ask the caller for input.
func (cs *callState) interrupt(r *ElicitationRequest) {
	cs.mu.Lock()
	cs.pending = append(cs.pending, r)
	cs.mu.Unlock()
	cs.cancel(errInterrupted)
}

func (cs *callState) interruption() *ElicitationRequired {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	reqs := slices.Clone(cs.pending)
	slices.SortFunc(reqs, func(a, b *ElicitationRequest) int { return strings.Compare(a.Key, b.Key) })
	return &ElicitationRequired{Server: cs.server, Tool: cs.tool, Requests: reqs}
}
