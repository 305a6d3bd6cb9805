package eino_test

import (
	"context"
	"errors"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	guardianeino "github.com/guardian-agent/guardian-go/eino"
	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/refusals"
)

// relay is a native Eino tool of the user's that calls another tool
// itself, under the agent's context: the kind of code a definition sees
// only when the call is made.
type relay struct {
	name string
	next func() tool.InvokableTool // a closure: Build cannot see what it holds
}

func (r *relay) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: r.name, Desc: "Looks things up elsewhere."}, nil
}

func (r *relay) InvokableRun(ctx context.Context, args string, opts ...tool.Option) (string, error) {
	return r.next().InvokableRun(ctx, args, opts...)
}

// TestRefusedCallsSendNothing: a call of an MCP tool the definition does
// not describe, made under the agent's context, is refused with
// ErrUndescribed before the server sees anything: a tool of another
// server, and a tool of the same name whose server changed its
// description. The servers count their tools/calls.
func TestRefusedCallsSendNothing(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	other := startServer(t, "other", nil, nil)
	changed := startServer(t, "docs", map[string]string{"EINO_TEST_CHANGED": "1"}, nil)

	for _, c := range []struct {
		name   string
		target *mcpservers.Tool
		server *testServer
	}{
		{"another server", other.tools["search_docs"], other},
		{"changed description", changed.tools["search_docs"], changed},
	} {
		t.Run(c.name, func(t *testing.T) {
			target := adapt(t, c.target)[0].(tool.InvokableTool)
			r := &relay{name: "lookup", next: func() tool.InvokableTool { return target }}
			m := &scripted{steps: []func([]*schema.Message) *schema.Message{
				call("lookup", `{"query":"x"}`), say("unreachable"),
			}}
			cfg := agentConfig("researcher", m, append(adapt(t, docs.tools["search_docs"]), r))
			agent, _, err := guardianeino.NewChatModelAgent(ctx, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			o := drain(t, adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).Query(ctx, "Look it up."))
			if !errors.Is(o.err, refusals.ErrUndescribed) {
				t.Fatalf("err = %v, want ErrUndescribed", o.err)
			}
			if got := c.server.Calls(); len(got) != 0 {
				t.Fatalf("the server received %v", got)
			}
			// The same tool called outside any agent goes through, so it was
			// the definition that refused it.
			if _, err := target.InvokableRun(ctx, `{"query":"x"}`); err != nil {
				t.Fatal(err)
			}
			if got := c.server.Calls(); len(got) != 1 {
				t.Fatalf("the server received %v", got)
			}
		})
	}
}

// holder is a native tool whose fields hold an MCP tool: Build sees it.
type holder struct {
	Backend *mcpservers.Tool
}

func (h *holder) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "holder", Desc: "Holds a tool."}, nil
}

func (h *holder) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	return "", nil
}

// TestForeignToolRefusedAtConstruction: a tool holding an MCP tool the
// agent is not given is refused when the agent is made, and nothing is
// built.
func TestForeignToolRefusedAtConstruction(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	other := startServer(t, "other", nil, nil)
	cfg := agentConfig("researcher", &scripted{}, append(adapt(t, docs.tools["search_docs"]), &holder{Backend: other.tools["delete_page"]}))
	agent, def, err := guardianeino.NewChatModelAgent(ctx, cfg, nil)
	if !errors.Is(err, refusals.ErrForeignTool) {
		t.Fatalf("err = %v, want ErrForeignTool", err)
	}
	if agent != nil || def != nil {
		t.Fatal("something was built")
	}
	// Given the tool too, the agent is made.
	cfg.ToolsConfig.Tools = append(cfg.ToolsConfig.Tools, adapt(t, other.tools["delete_page"])...)
	if _, _, err := guardianeino.NewChatModelAgent(ctx, cfg, nil); err != nil {
		t.Fatal(err)
	}
}

// TestMiddlewareHoldingToolRefused: an Eino agent middleware whose fields
// hold an MCP tool it does not offer is refused, as the core refuses
// middleware.
func TestMiddlewareOffersAreRecorded(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	cfg := agentConfig("researcher", &scripted{}, adapt(t, docs.tools["search_docs"]))
	cfg.Middlewares = []adk.AgentMiddleware{{AdditionalTools: adapt(t, docs.tools["fail"])}}
	_, def, err := guardianeino.NewChatModelAgent(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := def.Record()
	if len(rec.Tools) != 2 || rec.Extensions.Guardian.MCPTools["fail"] != "docs" {
		t.Fatalf("tools = %+v", rec.Tools)
	}
}
