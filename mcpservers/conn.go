package mcpservers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/guardian-agent/guardian-go/definition"
)

// server is one named connection of a Client: its configuration, frozen by
// NewClient, and its live session, made on first use and remade, once per
// call, when it is found dead.
type remote struct {
	cfg  *connConfig
	opts *options
	cb   *callbacks
	red  *redactor

	mu         sync.Mutex
	sess       *session
	connecting *attempt
	closed     bool
	closing    chan struct{} // closed by close, to abort a connect
	pinned     string        // protocol version the first session settled on

	// fixed is set for SessionTools: the session is the caller's, and is
	// never remade or closed here.
	fixed bool

	// The parts of its tools' MCPRecords that are the server's, made once
	// and shared by them (see recordParts).
	recordOnce sync.Once
	recordArgs []string
	recordCode []definition.Code
}

// attempt is a connect in progress, which concurrent callers wait for.
type attempt struct {
	done chan struct{}
	sess *session
	err  error
}

func newRemote(cfg *connConfig, opts *options, cb *callbacks) *remote {
	return &remote{cfg: cfg, opts: opts, cb: cb, red: newRedactor(cfg), closing: make(chan struct{})}
}

// errClosedClient marks a failure caused by Client.Close.
var errClosedClient = errors.New("client closed")

// session returns the live session, connecting if there is none or the one
// there is has died.
func (s *remote) session(ctx context.Context) (*session, error) {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return nil, errClosedClient
		}
		if s.sess != nil && (s.fixed || !s.sess.isLost()) {
			sess := s.sess
			s.mu.Unlock()
			return sess, nil
		}
		if a := s.connecting; a != nil {
			s.mu.Unlock()
			select {
			case <-a.done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if a.err == nil {
				return a.sess, nil
			}
			// A connect that failed because its caller gave up says nothing
			// about ours: try again.
			if errors.Is(a.err, context.Canceled) || errors.Is(a.err, context.DeadlineExceeded) {
				if ctx.Err() == nil {
					continue
				}
			}
			return nil, a.err
		}
		a := &attempt{done: make(chan struct{})}
		s.connecting = a
		dead := s.sess
		s.sess = nil
		s.mu.Unlock()

		if dead != nil {
			dead.close()
		}
		sess, err := s.connect(ctx)

		s.mu.Lock()
		s.connecting = nil
		if err == nil && s.closed {
			err = errClosedClient
		}
		if err == nil {
			s.sess = sess
			if s.pinned == "" {
				s.pinned = sess.protocolVersion
			}
		}
		a.sess, a.err = sess, err
		close(a.done)
		s.mu.Unlock()
		if err != nil && sess != nil {
			sess.close()
		}
		if err != nil {
			return nil, err
		}
		return sess, nil
	}
}

// close ends the server's session and waits for a connect in progress,
// which it aborts.
func (s *remote) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.closing)
	sess, a := s.sess, s.connecting
	s.sess = nil
	s.mu.Unlock()
	if a != nil {
		<-a.done
	}
	if sess != nil && !s.fixed {
		sess.close()
	}
}

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

// discard is the logger given to mcp-go's transports, stdio's too: their
// log lines can hold URLs and server messages, and a library has no
// business printing.
var discard = slog.New(slog.NewTextHandler(io.Discard, nil))

// longTimeout stands in for "none" where mcp-go insists on a timeout: the
// caller's context bounds a request instead.
const longTimeout = 100 * 365 * 24 * time.Hour

