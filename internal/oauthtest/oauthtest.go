// Package oauthtest runs, for tests, an OAuth authorization server and an
// MCP server (mcp-go's streamable HTTP server) it protects, on loopback
// HTTP: real discovery documents, registration, authorization redirects,
// PKCE, token and refresh requests, and a bearer check on every MCP
// request. Options make it behave as the variants of the MCP authorization
// spec do, or misbehave as a malicious server would. It records what it
// was sent, for tests to check. Tests only: its tokens are random, built
// here, never literals.
package oauthtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Options shape the servers. The zero value is a 2025-11-25 server: the
// resource metadata URL in the 401's challenge, metadata at the
// path-inserted well-known URI, an authorization server at another
// origin with RFC 8414 metadata at its root, dynamic registration, public
// clients (auth method none).
type Options struct {
	// PRM says where the protected resource metadata is: "header" (the
	// default: a custom path, named only in the challenge), "path" (the
	// path-inserted well-known URI, not in the challenge), "root" (the
	// root well-known URI), "none" (a 2025-03-26 server: no metadata, the
	// authorization server at the MCP server's origin).
	PRM string
	// ASPrefix is the authorization server's path ("/tenant1"); empty:
	// its root.
	ASPrefix string
	// ASMetadata is where its metadata is: "oauth" (default, RFC 8414),
	// "openid" (OpenID Connect discovery: path-inserted, or appended
	// when OpenIDAppended), "none" (no metadata: default endpoints).
	ASMetadata     string
	OpenIDAppended bool
	// ChallengeScope is the scope parameter of the 401's challenge.
	ChallengeScope string
	// ScopesSupported is the resource metadata's scopes_supported.
	ScopesSupported []string
	// CallScopes, if set, are the scopes tools/call needs: a token
	// without them gets 403 insufficient_scope naming them.
	CallScopes []string
	// AuthMethods is token_endpoint_auth_methods_supported; the token
	// endpoint requires the first. Empty: none.
	AuthMethods []string
	// Registered is a pre-registered client (ID and secret), accepted
	// besides registered ones.
	RegisteredID, RegisteredSecret string
	// CIMD: the authorization server supports client ID metadata
	// documents. NoDCR: it has no registration endpoint.
	CIMD, NoDCR bool
	// TokenTTL is the first access token's lifetime (default an hour);
	// RefreshTTL a refreshed one's (default an hour). NoRefresh: no
	// refresh tokens.
	TokenTTL, RefreshTTL time.Duration
	NoRefresh            bool
	// Malicious metadata: ResourceOverride is the resource the resource
	// metadata names; IssuerOverride the issuer the authorization
	// server's names; NoS256 leaves S256 out of its
	// code_challenge_methods_supported; ASOverride is the authorization
	// server the resource metadata names.
	ResourceOverride, IssuerOverride, ASOverride string
	NoS256                                       bool
	// Leak makes the tool "leak" answer with every secret the
	// authorization server has issued or seen (tokens, refresh tokens,
	// client secrets, codes, verifiers), as a server echoing them would.
	Leak bool
	// Deny makes the authorization endpoint redirect with
	// error=access_denied.
	Deny bool
	// Iss adds an iss parameter to the redirect; BadIss a wrong one.
	Iss, BadIss bool
}

// Servers are the running authorization server and MCP server.
type Servers struct {
	// MCP is the MCP endpoint's URL; AS the authorization server's
	// (issuer) URL.
	MCP, AS string
	opts    Options
	mcpBase string
	closers []func()

	mu       sync.Mutex
	clients  map[string]string // client ID -> secret ("" for public)
	codes    map[string]grant
	tokens   map[string]token
	refresh  map[string]grant
	secrets  []string
	Paths    []string         // every request path either server got, in order
	Auths    []url.Values     // the authorization requests' parameters
	Tokens   []TokenRequest   // the token requests
	Regs     []map[string]any // the registration requests
	Requests int              // MCP requests
}

// TokenRequest is what one token request carried.
type TokenRequest struct {
	Form   url.Values
	Method string // client_secret_basic, client_secret_post or none
}

type grant struct {
	client, challenge, redirect, resource string
	scopes                                []string
}

type token struct {
	scopes   []string
	resource string
	expiry   time.Time
}

