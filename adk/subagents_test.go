package adk_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"google.golang.org/adk/v2/agent/llmagent"
	"google.golang.org/adk/v2/model"
	"google.golang.org/adk/v2/model/gemini"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/agenttool"
	"google.golang.org/genai"

	guardianadk "github.com/guardian-agent/guardian-go/adk"
	"github.com/guardian-agent/guardian-go/adk/internal/standin"
	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/refusals"
)

func llm(name string, m model.LLM, tools []tool.Tool, subs ...guardianadk.Agent) *guardianadk.LLMAgent {
	return &guardianadk.LLMAgent{Config: llmagent.Config{Name: name, Description: "The " + name + ".", Instruction: "You are the " + name + ".", Model: m, Tools: tools}, SubAgents: subs}
}

func coreTools(ts ...*mcpservers.Tool) []definition.Tool {
	out := make([]definition.Tool, len(ts))
	for i, t := range ts {
		out[i] = t
	}
	return out
}

func coreAgent(name string, ts []definition.Tool, subs ...*definition.Agent) *definition.Agent {
	return &definition.Agent{Name: name, Description: "The " + name + ".", Model: "scripted-model", SystemPrompt: "You are the " + name + ".", Tools: ts, SubAgents: subs}
}

func sameDocument(t *testing.T, got *definition.Definition, want *definition.Agent) {
	t.Helper()
	w, err := definition.Build(want, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := got.Document()
	b, _ := w.Document()
	if !bytes.Equal(a, b) {
		t.Fatalf("adapter record differs from core Build:\n%s\n---\n%s", a, b)
	}
}

// TestSubAgentsRecordTheirServers: a sub-agent the coordinator transfers
// to records the servers of its own tools, the record is the core's Build
// of the same tree, and a run transfers to it and calls its tool; the
// sub-agent is refused a tool of the coordinator's.
func TestSubAgentsRecordTheirServers(t *testing.T) {
	docs := startServer(t, "docs", nil, nil)
	other := startServer(t, "other", nil, nil)
	coordinator := newModel(call("transfer_to_agent", map[string]any{"agent_name": "writer"}))
	writerModel := newModel(call("delete_page", map[string]any{"page": "home"}), answer("writer: "))
	writerModel.name = "scripted-model"
	tree := llm("coordinator", coordinator, adapt(t, docs.tools["search_docs"]),
		llm("writer", writerModel, adapt(t, other.tools["delete_page"])))
	a, def, err := newAgent(tree)
	if err != nil {
		t.Fatal(err)
	}
	sameDocument(t, def, coreAgent("coordinator", coreTools(docs.tools["search_docs"]),
		coreAgent("writer", coreTools(other.tools["delete_page"]))))
	rec := def.Record()
	if len(rec.MCPServers) != 1 || rec.MCPServers[0].Name != "docs" || rec.SubAgents[0].MCPServers[0].Name != "other" {
		t.Fatalf("servers %v and %v", rec.MCPServers, rec.SubAgents[0].MCPServers)
	}
	o := converse(t, a).say("Delete the home page.")
	if o.err != nil {
		t.Fatal(o.err)
	}
	if got, want := o.text(), "writer: deleted home"; got != want {
		t.Fatalf("last message %q, want %q", got, want)
	}
	if len(other.Calls()) != 1 || len(docs.Calls()) != 0 {
		t.Fatalf("servers received %v and %v", docs.Calls(), other.Calls())
	}

	// The writer is given the coordinator's tool at run time: refused.
	writerModel2 := newModel(call("search_docs", map[string]any{"query": "x"}), say("not reached"))
	w := llm("writer", writerModel2, adapt(t, other.tools["delete_page"]))
	w.BeforeModelCallbacks = []llmagent.BeforeModelCallback{inject(adapt(t, docs.tools["search_docs"])...)}
	a, _, err = newAgent(llm("coordinator", newModel(call("transfer_to_agent", map[string]any{"agent_name": "writer"})), adapt(t, docs.tools["search_docs"]), w))
	if err != nil {
		t.Fatal(err)
	}
	o = converse(t, a).say("Search.")
	if r := o.responses()["search_docs"]; r == nil || !contains(r["error"].(string), "not described") {
		t.Fatalf("the writer's call of the coordinator's tool: %v", r)
	}
	if len(docs.Calls()) != 0 {
		t.Fatalf("docs received %v", docs.Calls())
	}
}

// TestWorkflowAgents: sequential, parallel and loop agents record their
// sub-agents, each with the servers of its own tools; a sequential run
// calls each sub-agent's tool through its own part of the definition.
func TestWorkflowAgents(t *testing.T) {
	docs := startServer(t, "docs", nil, nil)
	other := startServer(t, "other", nil, nil)
	first := func(m model.LLM) *guardianadk.LLMAgent {
		return llm("searcher", m, adapt(t, docs.tools["search_docs"]))
	}
	second := func(m model.LLM) *guardianadk.LLMAgent {
		return llm("deleter", m, adapt(t, other.tools["delete_page"]))
	}
	want := func(name string) *definition.Agent {
		return &definition.Agent{Name: name, Description: "Runs both.", SubAgents: []*definition.Agent{
			coreAgent("searcher", coreTools(docs.tools["search_docs"])), coreAgent("deleter", coreTools(other.tools["delete_page"]))}}
	}
	for name, wf := range map[string]guardianadk.Agent{
		"sequential": &guardianadk.SequentialAgent{Name: "pipeline", Description: "Runs both.", SubAgents: []guardianadk.Agent{first(newModel()), second(newModel())}},
		"parallel":   &guardianadk.ParallelAgent{Name: "pipeline", Description: "Runs both.", SubAgents: []guardianadk.Agent{first(newModel()), second(newModel())}},
		"loop":       &guardianadk.LoopAgent{Name: "pipeline", Description: "Runs both.", MaxIterations: 1, SubAgents: []guardianadk.Agent{first(newModel()), second(newModel())}},
	} {
		_, def, err := newAgent(wf)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameDocument(t, def, want("pipeline"))
	}
	a, _, err := newAgent(&guardianadk.SequentialAgent{Name: "pipeline", Description: "Runs both.", SubAgents: []guardianadk.Agent{
		first(newModel(call("search_docs", map[string]any{"query": "x"}), answer("searcher: "))),
		second(newModel(call("delete_page", map[string]any{"page": "home"}), answer("deleter: "))),
	}})
	if err != nil {
		t.Fatal(err)
	}
	o := converse(t, a).say("go")
	if o.err != nil {
		t.Fatal(o.err)
	}
	if got, want := o.text(), "deleter: deleted home"; got != want {
		t.Fatalf("last message %q, want %q", got, want)
	}
	if len(docs.Calls()) != 1 || len(other.Calls()) != 1 {
		t.Fatalf("servers received %v and %v", docs.Calls(), other.Calls())
	}
}

// TestAgentToolRecordsItsAgent: an agent called as a tool is a tool of its
// parent (with agenttool's declaration) and a sub-agent with the servers of
// its own tools; a run calls it, and it calls its tool. A tool made with
// agenttool.New around an agent made elsewhere is refused.
func TestAgentToolRecordsItsAgent(t *testing.T) {
	docs := startServer(t, "docs", nil, nil)
	other := startServer(t, "other", nil, nil)
	inner := llm("helper", newModel(call("delete_page", map[string]any{"page": "home"}), answer("helper: ")), adapt(t, other.tools["delete_page"]))
	root := llm("coordinator", newModel(call("helper", map[string]any{"request": "delete home"}), answer("coordinator: ")),
		append(adapt(t, docs.tools["search_docs"]), guardianadk.NewAgentTool(inner, nil)))
	a, def, err := newAgent(root)
	if err != nil {
		t.Fatal(err)
	}
	rec := def.Record()
	if len(rec.Tools) != 2 || rec.Tools[0].Name != "helper" || len(rec.SubAgents) != 1 || rec.SubAgents[0].Name != "helper" || rec.SubAgents[0].MCPServers[0].Name != "other" {
		t.Fatalf("record: tools %v, sub-agents %v", rec.Tools, rec.SubAgents)
	}
	if got := string(rec.Tools[0].InputSchema); !contains(got, `"request"`) {
		t.Fatalf("the agent tool's schema %s is not agenttool's", got)
	}
	if len(rec.MCPServers) != 1 || rec.MCPServers[0].Name != "docs" {
		t.Fatalf("the coordinator records %v", rec.MCPServers)
	}
	o := converse(t, a).say("Delete home.")
	if o.err != nil {
		t.Fatal(o.err)
	}
	if got, want := o.text(), `coordinator: {"result":"helper: deleted home"}`; got != want {
		t.Fatalf("last message %q, want %q", got, want)
	}
	if len(other.Calls()) != 1 {
		t.Fatalf("other received %v", other.Calls())
	}

	made, err := llmagent.New(llmagent.Config{Name: "elsewhere", Model: newModel()})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = newAgent(llm("coordinator", newModel(), []tool.Tool{agenttool.New(made, nil)}))
	var r *refusals.Error
	if !errors.As(err, &r) || r.Rule != "adk-agent-made-elsewhere" || r.Pointer != "/tools/0" {
		t.Fatalf("agenttool.New: %v", err)
	}
}

// holder is a native tool of the user's that holds a model of its own,
// whose calls would not go through the agent's routed model.
type holder struct {
	Model model.LLM
}

func (h *holder) Name() string        { return "summarize" }
func (h *holder) Description() string { return "Summarises with a model of its own." }
func (h *holder) IsLongRunning() bool { return false }

// TestSecondModelRefused: the agent's model is its routed model; a tool
// holding another model.LLM (ADK's Gemini model, or one of a package named
// as a chat-model package) is refused when the agent is made
// (refusals.ErrUnroutedModel), and nothing is built; a tool holding the
// agent's own model is not.
func TestSecondModelRefused(t *testing.T) {
	newGemini := func() model.LLM {
		m, err := gemini.NewModel(context.Background(), "gemini-2.5-flash", &genai.ClientConfig{APIKey: "not-a-key", Backend: genai.BackendGeminiAPI})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	opts := &definition.Options{ChatModelPackages: []string{"github.com/guardian-agent/guardian-go/adk/internal/standin"}}
	agentGemini, agentStandin := newGemini(), &standin.Model{Reply: "agent"}
	for name, tc := range map[string]struct{ agentModel, held model.LLM }{
		"gemini":  {agentGemini, newGemini()},
		"standin": {agentStandin, &standin.Model{Reply: "second"}},
		"mixed":   {agentGemini, agentStandin},
	} {
		cfg := llm("researcher", tc.agentModel, []tool.Tool{&holder{Model: tc.held}})
		a, def, err := guardianadk.New(cfg, opts)
		if !errors.Is(err, refusals.ErrUnroutedModel) || a != nil || def != nil {
			t.Errorf("%s: New = %v, %v, %v; want ErrUnroutedModel and nothing built", name, a, def, err)
		}
		if err != nil && contains(err.Error(), "not-a-key") {
			t.Errorf("%s: the refusal quotes the key", name)
		}
		cfg = llm("researcher", tc.agentModel, []tool.Tool{&holder{Model: tc.agentModel}})
		if _, _, err := guardianadk.New(cfg, opts); err != nil {
			t.Errorf("%s: a tool holding the agent's own model: %v", name, err)
		}
	}
}

// systemText is the system instruction a request sent the model, as text.
func systemText(req *model.LLMRequest) string {
	if req == nil || req.Config == nil || req.Config.SystemInstruction == nil {
		return ""
	}
	s := ""
	for _, p := range req.Config.SystemInstruction.Parts {
		s += p.Text
	}
	return s
}

// TestSystemPromptIsWhatADKSends: the system prompt recorded for each
// agent is the text of its own that ADK sends the model (beside ADK's own
// lines): the root's GlobalInstruction then the agent's Instruction under
// an LLM root; each agent's own global under a workflow root; and an agent
// tool's agent, which agenttool runs as a root of its own, its own.
func TestSystemPromptIsWhatADKSends(t *testing.T) {
	withGlobal := func(a *guardianadk.LLMAgent, g string) *guardianadk.LLMAgent {
		a.GlobalInstruction = g
		return a
	}
	check := func(t *testing.T, def *definition.Definition, path []int, m *scripted) {
		t.Helper()
		rec := def.Record()
		for _, i := range path {
			rec = &rec.SubAgents[i]
		}
		sent := systemText(m.lastRequest())
		if rec.SystemPrompt == "" || !contains(sent, rec.SystemPrompt) {
			t.Fatalf("%s records %q; the model was sent %q", rec.Name, rec.SystemPrompt, sent)
		}
	}
	t.Run("under an LLM root", func(t *testing.T) {
		sub := newModel(say("sub"))
		root := withGlobal(llm("coordinator", newModel(call("transfer_to_agent", map[string]any{"agent_name": "writer"})), nil,
			withGlobal(llm("writer", sub, nil), "The writer's own global, which ADK ignores.")), "Be brief.")
		a, def, err := newAgent(root)
		if err != nil {
			t.Fatal(err)
		}
		if o := converse(t, a).say("go"); o.err != nil {
			t.Fatal(o.err)
		}
		check(t, def, []int{0}, sub)
		if got := def.Record().SubAgents[0].SystemPrompt; got != "Be brief.\n\nYou are the writer." {
			t.Fatalf("the writer records %q", got)
		}
	})
	t.Run("under a workflow root", func(t *testing.T) {
		m := newModel(say("one"))
		a, def, err := newAgent(&guardianadk.SequentialAgent{Name: "pipeline", SubAgents: []guardianadk.Agent{withGlobal(llm("one", m, nil), "One's global.")}})
		if err != nil {
			t.Fatal(err)
		}
		if o := converse(t, a).say("go"); o.err != nil {
			t.Fatal(o.err)
		}
		check(t, def, []int{0}, m)
		if got := def.Record().SubAgents[0].SystemPrompt; got != "One's global.\n\nYou are the one." {
			t.Fatalf("one records %q", got)
		}
	})
	t.Run("an agent tool's agent", func(t *testing.T) {
		inner := newModel(say("inner"))
		root := withGlobal(llm("coordinator", newModel(call("helper", map[string]any{"request": "x"}), say("done")),
			[]tool.Tool{guardianadk.NewAgentTool(withGlobal(llm("helper", inner, nil), "Helper's global."), nil)}), "Root's global.")
		a, def, err := newAgent(root)
		if err != nil {
			t.Fatal(err)
		}
		if o := converse(t, a).say("go"); o.err != nil {
			t.Fatal(o.err)
		}
		check(t, def, []int{0}, inner)
		if got := def.Record().SubAgents[0].SystemPrompt; got != "Helper's global.\n\nYou are the helper." {
			t.Fatalf("helper records %q", got)
		}
	})
}