// connect makes a new session: starts the process or prepares the HTTP
// client, then negotiates the protocol. ctx bounds the connect, and so does
// the server's close.
func (s *remote) connect(ctx context.Context) (_ *session, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func(done <-chan struct{}) {
		select {
		case <-s.closing:
			cancel()
		case <-done:
		}
	}(ctx.Done())

	cfg := s.cfg
	sess := newSession(s)
	var tr transport.Interface
	switch cfg.transport {
	case definition.TransportWebSocket:
		return nil, s.connectError(errors.ErrUnsupported, "mcp-go has no websocket client")
	case definition.TransportStdio:
		// Dir first: a relative command is resolved in it, and exec
		// reports one it cannot enter as the program missing.
		if err := checkDir(cfg.dir); err != nil {
			return nil, s.connectError(ErrConnect, err.Error(), err)
		}
		path, err := resolveCommand(cfg.command, cfg.dir, cfg.env)
		if err != nil {
			return nil, s.connectError(ErrConnect, s.red.describe(err), err)
		}
		proc, err := startProcess(cfg, path, s.opts.stderr, func(error) { sess.markLost(errSessionLost, false) })
		if err != nil {
			return nil, s.connectError(ErrConnect, "cannot start the command: "+describeStart(s.red, err), err)
		}
		sess.proc = proc
		pipes := transport.NewIO(&eofReader{r: proc.stdout, sess: sess}, proc.stdin, nil)
		// NewIO logs to slog.Default, and takes no option: apply the one
		// the command transport has (a server that floods the client and
		// goes would print a line for every answer it did not read).
		transport.WithCommandLogger(discard)(pipes)
		tr = stdioConn{pipes}
	case definition.TransportStreamableHTTP:
		hc, own, err := newHTTPClient(cfg, s.red, nil)
		if err != nil {
			return nil, s.connectError(ErrInvalidUse, err.Error(), err)
		}
		sess.own, sess.http = own, true
		inner, err := transport.NewStreamableHTTP(cfg.url,
			transport.WithHTTPBasicClient(hc),
			transport.WithHTTPLogger(discard),
			// Servers before 2026-07-28 send requests raised inside a tool
			// (elicitation, sampling) on the standalone GET stream, which
			// mcp-go opens only with this option; streamable hides that it
			// would also force the old protocol, and the stream is opened
			// only if the server turns out to be an old one.
			transport.WithContinuousListening())
		if err != nil {
			return nil, s.connectError(ErrConnect, "the URL cannot be used")
		}
		tr = streamable{inner}
	case definition.TransportSSE:
		conn := &sseConn{}
		var hc *http.Client
		var err error
		hc, sess.own, err = newHTTPClient(cfg, s.red, &streamTap{
			onRequest:  func(data []byte) { sess.serverRequest(conn, hc, data) },
			onEndpoint: sess.checkEndpoint,
		})
		if err != nil {
			return nil, s.connectError(ErrInvalidUse, err.Error(), err)
		}
		sess.http = true
		inner, err := transport.NewSSE(cfg.url,
			transport.WithHTTPClient(hc),
			transport.WithSSELogger(discard),
			transport.WithResponseTimeout(longTimeout))
		if err != nil {
			return nil, s.connectError(ErrConnect, "the URL cannot be used")
		}
		conn.t = inner
		tr = conn
	default:
		return nil, s.connectError(ErrConnect, "unknown transport")
	}
	sess.tr = tr
	sess.mc = client.NewClient(tr, s.clientOptions(sess)...)
	sess.mc.OnNotification(func(n mcp.JSONRPCNotification) {
		s.cb.notification(cfg.name, n.Method, n.Params.AdditionalFields)
	})
	if cfg.transport == definition.TransportSSE {
		sess.mc.OnConnectionLost(func(error) { sess.markLost(errStreamLost, true) })
	}
	defer func() {
		if err != nil {
			sess.close()
		}
	}()

	// The transport's Start context lives as long as the session: mcp-go
	// keeps it for the SSE stream and for the server's requests. The
	// caller's ctx bounds only the wait.
	life, cancelLife := context.WithCancel(context.Background())
	sess.cancelLife = cancelLife
	started := make(chan error, 1)
	go func() { started <- sess.mc.Start(life) }()
	// Bound to the session too: an SSE endpoint on another origin ends
	// it, and mcp-go would go on waiting for a better one.
	startCtx, unbindStart := sess.bind(ctx)
	defer unbindStart()
	select {
	case err = <-started:
	case <-startCtx.Done():
		_ = sess.mc.Close()
		<-started
		err = startCtx.Err()
	}
	if err != nil {
		return nil, s.connectFailure(startCtx, sess, err)
	}

	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: s.opts.clientName, Version: s.opts.clientVersion}
	initCtx, unbind := sess.bind(ctx)
	defer unbind()
	res, err := sess.mc.Initialize(initCtx, init)
	if err != nil {
		return nil, s.connectFailure(initCtx, sess, err)
	}
	sess.protocolVersion = sess.mc.ProtocolVersion()
	if sess.protocolVersion == "" {
		sess.protocolVersion = res.ProtocolVersion
	}
	sess.modern = mcp.IsModernProtocol(sess.protocolVersion)
	sess.info = ServerInfo{
		Name:      cfg.name,
		Transport: cfg.transport,
		Implementation: Implementation{
			Name: res.ServerInfo.Name, Version: res.ServerInfo.Version, Title: res.ServerInfo.Title,
		},
		ProtocolVersion: sess.protocolVersion,
		Instructions:    res.Instructions,
	}
	sess.meta = requestMeta(sess.protocolVersion, s.capabilities(), init.Params.ClientInfo, s.logLevel())
	if s.opts.onLog != nil && !sess.modern && res.Capabilities.Logging != nil {
		// Before 2026-07-28 the level is set once, for the session. A
		// server that refuses still works.
		_ = sess.mc.SetLevel(ctx, mcp.SetLevelRequest{Params: mcp.SetLevelParams{Level: mcp.LoggingLevel(s.opts.logLevel)}})
	}
	return sess, nil
}