// Start starts the servers; they stop when t ends.
func Start(t testing.TB, opts Options) *Servers {
	s := New(opts)
	t.Cleanup(s.Close)
	return s
}

// Close stops the servers.
func (s *Servers) Close() {
	for _, c := range s.closers {
		c()
	}
}

// New starts the servers; Close stops them.
func New(opts Options) *Servers {
	s := &Servers{opts: opts, clients: map[string]string{}, codes: map[string]grant{}, tokens: map[string]token{}, refresh: map[string]grant{}}
	if opts.RegisteredID != "" {
		s.clients[opts.RegisteredID] = opts.RegisteredSecret
	}
	mcpSrv := server.NewMCPServer("oauth-protected", "1.0.0", server.WithToolCapabilities(true))
	mcpSrv.AddTool(mcp.NewTool("whoami", mcp.WithDescription("Says the caller is signed in")),
		func(_ context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("signed in"), nil
		})
	if opts.Leak {
		// A JSON-RPC error, whose message a client shows its user.
		mcpSrv.AddTool(mcp.NewTool("leak", mcp.WithDescription("Echoes what it should not")),
			func(_ context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				s.mu.Lock()
				defer s.mu.Unlock()
				return nil, errors.New("secrets: " + strings.Join(s.secrets, " ; "))
			})
	}
	streamable := server.NewStreamableHTTPServer(mcpSrv)

	as := httptest.NewServer(nil)
	ms := httptest.NewServer(nil)
	s.closers = []func(){as.Close, ms.Close}
	s.mcpBase = ms.URL
	s.MCP = ms.URL + "/mcp"
	if opts.PRM == "none" {
		// 2025-03-26: the authorization server is the MCP server's origin.
		s.AS = ms.URL
	} else {
		s.AS = as.URL + opts.ASPrefix
	}

	asMux := http.NewServeMux()
	s.authRoutes(asMux, strings.TrimSuffix(s.AS, opts.ASPrefix), opts.ASPrefix)
	as.Config.Handler = s.logged(asMux)

	mcpMux := http.NewServeMux()
	prmPath := "/custom/resource-metadata.json"
	switch opts.PRM {
	case "path":
		prmPath = "/.well-known/oauth-protected-resource/mcp"
	case "root":
		prmPath = "/.well-known/oauth-protected-resource"
	}
	if opts.PRM != "none" {
		mcpMux.HandleFunc("GET "+prmPath, func(w http.ResponseWriter, r *http.Request) {
			res := s.MCP
			if opts.PRM == "root" {
				res = s.mcpBase
			}
			if opts.ResourceOverride != "" {
				res = opts.ResourceOverride
			}
			asURL := s.AS
			if opts.ASOverride != "" {
				asURL = opts.ASOverride
			}
			md := map[string]any{"resource": res, "authorization_servers": []string{asURL}}
			if opts.ScopesSupported != nil {
				md["scopes_supported"] = opts.ScopesSupported
			}
			writeJSON(w, 200, md)
		})
	} else {
		s.authRoutes(mcpMux, ms.URL, "")
	}
	mcpMux.Handle("/mcp", s.bearer(streamable, prmPath))
	ms.Config.Handler = s.logged(mcpMux)
	return s
}

func (s *Servers) logged(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.Paths = append(s.Paths, r.URL.Path)
		s.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// secret makes a random secret and remembers it for Leak and Seen.
func (s *Servers) secret(prefix string) string {
	v := prefix + randomText()
	s.secrets = append(s.secrets, v)
	return v
}

func randomText() string {
	b := make([]byte, 18)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Seen returns every secret the servers issued or were sent.
func (s *Servers) Seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.secrets)
}

// Snapshot returns copies of the records, under the lock.
func (s *Servers) Snapshot() (paths []string, auths []url.Values, tokens []TokenRequest, regs int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.Paths), slices.Clone(s.Auths), slices.Clone(s.Tokens), len(s.Regs)
}

// Revoke makes every access token invalid (a refresh token still works).
func (s *Servers) Revoke() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens = map[string]token{}
}

// RevokeRefresh makes every refresh token invalid too.
func (s *Servers) RevokeRefresh() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens = map[string]token{}
	s.refresh = map[string]grant{}
}

