package mcpservers

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// echoAuth wraps next: a POST whose JSON-RPC method is method (any, if
// empty), and which carries the header name, is answered with a JSON-RPC error quoting that
// header's value, as a careless server's "bad credentials: ..." would.
func echoAuth(next http.Handler, method, name string) http.Handler {
	return echoAuthAs(next, method, name, func(v string) string { return v })
}

// echoAuthAs is echoAuth quoting form(value) instead.
func echoAuthAs(next http.Handler, method, name string, form func(string) string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get(name) == "" {
			next.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &msg) != nil || (method != "" && msg.Method != method) || msg.ID == nil {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "error": map[string]any{
			"code": -32001, "message": "bad auth " + form(r.Header.Get(name)), "data": "see " + form(r.Header.Get(name)),
		}})
		_, _ = w.Write(b)
	})
}

// TestEchoedCredentialsAreRedacted: credentials that are not in the
// connection's configuration (set by Auth, or by an interceptor as a
// call's own header) are redacted when a server echoes them into an error.
func TestEchoedCredentialsAreRedacted(t *testing.T) {
	authSecret := "ghp_SECRETFROMAUTH" + strings.Repeat("1", 22)
	callSecret := "ghp_SECRETFROMCALL" + strings.Repeat("2", 22)
	auth := AuthFunc(func(req *http.Request, next http.RoundTripper) (*http.Response, error) {
		req.Header.Set("Authorization", "Bearer "+authSecret)
		return next.RoundTrip(req)
	})
	perCall := InterceptorFunc(func(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) {
		req.Header = http.Header{"X-Api-Key": {callSecret}}
		return next(ctx, req)
	})
	check := func(t *testing.T, err error, secret string) {
		t.Helper()
		if err == nil {
			t.Fatal("no error")
		}
		text := err.Error()
		noSecret(t, text, secret, strings.TrimPrefix(secret, "ghp_"))
		if !strings.Contains(text, "[redacted]") {
			t.Errorf("the server's message did not come through, redacted") // text may hold the secret
		}
		var rpc *RPCError
		if !errors.As(err, &rpc) {
			return // a failed connect's cause is text, checked above
		}
		noSecret(t, rpc.Error(), secret)
		noSecret(t, string(rpc.Data), secret, strings.TrimPrefix(secret, "ghp_"))
		if string(rpc.Data) != `"see [redacted]"` {
			t.Errorf("Data is not the server's data, redacted") // it may hold the secret
		}
	}
	for _, era := range []string{"", "2025-11-25"} {
		t.Run(fmt.Sprintf("auth/protocol=%s", era), func(t *testing.T) {
			ts := httptest.NewServer(echoAuth(server.NewStreamableHTTPServer(inProcessDocs(t)), "", "Authorization"))
			t.Cleanup(ts.Close) // after the client's Close
			c := newClient(t, map[string]Connection{"api": StreamableHTTP{URL: ts.URL + "/mcp", Auth: auth}},
				&ClientOptions{ProtocolVersion: era})
			_, err := c.Tools(testCtx(t))
			wantKind(t, err, ErrConnect, "api")
			check(t, err, authSecret)
		})
		t.Run(fmt.Sprintf("call/protocol=%s", era), func(t *testing.T) {
			ts := httptest.NewServer(echoAuth(server.NewStreamableHTTPServer(inProcessDocs(t)), "tools/call", "X-Api-Key"))
			t.Cleanup(ts.Close) // after the client's Close
			c := newClient(t, map[string]Connection{"api": StreamableHTTP{URL: ts.URL + "/mcp"}},
				&ClientOptions{ProtocolVersion: era, Interceptors: []Interceptor{perCall}})
			tools := loadTools(t, c)
			_, err := tools["echo"].Call(testCtx(t), nil)
			wantKind(t, err, ErrServer, "api")
			if !errors.As(err, new(*RPCError)) {
				t.Fatal("a call's JSON-RPC error is not an *RPCError")
			}
			check(t, err, callSecret)
		})
	}
}

// fakeSecret is a generated credential, new for every test.
func fakeSecret(t testing.TB, prefix string) string {
	t.Helper()
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return prefix + hex.EncodeToString(b)
}

