package eino_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	guardianeino "github.com/guardian-agent/guardian-go/eino"
	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/refusals"
)

// TestSubAgentsRun: a sub-agent reached by transfer, and one called as an
// agent tool, each call the tools of their own servers, vetted against
// their part of the definition, through a real Runner.
func TestSubAgentsRun(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	wiki := startServer(t, "wiki", nil, nil)

	t.Run("transfer", func(t *testing.T) {
		helperModel := &scripted{steps: []func([]*schema.Message) *schema.Message{
			call("search_docs", `{"query":"wiki"}`), answer("helper found: "),
		}}
		helper := agentConfig("helper", helperModel, adapt(t, wiki.tools["search_docs"]))
		helper.Description = "Searches the wiki."
		parentModel := &scripted{steps: []func([]*schema.Message) *schema.Message{
			call(adk.TransferToAgentToolName, `{"agent_name":"helper"}`),
		}}
		cfg := agentConfig("researcher", parentModel, adapt(t, docs.tools["search_docs"]))
		cfg.SubAgents = []*guardianeino.AgentConfig{helper}
		agent, _, err := guardianeino.NewChatModelAgent(ctx, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		o := drain(t, adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).Query(ctx, "Ask the helper."))
		if o.err != nil {
			t.Fatal(o.err)
		}
		if o.last == nil || o.last.Content != `helper found: No pages match "wiki" yet.` {
			t.Fatalf("last = %+v", o.last)
		}
		if got := wiki.Calls(); !slices.Equal(got, []string{"search_docs"}) {
			t.Fatalf("wiki calls = %v", got)
		}
	})
	t.Run("agent tool", func(t *testing.T) {
		checkerModel := &scripted{steps: []func([]*schema.Message) *schema.Message{call("fail", `{}`), answer("checked: ")}}
		checker := agentConfig("checker", checkerModel, adapt(t, wiki.tools["fail"]))
		checker.Description = "Checks pages."
		parentModel := &scripted{steps: []func([]*schema.Message) *schema.Message{
			call("checker", `{"request":"check the page"}`), answer("parent read: "),
		}}
		cfg := agentConfig("researcher", parentModel, adapt(t, docs.tools["search_docs"]))
		cfg.AgentTools = []*guardianeino.AgentConfig{checker}
		agent, _, err := guardianeino.NewChatModelAgent(ctx, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		o := drain(t, adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).Query(ctx, "Check it."))
		if o.err != nil {
			t.Fatal(o.err)
		}
		if want := "parent read: checked: Error: no such page: try search_docs first"; o.last == nil || o.last.Content != want {
			t.Fatalf("last = %+v, want %q", o.last, want)
		}
	})
}

// rawRelay is a native tool of the user's that calls an *mcpservers.Tool
// directly, not through the adapter.
type rawRelay struct{ next func() *mcpservers.Tool }

func (r *rawRelay) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "raw_lookup", Desc: "Looks things up elsewhere, directly."}, nil
}

func (r *rawRelay) InvokableRun(ctx context.Context, _ string, _ ...tool.Option) (string, error) {
	res, err := r.next().Call(ctx, map[string]any{"query": "x"})
	if err != nil {
		return "", err
	}
	return res.Text(), nil
}

// TestDirectCallRefusedUnderTheAgent: with the definition bound to the
// call's context (definition.Bind), an MCP tool another tool calls
// directly with mcpservers.Tool.Call is vetted by the core, and refused
// with nothing sent.
func TestDirectCallRefusedUnderTheAgent(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	other := startServer(t, "other", nil, nil)
	r := &rawRelay{next: func() *mcpservers.Tool { return other.tools["search_docs"] }}
	m := &scripted{steps: []func([]*schema.Message) *schema.Message{call("raw_lookup", `{}`), say("unreachable")}}
	agent, _, err := guardianeino.NewChatModelAgent(ctx, agentConfig("researcher", m, append(adapt(t, docs.tools["search_docs"]), r)), nil)
	if err != nil {
		t.Fatal(err)
	}
	o := drain(t, adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).Query(ctx, "Look it up."))
	if !errors.Is(o.err, refusals.ErrUndescribed) {
		t.Fatalf("err = %v, want ErrUndescribed", o.err)
	}
	if got := other.Calls(); len(got) != 0 {
		t.Fatalf("the server received %v", got)
	}
}
