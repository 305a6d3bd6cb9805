package mcpservers

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/guardian-agent/guardian-go/internal/redact"
	"github.com/guardian-agent/guardian-go/internal/weborigin"
)

// callHeaderKey carries a call's own HTTP headers (CallRequest.Header) in
// its context to the connection's RoundTripper. mcp-go would send headers
// given with the request only on some requests of a call, and not on SSE;
// the RoundTripper sees every one.
type callHeaderKey struct{}

// exchangeKey carries, in the context of one JSON-RPC request sent over
// HTTP, the *exchange that notes what its POST got back.
type exchangeKey struct{}

// exchange is what the POST carrying one JSON-RPC request got back. mcp-go
// turns an HTTP 400 with a JSON-RPC body into an error response, losing the
// status; this keeps it. Only the first POST sent under the request's
// context is noted: that is the request itself, and later ones (answers to
// the server's requests during a call) are not.
type exchange struct {
	claimed, noted atomic.Bool
	status         int  // written between claimed and noted
	session        bool // the POST carried an Mcp-Session-Id header
}

func (e *exchange) note(status int, session bool) {
	if !e.claimed.CompareAndSwap(false, true) {
		return
	}
	e.status, e.session = status, session
	e.noted.Store(true)
}

// refused reports whether the server refused the request for its session:
// HTTP 400 or 404 to a request that named one. (The specification says 404
// for a session the server does not know; the TypeScript SDK's servers
// answer 400, "No valid session ID provided".) The server did not run it.
func (e *exchange) refused() (int, bool) {
	if e == nil || !e.noted.Load() || !e.session {
		return 0, false
	}
	return e.status, e.status == http.StatusBadRequest || e.status == http.StatusNotFound
}

var (
	errHeaderTimeout = errors.New("could not connect and send the request within the connection's timeout")
	errStreamIdle    = errors.New("the event stream was silent for longer than the SSE read timeout")
)

// newHTTPClient makes the *http.Client a connection sends with: a copy of
// the one HTTPClient makes (mcp-go's WithHTTPTimeout would modify the
// caller's), whose RoundTripper sets the connection's headers, then the
// call's, then hands the request to Auth, and whose redirects stay on the
// connection's origin (see origin.go). The second result, when not nil,
// is a transport of our own to close when the connection closes.
//
// tap, when not nil, is given what the server sends on an event stream
// opened with GET: each JSON-RPC request and each endpoint event (see
// sse.go). red learns the headers
// of every request as it is sent, after Auth, so that a server echoing a
// credential Auth or a call added is redacted like a configured one.
func newHTTPClient(cfg *connConfig, red *redact.Redactor, tap *streamTap) (*http.Client, *http.Transport, error) {
	hc := &http.Client{}
	if cfg.httpClient != nil {
		if made := cfg.httpClient(); made != nil {
			*hc = *made
		}
	}
	// A nil pointer as the Transport or Jar would panic on the first
	// request, perhaps on a goroutine of ours or mcp-go's.
	if hc.Transport != nil && isNil(hc.Transport) {
		return nil, nil, errNilTransport
	}
	if hc.Jar != nil && isNil(hc.Jar) {
		return nil, nil, errNilJar
	}
	// NewClient has checked the URL; one that does not parse leaves the
	// zero origin, which no request is on.
	var home origin
	if u, err := url.Parse(cfg.url); err == nil {
		home, _ = weborigin.Of(u)
	}
	hc.CheckRedirect = checkRedirect(home, hc.CheckRedirect)
	var own *http.Transport
	base := hc.Transport
	if base == nil {
		own = http.DefaultTransport.(*http.Transport).Clone()
		base = own
	}
	rt := &roundTripper{
		base:    base,
		origin:  home,
		headers: http.Header{},
		red:     red,
		timeout: cfg.timeout,
		idle:    cfg.sseReadTimeout,
		tap:     tap,
		bound:   messageBound(cfg),
	}
	for k, v := range cfg.headers {
		rt.headers.Set(k, v)
	}
	switch a := cfg.auth.(type) {
	case nil:
	case ConnectionAuth:
		rt.auth = a.AuthorizeConnection(cfg.url, timed{rt}, red.Learn)
	default:
		rt.auth = authRoundTripper{a, timed{rt}}
	}
	hc.Transport = rt
	return hc, own, nil
}

var (
	errNilTransport = errors.New("the HTTPClient factory's client has a nil pointer as its Transport")
	errNilJar       = errors.New("the HTTPClient factory's client has a nil pointer as its Jar")
)

// streamTap is what a connection is told of its GET event streams.
type streamTap struct {
	onRequest  func([]byte) // a JSON-RPC request from the server
	onEndpoint func(string) // an endpoint event's data
}

type roundTripper struct {
	base    http.RoundTripper
	origin  origin // the only one requests go to
	headers http.Header
	auth    http.RoundTripper // the connection's Auth, sending with timed; nil without
	red     *redact.Redactor
	timeout time.Duration // until response headers; <= 0: none
	idle    time.Duration // between reads of an event stream; <= 0: none
	tap     *streamTap    // what GET event streams bring
	bound   int64         // a body's size, an event stream's line and event
}

