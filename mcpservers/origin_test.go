package mcpservers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The tests of the connection's origin policy (origin.go) run real MCP
// servers on two loopback origins: the connection's, on 127.0.0.1, and a
// witness on localhost:<another port> that would serve the client just
// as well, and must never see a request, let alone a credential.

// creds are one connection's credentials, new for every test: configured
// headers, the header Auth adds, and a call's own header.
type creds struct {
	bearer, apiKey, auth, call string

	mu       sync.Mutex
	authSeen []string // the origins of the requests Auth was given
}

func newCreds(t *testing.T) *creds {
	return &creds{bearer: fakeSecret(t, "bearer_"), apiKey: fakeSecret(t, "key_"), auth: fakeSecret(t, "auth_"), call: fakeSecret(t, "call_")}
}

func (c *creds) all() []string { return []string{c.bearer, c.apiKey, c.auth, c.call} }

func (c *creds) headers() map[string]string {
	return map[string]string{"Authorization": "Bearer " + c.bearer, "X-Api-Key": c.apiKey}
}

// authFunc adds a credential of its own, and notes where each request it
// saw was going.
func (c *creds) authFunc() Auth {
	return AuthFunc(func(req *http.Request, next http.RoundTripper) (*http.Response, error) {
		c.mu.Lock()
		c.authSeen = append(c.authSeen, req.URL.Scheme+"://"+req.URL.Host)
		c.mu.Unlock()
		req.Header.Set("X-Auth-Token", c.auth)
		return next.RoundTrip(req)
	})
}

// options give every call a header of its own.
func (c *creds) options(o ClientOptions) *ClientOptions {
	o.Interceptors = append(o.Interceptors, InterceptorFunc(func(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) {
		req.Header = http.Header{"X-Call-Token": {c.call}}
		return next(ctx, req)
	}))
	return &o
}

// authOnlyTo fails the test if Auth saw a request to another origin than
// home's.
func (c *creds) authOnlyTo(t *testing.T, home string) {
	t.Helper()
	u, _ := url.Parse(home)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, o := range c.authSeen {
		if o != u.Scheme+"://"+u.Host {
			t.Errorf("Auth was given a request to %s, not the connection's origin", o)
		}
	}
}

// witness is an origin the client must never reach. It serves h, so that
// a client that went there would get on fine, and notes every request.
type witness struct {
	url string // http://localhost:<port>

	mu   sync.Mutex
	seen []string // method, URL and header values of each request
}

func newWitness(t *testing.T, h http.Handler) *witness {
	w := &witness{}
	ts := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s", r.Method, r.URL)
		for k, vs := range r.Header {
			fmt.Fprintf(&b, " %s=%s", k, strings.Join(vs, ","))
		}
		w.mu.Lock()
		w.seen = append(w.seen, b.String())
		w.mu.Unlock()
		h.ServeHTTP(rw, r)
	}))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	w.url = strings.Replace(ts.URL, "127.0.0.1", "localhost", 1)
	return w
}

// check fails the test if the witness saw a credential, or any request.
func (w *witness) check(t *testing.T, secrets ...string) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, s := range w.seen {
		noSecret(t, s, secrets...)
	}
	if len(w.seen) > 0 {
		t.Errorf("the other origin got %d requests", len(w.seen))
	}
}

// redirector answers every request with a redirect to to+path.
func redirector(status int, to string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { redirect(w, r, status, to+r.URL.Path) })
}

func redirect(w http.ResponseWriter, r *http.Request, status int, location string) {
	io.Copy(io.Discard, r.Body)
	w.Header().Set("Location", location)
	w.WriteHeader(status)
}

// switchable serves h until flip, then redirects every request to to.
type switchable struct {
	h       http.Handler
	to      string
	flipped atomic.Bool
	methods sync.Map // methods seen after the flip
}

func (s *switchable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.flipped.Load() {
		s.methods.Store(r.Method, true)
		redirector(http.StatusTemporaryRedirect, s.to).ServeHTTP(w, r)
		return
	}
	s.h.ServeHTTP(w, r)
}