// clientOptions configure the mcp-go client of a session.
func (s *remote) clientOptions(sess *session) []client.ClientOption {
	h := legacyHandlers{sess}
	opts := []client.ClientOption{
		client.WithClientCapabilities(s.capabilities()),
		// Without a handler of ours, a call asking for input is interrupted:
		// the handler always exists, and decides.
		client.WithElicitationHandler(h),
		client.WithDiscoverTimeout(s.opts.discoverTimeout),
	}
	if s.opts.sampling != nil {
		opts = append(opts, client.WithSamplingHandler(h))
	}
	if s.opts.roots != nil {
		opts = append(opts, client.WithRootsHandler(h))
	}
	if v := s.opts.protocolVersion; v != "" {
		opts = append(opts, client.WithProtocolVersion(v))
	} else if v := s.pinnedVersion(); v != "" && !mcp.IsModernProtocol(v) {
		// A reconnect to a server known to be older skips the probe.
		opts = append(opts, client.WithProtocolVersion(v))
	}
	return opts
}

func (s *remote) pinnedVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pinned
}

// capabilities are what the client offers servers: elicitation always
// (answered by the handler, or by interrupting the call), sampling and roots
// when there is a handler.
func (s *remote) capabilities() mcp.ClientCapabilities {
	c := mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapability{Form: &struct{}{}}}
	if s.opts.sampling != nil {
		c.Sampling = &mcp.SamplingCapability{}
	}
	if s.opts.roots != nil {
		c.Roots = &struct {
			ListChanged bool `json:"listChanged,omitempty"`
		}{}
	}
	return c
}

func (s *remote) logLevel() string {
	if s.opts.onLog == nil {
		return ""
	}
	return s.opts.logLevel
}

