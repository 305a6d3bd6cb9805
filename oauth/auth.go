package oauth

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/guardian-agent/guardian-go/internal/weborigin"
)

// AuthorizeFunc sends the user to authURL, the authorization server's page
// (opening a browser, printing the URL, ...), and returns the URL the
// authorization server redirected the browser back to: the Config's
// RedirectURL with code and state (or error) in its query. Auth checks
// the state, so the function need not.
type AuthorizeFunc func(ctx context.Context, authURL string) (*url.URL, error)

// Config configures [New]. Only Authorize and RedirectURL are
// needed to sign in; without Authorize, an Auth never prompts and uses only
// stored tokens and refresh tokens (as a CI job would).
type Config struct {
	// Authorize sends the user to sign in and returns the redirect. Nil
	// (and no Browser): a server that needs a sign-in fails with
	// ErrSignInRequired.
	Authorize AuthorizeFunc
	// Browser, instead of Authorize and RedirectURL, signs the user in
	// with their browser and a loopback redirect (see [BrowserSignIn]).
	Browser *BrowserSignIn
	// SignInHint, if set, ends the ErrSignInRequired error's text: how
	// the user signs in (a command to run, say).
	SignInHint string
	// RedirectURL is where the authorization server sends the browser
	// back to, such as http://127.0.0.1:PORT/callback on a loopback
	// listener. Required with Authorize.
	RedirectURL string
	// Store keeps tokens between connections and runs. Nil: in memory,
	// for the Auth's life.
	Store TokenStore
	// ClientID and ClientSecret are a client registered beforehand with
	// the server's authorization server. Empty: a client ID metadata
	// document (ClientMetadataURL) when the authorization server supports
	// them, else dynamic client registration (RFC 7591).
	ClientID     string
	ClientSecret string
	// ClientMetadataURL is the https URL of this client's client ID
	// metadata document, used as the client ID where supported. Its
	// redirect_uris must hold RedirectURL.
	ClientMetadataURL string
	// ClientName is the client_name registered dynamically; empty:
	// "guardian-go".
	ClientName string
}

// Auth signs in to MCP servers that require authorization, by the MCP
// authorization spec (2025-11-25); it is an mcpservers.Auth (give it to
// a StreamableHTTP or SSE connection), and any HTTP client can send with
// it through [Auth.RoundTrip]. On a 401 it
// discovers the server's protected resource metadata (RFC 9728) and its
// authorization server's metadata (RFC 8414, OpenID Connect discovery),
// registers a client (pre-registered, client ID metadata document, or RFC
// 7591 dynamic registration), runs the authorization code flow with PKCE
// S256, state and the RFC 8707 resource parameter, and retries the request
// with the token. It refreshes tokens before they expire, one refresh at a
// time per server; on a 403 insufficient_scope it signs in once more with
// the union of the scopes (once per scope set: never a loop). Servers of
// the 2025-03-26 spec (no resource metadata; the authorization server at
// the server's origin, default endpoints) work too.
//
// One Auth may serve several connections: its state is kept per server
// URL. Tokens, refresh tokens, client secrets, codes and verifiers are
// connection secrets: the connection redacts them, and no error of this
// package holds one. In a definition, this package's code is library
// code: what is fingerprinted is the user's code, the Authorize func and
// the Store (see [Auth.UserCode]).
type Auth struct {
	cfg   Config
	store TokenStore

	mu      sync.Mutex
	servers map[string]*serverState
}

// serverState is an Auth's state for one server.
type serverState struct {
	lock    chan struct{} // held to load, refresh or sign in: one at a time
	loaded  bool
	creds   *Credentials
	stepped map[string]bool // scope sets a step-up signed in for
	// found is the last discovery's result, for a later sign-in whose
	// challenge names no resource metadata (a 403 often does not).
	found *discovered
}

// discovered is what discovery found for a server.
type discovered struct {
	prm *resourceMetadata // nil: a 2025-03-26 server
	md  *serverMetadata
	at  string // the resource_metadata URL it was found through, or ""
}