// loadRefused loads the tools of one connection, named "srv", and checks
// what the other origin saw, then that loading failed with ErrRedirect,
// saying where the server sent it, and quoting no credential. The
// caller's transports, if any, are closed once the client is, before the
// check for goroutines left behind.
func loadRefused(t *testing.T, conn Connection, opts *ClientOptions, cr *creds, other *witness, want string, own ...*http.Transport) {
	t.Helper()
	c := newCheckedClient(t, map[string]Connection{"srv": conn}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tools, err := c.Tools(ctx)
	c.Close()
	for _, tr := range own {
		tr.CloseIdleConnections()
	}
	if other != nil {
		other.check(t, cr.all()...)
	}
	if err == nil {
		t.Fatalf("the tools loaded (%d) through a redirect elsewhere", len(tools))
	}
	wantRefused(t, err, cr, want)
}

// wantRefused checks that err is an ErrRedirect *Error of server "srv"
// saying want, and quoting no credential.
func wantRefused(t *testing.T, err error, cr *creds, want string) {
	t.Helper()
	noSecret(t, err.Error(), cr.all()...)
	wantKind(t, err, ErrRedirect, "srv")
	if !strings.Contains(err.Error(), want) {
		t.Errorf("err = %q, want it to say %q", err, want)
	}
}

func TestRedirectToAnotherOriginIsRefused(t *testing.T) {
	statuses := []int{http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect}
	for _, status := range statuses {
		t.Run(fmt.Sprintf("streamable/%d", status), func(t *testing.T) {
			cr := newCreds(t)
			other := newWitness(t, server.NewStreamableHTTPServer(inProcessDocs(t)))
			home := httptest.NewServer(redirector(status, other.url))
			t.Cleanup(home.Close)
			// The server/discover probe is the first request, initialize
			// the second: both are redirected.
			conn := StreamableHTTP{URL: home.URL + "/mcp", Headers: cr.headers(), Auth: cr.authFunc()}
			defer cr.authOnlyTo(t, home.URL)
			loadRefused(t, conn, cr.options(ClientOptions{}), cr, other, fmt.Sprintf("HTTP %d redirected to another origin (%s)", status, other.url))
		})
	}
	t.Run("sse", func(t *testing.T) {
		cr := newCreds(t)
		var sse *server.SSEServer
		other := newWitness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { sse.ServeHTTP(w, r) }))
		sse = server.NewSSEServer(inProcessDocs(t), server.WithBaseURL(other.url))
		t.Cleanup(func() { sse.CloseSessions() })
		home := httptest.NewServer(redirector(http.StatusTemporaryRedirect, other.url))
		t.Cleanup(home.Close)
		conn := SSE{URL: home.URL + "/sse", Headers: cr.headers(), Auth: cr.authFunc()}
		defer cr.authOnlyTo(t, home.URL)
		loadRefused(t, conn, cr.options(ClientOptions{}), cr, other, "redirected to another origin")
	})
	t.Run("https-to-http", func(t *testing.T) {
		cr := newCreds(t)
		other := newWitness(t, server.NewStreamableHTTPServer(inProcessDocs(t)))
		// The same host name, in clear.
		clear := strings.Replace(other.url, "localhost", "127.0.0.1", 1)
		home := httptest.NewTLSServer(redirector(http.StatusPermanentRedirect, clear))
		t.Cleanup(home.Close)
		conn := StreamableHTTP{URL: home.URL + "/mcp", Headers: cr.headers(), Auth: cr.authFunc(), HTTPClient: home.Client}
		defer cr.authOnlyTo(t, home.URL)
		loadRefused(t, conn, cr.options(ClientOptions{}), cr, other, "redirected to another origin (http://127.0.0.1:", home.Client().Transport.(*http.Transport))
	})
	t.Run("non-http-scheme", func(t *testing.T) {
		cr := newCreds(t)
		home := httptest.NewServer(redirector(http.StatusTemporaryRedirect, "ftp://localhost:21"))
		t.Cleanup(home.Close)
		// The caller's transport is what would put a request on the wire:
		// it must never be given one for another origin.
		base := http.DefaultTransport.(*http.Transport).Clone()
		rec := &recordingTransport{base: base}
		conn := StreamableHTTP{URL: home.URL + "/mcp", Headers: cr.headers(), Auth: cr.authFunc(),
			HTTPClient: func() *http.Client { return &http.Client{Transport: rec} }}
		defer rec.onlyTo(t, home.URL)
		defer cr.authOnlyTo(t, home.URL)
		loadRefused(t, conn, cr.options(ClientOptions{}), cr, nil, "redirected to another origin (ftp://localhost:21)", base)
	})
}

