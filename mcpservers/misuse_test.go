package mcpservers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"reflect"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/refusals"
)

// panics runs f and says what it panicked with, or "".
func panics(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// nilHandler is a handler type whose nil pointer would panic when called.
type nilHandler struct{ reply string }

func (h *nilHandler) CreateMessage(context.Context, *SamplingRequest) (*SamplingResult, error) {
	return &SamplingResult{Content: []Content{&TextContent{Text: h.reply}}}, nil
}

// Every exported method, given a nil or zero receiver or a nil argument,
// returns an ErrInvalidUse error (or a zero value, for a getter) and never
// panics: a panic on one of this package's goroutines (Client.Tools(nil)'s
// did) kills the caller's process.
func TestMisuseGivesErrors(t *testing.T) {
	ctx := testCtx(t)
	c := newClient(t, map[string]Connection{"docs": stdioServer("docs")}, nil)
	tools := loadTools(t, c)
	tool := tools["echo"]
	var nilCtx context.Context

	errCases := []struct {
		name string
		f    func() error
	}{
		{"nil Client.Tools", func() error { _, err := (*Client)(nil).Tools(ctx); return err }},
		{"zero Client.Tools", func() error { _, err := (&Client{}).Tools(ctx); return err }},
		{"Client.Tools(nil)", func() error { _, err := c.Tools(nilCtx); return err }},
		{"Client.Tools(nil, server)", func() error { _, err := c.Tools(nilCtx, "docs"); return err }},
		{"nil Client.Close", func() error { return (*Client)(nil).Close() }},
		{"zero Client.Close", func() error { return (&Client{}).Close() }},
		{"nil Tool.Call", func() error { _, err := (*Tool)(nil).Call(ctx, nil); return err }},
		{"zero Tool.Call", func() error { _, err := (&Tool{}).Call(ctx, nil); return err }},
		{"nil Tool.Resume", func() error { _, err := (*Tool)(nil).Resume(ctx, nil, nil); return err }},
		{"zero Tool.Resume", func() error { _, err := (&Tool{}).Resume(ctx, nil, nil); return err }},
		{"Tool.Call(nil)", func() error { _, err := tool.Call(nilCtx, nil); return err }},
		{"Tool.Resume(nil)", func() error { _, err := tool.Resume(nilCtx, nil, nil); return err }},
		{"nil ElicitationRequired.Resume", func() error { _, err := (*ElicitationRequired)(nil).Resume(ctx, nil); return err }},
		{"zero ElicitationRequired.Resume", func() error { _, err := (&ElicitationRequired{}).Resume(ctx, nil); return err }},
		{"SessionTools(nil, nil)", func() error { _, err := SessionTools(nilCtx, nil); return err }},
		{"SessionTools(nil, client)", func() error {
			_, err := SessionTools(nilCtx, client.NewClient(nil))
			return err
		}},
		{"nil AuthFunc", func() error {
			_, err := AuthFunc(nil).RoundTrip(&http.Request{}, http.DefaultTransport)
			return err
		}},
		{"nil InterceptorFunc", func() error { _, err := InterceptorFunc(nil).Intercept(ctx, &CallRequest{}, nil); return err }},
		{"nil SamplingHandlerFunc", func() error { _, err := SamplingHandlerFunc(nil).CreateMessage(ctx, &SamplingRequest{}); return err }},
		{"nil ElicitationHandlerFunc", func() error { _, err := ElicitationHandlerFunc(nil).Elicit(ctx, &ElicitationRequest{}); return err }},
		{"nil RootsHandlerFunc", func() error { _, err := RootsHandlerFunc(nil).ListRoots(ctx, &RootsRequest{}); return err }},
		{"nil Transport", func() error {
			// It would panic on the first request; on the SSE stream's
			// goroutine that kills the process.
			for _, conn := range []Connection{
				StreamableHTTP{URL: "http://127.0.0.1:1/mcp", HTTPClient: func() *http.Client { return &http.Client{Transport: (*http.Transport)(nil)} }},
				SSE{URL: "http://127.0.0.1:1/sse", HTTPClient: func() *http.Client { return &http.Client{Jar: (*cookiejar.Jar)(nil)} }},
			} {
				_, err := newClient(t, map[string]Connection{"h": conn}, nil).Tools(ctx)
				if !errors.Is(err, ErrInvalidUse) {
					return err
				}
			}
			return invalidUse("", "", "", "")
		}},
		{"next(ctx, nil)", func() error {
			c := newClient(t, map[string]Connection{"docs": stdioServer("docs")}, &ClientOptions{Interceptors: []Interceptor{
				InterceptorFunc(func(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) { return next(ctx, nil) }),
			}})
			_, err := loadTools(t, c)["echo"].Call(ctx, nil)
			return err
		}},
		{"next(nil, req)", func() error {
			c := newClient(t, map[string]Connection{"docs": stdioServer("docs")}, &ClientOptions{Interceptors: []Interceptor{
				InterceptorFunc(func(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) { return next(nilCtx, req) }),
			}})
			_, err := loadTools(t, c)["echo"].Call(ctx, nil)
			return err
		}},
	}
	for _, tc := range errCases {
		var err error
		if p := panics(func() { err = tc.f() }); p != "" {
			t.Errorf("%s panicked: %s", tc.name, p)
			continue
		}
		if !errors.Is(err, ErrInvalidUse) {
			t.Errorf("%s = %v, want ErrInvalidUse", tc.name, err)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), "mcpservers: ") {
			t.Errorf("%s = %T %q, want an *Error", tc.name, err, err)
		}
	}

	// Getters of a nil or zero value give zero values.
	for name, tl := range map[string]*Tool{"nil": nil, "zero": {}} {
		if p := panics(func() {
			got := []any{tl.Name(), tl.MCPName(), tl.Title(), tl.Description(),
				tl.InputSchema(), tl.OutputSchema(), tl.Meta(), tl.Raw(),
				tl.Annotations(), tl.Server(), tl.MCPRecord()}
			want := []any{"", "", "", "", json.RawMessage(nil), json.RawMessage(nil), json.RawMessage(nil), json.RawMessage(nil),
				Annotations{}, ServerInfo{}, definition.MCPRecord{}}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("the getters of a %s *Tool = %v, want zero values", name, got)
			}
		}); p != "" {
			t.Errorf("a getter of a %s *Tool panicked: %s", name, p)
		}
	}
	for name, f := range map[string]func() string{
		"nil Error.Error":               func() string { return (*Error)(nil).Error() },
		"nil Error.Unwrap":              func() string { return fmt.Sprint((*Error)(nil).Unwrap()) },
		"nil RPCError.Error":            func() string { return (*RPCError)(nil).Error() },
		"nil ElicitationRequired.Error": func() string { return (*ElicitationRequired)(nil).Error() },
		"nil Result.Text":               func() string { return (*Result)(nil).Text() },
		"nil UnknownContent.Type":       func() string { return (*UnknownContent)(nil).Type() },
		"nil ElicitationRequest":        func() string { return fmt.Sprint((*ElicitationRequest)(nil).Defaults()) },
	} {
		if p := panics(func() { f() }); p != "" {
			t.Errorf("%s panicked: %s", name, p)
		}
	}
}

