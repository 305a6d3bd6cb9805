package mcpservers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/internal/redact"
)

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
	tr, err := s.newTransport(sess)
	if err != nil {
		return nil, err
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
	if err := s.start(ctx, sess); err != nil {
		return nil, err
	}
	if err := s.initialize(ctx, sess); err != nil {
		return nil, err
	}
	return sess, nil
}

// start starts the session's mcp-go client, which starts its transport.
func (s *remote) start(ctx context.Context, sess *session) error {
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
	var err error
	select {
	case err = <-started:
	case <-startCtx.Done():
		_ = sess.mc.Close()
		<-started
		err = startCtx.Err()
	}
	if err != nil {
		return s.connectFailure(startCtx, sess, err)
	}
	return nil
}

// initialize negotiates the protocol and keeps what the server said of
// itself.
func (s *remote) initialize(ctx context.Context, sess *session) error {
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: s.opts.clientName, Version: s.opts.clientVersion}
	initCtx, unbind := sess.bind(ctx)
	defer unbind()
	res, err := sess.mc.Initialize(initCtx, init)
	if err != nil {
		return s.connectFailure(initCtx, sess, err)
	}
	sess.protocolVersion = sess.mc.ProtocolVersion()
	if sess.protocolVersion == "" {
		sess.protocolVersion = res.ProtocolVersion
	}
	sess.modern = mcp.IsModernProtocol(sess.protocolVersion)
	sess.info = ServerInfo{
		Name:      s.cfg.name,
		Transport: s.cfg.transport,
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
		//lint:ignore SA1019 deprecated from 2026-07-28 on, and used only for the servers before it
		_ = sess.mc.SetLevel(ctx, mcp.SetLevelRequest{Params: mcp.SetLevelParams{Level: mcp.LoggingLevel(s.opts.logLevel)}})
	}
	return nil
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
func describeTransportError(red *redact.Redactor, err error) string {
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
	s := red.Describe(err)
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