// recordingTransport notes the origin of every request it is given, and
// sends it with base.
type recordingTransport struct {
	base http.RoundTripper
	mu   sync.Mutex
	seen []string
}

func (r *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.seen = append(r.seen, req.URL.Scheme+"://"+req.URL.Host)
	r.mu.Unlock()
	return r.base.RoundTrip(req)
}

func (r *recordingTransport) onlyTo(t *testing.T, home string) {
	t.Helper()
	u, _ := url.Parse(home)
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.seen) == 0 {
		t.Errorf("the caller's transport sent nothing")
	}
	for _, o := range r.seen {
		if o != u.Scheme+"://"+u.Host {
			t.Errorf("the caller's transport was given a request to %s", o)
		}
	}
}

// Redirects that begin after the connection is made: a call's POST, the
// standalone GET stream of a pre-2026 server, and the session DELETE on
// close.
func TestRedirectAfterConnectIsRefused(t *testing.T) {
	t.Run("call", func(t *testing.T) {
		cr := newCreds(t)
		other := newWitness(t, server.NewStreamableHTTPServer(inProcessDocs(t)))
		sw := &switchable{h: server.NewStreamableHTTPServer(inProcessDocs(t)), to: other.url}
		home := httptest.NewServer(sw)
		t.Cleanup(home.Close)
		conn := StreamableHTTP{URL: home.URL + "/mcp", Headers: cr.headers(), Auth: cr.authFunc()}
		tools := loadTools(t, newCheckedClient(t, map[string]Connection{"srv": conn}, cr.options(ClientOptions{})))
		sw.flipped.Store(true)
		_, err := tools["echo"].Call(testCtx(t), map[string]any{"text": "hi"})
		other.check(t, cr.all()...)
		cr.authOnlyTo(t, home.URL)
		if err == nil {
			t.Fatal("the call went through a redirect to another origin")
		}
		wantRefused(t, err, cr, "HTTP 307 redirected to another origin")
	})
	t.Run("stream-and-close", func(t *testing.T) {
		cr := newCreds(t)
		other := newWitness(t, server.NewStreamableHTTPServer(inProcessDocs(t), server.WithStateful(true)))
		sw := &switchable{h: server.NewStreamableHTTPServer(inProcessDocs(t), server.WithStateful(true)), to: other.url}
		home := httptest.NewServer(sw)
		conn := StreamableHTTP{URL: home.URL + "/mcp", Headers: cr.headers(), Auth: cr.authFunc()}
		c := newCheckedClient(t, map[string]Connection{"srv": conn}, cr.options(ClientOptions{ProtocolVersion: mcp.ProtocolVersion20251125}))
		loadTools(t, c)
		sw.flipped.Store(true)
		// The GET stream, ended, is opened again and redirected.
		home.CloseClientConnections()
		waitFor(t, func() bool { _, ok := sw.methods.Load(http.MethodGet); return ok })
		c.Close()
		if _, ok := sw.methods.Load(http.MethodDelete); !ok {
			t.Errorf("no session DELETE was sent")
		}
		home.Close()
		other.check(t, cr.all()...)
		cr.authOnlyTo(t, home.URL)
	})
}

// sseEndpointServer is a hand-written SSE server whose event stream names
// endpoint as where to post messages.
func sseEndpointServer(endpoint func(self string) string) *httptest.Server {
	var self string
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			io.Copy(io.Discard, r.Body)
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: endpoint\ndata: %s\n\n", endpoint(self))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	return ts
}