func (s *serverState) acquire(ctx context.Context) error {
	select {
	case s.lock <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *serverState) release() { <-s.lock }

// New checks cfg and returns an Auth. Errors are *Error values matching
// ErrInvalidUse.
func New(cfg Config) (*Auth, error) {
	bad := func(detail string) (*Auth, error) {
		return nil, newErr("", "configure", ErrInvalidUse, detail)
	}
	if cfg.Browser != nil {
		if cfg.Authorize != nil || cfg.RedirectURL != "" {
			return bad("give Browser, or Authorize and RedirectURL, not both")
		}
		cfg.Authorize, cfg.RedirectURL = cfg.Browser.Authorize, cfg.Browser.RedirectURL()
	}
	if cfg.Authorize != nil {
		u, err := url.Parse(cfg.RedirectURL)
		if cfg.RedirectURL == "" || err != nil || u.Scheme == "" || u.Fragment != "" || u.User != nil {
			return bad("Authorize needs a RedirectURL: an absolute URL without userinfo or fragment")
		}
		if (u.Scheme == "http" || u.Scheme == "https") && u.Host == "" {
			return bad("the RedirectURL has no host")
		}
	}
	if cfg.ClientSecret != "" && cfg.ClientID == "" {
		return bad("a ClientSecret needs its ClientID")
	}
	if cfg.ClientMetadataURL != "" {
		u, err := url.Parse(cfg.ClientMetadataURL)
		if err != nil || u.Scheme != "https" || u.Host == "" || u.Path == "" || u.Path == "/" || u.User != nil || u.Fragment != "" {
			return bad("the ClientMetadataURL must be an https URL with a path")
		}
	}
	if cfg.Store != nil {
		if v := reflect.ValueOf(cfg.Store); v.Kind() == reflect.Pointer && v.IsNil() {
			return bad("the Store is a nil pointer")
		}
	}
	a := &Auth{cfg: cfg, store: cfg.Store, servers: map[string]*serverState{}}
	if a.store == nil {
		a.store = &MemoryTokenStore{}
	}
	return a, nil
}

// UserCode returns the code of the user's that a sign-in runs, for a
// definition to fingerprint (it makes Auth an mcpservers.UserCoder): the
// Authorize func, unless it is a BrowserSignIn's, and the Store, unless
// it is one of this package's. The rest is this package's code, which a
// definition does not fingerprint: it would change every user's
// sourceHash with each release.
func (a *Auth) UserCode() []any {
	if a == nil {
		return nil
	}
	var code []any
	if a.cfg.Authorize != nil && a.cfg.Browser == nil {
		// As a func of unnamed type: AuthorizeFunc is this package's.
		code = append(code, (func(context.Context, string) (*url.URL, error))(a.cfg.Authorize))
	}
	switch a.cfg.Store.(type) {
	case nil, *MemoryTokenStore, FileTokenStore, *FileTokenStore:
	default:
		code = append(code, a.cfg.Store)
	}
	return code
}

// AuthorizeConnection returns the RoundTripper that authorizes the
// requests of the connection to serverURL, sending them with next; learn
// is given every secret the sign-in comes to hold (it makes Auth an
// mcpservers.ConnectionAuth, whose connections redact what learn is
// given). Several connections to one server URL share its tokens.
func (a *Auth) AuthorizeConnection(serverURL string, next http.RoundTripper, learn func(secrets ...string)) http.RoundTripper {
	return &connection{a: a, url: serverURL, next: next, learn: learn}
}

// connection authorizes the requests of one connection.
type connection struct {
	a     *Auth
	url   string
	next  http.RoundTripper
	learn func(...string)
}

func (c *connection) RoundTrip(req *http.Request) (*http.Response, error) {
	return c.a.roundTrip(req, c.next, c.url, c.learn)
}

// serverKey is the server's URL as Auth keys its state and the store:
// scheme and host in lower case, no userinfo or fragment.
func serverKey(u *url.URL) string {
	k := url.URL{Scheme: strings.ToLower(u.Scheme), Host: strings.ToLower(u.Host), Path: u.Path, RawPath: u.RawPath, RawQuery: u.RawQuery}
	return k.String()
}

func (a *Auth) server(key string) *serverState {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.servers[key]
	if s == nil {
		s = &serverState{lock: make(chan struct{}, 1), stepped: map[string]bool{}}
		a.servers[key] = s
	}
	return s
}

// flow is what one request's authorization needs.
type flow struct {
	key    string   // the server's key
	server *url.URL // the server's URL
	origin string   // for errors
	hc     *http.Client
	learn  func(...string)
}

func (c *flow) fail(err error) error {
	var oe *Error
	if errors.As(err, &oe) && oe.Server == "" {
		oe.Server = c.origin
	}
	return err
}

// RoundTrip sends req with the server's access token, and, on a 401 (or a
// 403 insufficient_scope), refreshes or signs in and sends it once more.
// It makes Auth an mcpservers.Auth. The server is req's URL: a connection
// of package mcpservers uses [Auth.AuthorizeConnection] instead, which
// knows the connection's URL and redacts the secrets.
func (a *Auth) RoundTrip(req *http.Request, next http.RoundTripper) (*http.Response, error) {
	if req == nil {
		return a.roundTrip(req, next, "", nil)
	}
	return a.roundTrip(req, next, req.URL.String(), nil)
}

func (a *Auth) roundTrip(req *http.Request, next http.RoundTripper, serverURL string, learn func(...string)) (*http.Response, error) {
	if req == nil || next == nil || a == nil || a.servers == nil {
		if req != nil && req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, newErr("", "sign in", ErrInvalidUse, "make the Auth with New, and give RoundTrip a request and a RoundTripper")
	}
	ctx := req.Context()
	if learn == nil {
		learn = func(...string) {}
	}
	su, err := url.Parse(serverURL)
	if err != nil || su.Host == "" {
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, newErr("", "sign in", ErrInvalidUse, "the server's URL cannot be parsed")
	}
	c := &flow{
		key: serverKey(su), server: su, origin: weborigin.Printable(su), learn: learn,
		hc: &http.Client{Transport: next, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
	}
	body, err := replayable(req)
	if err != nil {
		return nil, err
	}
	st := a.server(c.key)
	creds, err := a.current(ctx, st, c)
	if err != nil {
		return nil, c.fail(err)
	}
	sent := creds.token()
	resp, err := send(req, next, sent, body, true)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		return resp, nil
	}
	params := bearer(parseChallenges(resp.Header.Values("WWW-Authenticate")))
	var stepUp []string
	if resp.StatusCode == http.StatusForbidden {
		if params["error"] != "insufficient_scope" {
			return resp, nil
		}
		// Never nil: nil means a 401 to authorize.
		stepUp = append([]string{}, union(creds.scopes(), strings.Fields(params["scope"]))...)
		if !a.mayStepUp(st, stepUp) {
			// Signed in for these scopes before, and refused still: the
			// 403 stands, rather than a sign-in on every request.
			return resp, nil
		}
	}
	// The answer is replaced by the retry's.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	creds, err = a.authorize(ctx, st, c, sent, params, stepUp)
	if err != nil {
		return nil, c.fail(err)
	}
	return send(req, next, creds.token(), body, false)
}

func (c *Credentials) token() string {
	if c == nil {
		return ""
	}
	return c.AccessToken
}

func (c *Credentials) scopes() []string {
	if c == nil {
		return nil
	}
	return c.Scopes
}

// replayable returns a way to make req's body again, for the retry.
func replayable(req *http.Request) (func() (io.ReadCloser, error), error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	if req.GetBody != nil {
		return req.GetBody, nil
	}
	b, err := io.ReadAll(req.Body)
	_ = req.Body.Close()
	if err != nil {
		return nil, err
	}
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }, nil
}

