package mcpservers

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/guardian-agent/guardian-go/definition"
)

// session is one live MCP connection: an mcp-go client (used to start,
// negotiate, and answer the server's requests) over a transport on which
// this package sends its own tools/list and tools/call requests, so that it
// sees the bytes the server sent.
type session struct {
	srv  *remote
	mc   *client.Client
	tr   transport.Interface
	proc *process        // stdio only
	own  *http.Transport // closed with the session, when ours

	http            bool // an HTTP transport: no cancellation notice, headers
	protocolVersion string
	modern          bool
	meta            string // the _meta members every modern request carries
	info            ServerInfo

	toolDefs atomic.Pointer[map[string]*mcp.Tool] // modern HTTP only

	ids atomic.Int64

	lost     chan struct{}
	lostOnce sync.Once
	lostWhy  error

	mu      sync.Mutex
	calls   map[*callState]struct{}
	waiters map[*context.CancelCauseFunc]struct{}

	closeOnce  sync.Once
	cancelLife context.CancelFunc
	bg         sync.WaitGroup // cancellation notices in flight
}

// Why a session ended.
var (
	errSessionLost  = errors.New("the connection was lost")
	errStreamLost   = errors.New("the event stream was lost")
	errInterrupted  = errors.New("interrupted for elicitation")
	errSessionEnded = errors.New("the server ended the session")
)

func newSession(s *remote) *session {
	return &session{srv: s, lost: make(chan struct{}), calls: map[*callState]struct{}{}, waiters: map[*context.CancelCauseFunc]struct{}{}}
}

func (sess *session) isLost() bool {
	select {
	case <-sess.lost:
		return true
	default:
		return false
	}
}

// markLost records that the session is dead. With cancel, the calls in
// flight end now, with why as their context's cause; without it they are
// left to the transport, which fails them once it has delivered whatever
// the server sent before it went.
func (sess *session) markLost(why error, cancel bool) {
	sess.lostOnce.Do(func() {
		sess.lostWhy = why
		close(sess.lost)
	})
	if cancel {
		sess.mu.Lock()
		for cs := range sess.calls {
			cs.cancel(why)
		}
		for w := range sess.waiters {
			(*w)(why)
		}
		sess.mu.Unlock()
	}
}

// bind returns a context that ends, with why as its cause, when the session
// is taken as lost with its waits cancelled (an SSE stream gone): connecting
// and listing would otherwise wait for answers that cannot come.
func (sess *session) bind(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	sess.mu.Lock()
	sess.waiters[&cancel] = struct{}{}
	sess.mu.Unlock()
	return ctx, func() {
		sess.mu.Lock()
		delete(sess.waiters, &cancel)
		sess.mu.Unlock()
		cancel(nil)
	}
}

// lostReason says why the session died, for an error.
func (sess *session) lostReason() error {
	if sess.proc != nil {
		return sess.proc.exitError()
	}
	select {
	case <-sess.lost:
		return sess.lostWhy
	default:
		return errSessionLost
	}
}

// close ends the session and everything it started, and waits for them.
func (sess *session) close() {
	sess.closeOnce.Do(func() {
		sess.markLost(errClosedClient, true)
		if sess.mc != nil {
			_ = sess.mc.Close()
		}
		if sess.proc != nil {
			sess.proc.stop()
		}
		if sess.cancelLife != nil {
			sess.cancelLife()
		}
		if sess.own != nil {
			sess.own.CloseIdleConnections()
		}
		sess.bg.Wait()
	})
}

// metaFor is a request's _meta object: the session's members and, when
// given, a progress token; nil when empty.
func (sess *session) metaFor(progressToken string) json.RawMessage {
	if sess.meta == "" && progressToken == "" {
		return nil
	}
	b := make([]byte, 0, len(sess.meta)+len(progressToken)+24)
	b = append(b, '{')
	b = append(b, sess.meta...)
	if progressToken != "" {
		if sess.meta != "" {
			b = append(b, ',')
		}
		b = append(b, `"progressToken":`...)
		b = strconv.AppendQuote(b, progressToken)
	}
	return append(b, '}')
}

// send sends one request and returns its result's bytes as the server sent
// them.
func (sess *session) send(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	id := mcp.NewRequestId("mcpservers-" + strconv.FormatInt(sess.ids.Add(1), 10))
	req := transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      id,
		Method:  method,
		Params:  params,
		Header:  sess.headers(method, params),
	}
	var ex *exchange
	if sess.http {
		ex = new(exchange)
		ctx = context.WithValue(ctx, exchangeKey{}, ex)
	}
	resp, err := sess.tr.SendRequest(ctx, req)
	if err == nil && resp == nil {
		err = noResponse(ctx)
	}
	if status, ok := ex.refused(); ok {
		cause := err
		if cause == nil && resp != nil && resp.Error != nil {
			cause = sess.rpcError(resp.Error)
		}
		return nil, &sessionRefused{status: status, err: cause}
	}
	if err != nil {
		if ctx.Err() != nil {
			sess.cancelRemote(ctx, id)
		}
		return nil, err
	}
	if resp.Error != nil {
		return nil, sess.rpcError(resp.Error)
	}
	if resp.Result == nil {
		return nil, errNoResult
	}
	return resp.Result, nil
}

