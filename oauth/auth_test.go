package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/internal/lockedbuffer"
	"github.com/guardian-agent/guardian-go/internal/oauthtest"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// The user's browser is played by FollowRedirect: it loads the
// authorization URL and reads the redirect, as a browser would before
// landing on the redirect URL.

const testRedirect = "http://127.0.0.1:9/callback"

// signIn is an OAuth whose user approves at once, counting sign-ins.
func signIn(t testing.TB, cfg Config, count *atomic.Int32) *Auth {
	t.Helper()
	cfg.Authorize = func(ctx context.Context, authURL string) (*url.URL, error) {
		if count != nil {
			count.Add(1)
		}
		return oauthtest.FollowRedirect(ctx, authURL)
	}
	cfg.RedirectURL = testRedirect
	o, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestOAuthSignsIn: the whole flow against a 2025-11-25 server, and what
// each request carried: PKCE S256, state, the resource on both requests,
// the challenge's scope.
func TestOAuthSignsIn(t *testing.T) {
	srv := oauthtest.Start(t, oauthtest.Options{ChallengeScope: "mcp:read"})
	var n atomic.Int32
	c := protectedClient(t, srv, signIn(t, Config{}, &n))
	tools := loadTools(t, c, "protected")
	if _, ok := tools["whoami"]; !ok {
		t.Fatalf("tools = %v, want whoami", tools)
	}
	r := call(t, tools["whoami"], nil)
	if r.Text() != "signed in" {
		t.Errorf("whoami = %q", r.Text())
	}
	_, auths, toks, regs := srv.Snapshot()
	if n.Load() != 1 || len(auths) != 1 || regs != 1 {
		t.Fatalf("sign-ins %d, authorization requests %d, registrations %d; want 1 each", n.Load(), len(auths), regs)
	}
	a := auths[0]
	for k, want := range map[string]string{"code_challenge_method": "S256", "resource": srv.MCP, "scope": "mcp:read", "response_type": "code", "redirect_uri": testRedirect} {
		if got := a.Get(k); got != want {
			t.Errorf("authorization request %s = %q, want %q", k, got, want)
		}
	}
	if a.Get("state") == "" || a.Get("code_challenge") == "" {
		t.Errorf("authorization request without state or code_challenge: %v", a)
	}
	if len(toks) != 1 || toks[0].Form.Get("resource") != srv.MCP || toks[0].Form.Get("code_verifier") == "" || toks[0].Method != "none" {
		t.Errorf("token requests = %+v, want one with resource, verifier, auth none", toks)
	}
}

// TestOAuthDiscovery: the places a server may publish its metadata, and
// the order the spec gives for trying them.
func TestOAuthDiscovery(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts oauthtest.Options
		// want: paths requested, in order, from the first discovery
		// request up to the authorization server's metadata.
		want []string
	}{
		{"resource_metadata parameter", oauthtest.Options{},
			[]string{"/custom/resource-metadata.json", "/.well-known/oauth-authorization-server"}},
		{"path-inserted resource metadata", oauthtest.Options{PRM: "path"},
			[]string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server"}},
		{"root resource metadata", oauthtest.Options{PRM: "root"},
			[]string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server"}},
		{"openid at the root", oauthtest.Options{ASMetadata: "openid"},
			[]string{"/custom/resource-metadata.json", "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"}},
		{"issuer with a path, RFC 8414 path-inserted", oauthtest.Options{ASPrefix: "/tenant1"},
			[]string{"/custom/resource-metadata.json", "/.well-known/oauth-authorization-server/tenant1"}},
		{"issuer with a path, openid path-inserted", oauthtest.Options{ASPrefix: "/tenant1", ASMetadata: "openid"},
			[]string{"/custom/resource-metadata.json", "/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1"}},
		{"issuer with a path, openid appended", oauthtest.Options{ASPrefix: "/tenant1", ASMetadata: "openid", OpenIDAppended: true},
			[]string{"/custom/resource-metadata.json", "/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1", "/tenant1/.well-known/openid-configuration"}},
		{"2025-03-26: metadata at the server's origin", oauthtest.Options{PRM: "none"},
			[]string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server"}},
		{"2025-03-26: default endpoints", oauthtest.Options{PRM: "none", ASMetadata: "none"},
			[]string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration", "/register", "/authorize"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := oauthtest.Start(t, tc.opts)
			c := protectedClient(t, srv, signIn(t, Config{}, nil))
			tools := loadTools(t, c, "protected")
			if r := call(t, tools["whoami"], nil); r.Text() != "signed in" {
				t.Fatalf("whoami = %q", r.Text())
			}
			paths, _, _, _ := srv.Snapshot()
			var got []string
			started := false
			for _, p := range paths {
				if strings.Contains(p, "well-known") || p == "/custom/resource-metadata.json" {
					started = true
				}
				if started && p != "/mcp" {
					got = append(got, p)
				}
				if started && len(got) == len(tc.want) {
					break
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("requests = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestOAuthScopes: the challenge's scope, else scopes_supported, else none.
func TestOAuthScopes(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts oauthtest.Options
		want string
	}{
		{"challenge", oauthtest.Options{ChallengeScope: "a b", ScopesSupported: []string{"c"}}, "a b"},
		{"scopes_supported", oauthtest.Options{ScopesSupported: []string{"c", "d"}}, "c d"},
		{"none", oauthtest.Options{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := oauthtest.Start(t, tc.opts)
			loadTools(t, protectedClient(t, srv, signIn(t, Config{}, nil)), "protected")
			_, auths, _, _ := srv.Snapshot()
			if len(auths) != 1 || auths[0].Get("scope") != tc.want || (tc.want == "" && auths[0].Has("scope")) {
				t.Errorf("authorization requests %v, want scope %q", auths, tc.want)
			}
		})
	}
}

// TestOAuthClients: pre-registered, client ID metadata document, dynamic
// registration; and the token endpoint authentication each gets.
func TestOAuthClients(t *testing.T) {
	cimd := "https://client.example/guardian.json"
	regSecret := fakeSecret(t, "pre_")
	for _, tc := range []struct {
		name       string
		opts       oauthtest.Options
		cfg        Config
		wantClient string // "" for a registered one
		wantMethod string
		wantRegs   int
	}{
		{"dcr none", oauthtest.Options{}, Config{}, "", "none", 1},
		{"dcr basic", oauthtest.Options{AuthMethods: []string{"client_secret_basic"}}, Config{}, "", "client_secret_basic", 1},
		{"dcr post", oauthtest.Options{AuthMethods: []string{"client_secret_post"}}, Config{}, "", "client_secret_post", 1},
		{"pre-registered basic", oauthtest.Options{RegisteredID: "pre-1", RegisteredSecret: regSecret, AuthMethods: []string{"client_secret_basic", "client_secret_post"}},
			Config{ClientID: "pre-1", ClientSecret: regSecret}, "pre-1", "client_secret_basic", 0},
		{"pre-registered post", oauthtest.Options{RegisteredID: "pre-1", RegisteredSecret: regSecret, AuthMethods: []string{"client_secret_post"}},
			Config{ClientID: "pre-1", ClientSecret: regSecret}, "pre-1", "client_secret_post", 0},
		{"pre-registered public", oauthtest.Options{RegisteredID: "pre-1"}, Config{ClientID: "pre-1"}, "pre-1", "none", 0},
		{"cimd when supported", oauthtest.Options{CIMD: true}, Config{ClientMetadataURL: cimd}, cimd, "none", 0},
		{"dcr when cimd is not supported", oauthtest.Options{}, Config{ClientMetadataURL: cimd}, "", "none", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := oauthtest.Start(t, tc.opts)
			tools := loadTools(t, protectedClient(t, srv, signIn(t, tc.cfg, nil)), "protected")
			if r := call(t, tools["whoami"], nil); r.Text() != "signed in" {
				t.Fatalf("whoami = %q", r.Text())
			}
			_, auths, toks, regs := srv.Snapshot()
			if regs != tc.wantRegs {
				t.Errorf("registrations = %d, want %d", regs, tc.wantRegs)
			}
			if tc.wantClient != "" && auths[0].Get("client_id") != tc.wantClient {
				t.Errorf("client_id = %q, want %q", auths[0].Get("client_id"), tc.wantClient)
			}
			if len(toks) != 1 || toks[0].Method != tc.wantMethod {
				t.Errorf("token requests %+v, want one by %s", toks, tc.wantMethod)
			}
		})
	}
	t.Run("wrong secret", func(t *testing.T) {
		// The token endpoint refuses the client: the error says so by
		// status and code, and holds neither the secret nor the code.
		srv := oauthtest.Start(t, oauthtest.Options{RegisteredID: "pre-1", RegisteredSecret: regSecret, AuthMethods: []string{"client_secret_basic"}})
		wrong := fakeSecret(t, "wrong_")
		_, err := protectedClient(t, srv, signIn(t, Config{ClientID: "pre-1", ClientSecret: wrong}, nil)).Tools(testCtx(t), "protected")
		if !errors.Is(err, ErrAuthorization) || !strings.Contains(err.Error(), "HTTP 401 (invalid_client)") {
			t.Fatalf("err = %v, want ErrAuthorization with the token endpoint's status and code", err)
		}
		assertNoSecrets(t, err.Error(), append(srv.Seen(), wrong, regSecret)...)
		var oe *Error
		if errors.As(err, &oe) {
			assertNoSecrets(t, oe.Error(), append(srv.Seen(), wrong)...)
		}
	})
	t.Run("no way to register", func(t *testing.T) {
		srv := oauthtest.Start(t, oauthtest.Options{NoDCR: true})
		_, err := protectedClient(t, srv, signIn(t, Config{}, nil)).Tools(testCtx(t), "protected")
		wantKind(t, err, mcpservers.ErrConnect, "protected")
		if !errors.Is(err, ErrAuthorization) || !strings.Contains(err.Error(), "pre-registered client ID") {
			t.Errorf("err = %v, want ErrAuthorization saying to configure a client ID", err)
		}
	})
}

// TestOAuthRefusesMetadata: metadata the spec says not to use is refused
// with an ErrMetadata error naming the server, before anything is
// sent to the authorization server, and no secret is in the error.
func TestOAuthRefusesMetadata(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts oauthtest.Options
		want string
	}{
		{"resource of another server", oauthtest.Options{ResourceOverride: "https://other.example/mcp"}, "another resource"},
		{"resource on another path", oauthtest.Options{PRM: "path", ResourceOverride: "http://127.0.0.1:1/other"}, "another resource"},
		{"issuer of another origin", oauthtest.Options{IssuerOverride: "https://attacker.example"}, "another issuer"},
		{"no S256", oauthtest.Options{NoS256: true}, "S256"},
		{"authorization server over plain http", oauthtest.Options{ASOverride: "http://auth.example"}, "not https"},
		{"authorization server not http", oauthtest.Options{ASOverride: "file:///etc/passwd"}, "not an absolute http or https URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := oauthtest.Start(t, tc.opts)
			var n atomic.Int32
			_, err := protectedClient(t, srv, signIn(t, Config{}, &n)).Tools(testCtx(t), "protected")
			wantKind(t, err, mcpservers.ErrConnect, "protected")
			var oe *Error
			if !errors.Is(err, ErrMetadata) || !errors.As(err, &oe) {
				t.Fatalf("err = %v, want an *Error of ErrMetadata", err)
			}
			u, _ := url.Parse(srv.MCP)
			if oe.Server != "http://"+u.Host || !strings.Contains(err.Error(), oe.Server) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %q (Server %q), want it to name %s and say %q", err, oe.Server, u.Host, tc.want)
			}
			_, auths, toks, regs := srv.Snapshot()
			if n.Load() != 0 || len(auths)+len(toks)+regs != 0 {
				t.Errorf("after refused metadata: %d sign-ins, %d authorization, %d token, %d registration requests; want none", n.Load(), len(auths), len(toks), regs)
			}
			assertNoSecrets(t, err.Error(), srv.Seen()...)
		})
	}
}

// TestOAuthRefusesRedirect: a redirect with another state, an error, or
// the wrong iss is refused; the code it carries is in no error.
func TestOAuthRefusesRedirect(t *testing.T) {
	srv := oauthtest.Start(t, oauthtest.Options{})
	forged, err := New(Config{RedirectURL: testRedirect, Authorize: func(ctx context.Context, authURL string) (*url.URL, error) {
		u, err := oauthtest.FollowRedirect(ctx, authURL)
		if err != nil {
			return nil, err
		}
		q := u.Query()
		q.Set("state", "forged")
		u.RawQuery = q.Encode()
		return u, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = protectedClient(t, srv, forged).Tools(testCtx(t), "protected")
	if !errors.Is(err, ErrAuthorization) || !strings.Contains(err.Error(), "state") {
		t.Errorf("forged state: err = %v, want ErrAuthorization about the state", err)
	}
	assertNoSecrets(t, err.Error(), srv.Seen()...)
	if _, _, toks, _ := srv.Snapshot(); len(toks) != 0 {
		t.Errorf("the code of a forged redirect was exchanged: %d token requests", len(toks))
	}

	for _, tc := range []struct {
		name string
		opts oauthtest.Options
		want string
	}{
		{"denied", oauthtest.Options{Deny: true}, "access_denied"},
		{"wrong iss", oauthtest.Options{BadIss: true}, "iss"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := oauthtest.Start(t, tc.opts)
			_, err := protectedClient(t, srv, signIn(t, Config{}, nil)).Tools(testCtx(t), "protected")
			if !errors.Is(err, ErrAuthorization) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want ErrAuthorization saying %q", err, tc.want)
			}
			assertNoSecrets(t, err.Error(), srv.Seen()...)
		})
	}
	t.Run("iss checked", func(t *testing.T) {
		srv := oauthtest.Start(t, oauthtest.Options{Iss: true})
		loadTools(t, protectedClient(t, srv, signIn(t, Config{}, nil)), "protected")
	})
}

// TestOAuthStepUp: a 403 insufficient_scope signs in once more with the
// union of the scopes, and the call goes through; a server that still
// refuses gets no third sign-in (no loop).
func TestOAuthStepUp(t *testing.T) {
	srv := oauthtest.Start(t, oauthtest.Options{ChallengeScope: "mcp:read", CallScopes: []string{"mcp:read", "mcp:write"}})
	var n atomic.Int32
	tools := loadTools(t, protectedClient(t, srv, signIn(t, Config{}, &n)), "protected")
	if r := call(t, tools["whoami"], nil); r.Text() != "signed in" {
		t.Fatalf("whoami = %q", r.Text())
	}
	_, auths, _, _ := srv.Snapshot()
	if n.Load() != 2 || len(auths) != 2 || auths[1].Get("scope") != "mcp:read mcp:write" {
		t.Errorf("sign-ins %d, scopes %v; want 2, the second for mcp:read mcp:write", n.Load(), auths)
	}
	// Again: the token has both scopes now; no sign-in.
	call(t, tools["whoami"], nil)
	if n.Load() != 2 {
		t.Errorf("sign-ins after a second call = %d, want 2", n.Load())
	}

}

// TestOAuthStepUpOnce: a server that answers 403 insufficient_scope
// whatever the token gets one step-up sign-in, then its 403 stands.
func TestOAuthStepUpOnce(t *testing.T) {
	srv := oauthtest.Start(t, oauthtest.Options{CallScopes: []string{"mcp:write"}})
	var n atomic.Int32
	o := signIn(t, Config{}, &n)
	tools := loadTools(t, protectedClient(t, srv, o), "protected")
	// Strip the scope the server would grant: sign-ins now drop scopes.
	o.cfg.Authorize = func(ctx context.Context, authURL string) (*url.URL, error) {
		n.Add(1)
		u, _ := url.Parse(authURL)
		q := u.Query()
		q.Del("scope")
		u.RawQuery = q.Encode()
		return oauthtest.FollowRedirect(ctx, u.String())
	}
	for i := range 3 {
		_, err := tools["whoami"].Call(testCtx(t), nil)
		if err == nil {
			t.Fatalf("call %d went through without the scope", i)
		}
	}
	if got := n.Load(); got != 2 { // the first sign-in, one step-up
		t.Errorf("sign-ins = %d, want 2: one step-up, not one per call", got)
	}
}

// TestOAuthRefresh: an access token about to expire is refreshed before
// the request, once for many concurrent requests, with the resource
// parameter; a revoked access token is refreshed after its 401.
func TestOAuthRefresh(t *testing.T) {
	srv := oauthtest.Start(t, oauthtest.Options{TokenTTL: 30 * time.Second})
	var n atomic.Int32
	tools := loadTools(t, protectedClient(t, srv, signIn(t, Config{}, &n)), "protected")
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := tools["whoami"].Call(testCtx(t), nil); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	_, _, toks, _ := srv.Snapshot()
	var refreshes int
	for _, tr := range toks {
		if tr.Form.Get("grant_type") == "refresh_token" {
			refreshes++
			if tr.Form.Get("resource") != srv.MCP {
				t.Errorf("refresh without the resource: %v", tr.Form.Get("resource"))
			}
		}
	}
	// Loading the tools refreshed once (the first token expires within
	// the margin); the refreshed one lives an hour: no more refreshes.
	if refreshes != 1 || n.Load() != 1 {
		t.Errorf("refreshes = %d, sign-ins = %d; want 1 and 1", refreshes, n.Load())
	}

	srv.Revoke()
	call(t, tools["whoami"], nil)
	if _, _, toks, _ := srv.Snapshot(); toks[len(toks)-1].Form.Get("grant_type") != "refresh_token" || n.Load() != 1 {
		t.Errorf("after a revoked access token: last token request %v, sign-ins %d; want a refresh, no sign-in", toks[len(toks)-1].Form, n.Load())
	}
}

// TestOAuthNoPrompt: without Authorize, OAuth uses stored tokens, and
// fails with ErrSignInRequired when they cannot serve.
func TestOAuthNoPrompt(t *testing.T) {
	srv := oauthtest.Start(t, oauthtest.Options{})
	store := FileTokenStore{Dir: filepath.Join(t.TempDir(), "tokens")}

	headless, err := New(Config{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	_, err = protectedClient(t, srv, headless).Tools(testCtx(t), "protected")
	wantKind(t, err, mcpservers.ErrConnect, "protected")
	if !errors.Is(err, ErrSignInRequired) {
		t.Fatalf("err = %v, want ErrSignInRequired", err)
	}

	// Sign in once, storing the tokens; then a headless OAuth uses them.
	loadTools(t, protectedClient(t, srv, signIn(t, Config{Store: store}, nil)), "protected")
	headless, _ = New(Config{Store: store})
	tools := loadTools(t, protectedClient(t, srv, headless), "protected")
	call(t, tools["whoami"], nil)

	// Access token revoked: the stored refresh token serves.
	srv.Revoke()
	headless, _ = New(Config{Store: store})
	loadTools(t, protectedClient(t, srv, headless), "protected")

	// Both revoked: sign-in required, and the store keeps no dead token.
	srv.RevokeRefresh()
	headless, _ = New(Config{Store: store})
	_, err = protectedClient(t, srv, headless).Tools(testCtx(t), "protected")
	if !errors.Is(err, ErrSignInRequired) {
		t.Fatalf("err = %v, want ErrSignInRequired", err)
	}
	assertNoSecrets(t, err.Error(), srv.Seen()...)
	got, err := store.Load(testCtx(t), srv.MCP)
	if err != nil || got == nil || got.AccessToken != "" || got.RefreshToken != "" || got.ClientID == "" {
		t.Errorf("stored after a refused refresh: %v, %v; want the client kept, no tokens", got != nil, err)
	}
}

// TestOAuthRedactsSecrets: a server that echoes every secret of the flow
// (access and refresh tokens, client secret, code, verifier) has them
// redacted from the tool's result; the flow's errors hold none either.
func TestOAuthRedactsSecrets(t *testing.T) {
	srv := oauthtest.Start(t, oauthtest.Options{Leak: true, AuthMethods: []string{"client_secret_post"}, TokenTTL: 30 * time.Second})
	tools := loadTools(t, protectedClient(t, srv, signIn(t, Config{}, nil)), "protected")
	_, err := tools["leak"].Call(testCtx(t), nil)
	var rpc *mcpservers.RPCError
	if !errors.As(err, &rpc) {
		t.Fatalf("leak: err = %v, want the server's JSON-RPC error", err)
	}
	seen := srv.Seen()
	kinds := map[string]bool{}
	for _, s := range seen {
		kinds[strings.SplitN(s, "_", 2)[0]] = true
	}
	// at_ access tokens, rt_ refresh tokens, cs_ client secret, code_,
	// and the verifier (no prefix).
	if len(seen) < 6 || !kinds["at"] || !kinds["rt"] || !kinds["cs"] || !kinds["code"] {
		t.Fatalf("the server saw too little to test with: %d secrets, kinds %v", len(seen), kinds)
	}
	if !strings.Contains(rpc.Message, "secrets: ") {
		t.Fatalf("leak = %q", rpc.Message)
	}
	assertNoSecrets(t, rpc.Message, seen...)
	assertNoSecrets(t, err.Error(), seen...)
}

// TestOAuthRecordsUserCode: a tool's record holds the user's Authorize
// func and Store as its auth code, never the OAuth (library code).
func TestOAuthRecordsUserCode(t *testing.T) {
	srv := oauthtest.Start(t, oauthtest.Options{})
	store := &userStore{}
	o := signIn(t, Config{Store: store}, nil)
	tools := loadTools(t, protectedClient(t, srv, o), "protected")
	rec := tools["whoami"].MCPRecord()
	var got []any
	for _, c := range rec.Code {
		if c.Role == definition.RoleAuth {
			got = append(got, c.Value)
		}
	}
	if len(got) != 2 || fmt.Sprintf("%p", got[0]) != fmt.Sprintf("%p", o.cfg.Authorize) || got[1] != any(store) {
		t.Errorf("auth code = %#v, want the Authorize func and the Store", got)
	}
	// The func, not an AuthorizeFunc: this package's type would put its
	// record (library code) in the user's fingerprint.
	if len(got) > 0 && reflect.TypeOf(got[0]).Name() != "" {
		t.Errorf("the Authorize func is recorded as a %v, want a func of unnamed type", reflect.TypeOf(got[0]))
	}
	// Library code only (the default store, a FileTokenStore): no code
	// at all. (A BrowserSignIn's record is checked by TestBrowserSignIn.)
	for _, cfg := range []Config{{}, {Store: FileTokenStore{Dir: t.TempDir()}}, {Store: &FileTokenStore{Dir: t.TempDir()}}} {
		o, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if code := o.UserCode(); len(code) != 0 {
			t.Errorf("UserCode(an Auth of library code) = %v, want none", code)
		}
	}
}

// userStore is a user's own TokenStore.
type userStore struct{ MemoryTokenStore }

// TestFileTokenStore: 0600 files in a 0700 directory, keyed by server
// URL; a file others may read is refused; credentials never print.
func TestFileTokenStore(t *testing.T) {
	ctx := testCtx(t)
	s := FileTokenStore{Dir: filepath.Join(t.TempDir(), "g", "tokens")}
	tok := fakeSecret(t, "at_")
	c := &Credentials{Server: "https://a.example/mcp", AccessToken: tok, RefreshToken: fakeSecret(t, "rt_"), Expiry: time.Now().Add(time.Hour).Round(0)}
	if err := s.Save(ctx, c.Server, c); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(ctx, c.Server)
	if err != nil || got == nil || got.AccessToken != tok || !got.Expiry.Equal(c.Expiry) {
		t.Fatalf("Load = %v, %v", got != nil, err)
	}
	if other, err := s.Load(ctx, "https://b.example/mcp"); other != nil || err != nil {
		t.Errorf("Load(another server) = %v, %v; want nothing", other != nil, err)
	}
	if srvs, err := s.Servers(); err != nil || !slices.Equal(srvs, []string{c.Server}) {
		t.Errorf("Servers = %v, %v", srvs, err)
	}
	for _, v := range []string{fmt.Sprint(*c), fmt.Sprintf("%+v %#v %s %v", *c, *c, *c, c)} {
		if strings.Contains(v, tok) {
			t.Errorf("credentials print their token: %q", v)
		}
	}
	if runtime.GOOS != "windows" {
		fi, _ := os.Stat(s.File(c.Server))
		di, _ := os.Stat(s.Dir)
		if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
			t.Errorf("modes: file %v, dir %v; want 0600, 0700", fi.Mode().Perm(), di.Mode().Perm())
		}
		if err := os.Chmod(s.File(c.Server), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Load(ctx, c.Server); err == nil || strings.Contains(err.Error(), tok) {
			t.Errorf("Load of a 0644 file: %v, want a refusal", err)
		}
	}
	if err := s.Delete(ctx, c.Server); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Load(ctx, c.Server); got != nil || err != nil {
		t.Errorf("after Delete: %v, %v", got != nil, err)
	}
}

// TestNewChecks: bad configurations are ErrInvalidUse errors.
func TestNewChecks(t *testing.T) {
	auth := func(context.Context, string) (*url.URL, error) { return nil, nil }
	var nilStore *MemoryTokenStore
	for _, cfg := range []Config{
		{Authorize: auth},
		{Authorize: auth, RedirectURL: "/callback"},
		{ClientSecret: "x"},
		{ClientMetadataURL: "http://a.example/c.json"},
		{ClientMetadataURL: "https://a.example/"},
		{Store: nilStore},
	} {
		if _, err := New(cfg); !errors.Is(err, ErrInvalidUse) {
			t.Errorf("New(%+v) = %v, want ErrInvalidUse", cfg, err)
		}
	}
	var zero Auth
	if _, err := zero.RoundTrip(nil, nil); !errors.Is(err, ErrInvalidUse) {
		t.Errorf("zero OAuth: %v", err)
	}
}

// TestParseChallenges: WWW-Authenticate as servers send it.
func TestParseChallenges(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want map[string]string // the Bearer challenge's params
	}{
		{[]string{`Bearer resource_metadata="https://a/x", scope="a b"`}, map[string]string{"resource_metadata": "https://a/x", "scope": "a b"}},
		{[]string{`Basic realm="x", Bearer error="insufficient_scope", scope="s"`}, map[string]string{"error": "insufficient_scope", "scope": "s"}},
		{[]string{`Negotiate abc==, Bearer realm=r`}, map[string]string{"realm": "r"}},
		{[]string{`Basic YWxhZGRpbjpvcGVuc2VzYW1l`, `bearer Scope="q\"x"`}, map[string]string{"scope": `q"x`}},
		{[]string{`Bearer`}, map[string]string{}},
		{[]string{`Basic realm="a"`}, nil},
	} {
		got := bearer(parseChallenges(tc.in))
		if fmt.Sprint(got) != fmt.Sprint(tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("bearer(parseChallenges(%q)) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// FuzzParseChallenges: any header value parses without panic, and a
// parameter written out and read back keeps its value.
func FuzzParseChallenges(f *testing.F) {
	f.Add(`Bearer resource_metadata="https://a/x", scope="a b"`, "v")
	f.Add(`Negotiate abc==, Bearer realm=r`, `q"\`)
	f.Fuzz(func(t *testing.T, header, value string) {
		_ = parseChallenges([]string{header})
		quoted := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(value)
		got := bearer(parseChallenges([]string{`Bearer scope="` + quoted + `"`}))
		if got["scope"] != value {
			t.Errorf("scope %q read back as %q", value, got["scope"])
		}
	})
}

// TestBrowserSignIn: the whole sign-in through a BrowserSignIn, whose
// "browser" is this test binary run as a command (env sets browserEnv): it
// loads the authorization URL and follows the redirects, through the
// authorization server, to the loopback callback, as a browser would.
func TestBrowserSignIn(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the browser command is run through env(1)")
	}
	srv := oauthtest.Start(t, oauthtest.Options{})
	var out lockedbuffer.Buffer
	b, err := NewBrowserSignIn(BrowserOptions{Out: &out, Command: []string{"env", browserEnv + "=1", testBinary()}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if !strings.HasPrefix(b.RedirectURL(), "http://127.0.0.1:") {
		t.Errorf("RedirectURL = %q", b.RedirectURL())
	}
	o, err := New(Config{Browser: b})
	if err != nil {
		t.Fatal(err)
	}
	tools := loadTools(t, protectedClient(t, srv, o), "protected")
	call(t, tools["whoami"], nil)
	for _, c := range tools["whoami"].MCPRecord().Code {
		if c.Role == definition.RoleAuth {
			t.Errorf("the record of a tool whose Auth is library code (a BrowserSignIn, the default store) has auth code %#v", c.Value)
		}
	}
	if !strings.Contains(out.String(), "If it does not open, visit:\n  http://") || !strings.Contains(out.String(), "Signed in to") {
		t.Errorf("printed %q", out.String())
	}
	assertNoSecrets(t, out.String(), srv.Seen()...)

	// A redirect no sign-in waits for is turned away.
	resp, err := http.Get(b.RedirectURL() + "?state=unknown&code=x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("stray redirect: HTTP %d, want 400", resp.StatusCode)
	}
}

// FuzzDecodeStrict: metadata decoding never panics, and takes a member
// only by its exact name ("Issuer" is not "issuer").
func FuzzDecodeStrict(f *testing.F) {
	f.Add([]byte(`{"issuer":"https://a","Issuer":"https://b","code_challenge_methods_supported":["S256"]}`))
	f.Add([]byte(`{"resource":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var md serverMetadata
		if decodeStrict(b, &md) != nil {
			return
		}
		var m map[string]json.RawMessage
		_ = json.Unmarshal(b, &m)
		if _, ok := m["issuer"]; !ok && md.Issuer != "" {
			t.Errorf("issuer %q taken from another member", md.Issuer)
		}
	})
}

// TestOAuthOneRefreshAtATime: requests sent at once with a token about to
// expire get one refresh between them: the others wait for its token (the
// server rotates refresh tokens, so a second refresh would fail).
func TestOAuthOneRefreshAtATime(t *testing.T) {
	srv := oauthtest.Start(t, oauthtest.Options{})
	store := &MemoryTokenStore{}
	loadTools(t, protectedClient(t, srv, signIn(t, Config{Store: store}, nil)), "protected")
	ctx := testCtx(t)
	c, err := store.Load(ctx, srv.MCP)
	if err != nil || c == nil {
		t.Fatalf("stored: %v, %v", c != nil, err)
	}
	c.Expiry = time.Now().Add(10 * time.Second) // within the refresh margin
	if err := store.Save(ctx, srv.MCP, c); err != nil {
		t.Fatal(err)
	}
	o, err := New(Config{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	refreshes := func() int {
		_, _, toks, _ := srv.Snapshot()
		n := 0
		for _, tr := range toks {
			if tr.Form.Get("grant_type") == "refresh_token" {
				n++
			}
		}
		return n
	}
	before := refreshes()
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.MCP, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := o.RoundTrip(req, http.DefaultTransport)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode == http.StatusUnauthorized {
				t.Errorf("a request went out without a live token")
			}
		}()
	}
	close(start)
	wg.Wait()
	if got := refreshes() - before; got != 1 {
		t.Errorf("refreshes = %d, want 1", got)
	}
}

// TestOAuthOther403: a 403 that is not insufficient_scope is the server's
// answer: no sign-in.
func TestOAuthOther403(t *testing.T) {
	srv := oauthtest.Start(t, oauthtest.Options{})
	var n atomic.Int32
	o := signIn(t, Config{}, &n)
	forbidden := mcpservers.AuthFunc(func(req *http.Request, next http.RoundTripper) (*http.Response, error) {
		return o.RoundTrip(req, roundTripFunc(func(r *http.Request) (*http.Response, error) {
			resp, err := next.RoundTrip(r)
			if err == nil && r.Header.Get("Authorization") != "" && isMethod(r, "tools/list") {
				// A proxy in front of the server forbids this client
				// the list.
				resp.Body.Close()
				h := http.Header{"Www-Authenticate": {`Bearer error="invalid_token"`}}
				return &http.Response{StatusCode: http.StatusForbidden, Header: h, Body: http.NoBody, Request: r}, nil
			}
			return resp, err
		}))
	})
	_, err := protectedClient(t, srv, forbidden).Tools(testCtx(t), "protected")
	if err == nil {
		t.Errorf("a forbidden connection went through")
	}
	_, _, toks, _ := srv.Snapshot()
	if n.Load() != 1 || len(toks) != 1 {
		t.Errorf("sign-ins = %d, token requests = %d; want 1 and 1 (the 401's), none for the 403", n.Load(), len(toks))
	}
}

// isMethod reports whether r's JSON-RPC body is a request for method.
func isMethod(r *http.Request, method string) bool {
	if r.GetBody == nil {
		return false
	}
	b, err := r.GetBody()
	if err != nil {
		return false
	}
	defer b.Close()
	var msg struct {
		Method string `json:"method"`
	}
	return json.NewDecoder(b).Decode(&msg) == nil && msg.Method == method
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// BenchmarkOAuthCall: a call through OAuth with a live token, and the
// plain alternative, the same token as a configured header.
func BenchmarkOAuthCall(b *testing.B) {
	srv := oauthtest.Start(b, oauthtest.Options{})
	store := &MemoryTokenStore{}
	o := signIn(b, Config{Store: store}, nil)
	oauthTools := loadTools(b, protectedClient(b, srv, o), "protected")
	creds, err := store.Load(context.Background(), srv.MCP)
	if err != nil || creds == nil {
		b.Fatal("no stored token")
	}
	plain, err := mcpservers.NewClient(map[string]mcpservers.Connection{"protected": mcpservers.StreamableHTTP{URL: srv.MCP,
		Headers: map[string]string{"Authorization": "Bearer " + creds.AccessToken}}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer plain.Close()
	headerTools := loadTools(b, plain, "protected")
	for _, bc := range []struct {
		name string
		tool *mcpservers.Tool
	}{{"oauth", oauthTools["whoami"]}, {"header", headerTools["whoami"]}} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			for b.Loop() {
				if _, err := bc.tool.Call(ctx, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestOAuthCallSignInFails: a call whose step-up sign-in fails was refused
// by the server (403) and so never ran: it fails as a connect does
// (mcpservers.ErrConnect), not as a call lost midway
// (ErrConnectionLost), though the sign-in sent requests of its own.
func TestOAuthCallSignInFails(t *testing.T) {
	srv := oauthtest.Start(t, oauthtest.Options{CallScopes: []string{"mcp:write"}})
	o := signIn(t, Config{}, nil)
	tools := loadTools(t, protectedClient(t, srv, o), "protected")
	refuse := errors.New("the user closed the browser")
	o.cfg.Authorize = func(context.Context, string) (*url.URL, error) { return nil, refuse }
	_, err := tools["whoami"].Call(testCtx(t), nil)
	wantKind(t, err, mcpservers.ErrConnect, "protected")
	if !errors.Is(err, ErrAuthorization) || !errors.Is(err, refuse) || errors.Is(err, mcpservers.ErrConnectionLost) {
		t.Errorf("err = %v, want ErrAuthorization with the Authorize func's error, not ErrConnectionLost", err)
	}
}