// send sends a copy of req with the token, if any.
func send(req *http.Request, next http.RoundTripper, token string, body func() (io.ReadCloser, error), first bool) (*http.Response, error) {
	r := req.Clone(req.Context())
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil && !(first && req.GetBody == nil) {
		b, err := body()
		if err != nil {
			return nil, err
		}
		r.Body = b
	} else if body != nil {
		// The body was read into memory by replayable.
		b, _ := body()
		r.Body = b
	}
	return next.RoundTrip(r)
}

// union returns a's scopes, then b's not in a.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func scopeSet(s []string) string {
	c := slices.Clone(s)
	slices.Sort(c)
	return strings.Join(slices.Compact(c), " ")
}

// mayStepUp reports whether a step-up to scopes has not been tried yet.
func (a *Auth) mayStepUp(st *serverState, scopes []string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return !st.stepped[scopeSet(scopes)]
}

// refreshMargin is how long before expiry a token is refreshed.
const refreshMargin = time.Minute

// current returns the server's credentials, loaded from the store the
// first time, refreshed when the access token is about to expire.
func (a *Auth) current(ctx context.Context, st *serverState, c *flow) (*Credentials, error) {
	if err := st.acquire(ctx); err != nil {
		return nil, err
	}
	defer st.release()
	if !st.loaded {
		creds, err := a.store.Load(ctx, c.key)
		if err != nil {
			return nil, storeErr("loading the stored tokens failed", err)
		}
		if creds != nil {
			c.learn(creds.secrets()...)
		}
		st.creds, st.loaded = creds, true
	}
	cur := st.creds
	if cur == nil || cur.Expiry.IsZero() || time.Until(cur.Expiry) > refreshMargin {
		return cur.clone(), nil
	}
	if cur.RefreshToken == "" {
		if time.Now().Before(cur.Expiry) {
			return cur.clone(), nil
		}
		return nil, nil // expired: the 401 signs in
	}
	fresh, err := a.refresh(ctx, c, cur)
	if errors.Is(err, errRefreshRefused) {
		return a.forget(ctx, st, c)
	}
	if err != nil {
		return nil, err
	}
	if err := a.keep(ctx, st, c, fresh); err != nil {
		return nil, err
	}
	return fresh.clone(), nil
}

