package mcpservers

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// inputTransports are the ways an mcp-go server can ask for input during a
// call: every transport in both protocol eras, but SSE before 2026-07-28,
// which mcp-go's SSE server cannot send requests on. (Its SSE client cannot
// answer them either; this package can: see TestLegacySSEServerRequests.)
func inputTransports(t *testing.T, test func(t *testing.T, conn Connection, opts *ClientOptions, legacy bool)) {
	hs := startHTTP(t)
	cases := []struct {
		name    string
		conn    Connection
		version string
	}{
		{"stdio", stdioServer("docs"), ""},
		{"stdio-2025-11-25", stdioServer("docs"), mcp.ProtocolVersion20251125},
		{"streamable", StreamableHTTP{URL: hs.streamable}, ""},
		{"streamable-2025-11-25", StreamableHTTP{URL: hs.streamable}, mcp.ProtocolVersion20251125},
		{"sse", SSE{URL: hs.sse}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// A slow start (a race-enabled child) must not look like an
			// old server that ignores the discovery probe.
			test(t, tc.conn, &ClientOptions{ProtocolVersion: tc.version, DiscoverTimeout: 20 * time.Second}, tc.version != "")
		})
	}
}

func TestElicitationHandler(t *testing.T) {
	inputTransports(t, func(t *testing.T, conn Connection, opts *ClientOptions, legacy bool) {
		var mu sync.Mutex
		var asked []*ElicitationRequest
		opts.Elicitation = ElicitationHandlerFunc(func(ctx contextT, r *ElicitationRequest) (*ElicitationResponse, error) {
			mu.Lock()
			asked = append(asked, r)
			mu.Unlock()
			return &ElicitationResponse{Action: ElicitationAccept, Content: map[string]any{"ok": true}}, nil
		})
		tools := loadTools(t, newClient(t, map[string]Connection{"docs": conn}, opts))
		r := call(t, tools["confirm_delete"], map[string]any{"id": "doc-7"})
		if r.Text() != `action=accept content={"ok":true}` {
			t.Errorf("confirm_delete = %q", r.Text())
		}
		if len(asked) != 1 {
			t.Fatalf("handler asked %d times", len(asked))
		}
		a := asked[0]
		wantKey := "confirm"
		if legacy {
			wantKey = "elicitation-1"
		}
		if a.Server != "docs" || a.Tool != "confirm_delete" || a.Key != wantKey || a.Mode != "form" || a.Message != "Really delete doc-7?" {
			t.Errorf("request = %+v", a)
		}
		if got := compact(t, a.RequestedSchema); got != `{"properties":{"ok":{"type":"boolean"}},"type":"object"}` {
			t.Errorf("requested schema = %s", got)
		}
	})
}

func TestElicitationInterruptAndResume(t *testing.T) {
	inputTransports(t, func(t *testing.T, conn Connection, opts *ClientOptions, legacy bool) {
		tools := loadTools(t, newClient(t, map[string]Connection{"docs": conn}, opts))
		confirm := tools["confirm_delete"]
		args := map[string]any{"id": "doc-7"}
		_, err := confirm.Call(testCtx(t), args)
		var need *ElicitationRequired
		if !errors.As(err, &need) || !errors.Is(err, ErrElicitationRequired) {
			t.Fatalf("Call = %v, want *ElicitationRequired", err)
		}
		wantKey := "confirm"
		if legacy {
			wantKey = "elicitation-1"
		}
		if need.Server != "docs" || need.Tool != "confirm_delete" || len(need.Requests) != 1 {
			t.Fatalf("interruption = %+v", need)
		}
		if r := need.Requests[0]; r.Key != wantKey || r.Message != "Really delete doc-7?" || r.RequestedSchema == nil {
			t.Errorf("request = %+v", r)
		}
		if msg := err.Error(); !strings.Contains(msg, `server "docs"`) || !strings.Contains(msg, `"`+wantKey+`"`) {
			t.Errorf("error = %q", msg)
		}

		for _, tc := range []struct {
			answer ElicitationResponse
			want   string
		}{
			{ElicitationResponse{Action: ElicitationAccept, Content: map[string]any{"ok": true}}, `action=accept content={"ok":true}`},
			{ElicitationResponse{Action: ElicitationDecline, Content: map[string]any{"ignored": 1}}, "action=decline content=null"},
			{ElicitationResponse{Action: ElicitationCancel}, "action=cancel content=null"},
		} {
			r, err := need.Resume(testCtx(t), map[string]ElicitationResponse{wantKey: tc.answer})
			if err != nil {
				t.Fatalf("Resume(%s): %v", tc.answer.Action, err)
			}
			if r.Text() != tc.want {
				t.Errorf("Resume(%s) = %q, want %q", tc.answer.Action, r.Text(), tc.want)
			}
			// Tool.Resume, with the same arguments, does the same.
			r, err = confirm.Resume(testCtx(t), args, map[string]ElicitationResponse{wantKey: tc.answer})
			if err != nil || r.Text() != tc.want {
				t.Errorf("Tool.Resume(%s) = %v, %v", tc.answer.Action, r, err)
			}
		}

		// Answers under the wrong key leave the request unanswered.
		_, err = need.Resume(testCtx(t), map[string]ElicitationResponse{"other": {Action: ElicitationAccept}})
		if !errors.As(err, &need) {
			t.Errorf("Resume with the wrong key = %v, want another interruption", err)
		}
	})
}

