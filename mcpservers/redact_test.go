package mcpservers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