// forget drops the tokens a refused refresh leaves useless, keeping the
// client registration.
func (a *Auth) forget(ctx context.Context, st *serverState, c *flow) (*Credentials, error) {
	kept := st.creds.clone()
	kept.AccessToken, kept.RefreshToken, kept.Expiry = "", "", time.Time{}
	if err := a.keep(ctx, st, c, kept); err != nil {
		return nil, err
	}
	return nil, nil
}

// keep makes creds the server's, in memory and in the store.
func (a *Auth) keep(ctx context.Context, st *serverState, c *flow, creds *Credentials) error {
	c.learn(creds.secrets()...)
	st.creds = creds
	if err := a.store.Save(ctx, c.key, creds.clone()); err != nil {
		return storeErr("saving the tokens failed", err)
	}
	return nil
}

// storeError is a TokenStore error of this package's, whose text is safe
// to print (it names a file, never a token).
type storeError struct{ msg string }

func (e *storeError) Error() string { return e.msg }

func storeErr(what string, err error) *Error {
	var se *storeError
	if errors.As(err, &se) {
		what += ": " + se.msg
	}
	return newErr("", "store", ErrAuthorization, what, err)
}

// authorize gets a token after the server refused sent: a token another
// request got meanwhile, a refresh, or a sign-in.
func (a *Auth) authorize(ctx context.Context, st *serverState, c *flow, sent string, params map[string]string, stepUp []string) (*Credentials, error) {
	if err := st.acquire(ctx); err != nil {
		return nil, err
	}
	defer st.release()
	cur := st.creds
	if stepUp == nil {
		if cur.token() != "" && cur.token() != sent {
			return cur.clone(), nil // refreshed or signed in meanwhile
		}
		if cur != nil && cur.RefreshToken != "" && sent != "" {
			fresh, err := a.refresh(ctx, c, cur)
			switch {
			case err == nil:
				if err := a.keep(ctx, st, c, fresh); err != nil {
					return nil, err
				}
				return fresh.clone(), nil
			case !errors.Is(err, errRefreshRefused):
				return nil, err
			}
			// The refresh token is dead: keep none, whatever comes next.
			if _, err := a.forget(ctx, st, c); err != nil {
				return nil, err
			}
		}
	} else {
		a.mu.Lock()
		st.stepped[scopeSet(stepUp)] = true
		a.mu.Unlock()
	}
	creds, err := a.signIn(ctx, st, c, params, stepUp, cur)
	if err != nil {
		return nil, err
	}
	if err := a.keep(ctx, st, c, creds); err != nil {
		return nil, err
	}
	return creds.clone(), nil
}