func TestElicitationAcrossRounds(t *testing.T) {
	inputTransports(t, func(t *testing.T, conn Connection, opts *ClientOptions, legacy bool) {
		tools := loadTools(t, newClient(t, map[string]Connection{"docs": conn}, opts))
		first, second := "first", "second"
		if legacy {
			first, second = "elicitation-1", "elicitation-2"
		}
		_, err := tools["two_questions"].Call(testCtx(t), nil)
		var need *ElicitationRequired
		if !errors.As(err, &need) || need.Requests[0].Key != first {
			t.Fatalf("Call = %v, want the first question", err)
		}
		_, err = need.Resume(testCtx(t), map[string]ElicitationResponse{first: {Action: ElicitationAccept, Content: map[string]any{"name": "a"}}})
		if !errors.As(err, &need) || need.Requests[0].Key != second || need.Requests[0].Message != "second?" {
			t.Fatalf("Resume = %v (%+v), want the second question", err, need.Requests[0])
		}
		// The second interruption remembers the first answer.
		r, err := need.Resume(testCtx(t), map[string]ElicitationResponse{second: {Action: ElicitationDecline}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Text() != "first=accept second=decline" {
			t.Errorf("two_questions = %q", r.Text())
		}
	})
}

func TestBadElicitationAnswer(t *testing.T) {
	inputTransports(t, func(t *testing.T, conn Connection, opts *ClientOptions, legacy bool) {
		opts.Elicitation = ElicitationHandlerFunc(func(ctx contextT, r *ElicitationRequest) (*ElicitationResponse, error) {
			return &ElicitationResponse{Action: "maybe"}, nil
		})
		tools := loadTools(t, newClient(t, map[string]Connection{"docs": conn}, opts))
		_, err := tools["confirm_delete"].Call(testCtx(t), map[string]any{"id": "x"})
		wantKind(t, err, ErrHandler, "docs")
	})
}

func TestSamplingAndRoots(t *testing.T) {
	inputTransports(t, func(t *testing.T, conn Connection, opts *ClientOptions, legacy bool) {
		var got *SamplingRequest
		opts.Sampling = SamplingHandlerFunc(func(ctx contextT, r *SamplingRequest) (*SamplingResult, error) {
			got = r
			return &SamplingResult{Content: []Content{&TextContent{Text: "an old pond"}}, Model: "test-model", StopReason: "endTurn"}, nil
		})
		opts.Roots = RootsHandlerFunc(func(ctx contextT, r *RootsRequest) ([]Root, error) {
			return []Root{{URI: "file:///a", Name: "A"}, {URI: "file:///b"}}, nil
		})
		tools := loadTools(t, newClient(t, map[string]Connection{"docs": conn}, opts))
		r := call(t, tools["ask_model"], nil)
		if r.Text() != "model=test-model text=an old pond" {
			t.Errorf("ask_model = %q", r.Text())
		}
		if got == nil || got.Server != "docs" || got.Tool != "ask_model" || got.MaxTokens != 50 || got.SystemPrompt != "be brief" ||
			len(got.Messages) != 1 || got.Messages[0].Role != "user" {
			t.Fatalf("sampling request = %+v", got)
		}
		if tc, ok := got.Messages[0].Content[0].(*TextContent); !ok || tc.Text != "write a haiku" {
			t.Errorf("sampling message = %#v", got.Messages[0].Content)
		}
		if !legacy && got.Key != "draft" {
			t.Errorf("sampling key = %q", got.Key)
		}
		if r := call(t, tools["list_roots"], nil); r.Text() != "file:///a|A,file:///b|" {
			t.Errorf("list_roots = %q", r.Text())
		}
	})
}

func TestNoSamplingHandler(t *testing.T) {
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": stdioServer("docs")}, nil))
	_, err := tools["ask_model"].Call(testCtx(t), nil)
	wantKind(t, err, ErrNoHandler, "docs")
	_, err = tools["list_roots"].Call(testCtx(t), nil)
	wantKind(t, err, ErrNoHandler, "docs")
}

func TestElicitationDefaults(t *testing.T) {
	inputTransports(t, func(t *testing.T, conn Connection, opts *ClientOptions, legacy bool) {
		var defaults map[string]any
		opts.Elicitation = ElicitationHandlerFunc(func(ctx contextT, r *ElicitationRequest) (*ElicitationResponse, error) {
			defaults = r.Defaults()
			return &ElicitationResponse{Action: ElicitationAccept, Content: map[string]any{"name": "Bob"}}, nil
		})
		tools := loadTools(t, newClient(t, map[string]Connection{"docs": conn}, opts))
		if got := call(t, tools["defaults_form"], nil).Text(); got != `accept {"age":36,"name":"Bob","subscribed":true}` {
			t.Errorf("defaults_form = %s", got)
		}
		if len(defaults) != 3 || defaults["name"] != "Ada" || defaults["subscribed"] != true {
			t.Errorf("Defaults() = %v", defaults)
		}
	})
}