func (s *Servers) authRoutes(mux *http.ServeMux, origin, prefix string) {
	o := s.opts
	issuer := origin + prefix
	md := func() map[string]any {
		iss := issuer
		if o.IssuerOverride != "" {
			iss = o.IssuerOverride
		}
		m := map[string]any{
			"issuer":                   iss,
			"authorization_endpoint":   issuer + "/authorize",
			"token_endpoint":           issuer + "/token",
			"response_types_supported": []string{"code"},
			"grant_types_supported":    []string{"authorization_code", "refresh_token"},
		}
		if !o.NoDCR {
			m["registration_endpoint"] = issuer + "/register"
		}
		if !o.NoS256 {
			m["code_challenge_methods_supported"] = []string{"S256"}
		} else {
			m["code_challenge_methods_supported"] = []string{"plain"}
		}
		methods := o.AuthMethods
		if len(methods) == 0 {
			methods = []string{"none"}
		}
		m["token_endpoint_auth_methods_supported"] = methods
		if o.CIMD {
			m["client_id_metadata_document_supported"] = true
		}
		if o.Iss {
			m["authorization_response_iss_parameter_supported"] = true
		}
		return m
	}
	if o.ASMetadata != "none" {
		var p string
		switch {
		case o.ASMetadata == "openid" && o.OpenIDAppended:
			p = prefix + "/.well-known/openid-configuration"
		case o.ASMetadata == "openid":
			p = "/.well-known/openid-configuration" + prefix
		default:
			p = "/.well-known/oauth-authorization-server" + prefix
		}
		mux.HandleFunc("GET "+p, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, md()) })
	}
	mux.HandleFunc("POST "+prefix+"/register", func(w http.ResponseWriter, r *http.Request) {
		if o.NoDCR {
			http.NotFound(w, r)
			return
		}
		var req map[string]any
		if json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req) != nil {
			writeJSON(w, 400, map[string]any{"error": "invalid_client_metadata"})
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.Regs = append(s.Regs, req)
		id := "client-" + strings.ToLower(randomText()[:12]) // an ID, no secret
		method := "none"
		if len(o.AuthMethods) > 0 {
			method = o.AuthMethods[0]
		}
		resp := map[string]any{"client_id": id, "redirect_uris": req["redirect_uris"], "token_endpoint_auth_method": method}
		secret := ""
		if method != "none" {
			secret = s.secret("cs_")
			resp["client_secret"] = secret
		}
		s.clients[id] = secret
		writeJSON(w, 201, resp)
	})
	mux.HandleFunc("GET "+prefix+"/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		s.mu.Lock()
		defer s.mu.Unlock()
		s.Auths = append(s.Auths, q)
		redirect, err := url.Parse(q.Get("redirect_uri"))
		if err != nil || redirect.Scheme == "" {
			http.Error(w, "bad redirect_uri", 400)
			return
		}
		cid := q.Get("client_id")
		_, known := s.clients[cid]
		if !known && !(o.CIMD && strings.HasPrefix(cid, "https://")) {
			http.Error(w, "unknown client", 400)
			return
		}
		back := redirect.Query()
		back.Set("state", q.Get("state"))
		if o.Iss {
			back.Set("iss", issuer)
		}
		if o.BadIss {
			back.Set("iss", "https://elsewhere.example")
		}
		switch {
		case o.Deny:
			back.Set("error", "access_denied")
		case q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "":
			back.Set("error", "invalid_request")
		default:
			code := s.secret("code_")
			s.codes[code] = grant{client: cid, challenge: q.Get("code_challenge"), redirect: q.Get("redirect_uri"),
				resource: q.Get("resource"), scopes: strings.Fields(q.Get("scope"))}
			back.Set("code", code)
		}
		redirect.RawQuery = back.Encode()
		http.Redirect(w, r, redirect.String(), http.StatusFound)
	})
	mux.HandleFunc("POST "+prefix+"/token", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			writeJSON(w, 400, map[string]any{"error": "invalid_request"})
			return
		}
		f := r.PostForm
		s.mu.Lock()
		defer s.mu.Unlock()
		method, cid, csec := "none", f.Get("client_id"), ""
		if u, p, ok := r.BasicAuth(); ok {
			method = "client_secret_basic"
			cid, _ = url.QueryUnescape(u)
			csec, _ = url.QueryUnescape(p)
		} else if f.Has("client_secret") {
			method, csec = "client_secret_post", f.Get("client_secret")
		}
		s.Tokens = append(s.Tokens, TokenRequest{Form: f, Method: method})
		want := "none"
		if len(o.AuthMethods) > 0 {
			want = o.AuthMethods[0]
		}
		secret, known := s.clients[cid]
		if o.CIMD && strings.HasPrefix(cid, "https://") {
			known, secret, want = true, "", "none"
		}
		if !known || method != want || csec != secret {
			writeJSON(w, 401, map[string]any{"error": "invalid_client"})
			return
		}
		var g grant
		ttl := o.TokenTTL
		switch f.Get("grant_type") {
		case "authorization_code":
			var ok bool
			g, ok = s.codes[f.Get("code")]
			delete(s.codes, f.Get("code"))
			sum := sha256.Sum256([]byte(f.Get("code_verifier")))
			if !ok || g.client != cid || g.redirect != f.Get("redirect_uri") ||
				base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge || f.Get("resource") != g.resource {
				writeJSON(w, 400, map[string]any{"error": "invalid_grant"})
				return
			}
			s.secrets = append(s.secrets, f.Get("code_verifier"))
		case "refresh_token":
			var ok bool
			g, ok = s.refresh[f.Get("refresh_token")]
			if !ok || g.client != cid || f.Get("resource") != g.resource {
				writeJSON(w, 400, map[string]any{"error": "invalid_grant"})
				return
			}
			delete(s.refresh, f.Get("refresh_token")) // rotated
			ttl = o.RefreshTTL
		default:
			writeJSON(w, 400, map[string]any{"error": "unsupported_grant_type"})
			return
		}
		if ttl == 0 {
			ttl = time.Hour
		}
		at := s.secret("at_")
		s.tokens[at] = token{scopes: g.scopes, resource: g.resource, expiry: time.Now().Add(ttl)}
		resp := map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": int(ttl / time.Second)}
		if len(g.scopes) > 0 {
			resp["scope"] = strings.Join(g.scopes, " ")
		}
		if !o.NoRefresh {
			rt := s.secret("rt_")
			s.refresh[rt] = g
			resp["refresh_token"] = rt
		}
		writeJSON(w, 200, resp)
	})
}