// signIn runs discovery, registration and the authorization code flow.
// scopes, when not nil, are a step-up's; else they are chosen from the
// challenge, then the resource metadata.
func (a *Auth) signIn(ctx context.Context, st *serverState, c *flow, params map[string]string, scopes []string, prev *Credentials) (*Credentials, error) {
	if a.cfg.Authorize == nil {
		detail := "no stored token serves, and there is no way to ask the user"
		if a.cfg.SignInHint != "" {
			detail += ": " + a.cfg.SignInHint
		}
		return nil, newErr("", "sign in", ErrSignInRequired, detail)
	}
	found := st.found
	if found == nil || params["resource_metadata"] != "" && params["resource_metadata"] != found.at {
		var err error
		if found, err = discover(ctx, c, params); err != nil {
			return nil, err
		}
		st.found = found
	}
	prm, md := found.prm, found.md
	resource := c.key
	if prm != nil {
		resource = prm.Resource
	}
	if scopes == nil {
		scopes = strings.Fields(params["scope"])
		if len(scopes) == 0 && prm != nil {
			scopes = slices.Clone(prm.ScopesSupported)
		}
	}
	cl, err := a.chooseClient(ctx, c.hc, md, prev, c.learn)
	if err != nil {
		return nil, err
	}
	conf := &oauth2.Config{
		ClientID:     cl.id,
		ClientSecret: cl.secret,
		Endpoint:     oauth2.Endpoint{AuthURL: md.AuthorizationEndpoint, TokenURL: md.TokenEndpoint, AuthStyle: authStyle(cl.method)},
		RedirectURL:  a.cfg.RedirectURL,
		Scopes:       scopes,
	}
	verifier := oauth2.GenerateVerifier()
	state := rand.Text()
	c.learn(verifier, cl.secret)
	authURL := conf.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", resource))
	back, err := a.cfg.Authorize(ctx, authURL)
	if err != nil {
		return nil, newErr("", "sign in", ErrAuthorization, "the Authorize func failed", err)
	}
	if back == nil {
		return nil, newErr("", "sign in", ErrAuthorization, "the Authorize func returned no redirect URL")
	}
	q := back.Query()
	if e := q.Get("error"); e != "" {
		return nil, newErr("", "sign in", ErrAuthorization, "the authorization server refused: "+orWord(safeCode(e), "an error"))
	}
	if q.Get("state") != state {
		return nil, newErr("", "sign in", ErrAuthorization, "the redirect's state is not the request's (a forged or stale redirect): refused")
	}
	if iss := q.Get("iss"); (iss != "" || md.IssParameterSupported) && strings.TrimSuffix(iss, "/") != strings.TrimSuffix(md.Issuer, "/") {
		return nil, newErr("", "sign in", ErrAuthorization, "the redirect's iss is not the authorization server's issuer (RFC 9207): refused")
	}
	code := q.Get("code")
	if code == "" {
		return nil, newErr("", "sign in", ErrAuthorization, "the redirect holds no authorization code")
	}
	c.learn(code)
	tok, err := conf.Exchange(context.WithValue(ctx, oauth2.HTTPClient, c.hc), code,
		oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", resource))
	if err != nil {
		return nil, tokenErr(ctx, "token", "exchanging the authorization code failed", err)
	}
	creds, err := credentials(tok, scopes)
	if err != nil {
		return nil, err
	}
	creds.Server, creds.Resource, creds.Issuer, creds.TokenURL = c.key, resource, md.Issuer, md.TokenEndpoint
	creds.ClientID, creds.ClientSecret, creds.AuthMethod, creds.RedirectURL = cl.id, cl.secret, cl.method, a.cfg.RedirectURL
	if cl.id == a.cfg.ClientMetadataURL {
		creds.ClientMetadataURL = cl.id
	}
	c.learn(creds.secrets()...)
	return creds, nil
}

// discover finds the server's resource metadata and its authorization
// server's metadata.
func discover(ctx context.Context, c *flow, params map[string]string) (*discovered, error) {
	prm, err := discoverResource(ctx, c.hc, c.server, params)
	if err != nil {
		return nil, discoverErr(ctx, err)
	}
	issuer := (&url.URL{Scheme: c.server.Scheme, Host: c.server.Host}).String()
	if prm != nil {
		issuer = prm.AuthorizationServers[0]
	} else if err := checkEndpoint(issuer); err != nil {
		return nil, metadataRefused("the server (a 2025-03-26 server, with no protected resource metadata, whose authorization server is its own origin) " + err.Error())
	}
	md, err := discoverServer(ctx, c.hc, issuer, prm == nil)
	if err != nil {
		return nil, discoverErr(ctx, err)
	}
	return &discovered{prm: prm, md: md, at: params["resource_metadata"]}, nil
}

func orWord(s, w string) string {
	if s == "" {
		return w
	}
	return s
}

func discoverErr(ctx context.Context, err error) error {
	var oe *Error
	if errors.As(err, &oe) {
		return err
	}
	return newErr("", "discover", ErrAuthorization, "discovering the authorization server was cut short", ctx.Err())
}

func authStyle(method string) oauth2.AuthStyle {
	if method == authBasic {
		return oauth2.AuthStyleInHeader
	}
	return oauth2.AuthStyleInParams // post, and none (no secret is sent)
}

// credentials checks a token response and makes credentials of it.
func credentials(tok *oauth2.Token, requested []string) (*Credentials, error) {
	if tok.AccessToken == "" {
		return nil, newErr("", "token", ErrAuthorization, "the token response has no access_token")
	}
	if !strings.EqualFold(tok.Type(), "bearer") {
		return nil, newErr("", "token", ErrAuthorization, "the token is not a Bearer token")
	}
	c := &Credentials{AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, Expiry: tok.Expiry, Scopes: requested}
	if s, ok := tok.Extra("scope").(string); ok && s != "" {
		c.Scopes = strings.Fields(s)
	}
	return c, nil
}

// errRefreshRefused: the authorization server refused the refresh token;
// only a sign-in helps.
var errRefreshRefused = errors.New("the refresh token was refused")

// refresh gets a new access token with cur's refresh token, sending the
// resource parameter as every token request must.
func (a *Auth) refresh(ctx context.Context, c *flow, cur *Credentials) (*Credentials, error) {
	conf := &oauth2.Config{
		ClientID:     cur.ClientID,
		ClientSecret: cur.ClientSecret,
		Endpoint:     oauth2.Endpoint{TokenURL: cur.TokenURL, AuthStyle: authStyle(cur.AuthMethod)},
	}
	if err := checkEndpoint(cur.TokenURL); err != nil {
		return nil, errRefreshRefused
	}
	hc := &http.Client{Transport: resourceParam{next: c.hc.Transport, resource: cur.Resource}, CheckRedirect: c.hc.CheckRedirect}
	ts := conf.TokenSource(context.WithValue(ctx, oauth2.HTTPClient, hc), &oauth2.Token{RefreshToken: cur.RefreshToken, Expiry: time.Unix(1, 0)})
	tok, err := ts.Token()
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && (re.ErrorCode == "invalid_grant" || re.ErrorCode == "invalid_client" || re.ErrorCode == "unauthorized_client" ||
			re.Response != nil && (re.Response.StatusCode == http.StatusBadRequest || re.Response.StatusCode == http.StatusUnauthorized)) {
			return nil, errRefreshRefused
		}
		return nil, tokenErr(ctx, "refresh", "refreshing the access token failed", err)
	}
	fresh, err := credentials(tok, cur.Scopes)
	if err != nil {
		return nil, err
	}
	keep := cur.clone()
	keep.AccessToken, keep.Expiry, keep.Scopes = fresh.AccessToken, fresh.Expiry, fresh.Scopes
	if fresh.RefreshToken != "" {
		keep.RefreshToken = fresh.RefreshToken
	}
	return keep, nil
}

