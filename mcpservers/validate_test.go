package mcpservers

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/refusals"
)

// ptrInterceptor is an interceptor whose nil pointer panics when called.
type ptrInterceptor struct{ tag string }

func (p *ptrInterceptor) Intercept(ctx context.Context, req *CallRequest, next CallFunc) (*Result, error) {
	req.Header.Set("X-Tag", p.tag)
	return next(ctx, req)
}

func passOn(ctx context.Context, req *CallRequest, next CallFunc) (*Result, error) {
	return next(ctx, req)
}

// embeddedConn satisfies Connection through its embedded Stdio, but is
// not one of the closed set.
type embeddedConn struct{ Stdio }

func TestNewClientRefusesBadConfiguration(t *testing.T) {
	secretURL := "https://user:" + testToken + "@host/mcp?key=" + testToken
	var nilStdio *Stdio
	tests := []struct {
		name     string
		conns    map[string]Connection
		opts     *ClientOptions
		pointers []string
		rules    []string
	}{
		{"empty name", map[string]Connection{"": Stdio{Command: "x"}}, nil, []string{"/mcpServers/"}, []string{"server-name-empty"}},
		{"nil connection", map[string]Connection{"a": nil}, nil, []string{"/mcpServers/a"}, []string{"connection-missing"}},
		{"embedded", map[string]Connection{"a": embeddedConn{Stdio{Command: "x"}}}, nil, []string{"/mcpServers/a"}, []string{"connection-unknown"}},
		{"pointer to embedded", map[string]Connection{"a": &embeddedConn{Stdio{Command: "x"}}}, nil, []string{"/mcpServers/a"}, []string{"connection-unknown"}},
		{"nil pointer", map[string]Connection{"a": nilStdio}, nil, []string{"/mcpServers/a"}, []string{"connection-missing"}},
		{"empty command", map[string]Connection{"a": Stdio{}}, nil, []string{"/mcpServers/a/command"}, []string{"command-empty"}},
		{"relative dir", map[string]Connection{"a": Stdio{Command: "x", Dir: "rel/dir"}}, nil, []string{"/mcpServers/a/cwd"}, []string{"cwd-relative"}},
		{"NUL in an arg", map[string]Connection{"a": Stdio{Command: "x", Args: []string{"ok", "b\x00d"}}}, nil, []string{"/mcpServers/a/args/1"}, []string{"arg-invalid"}},
		{"bad env", map[string]Connection{"a": Stdio{Command: "x", Env: map[string]string{"A=B": "1"}}}, nil, []string{"/mcpServers/a/env"}, []string{"env-invalid"}},
		{"NUL in an env value", map[string]Connection{"a": Stdio{Command: "x", Env: map[string]string{"K": testToken + "\x00"}}}, nil, []string{"/mcpServers/a/env/K"}, []string{"env-invalid"}},
		{"malformed URL", map[string]Connection{"a/b": StreamableHTTP{URL: "http://" + testToken + "@[::1"}}, nil, []string{"/mcpServers/a~1b/url"}, []string{"url-malformed"}},
		{"no URL", map[string]Connection{"a": SSE{}}, nil, []string{"/mcpServers/a/url"}, []string{"url-empty"}},
		{"wrong scheme", map[string]Connection{"a": StreamableHTTP{URL: "ftp://host/" + testToken}}, nil, []string{"/mcpServers/a/url"}, []string{"url-scheme"}},
		{"ws scheme for http", map[string]Connection{"a": SSE{URL: "ws://host"}}, nil, []string{"/mcpServers/a/url"}, []string{"url-scheme"}},
		{"http scheme for ws", map[string]Connection{"a": WebSocket{URL: "https://host"}}, nil, []string{"/mcpServers/a/url"}, []string{"url-scheme"}},
		{"no host", map[string]Connection{"a": StreamableHTTP{URL: "http:///mcp"}}, nil, []string{"/mcpServers/a/url"}, []string{"url-host"}},
		{"bad header", map[string]Connection{"a": StreamableHTTP{URL: secretURL, Headers: map[string]string{"X-Key": testToken + "\r\nInjected: 1"}}}, nil, []string{"/mcpServers/a/headers/X-Key"}, []string{"header-invalid"}},
		{"bad header name", map[string]Connection{"a": SSE{URL: "http://h", Headers: map[string]string{"Bad Name": "v"}}}, nil, []string{"/mcpServers/a/headers"}, []string{"header-invalid"}},
		{"options", map[string]Connection{"a": Stdio{Command: "x"}}, &ClientOptions{LogLevel: "loud", ProtocolVersion: "1999-01-01", Interceptors: []Interceptor{nil}},
			[]string{"", "", "/interceptors/0"}, []string{"log-level-invalid", "protocol-version-invalid", "interceptor-nil"}},
		{"typed nil interceptor", map[string]Connection{"a": Stdio{Command: "x"}}, &ClientOptions{Interceptors: []Interceptor{InterceptorFunc(passOn), (*ptrInterceptor)(nil)}},
			[]string{"/interceptors/1"}, []string{"interceptor-nil"}},
		{"several, sorted", map[string]Connection{"b": Stdio{}, "a": SSE{URL: "bad"}}, nil, []string{"/mcpServers/a/url", "/mcpServers/b/command"}, []string{"url-scheme", "command-empty"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewClient(tt.conns, tt.opts)
			if c != nil || !errors.Is(err, refusals.ErrInvalid) {
				t.Fatalf("NewClient = %v, %v; want a refusal", c, err)
			}
			var pointers, rules []string
			for _, r := range refusals.All(err) {
				pointers = append(pointers, r.Pointer)
				rules = append(rules, r.Rule)
				if r.Subject == "" && r.Rule != "server-name-empty" {
					t.Errorf("refusal %v names nothing", r)
				}
			}
			if !slices.Equal(pointers, tt.pointers) || !slices.Equal(rules, tt.rules) {
				t.Errorf("refusals = %v %v, want %v %v", pointers, rules, tt.pointers, tt.rules)
			}
			noSecret(t, err.Error(), testToken)
		})
	}
}