// rpcError is a JSON-RPC error the server answered with, its message and
// the strings of its data cleared of the connection's secrets.
func (sess *session) rpcError(d *mcp.JSONRPCErrorDetails) *RPCError {
	e := &RPCError{Code: d.Code, Message: sess.srv.red.Redact(d.Message)}
	if d.Data != nil {
		e.Data, _ = json.Marshal(sess.srv.red.RedactValue(d.Data))
	}
	return e
}

// sessionRefused is a request a pre-2026 HTTP server refused because it no
// longer knows the session the request named (it restarted, or expired the
// session): it did not run it. err is what the transport gave: an *RPCError
// or mcp-go's ErrSessionTerminated.
type sessionRefused struct {
	status int
	err    error
}

func (e *sessionRefused) Error() string {
	return "the server no longer knows the session (HTTP status " + strconv.Itoa(e.status) + ")"
}

func (e *sessionRefused) Unwrap() error { return e.err }

// headers are the 2026-07-28 HTTP headers that mirror a request's method,
// name and x-mcp-header parameters (SEP-2243), as mcp-go's client sets them.
func (sess *session) headers(method string, params json.RawMessage) http.Header {
	if !sess.http || !sess.modern {
		return nil
	}
	std := mcp.StandardHeaders(sess.protocolVersion, mcp.MCPMethod(method), params)
	h := make(http.Header, len(std)+1)
	for k, v := range std {
		h.Set(k, v)
	}
	if method == string(mcp.MethodToolsCall) {
		if defs := sess.toolDefs.Load(); defs != nil {
			var call struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(params, &call) == nil {
				if t := (*defs)[call.Name]; t != nil {
					for k, v := range mcp.GenerateParamHeaders(t, params) {
						h.Set(k, v)
					}
				}
			}
		}
	}
	return h
}

// cancelRemote tells the server that a request it may be working on was
// given up (notifications/cancelled), as the specification says a client
// should: on stdio and in-process, over SSE (where the request's POST was
// answered at once, and ending it ends nothing), and over streamable HTTP
// before 2026-07-28 (where a dropped stream is not a cancellation). Over
// streamable HTTP on 2026-07-28, ending the request's stream is the
// cancellation, and nothing is sent. The notice carries the call's own
// headers; it is not waited for: the caller has its error.
func (sess *session) cancelRemote(ctx context.Context, id mcp.RequestId) {
	if sess.http && sess.modern && sess.srv.cfg.transport == definition.TransportStreamableHTTP {
		return
	}
	if written, ok := ctx.Value(writtenKey{}).(*atomic.Bool); ok && !written.Load() {
		return // the request never reached the server
	}
	reason := "cancelled"
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		reason = "timed out"
	}
	n := mcp.JSONRPCNotification{
		JSONRPC: mcp.JSONRPC_VERSION,
		Notification: mcp.Notification{
			Method: string(mcp.MethodNotificationCancelled),
			Params: mcp.NotificationParams{AdditionalFields: map[string]any{"requestId": id, "reason": reason}},
		},
	}
	nctx := context.Background()
	if h, ok := ctx.Value(callHeaderKey{}).(http.Header); ok {
		nctx = context.WithValue(nctx, callHeaderKey{}, h)
	}
	sess.bg.Add(1)
	go func() {
		defer sess.bg.Done()
		ctx, cancel := context.WithTimeout(nctx, 5*time.Second)
		defer cancel()
		// A session that ends takes its notices with it: Close waits for
		// them.
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			select {
			case <-sess.lost:
				cancel()
			case <-stop:
			}
		}()
		_ = sess.tr.SendNotification(ctx, n)
	}()
}

// track and untrack keep the set of calls in flight, to end them when the
// session dies and to tell which call a server's request belongs to.
func (sess *session) track(cs *callState) bool {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.isLost() && !sess.srv.fixed {
		return false
	}
	sess.calls[cs] = struct{}{}
	return true
}

func (sess *session) untrack(cs *callState) {
	sess.mu.Lock()
	delete(sess.calls, cs)
	sess.mu.Unlock()
}

// soleCall is the one call in flight, if there is exactly one.
func (sess *session) soleCall() *callState {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if len(sess.calls) != 1 {
		return nil
	}
	for cs := range sess.calls {
		return cs
	}
	return nil
}
