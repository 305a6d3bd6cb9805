package eino_test

import (
	"context"
	"errors"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/guardian-agent/guardian-go/definition"
	guardianeino "github.com/guardian-agent/guardian-go/eino"
	"github.com/guardian-agent/guardian-go/eino/internal/standin"
	"github.com/guardian-agent/guardian-go/refusals"
)

// summarizer is a native tool of the user's that holds a chat model of its
// own, whose calls would not go through the agent's routed model.
type summarizer struct {
	Model model.ToolCallingChatModel
}

func (s *summarizer) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "summarize", Desc: "Summarises with a model of its own."}, nil
}

func (s *summarizer) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	m, err := s.Model.Generate(ctx, []*schema.Message{schema.UserMessage(args)})
	if err != nil {
		return "", err
	}
	return m.Content, nil
}

// TestSecondChatModelRefused: the agent's model is recorded as its routed
// model; a tool holding a second Eino chat model is refused when the agent
// is made (refusals.ErrUnroutedModel), and nothing is built; a tool
// holding the agent's own model is not.
func TestSecondChatModelRefused(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	// The stand-in models' package is named as a chat-model package, as a
	// user names theirs (Eino's and eino-ext's model packages are known).
	opts := &definition.Options{ChatModelPackages: []string{"github.com/guardian-agent/guardian-go/eino/internal/standin"}}
	agentModel := &standin.Model{Reply: "agent"}
	newConfig := func(held model.ToolCallingChatModel) *guardianeino.AgentConfig {
		cfg := agentConfig("researcher", nil, append(adapt(t, docs.tools["search_docs"]), &summarizer{Model: held}))
		cfg.Model = agentModel
		return cfg
	}
	cfg := newConfig(&standin.Model{Reply: "second"})
	agent, def, err := guardianeino.NewChatModelAgent(ctx, cfg, opts)
	if !errors.Is(err, refusals.ErrUnroutedModel) {
		t.Fatalf("err = %v, want ErrUnroutedModel", err)
	}
	if agent != nil || def != nil {
		t.Fatal("something was built")
	}
	if _, _, err := guardianeino.NewChatModelAgent(ctx, newConfig(agentModel), opts); err != nil {
		t.Fatal(err)
	}
}

// TestGraphSecondChatModelRefused: a graph's routed model is its
// ChatModel; a graph tool holding another chat model is refused at
// compile, and nothing is returned to run.
func TestGraphSecondChatModelRefused(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	opts := &definition.Options{ChatModelPackages: []string{"github.com/guardian-agent/guardian-go/eino/internal/standin"}}
	nodeModel := &standin.Model{Reply: "node"}
	compile := func(held model.ToolCallingChatModel) error {
		g := &guardianeino.Graph{Name: "graph", ChatModel: nodeModel}
		tn, err := g.NewToolsNode(ctx, &compose.ToolsNodeConfig{Tools: append(adapt(t, docs.tools["search_docs"]), &summarizer{Model: held})})
		if err != nil {
			t.Fatal(err)
		}
		gr := compose.NewGraph[*schema.Message, []*schema.Message]()
		_ = gr.AddToolsNode("tools", tn)
		_ = gr.AddEdge(compose.START, "tools")
		_ = gr.AddEdge("tools", compose.END)
		r, def, err := guardianeino.CompileGraph[*schema.Message, []*schema.Message](ctx, g, gr, opts)
		if err != nil && (r != nil || def != nil) {
			t.Fatal("something was returned to run")
		}
		return err
	}
	if err := compile(&standin.Model{Reply: "second"}); !errors.Is(err, refusals.ErrUnroutedModel) {
		t.Fatalf("err = %v, want ErrUnroutedModel", err)
	}
	if err := compile(nodeModel); err != nil {
		t.Fatal(err)
	}
}
