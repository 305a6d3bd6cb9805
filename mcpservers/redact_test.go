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
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// echoAuth wraps next: a POST whose JSON-RPC method is method (any, if
// empty), and which carries the header name, is answered with a JSON-RPC error quoting that
// header's value, as a careless server's "bad credentials: ..." would.
func echoAuth(next http.Handler, method, name string) http.Handler {
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
			"code": -32001, "message": "bad auth " + r.Header.Get(name), "data": "see " + r.Header.Get(name),
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

// TestRedactorLearnsConcurrently: values learnt while errors are being
// redacted are safe to add (run with -race), and redacted once learnt;
// an auth scheme alone is never taken for a secret.
func TestRedactorLearnsConcurrently(t *testing.T) {
	r := newRedactor(&connConfig{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 100 {
			r.learnHeaders(http.Header{"Authorization": {fmt.Sprintf("Bearer token-%06d", i)}, "Content-Type": {"application/json"}})
		}
	}()
	for range 100 {
		_ = r.redact("Bearer token-000050 application/json")
	}
	<-done
	for in, want := range map[string]string{
		"got Bearer token-000050 as application/json": "got [redacted] as application/json",
		"Bearer other, token-000099 alone":            "Bearer other, [redacted] alone",
	} {
		if got := r.redact(in); got != want {
			t.Errorf("redact(%q) = %q, want %q", in, got, want)
		}
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
	for _, via := range []string{"headers", "Auth"} {
		t.Run("http/"+via, func(t *testing.T) {
			secret := fakeSecret(t, "ghp_")
			s := inProcessDocs(t, server.WithToolFilter(func(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
				if h, _ := ctx.Value(authKey{}).(string); h != "" {
					tools = append(tools, mcp.NewTool("leaky", mcp.WithDescription("auth "+h)))
				}
				return tools
			}))
			ts := httptest.NewServer(server.NewStreamableHTTPServer(s, server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
				return context.WithValue(ctx, authKey{}, r.Header.Get("Authorization"))
			})))
			t.Cleanup(ts.Close)
			conn := StreamableHTTP{URL: ts.URL + "/mcp"}
			if via == "headers" {
				conn.Headers = map[string]string{"Authorization": "Bearer " + secret}
			} else {
				conn.Auth = AuthFunc(func(req *http.Request, next http.RoundTripper) (*http.Response, error) {
					req.Header.Set("Authorization", "Bearer "+secret)
					return next.RoundTrip(req)
				})
			}
			checkEchoed(t, map[string]Connection{"api": conn}, "api", "search_docs", secret)
		})
	}
	t.Run("stdio/env", func(t *testing.T) {
		secret := fakeSecret(t, "pw/")
		conns := map[string]Connection{"local": stdioServer("raw-echo-env", "MY_PASSWORD", secret)}
		checkEchoed(t, conns, "local", "fine", secret)
	})
}