// sepSecret is a generated credential of letters (g to t: no hex digit,
// no letter of an escape) in runs of 5 separated by sep, so that an
// escaped form of it holds no 12-byte run of it, or of another form.
func sepSecret(t testing.TB, sep string) string {
	t.Helper()
	b := make([]byte, 40)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	var s strings.Builder
	s.WriteString("ghp_")
	for i, c := range b {
		if i > 0 && i%5 == 0 {
			s.WriteString(sep)
		}
		s.WriteByte('g' + c%14)
	}
	return s.String()
}

type authKey struct{}

// checkEchoed checks the errors of a server named srv whose tool leaky
// echoed secret: by default no tools; with AllowPartial every other tool
// (want among them), and every error an ErrEchoedCredential naming
// the server and the tool, never the secret.
func checkEchoed(t *testing.T, conns map[string]Connection, srv, want, secret string) {
	t.Helper()
	check := func(t *testing.T, err error) {
		t.Helper()
		e := wantKind(t, err, ErrEchoedCredential, srv)
		noSecret(t, err.Error(), secret)
		if e.Tool != "leaky" || !strings.Contains(err.Error(), `"leaky"`) {
			t.Errorf("err = %v, want one naming the tool leaky", err)
		}
	}
	t.Run("default", func(t *testing.T) {
		tools, err := newCheckedClient(t, conns, nil).Tools(testCtx(t))
		check(t, err)
		if tools != nil {
			t.Errorf("tools = %v, want none", names(tools))
		}
	})
	t.Run("AllowPartial", func(t *testing.T) {
		tools, err := newCheckedClient(t, conns, &ClientOptions{AllowPartial: true}).Tools(testCtx(t))
		check(t, err)
		got := byName(tools)
		if got["leaky"] != nil || got[want] == nil {
			t.Fatalf("tools = %v, want every tool but leaky", names(tools))
		}
		for _, tool := range tools {
			noSecret(t, string(tool.wt.raw), secret)
		}
	})
}

// TestEchoedCredentialInToolIsLeftOut serves, over loopback streamable
// HTTP, a tool whose description quotes the Authorization header the
// server received (set in the connection's headers, or by Auth), and over
// stdio a tool whose schema's default is, JSON-escaped, an environment
// value of the connection. Each tool is left out with an
// ErrEchoedCredential error: the credential must not reach a definition.
func TestEchoedCredentialInToolIsLeftOut(t *testing.T) {
	cred := func(f func(string) string) func(string) string {
		return func(h string) string { _, c, _ := strings.Cut(h, " "); return f(c) }
	}
	for _, tc := range []struct {
		via, form, sep string
		f              func(string) string
	}{
		{"headers", "as sent", "", func(h string) string { return h }},
		{"Auth", "as sent", "", func(h string) string { return h }},
		{"headers", "upper-cased", "", strings.ToUpper},
		{"headers", "path-escaped", " ", cred(url.PathEscape)},
		{"headers", "query-escaped", "&", cred(url.QueryEscape)},
		{"headers", "a prefix", "", func(h string) string { return h[:len("Bearer ")+14] + "..." }},
	} {
		t.Run("http/"+tc.via+"/"+tc.form, func(t *testing.T) {
			secret := sepSecret(t, tc.sep)
			s := inProcessDocs(t, server.WithToolFilter(func(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
				if h, _ := ctx.Value(authKey{}).(string); h != "" {
					tools = append(tools, mcp.NewTool("leaky", mcp.WithDescription("auth "+tc.f(h))))
				}
				return tools
			}))
			ts := httptest.NewServer(server.NewStreamableHTTPServer(s, server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
				return context.WithValue(ctx, authKey{}, r.Header.Get("Authorization"))
			})))
			t.Cleanup(ts.Close)
			conn := StreamableHTTP{URL: ts.URL + "/mcp"}
			if tc.via == "headers" {
				conn.Headers = map[string]string{"Authorization": "Bearer " + secret}
			} else {
				conn.Auth = AuthFunc(func(req *http.Request, next http.RoundTripper) (*http.Response, error) {
					req.Header.Set("Authorization", "Bearer "+secret)
					return next.RoundTrip(req)
				})
			}
			checkEchoed(t, map[string]Connection{"api": conn}, "api", "search_docs", secret[:12])
		})
	}
	t.Run("stdio/env", func(t *testing.T) {
		secret := fakeSecret(t, "pw/")
		conns := map[string]Connection{"local": stdioServer("raw-echo-env", "MY_PASSWORD", secret)}
		checkEchoed(t, conns, "local", "fine", secret)
	})
}