func (t *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if !t.origin.Same(req.URL) {
		// Before any header is set or Auth sees it: nothing of the
		// connection's goes to another origin, whoever addressed it there.
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, elsewhere(0, "a request was addressed to", req.URL)
	}
	r := req.Clone(req.Context())
	for k, v := range t.headers {
		r.Header[k] = v
	}
	if h, ok := req.Context().Value(callHeaderKey{}).(http.Header); ok {
		for k, v := range h {
			r.Header[http.CanonicalHeaderKey(k)] = v
		}
		// Whatever their names: a call's headers are never printed.
		t.red.LearnCallHeaders(h)
	}
	var resp *http.Response
	var err error
	if t.auth != nil {
		resp, err = t.authorize(r)
	} else {
		resp, err = timed{t}.RoundTrip(r)
	}
	if err == nil && resp != nil {
		if lerr := checkLocation(r, resp); lerr != nil {
			_ = resp.Body.Close()
			return nil, lerr
		}
	}
	if ex, ok := req.Context().Value(exchangeKey{}).(*exchange); ok && err == nil && resp != nil && req.Method == http.MethodPost && !isRedirect(resp.StatusCode) {
		// A redirect followed is not the answer: the request it leads to
		// is noted instead.
		ex.note(resp.StatusCode, r.Header.Get(transport.HeaderKeySessionID) != "")
	}
	return resp, err
}

// authRoundTripper sends a connection's requests through an Auth that is
// not a ConnectionAuth.
type authRoundTripper struct {
	auth Auth
	next http.RoundTripper
}

func (a authRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	return a.auth.RoundTrip(req, a.next)
}

// authWatchKey carries, in the context of a request handed to Auth, the
// *authWatch that notes what the server made of the requests Auth sent it.
type authWatchKey struct{}

// authWatch notes whether the server may have acted on a request Auth
// sent it: one it answered with anything but 401 or 403, or one that
// failed on the way.
type authWatch struct{ acted atomic.Bool }

// authorize sends req through Auth. When Auth fails (it could not sign
// in, say) after the server refused every request it was sent (401 or
// 403), the server acted on none: for a call, that is a failure to
// connect, not a call lost midway, whatever Auth sent to its
// authorization server meanwhile.
func (t *roundTripper) authorize(req *http.Request) (*http.Response, error) {
	written, _ := req.Context().Value(writtenKey{}).(*atomic.Bool)
	var before bool
	if written != nil {
		before = written.Load()
	}
	w := new(authWatch)
	resp, err := t.auth.RoundTrip(req.WithContext(context.WithValue(req.Context(), authWatchKey{}, w)))
	if err != nil && written != nil && !w.acted.Load() {
		written.Store(before)
	}
	return resp, err
}

// timed sends a request under the connection's timeouts: Timeout until the
// request is written, the SSE read timeout between reads of an event stream.
// It also notes, for a call, that a request was written, after which a
// failure leaves it unknown whether the server acted on it.
type timed struct{ t *roundTripper }

func (s timed) RoundTrip(req *http.Request) (*http.Response, error) {
	t := s.t
	// Below Auth: these are the headers that go out, credentials included,
	// and before any answer that could echo them.
	learnSentHeaders(t.red, req.Header)
	written, _ := req.Context().Value(writtenKey{}).(*atomic.Bool)
	ctx, cancel := context.WithCancelCause(req.Context())
	var timer *time.Timer
	if t.timeout > 0 {
		timer = time.AfterFunc(t.timeout, func() { cancel(errHeaderTimeout) })
	}
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		WroteRequest: func(info httptrace.WroteRequestInfo) {
			if timer != nil {
				timer.Stop()
			}
			// What Auth sends its authorization server is no request of
			// the call's.
			if written != nil && info.Err == nil && t.origin.Same(req.URL) {
				written.Store(true)
			}
		},
	})
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	if timer != nil {
		timer.Stop()
	}
	if w, ok := req.Context().Value(authWatchKey{}).(*authWatch); ok && t.origin.Same(req.URL) &&
		(err != nil || resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden) {
		w.acted.Store(true)
	}
	if err != nil {
		cause := context.Cause(ctx)
		cancel(nil)
		if errors.Is(cause, errHeaderTimeout) {
			return nil, errHeaderTimeout
		}
		return nil, err
	}
	// A server sending without end must not make us hold all of it.
	body := &cancelBody{ReadCloser: newBoundedBody(resp.Body, t.bound, isEventStream(resp)), cancel: cancel}
	if t.idle > 0 && isEventStream(resp) {
		body.idle = t.idle
		body.timer = time.AfterFunc(t.idle, func() { cancel(errStreamIdle) })
	}
	if t.tap != nil && req.Method == http.MethodGet && isEventStream(resp) {
		body.tap = &sseTap{onRequest: t.tap.onRequest, onEndpoint: t.tap.onEndpoint}
	}
	resp.Body = body
	return resp, nil
}

func isEventStream(resp *http.Response) bool {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return mt == "text/event-stream"
}

// cancelBody ends the request's context when the body is closed, and, for
// an event stream, when no byte has come for the idle time.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelCauseFunc
	idle   time.Duration
	mu     sync.Mutex
	timer  *time.Timer
	tap    *sseTap
}

func (b *cancelBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 && b.tap != nil {
		b.tap.feed(p[:n])
	}
	if n > 0 && b.timer != nil {
		b.mu.Lock()
		b.timer.Reset(b.idle)
		b.mu.Unlock()
	}
	return n, err
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	if b.timer != nil {
		b.mu.Lock()
		b.timer.Stop()
		b.mu.Unlock()
	}
	b.cancel(nil)
	return err
}
