package adk_test

import (
	"errors"
	"iter"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/functiontool"
	"google.golang.org/adk/v2/tool/geminitool"

	guardianadk "github.com/guardian-agent/guardian-go/adk"
	"github.com/guardian-agent/guardian-go/refusals"
)

func lookUp(_ agent.Context, q query) (string, error)   { return "found " + q.Query, nil }
func lookAway(_ agent.Context, q query) (string, error) { return "nothing for " + q.Query, nil }

// TestNativeToolHashesItsFunction: a tool made with ADK's functiontool is
// recorded by what its declaration gives the model, and its sourceHash is
// the function it wraps: two tools the model sees alike but that run
// different functions hash apart; the same function hashes alike.
func TestNativeToolHashesItsFunction(t *testing.T) {
	hashOf := func(fn functiontool.Func[query, string]) string {
		ft, err := functiontool.New(functiontool.Config{Name: "look", Description: "Looks a query up."}, fn)
		if err != nil {
			t.Fatal(err)
		}
		_, def, err := newAgent(researcher(newModel(), []tool.Tool{ft}))
		if err != nil {
			t.Fatal(err)
		}
		rec := def.Record()
		if len(rec.Tools) != 1 || rec.Tools[0].Name != "look" || rec.Tools[0].Description != "Looks a query up." || !contains(string(rec.Tools[0].InputSchema), `"query"`) {
			t.Fatalf("recorded %+v", rec.Tools)
		}
		return rec.Tools[0].SourceHash
	}
	a, b, a2 := hashOf(lookUp), hashOf(lookAway), hashOf(lookUp)
	if a == "" || a == b || a != a2 {
		t.Fatalf("sourceHash: lookUp %q, lookAway %q, lookUp again %q", a, b, a2)
	}
}

// TestStreamingToolIsVetted: ADK runs a streaming tool's RunStream without
// the agent's tool callbacks; the wrapper New puts around it binds the
// definition all the same, so an MCP tool its code calls and the agent is
// not given is refused, and its server sees nothing.
func TestStreamingToolIsVetted(t *testing.T) {
	other := startServer(t, "other", nil, nil)
	hidden := other.tools["delete_page"]
	var (
		mu  sync.Mutex
		got error
	)
	st, err := functiontool.NewStreaming(functiontool.Config{Name: "stream", Description: "Streams, and deletes a page."},
		func(ctx agent.Context, q query) iter.Seq2[string, error] {
			return func(yield func(string, error) bool) {
				_, err := hidden.Call(ctx, map[string]any{"page": "home"})
				mu.Lock()
				got = err
				mu.Unlock()
				yield("chunk", nil)
			}
		})
	if err != nil {
		t.Fatal(err)
	}
	a, _, err := newAgent(researcher(newModel(call("stream", map[string]any{"query": "x"}), answer("")), []tool.Tool{st}))
	if err != nil {
		t.Fatal(err)
	}
	o := converse(t, a).say("go")
	if o.err != nil {
		t.Fatal(o.err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !errors.Is(got, refusals.ErrUndescribed) || len(other.Calls()) != 0 {
		t.Fatalf("the streaming tool's call: %v; the server received %v", got, other.Calls())
	}
	if r := o.responses()["stream"]; r == nil || r["result"] != "chunk" {
		t.Fatalf("stream answered %v", r)
	}
}

// TestBuiltinToolIsRecordedAndKept: a model's built-in tool (Gemini's
// Google Search) is recorded by its name and description, and still reaches
// the model request as ADK adds it.
func TestBuiltinToolIsRecordedAndKept(t *testing.T) {
	m := newModel(say("ok"))
	a, def, err := newAgent(researcher(m, []tool.Tool{geminitool.GoogleSearch{}}))
	if err != nil {
		t.Fatal(err)
	}
	if rec := def.Record(); len(rec.Tools) != 1 || rec.Tools[0].Name != "google_search" || string(rec.Tools[0].InputSchema) != `{"type":"object"}` {
		t.Fatalf("recorded %+v", rec.Tools)
	}
	if o := converse(t, a).say("go"); o.err != nil {
		t.Fatal(o.err)
	}
	req := m.lastRequest()
	found := false
	for _, tl := range req.Config.Tools {
		if tl != nil && tl.GoogleSearch != nil {
			found = true
		}
	}
	if !found {
		t.Fatal("the model request lost the Google Search built-in")
	}
}

// sessionTool is a tool of the user's that calls an MCP server through a
// session of the official Go MCP SDK it holds.
type sessionTool struct {
	session *mcp.ClientSession
}

func (s *sessionTool) Name() string        { return "remote" }
func (s *sessionTool) Description() string { return "Calls a remote MCP tool." }
func (s *sessionTool) IsLongRunning() bool { return false }

// listed is a toolset of the user's, asked for its tools on every run.
type listed struct{ tools []tool.Tool }

func (l *listed) Name() string                                     { return "listed" }
func (l *listed) Tools(agent.ReadonlyContext) ([]tool.Tool, error) { return l.tools, nil }

// TestWhatCannotBeRecordedIsRefused: a tool holding an MCP session
// guardian-go did not load (the Go MCP SDK's), and any toolset, are
// refused, at their place in the agent, and nothing is built.
func TestWhatCannotBeRecordedIsRefused(t *testing.T) {
	for name, tc := range map[string]struct {
		cfg           *guardianadk.LLMAgent
		kind          error
		rule, pointer string
	}{
		"a Go MCP SDK session": {researcher(newModel(), []tool.Tool{&sessionTool{session: &mcp.ClientSession{}}}), refusals.ErrSessionTool, "adk-mcp-session", "/tools/0"},
		"a toolset": {func() *guardianadk.LLMAgent {
			c := researcher(newModel(), nil)
			c.Toolsets = []tool.Toolset{tool.FilterToolset(&listed{}, tool.AllowedToolsPredicate([]string{"x"}))}
			return c
		}(), refusals.ErrCannotRecord, "adk-toolset", "/toolsets/0"},
		"in a sub-agent": {llm("coordinator", newModel(), nil, llm("writer", newModel(), []tool.Tool{&sessionTool{session: &mcp.ClientSession{}}})),
			refusals.ErrSessionTool, "adk-mcp-session", "/subAgents/0/tools/0"},
	} {
		a, def, err := guardianadk.New(tc.cfg, nil)
		var r *refusals.Error
		if !errors.As(err, &r) || !errors.Is(err, tc.kind) || r.Rule != tc.rule || r.Pointer != tc.pointer || a != nil || def != nil {
			t.Errorf("%s: New = %v, %v, %v; want %v, rule %s at %s", name, a, def, err, tc.kind, tc.rule, tc.pointer)
		}
	}
}