// windowLen is the shortest run of a long credential the redactor
// removes (internal/redact).
const windowLen = 12

// noRun fails if s holds, in any case, a windowLen-byte run of secret,
// without printing either.
func noRun(t *testing.T, s, secret string) {
	t.Helper()
	ls, lsec := strings.ToLower(s), strings.ToLower(secret)
	for i := 0; i+windowLen <= len(lsec); i++ {
		if strings.Contains(ls, lsec[i:i+windowLen]) {
			t.Errorf("a %d-byte run of the secret, at offset %d, leaked into the %d-byte text", windowLen, i, len(s))
			return
		}
	}
}

// TestTransformedSecretsAreRedacted: a loopback HTTP server answers the
// connection's initialize with a JSON-RPC error quoting the credential of
// its Authorization header transformed: percent-encoded for a query or a
// path, JSON-escaped (with / as \/ or not), upper-cased, cut to a prefix,
// or split over two lines. Each form is redacted from the error's text
// and data.
func TestTransformedSecretsAreRedacted(t *testing.T) {
	jsonEsc := func(v string) string {
		b, _ := json.Marshal(v)
		return string(b[1 : len(b)-1])
	}
	// Each separator escapes in the form tested alone of the redactor's
	// forms: only that form's variant can redact it.
	for _, tc := range []struct {
		form, sep string
		f         func(string) string
	}{
		{"query-escaped", "&", url.QueryEscape},
		{"path-escaped", " ", url.PathEscape},
		{"JSON-escaped", "&", jsonEsc},
		{"JSON-escaped with slashes", "/", func(v string) string { return strings.ReplaceAll(jsonEsc(v), "/", `\/`) }},
		{"upper-cased", "", strings.ToUpper},
		{"a prefix", "", func(v string) string { return "using key " + v[:20] + "..." }},
		{"split over two lines", "", func(v string) string { return v[:len(v)/2] + "\n" + v[len(v)/2:] }},
	} {
		t.Run(tc.form, func(t *testing.T) {
			secret := sepSecret(t, tc.sep)
			form := func(h string) string { _, cred, _ := strings.Cut(h, " "); return tc.f(cred) }
			if f := tc.f(secret); f == secret && tc.form != "a prefix" && tc.form != "split over two lines" {
				t.Fatalf("the %s form is the secret itself: the test proves nothing", tc.form)
			}
			ts := httptest.NewServer(echoAuthAs(server.NewStreamableHTTPServer(inProcessDocs(t)), "", "Authorization", form))
			t.Cleanup(ts.Close)
			c := newClient(t, map[string]Connection{"api": StreamableHTTP{URL: ts.URL + "/mcp",
				Headers: map[string]string{"Authorization": "Bearer " + secret}}}, nil)
			_, err := c.Tools(testCtx(t))
			wantKind(t, err, ErrConnect, "api")
			text := err.Error()
			noSecret(t, text, tc.f(secret))
			noRun(t, text, secret)
			noRun(t, text, tc.f(secret))
			if !strings.Contains(text, "[redacted]") {
				t.Errorf("the server's message did not come through, redacted") // text may hold the secret
			}
			if rpc := new(RPCError); errors.As(err, &rpc) {
				noRun(t, string(rpc.Data), secret)
				noRun(t, string(rpc.Data), tc.f(secret))
			}
		})
	}
}

// TestRequestHeadersLearnt: the values of the headers a request is sent
// with are learnt, but the protocol's own ("application/json" would
// mangle every message); an auth scheme alone is never taken for a secret.
func TestRequestHeadersLearnt(t *testing.T) {
	r := newRedactor(&connConfig{})
	learnSentHeaders(r, http.Header{"Authorization": {"Bearer token-000050"}, "Content-Type": {"application/json"}, "Mcp-Method": {"tools/call"}})
	if got, want := r.Redact("got Bearer token-000050 as application/json for tools/call"), "got [redacted] as application/json for tools/call"; got != want {
		t.Errorf("redact = %q, want %q", got, want)
	}
}