// requestMeta renders the _meta members every 2026-07-28 request carries,
// as mcp-go's client does, without the braces: calls add their own.
func requestMeta(version string, caps mcp.ClientCapabilities, info mcp.Implementation, level string) string {
	if !mcp.IsModernProtocol(version) {
		return ""
	}
	m := map[string]any{
		mcp.MetaKeyProtocolVersion:    version,
		mcp.MetaKeyClientCapabilities: caps,
	}
	if info.Name != "" {
		m[mcp.MetaKeyClientInfo] = info
	}
	if level != "" {
		m[mcp.MetaKeyLogLevel] = level
	}
	b, _ := json.Marshal(m)
	return string(b[1 : len(b)-1])
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
	e := &RPCError{Code: d.Code, Message: sess.srv.red.redact(d.Message)}
	if d.Data != nil {
		e.Data, _ = json.Marshal(sess.srv.red.redactValue(d.Data))
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

// eofReader notices the end of a stdio server's output, which is the end of
// the session even while the process lingers.
type eofReader struct {
	r    *os.File
	sess *session
}

func (e *eofReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil {
		e.sess.markLost(errSessionLost, false)
	}
	return n, err
}

// Answers a transport should never give.
var (
	errNoResponse = errors.New("the transport returned neither a response nor an error")
	errNoResult   = errors.New("a response with neither result nor error")
)

// vet checks what a connection's transport answered a request, for mcp-go's
// requests as for ours: mcp-go's client reads a response's error without
// looking whether there is a response.
func vet(ctx context.Context, r transport.JSONRPCRequest, resp *transport.JSONRPCResponse, err error) (*transport.JSONRPCResponse, error) {
	if err == nil && resp == nil {
		err = noResponse(ctx)
	}
	if err == nil {
		err = checkDiscover(r, resp)
	}
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// noResponse explains a transport's answer of neither a response nor an
// error. mcp-go's SSE transport gives it for a request whose context's
// deadline has passed by the clock but which is not done yet (it returns
// ctx.Err(), then nil): that is the deadline's doing, and is reported as
// such once ctx is done. Anything else is errNoResponse.
func noResponse(ctx context.Context) error {
	if err := awaitDeadline(ctx); err != nil {
		return err
	}
	return errNoResponse
}

// deadlineGrace is how long past ctx's deadline awaitDeadline waits for
// ctx to be done.
const deadlineGrace = time.Second

// awaitDeadline waits, when ctx's deadline is at most deadlineGrace away,
// until ctx is done, and returns its error; nil when ctx has no deadline,
// or one further off, or is not done in time.
func awaitDeadline(ctx context.Context) error {
	deadline, ok := ctx.Deadline()
	if !ok {
		return nil
	}
	left := time.Until(deadline)
	if left > deadlineGrace {
		return nil
	}
	timer := time.NewTimer(max(left, 0) + deadlineGrace)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// stdioConn passes a stdio transport through, vetting its answers.
type stdioConn struct{ *transport.Stdio }

func (s stdioConn) SendRequest(ctx context.Context, r transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	resp, err := s.Stdio.SendRequest(ctx, r)
	return vet(ctx, r, resp, err)
}

var _ transport.BidirectionalInterface = stdioConn{}

// streamable passes a streamable HTTP transport through, vetting its
// answers and hiding that continuous listening asks for the pre-2026
// protocol: mcp-go then probes server/discover as usual, and opens the GET
// stream only if the server turns out to speak an older version.
type streamable struct{ t *transport.StreamableHTTP }

func (s streamable) Start(ctx context.Context) error { return s.t.Start(ctx) }
func (s streamable) SendRequest(ctx context.Context, r transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	resp, err := s.t.SendRequest(ctx, r)
	return vet(ctx, r, resp, err)
}
func (s streamable) SendNotification(ctx context.Context, n mcp.JSONRPCNotification) error {
	return s.t.SendNotification(ctx, n)
}
func (s streamable) SetNotificationHandler(h func(mcp.JSONRPCNotification)) {
	s.t.SetNotificationHandler(h)
}
func (s streamable) Close() error                                 { return s.t.Close() }
func (s streamable) GetSessionId() string                         { return s.t.GetSessionId() }
func (s streamable) SetRequestHandler(h transport.RequestHandler) { s.t.SetRequestHandler(h) }
func (s streamable) SetProtocolVersion(v string)                  { s.t.SetProtocolVersion(v) }

var (
	_ transport.BidirectionalInterface = streamable{}
	_ transport.HTTPConnection         = streamable{}
)

// connectError is an *Error for a failed connect.
func (s *remote) connectError(kind error, detail string, cause ...error) *Error {
	e := &Error{Server: s.cfg.name, Op: "connect", Kind: kind, detail: detail}
	if len(cause) > 0 {
		e.Err = cause[0]
	}
	return e
}

// connectFailure explains why starting or initializing a session failed.
func (s *remote) connectFailure(ctx context.Context, sess *session, err error) error {
	select {
	case <-s.closing:
		return s.connectError(ErrClosed, "", errClosedClient)
	default:
	}
	if re, detail, ok := refusedRedirect(ctx, s.red, err); ok {
		return s.connectError(ErrRedirect, detail, re)
	}
	if ctx.Err() != nil {
		if cause := context.Cause(ctx); errors.Is(cause, errStreamLost) {
			return s.connectError(ErrConnect, cause.Error(), cause)
		}
		detail := "the server did not answer in time"
		if errors.Is(ctx.Err(), context.Canceled) {
			detail = "connecting was cancelled"
		}
		return s.connectError(ErrConnect, detail, ctx.Err())
	}
	if sess.proc != nil && (errors.Is(err, transport.ErrTransportClosed) || sess.isLost()) {
		return s.connectError(ErrConnect, sess.proc.exitError().Error(), err)
	}
	return s.connectError(ErrConnect, describeTransportError(s.red, err), err)
}

// describeTransportError turns what mcp-go's transports return into a
// short, safe description.
func describeTransportError(red *redactor, err error) string {
	var authErr *transport.AuthorizationRequiredError
	switch {
	case errors.As(err, &authErr), errors.Is(err, transport.ErrUnauthorized):
		return "unauthorized (HTTP 401)"
	case errors.Is(err, transport.ErrLegacySSEServer):
		return "the server refused the initialize request; it may speak the SSE transport"
	case errors.Is(err, errHeaderTimeout):
		return errHeaderTimeout.Error()
	case errors.Is(err, errStreamIdle):
		return errStreamIdle.Error()
	}
	if code, ok := httpStatus(err); ok {
		return fmt.Sprintf("HTTP status %d", code)
	}
	s := red.describe(err)
	// mcp-go's wrapping says little and says it twice.
	s = strings.TrimPrefix(s, "transport error: ")
	for strings.Contains(s, "failed to send request: failed to send request: ") {
		s = strings.ReplaceAll(s, "failed to send request: failed to send request: ", "failed to send request: ")
	}
	return s
}

// httpStatus finds the status code in mcp-go's "request failed with status
// N" errors, leaving out the body they quote.
func httpStatus(err error) (int, bool) {
	const marker = "failed with status "
	s := err.Error()
	for i := 0; i+len(marker) <= len(s); i++ {
		if s[i:i+len(marker)] != marker {
			continue
		}
		j := i + len(marker)
		k := j
		for k < len(s) && '0' <= s[k] && s[k] <= '9' {
			k++
		}
		if n, err := strconv.Atoi(s[j:k]); err == nil {
			return n, true
		}
	}
	return 0, false
}