// tokenErr describes a token endpoint failure by status and error code,
// never by x/oauth2's text, which quotes the response body.
func tokenErr(ctx context.Context, op, what string, err error) *Error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.Response != nil {
		return newErr("", op, ErrAuthorization, what+": the token endpoint answered "+statusText(re.Response.StatusCode, re.ErrorCode))
	}
	if ctx.Err() != nil {
		return newErr("", op, ErrAuthorization, what+": cut short", ctx.Err())
	}
	return newErr("", op, ErrAuthorization, what+": the token endpoint could not be reached or its answer read")
}

// resourceParam adds the RFC 8707 resource parameter to a token request
// that lacks it (x/oauth2 has no option for it on a refresh).
type resourceParam struct {
	next     http.RoundTripper
	resource string
}

func (t resourceParam) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.resource == "" || req.Method != http.MethodPost || req.Body == nil {
		return t.next.RoundTrip(req)
	}
	b, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	_ = req.Body.Close()
	if err != nil {
		return nil, err
	}
	v, err := url.ParseQuery(string(b))
	if err != nil {
		return nil, errors.New("the token request's form cannot be read")
	}
	if !v.Has("resource") {
		v.Set("resource", t.resource)
	}
	enc := v.Encode()
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(strings.NewReader(enc))
	r.ContentLength = int64(len(enc))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(enc)), nil }
	return t.next.RoundTrip(r)
}
