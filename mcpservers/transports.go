package mcpservers

import (
	"context"
	"errors"
	"net/http"
	"os"
	"time"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// newTransport starts what the connection's transport runs on (the
// process, the HTTP client) and returns the transport over it. Its error
// is an *Error.
func (s *remote) newTransport(sess *session) (transport.Interface, error) {
	switch s.cfg.transport {
	case definition.TransportWebSocket:
		return nil, s.connectError(errors.ErrUnsupported, "mcp-go has no websocket client")
	case definition.TransportStdio:
		return s.stdioTransport(sess)
	case definition.TransportStreamableHTTP:
		return s.streamableTransport(sess)
	case definition.TransportSSE:
		return s.sseTransport(sess)
	default:
		return nil, s.connectError(ErrConnect, "unknown transport")
	}
}

// stdioTransport starts the server's process and talks over its pipes.
func (s *remote) stdioTransport(sess *session) (transport.Interface, error) {
	cfg := s.cfg
	// Dir first: a relative command is resolved in it, and exec
	// reports one it cannot enter as the program missing.
	if err := checkDir(cfg.dir); err != nil {
		return nil, s.connectError(ErrConnect, err.Error(), err)
	}
	path, err := resolveCommand(cfg.command, cfg.dir, cfg.env)
	if err != nil {
		return nil, s.connectError(ErrConnect, s.red.Describe(err), err)
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
	return stdioConn{pipes}, nil
}

// streamableTransport prepares the HTTP client of a streamable HTTP
// connection.
func (s *remote) streamableTransport(sess *session) (transport.Interface, error) {
	hc, own, err := newHTTPClient(s.cfg, s.red, nil)
	if err != nil {
		return nil, s.connectError(ErrInvalidUse, err.Error(), err)
	}
	sess.own, sess.http = own, true
	inner, err := transport.NewStreamableHTTP(s.cfg.url,
		transport.WithHTTPBasicClient(hc),
		transport.WithHTTPLogger(discard),
		// Servers before 2026-07-28 send requests raised inside a tool
		// (elicitation, sampling) on the standalone GET stream, which
		// mcp-go opens only with this option; streamable hides that it
		// would also force the old protocol, and the stream is opened
		// only if the server turns out to be an old one (docs/decisions.md).
		//lint:ignore SA1019 the only way mcp-go opens the GET stream a pre-2026 server needs
		transport.WithContinuousListening())
	if err != nil {
		return nil, s.connectError(ErrConnect, "the URL cannot be used")
	}
	return streamable{inner}, nil
}

// sseTransport prepares the HTTP client of a legacy SSE connection, whose
// stream it taps for the server's requests and endpoint.
func (s *remote) sseTransport(sess *session) (transport.Interface, error) {
	conn := &sseConn{}
	var hc *http.Client
	var err error
	hc, sess.own, err = newHTTPClient(s.cfg, s.red, &streamTap{
		onRequest:  func(data []byte) { sess.serverRequest(conn, hc, data) },
		onEndpoint: sess.checkEndpoint,
	})
	if err != nil {
		return nil, s.connectError(ErrInvalidUse, err.Error(), err)
	}
	sess.http = true
	inner, err := transport.NewSSE(s.cfg.url,
		transport.WithHTTPClient(hc),
		transport.WithSSELogger(discard),
		transport.WithResponseTimeout(longTimeout))
	if err != nil {
		return nil, s.connectError(ErrConnect, "the URL cannot be used")
	}
	conn.t = inner
	return conn, nil
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