// A connection or option NewClient would otherwise take and panic on
// later: a nil pointer as the connection, a nil func or pointer as Auth,
// an interceptor or a handler.
func TestNewClientRefusesNilParts(t *testing.T) {
	var nilH *nilHandler
	for _, tc := range []struct {
		name  string
		conns map[string]Connection
		opts  *ClientOptions
		rule  string
	}{
		{"nil *Stdio", map[string]Connection{"s": (*Stdio)(nil)}, nil, "connection-missing"},
		{"nil *StreamableHTTP", map[string]Connection{"s": (*StreamableHTTP)(nil)}, nil, "connection-missing"},
		{"nil *SSE", map[string]Connection{"s": (*SSE)(nil)}, nil, "connection-missing"},
		{"nil *WebSocket", map[string]Connection{"s": (*WebSocket)(nil)}, nil, "connection-missing"},
		{"nil Connection", map[string]Connection{"s": nil}, nil, "connection-missing"},
		{"nil AuthFunc", map[string]Connection{"s": StreamableHTTP{URL: "http://127.0.0.1:1/mcp", Auth: AuthFunc(nil)}}, nil, "auth-nil"},
		{"nil AuthFunc, SSE", map[string]Connection{"s": &SSE{URL: "http://127.0.0.1:1/sse", Auth: AuthFunc(nil)}}, nil, "auth-nil"},
		{"nil InterceptorFunc", nil, &ClientOptions{Interceptors: []Interceptor{InterceptorFunc(nil)}}, "interceptor-nil"},
		{"nil SamplingHandlerFunc", nil, &ClientOptions{Sampling: SamplingHandlerFunc(nil)}, "handler-nil"},
		{"nil *handler", nil, &ClientOptions{Sampling: nilH}, "handler-nil"},
		{"nil ElicitationHandlerFunc", nil, &ClientOptions{Elicitation: ElicitationHandlerFunc(nil)}, "handler-nil"},
		{"nil RootsHandlerFunc", nil, &ClientOptions{Roots: RootsHandlerFunc(nil)}, "handler-nil"},
		{"nil *bytes.Buffer as Stderr", nil, &ClientOptions{Stderr: (*bytes.Buffer)(nil)}, "stderr-nil"},
	} {
		_, err := NewClient(tc.conns, tc.opts)
		var r *refusals.Error
		if !errors.As(err, &r) || r.Rule != tc.rule || !errors.Is(err, refusals.ErrInvalid) {
			t.Errorf("%s: NewClient = %v, want rule %s", tc.name, err, tc.rule)
		}
	}
}

// A sampling handler's answer holding a nil content block fails the call
// with ErrHandler; it panicked encoding the answer.
func TestSamplingNilContentBlock(t *testing.T) {
	opts := &ClientOptions{Sampling: SamplingHandlerFunc(func(contextT, *SamplingRequest) (*SamplingResult, error) {
		return &SamplingResult{Content: []Content{(*TextContent)(nil)}}, nil
	})}
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": stdioServer("docs")}, opts))
	var err error
	if p := panics(func() { _, err = tools["ask_model"].Call(testCtx(t), nil) }); p != "" {
		t.Fatalf("Call panicked: %s", p)
	}
	wantKind(t, err, ErrHandler, "docs")
}