// TestMalformedKeysAreNotQuoted plants credentials where a key should be:
// a pasted NAME=value environment entry, and a header whose name is the
// value. The refusal must point at the map, never at (or quote) the key.
func TestMalformedKeysAreNotQuoted(t *testing.T) {
	envToken := "ghp_" + strings.Repeat("e", 36)
	headerToken := "ghp_" + strings.Repeat("h", 36)
	_, err := NewClient(map[string]Connection{
		"gh":  Stdio{Command: "x", Env: map[string]string{"GITHUB_TOKEN=" + envToken: "", "OK": "v"}},
		"api": StreamableHTTP{URL: "https://h/mcp", Headers: map[string]string{"Bearer " + headerToken: "", "X-Fine": "v"}},
	}, nil)
	if err == nil {
		t.Fatal("malformed keys were accepted")
	}
	var pointers []string
	for _, r := range refusals.All(err) {
		pointers = append(pointers, r.Pointer)
		noSecret(t, r.Pointer+" "+r.Detail+" "+r.Fix, envToken, headerToken, "GITHUB_TOKEN", "Bearer")
	}
	if want := []string{"/mcpServers/api/headers", "/mcpServers/gh/env"}; !slices.Equal(pointers, want) {
		t.Errorf("pointers = %v, want %v", pointers, want)
	}
	noSecret(t, err.Error(), envToken, headerToken, "GITHUB_TOKEN", "Bearer")
	if !strings.Contains(err.Error(), "#1 (in sorted order)") {
		t.Errorf("err = %v does not say which key", err)
	}
}

func TestNewClientAcceptsGoodConfiguration(t *testing.T) {
	s := Stdio{Command: "npx", Args: []string{"-y", "server"}, Env: map[string]string{"K": "v"}, Dir: "/tmp"}
	c, err := NewClient(map[string]Connection{
		"stdio":   s,
		"pointer": &s,
		"http":    StreamableHTTP{URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer x"}},
		"sse":     SSE{URL: "http://127.0.0.1:1/sse"},
		"ws":      WebSocket{URL: "wss://example.com"},
	}, &ClientOptions{LogLevel: "debug", ProtocolVersion: "2025-06-18"})
	if err != nil {
		t.Fatal(err)
	}
	// NewClient starts nothing, so Close has nothing to stop.
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	checkNoLeaks(t)
	c, err = NewClient(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := c.Tools(testCtx(t))
	if err != nil || len(tools) != 0 {
		t.Errorf("no servers: %v, %v", tools, err)
	}
	c.Close()
}

func TestErrorMessages(t *testing.T) {
	e := &Error{Server: "docs", Tool: "search", Op: "call", Kind: ErrConnectionLost, detail: "server exited: exit status 2"}
	if got := e.Error(); got != `mcpservers: server "docs": call "search": connection lost during the call: server exited: exit status 2` {
		t.Errorf("Error() = %q", got)
	}
	if got := (&Error{Op: "list tools", Kind: ErrClosed}).Error(); got != "mcpservers: list tools: client closed" {
		t.Errorf("Error() = %q", got)
	}
	cause := errors.New("cause")
	e = &Error{Server: "s", Kind: ErrServer, Err: cause}
	if !errors.Is(e, ErrServer) || !errors.Is(e, cause) || errors.Is(e, ErrConnect) {
		t.Errorf("errors.Is on %v", e)
	}
	if !strings.HasPrefix((&RPCError{Code: -32602, Message: "bad"}).Error(), "json-rpc error -32602") {
		t.Error("RPCError text")
	}
}