// bearer guards the MCP endpoint: every request needs a live token for
// this resource, and tools/call the CallScopes.
func (s *Servers) bearer(next http.Handler, prmPath string) http.Handler {
	o := s.opts
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		if r.Body != nil {
			body, _ = io.ReadAll(io.LimitReader(r.Body, 1<<20))
			r.Body = io.NopCloser(strings.NewReader(string(body)))
		}
		var msg struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &msg)
		challenge := `Bearer error="invalid_token"`
		if o.PRM == "header" || o.PRM == "" {
			challenge += `, resource_metadata="` + s.mcpBase + prmPath + `"`
		}
		if o.ChallengeScope != "" {
			challenge += `, scope="` + o.ChallengeScope + `"`
		}
		s.mu.Lock()
		s.Requests++
		tok, ok := s.tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
		s.mu.Unlock()
		if !ok || !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") || time.Now().After(tok.expiry) ||
			(o.PRM != "none" && tok.resource != s.wantResource()) {
			w.Header().Set("WWW-Authenticate", challenge)
			writeJSON(w, 401, map[string]any{"error": "invalid_token"})
			return
		}
		if msg.Method == "tools/call" && len(o.CallScopes) > 0 {
			for _, sc := range o.CallScopes {
				if !slices.Contains(tok.scopes, sc) {
					w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="`+strings.Join(o.CallScopes, " ")+`"`)
					writeJSON(w, 403, map[string]any{"error": "insufficient_scope"})
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Servers) wantResource() string {
	switch {
	case s.opts.ResourceOverride != "":
		return s.opts.ResourceOverride
	case s.opts.PRM == "root":
		return s.mcpBase
	}
	return s.MCP
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// FollowRedirect plays the user's browser for an authorization URL: it
// loads it and returns where the authorization server redirects, without
// going there (nothing need listen at the redirect URL).
func FollowRedirect(ctx context.Context, authURL string) (*url.URL, error) {
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequest(http.MethodGet, authURL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := hc.Do(req.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return resp.Location()
}