func TestSSEEndpointOnAnotherOriginIsRefused(t *testing.T) {
	t.Run("another-host", func(t *testing.T) {
		cr := newCreds(t)
		other := newWitness(t, http.NotFoundHandler())
		home := sseEndpointServer(func(string) string { return other.url + "/message" })
		home.Start()
		t.Cleanup(func() { home.CloseClientConnections(); home.Close() })
		conn := SSE{URL: home.URL + "/sse", Headers: cr.headers(), Auth: cr.authFunc()}
		// mcp-go ignores such an endpoint and waits 30 s for another.
		start := time.Now()
		loadRefused(t, conn, cr.options(ClientOptions{}), cr, other, "named an SSE endpoint on another origin ("+other.url+")")
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("refused after %v", d)
		}
		cr.authOnlyTo(t, home.URL)
	})
	t.Run("https-to-http", func(t *testing.T) {
		cr := newCreds(t)
		// The same host and port, in clear: mcp-go takes it.
		var home *httptest.Server
		home = sseEndpointServer(func(string) string { return strings.Replace(home.URL, "https://", "http://", 1) + "/message" })
		home.StartTLS()
		t.Cleanup(func() { home.CloseClientConnections(); home.Close() })
		base := home.Client().Transport.(*http.Transport)
		rec := &recordingTransport{base: base}
		conn := SSE{URL: home.URL + "/sse", Headers: cr.headers(), Auth: cr.authFunc(),
			HTTPClient: func() *http.Client { return &http.Client{Transport: rec} }}
		defer rec.onlyTo(t, home.URL)
		defer cr.authOnlyTo(t, home.URL)
		loadRefused(t, conn, cr.options(ClientOptions{}), cr, nil, "named an SSE endpoint on another origin (http://127.0.0.1:", base)
	})
}

// Within the connection's origin a redirect is followed (a server mounted
// at /mcp/ redirects /mcp there, as Starlette does), with the connection's
// credentials; one that would turn a POST into a GET, or goes on for ever,
// is refused.
func TestRedirectWithinTheOrigin(t *testing.T) {
	t.Run("followed", func(t *testing.T) {
		cr := newCreds(t)
		log := &headerLog{}
		mcpSrv := log.wrap(server.NewStreamableHTTPServer(inProcessDocs(t)))
		home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/mcp" {
				redirect(w, r, http.StatusTemporaryRedirect, "/mcp/")
				return
			}
			mcpSrv.ServeHTTP(w, r)
		}))
		t.Cleanup(home.Close)
		conn := StreamableHTTP{URL: home.URL + "/mcp", Headers: cr.headers(), Auth: cr.authFunc()}
		tools := loadTools(t, newCheckedClient(t, map[string]Connection{"srv": conn}, cr.options(ClientOptions{})))
		call(t, tools["echo"], nil)
		seen := log.all()
		if len(seen) == 0 {
			t.Fatal("the server got nothing")
		}
		for _, h := range seen {
			if h.Get("Authorization") != "Bearer "+cr.bearer || h.Get("X-Auth-Token") != cr.auth {
				t.Errorf("a redirected request went without the connection's credentials")
			}
		}
	})
	t.Run("method-change", func(t *testing.T) {
		cr := newCreds(t)
		mcpSrv := server.NewStreamableHTTPServer(inProcessDocs(t))
		home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/mcp" {
				redirect(w, r, http.StatusFound, "/mcp/")
				return
			}
			mcpSrv.ServeHTTP(w, r)
		}))
		t.Cleanup(home.Close)
		conn := StreamableHTTP{URL: home.URL + "/mcp", Headers: cr.headers()}
		loadRefused(t, conn, nil, cr, nil, "HTTP 302 would turn the POST into a GET")
	})
	t.Run("loop", func(t *testing.T) {
		cr := newCreds(t)
		var n atomic.Int32
		home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			redirect(w, r, http.StatusTemporaryRedirect, fmt.Sprintf("/mcp/%d", n.Add(1)))
		}))
		t.Cleanup(home.Close)
		conn := StreamableHTTP{URL: home.URL + "/mcp", Headers: cr.headers()}
		loadRefused(t, conn, nil, cr, nil, "the server redirected more than 10 times")
	})
	t.Run("callers-check-redirect", func(t *testing.T) {
		// The caller's own CheckRedirect still decides within the origin.
		cr := newCreds(t)
		var asked atomic.Int32
		errMine := errors.New("no redirects here")
		home := httptest.NewServer(redirector(http.StatusTemporaryRedirect, "/elsewhere"))
		t.Cleanup(home.Close)
		conn := StreamableHTTP{URL: home.URL + "/mcp", Headers: cr.headers(), HTTPClient: func() *http.Client {
			return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { asked.Add(1); return errMine }}
		}}
		_, err := newCheckedClient(t, map[string]Connection{"srv": conn}, nil).Tools(testCtx(t))
		if !errors.Is(err, errMine) || asked.Load() == 0 {
			t.Errorf("err = %v, the caller's CheckRedirect asked %d times", err, asked.Load())
		}
	})
}
