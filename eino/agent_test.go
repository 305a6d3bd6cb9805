package eino_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/guardian-agent/guardian-go/definition"
	guardianeino "github.com/guardian-agent/guardian-go/eino"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

func adapt(t testing.TB, ts ...*mcpservers.Tool) []tool.BaseTool {
	t.Helper()
	out, err := guardianeino.NewTools(ts)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func agentConfig(name string, m *scripted, tools []tool.BaseTool) *guardianeino.AgentConfig {
	return &guardianeino.AgentConfig{ChatModelAgentConfig: adk.ChatModelAgentConfig{
		Name: name, Description: "Researches questions.", Instruction: "You research questions using the internal docs.",
		Model: m, ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: composeTools(tools)},
	}, ModelName: "gpt-4.1"}
}

// canonicalJSON compacts JSON with sorted keys, the way the definition
// document records schemas.
func canonicalJSON(t testing.TB, b []byte) string {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestInfoIsTheServersSchema: the schema Eino sends the model is the one
// the server sent, keyword for keyword: anyOf, $defs and $ref, a root
// description, "default": null, {} and "required": [], unknown keywords.
func TestInfoIsTheServersSchema(t *testing.T) {
	ctx := testCtx(t)
	s := startServer(t, "docs", nil, nil)
	st := s.tools["schema_tool"]
	a, err := guardianeino.NewTool(st)
	if err != nil {
		t.Fatal(err)
	}
	info, err := a.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "schema_tool" || info.Desc != "A tool with a rich schema." {
		t.Fatalf("info = %q %q", info.Name, info.Desc)
	}
	js, err := info.ParamsOneOf.ToJSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	sent, err := json.Marshal(js)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := canonicalJSON(t, sent), canonicalJSON(t, st.InputSchema()); got != want {
		t.Fatalf("the model would be sent\n%s\nthe server sent\n%s", got, want)
	}
	// And it is what the definition records.
	def, err := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{st}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := canonicalJSON(t, sent), canonicalJSON(t, def.Record().Tools[0].InputSchema); got != want {
		t.Fatalf("sent %s, recorded %s", got, want)
	}
	// The fields model clients read are filled, not only the JSON.
	if js.Description != "Where to look, and how." || js.Definitions["scope"] == nil || js.Properties == nil {
		t.Fatalf("typed fields missing: %+v", js)
	}
	q, _ := js.Properties.Get("query")
	if q == nil || len(q.AnyOf) != 2 {
		t.Fatalf("anyOf not typed: %+v", q)
	}
	// The properties keep the server's order.
	var order []string
	for p := js.Properties.Oldest(); p != nil; p = p.Next() {
		order = append(order, p.Key)
	}
	if want := []string{"query", "scope", "limit", "filters"}; !slices.Equal(order, want) {
		t.Fatalf("order %v, want %v", order, want)
	}
	if info.Extra["mcp"].(map[string]any)["server"] != "docs" {
		t.Fatalf("extra = %v", info.Extra)
	}
}

// TestAgentRecordIsCoreBuild: the definition NewChatModelAgent returns is,
// byte for byte, what definition.Build gives for the same tools, name,
// description, model and system prompt; sub-agents (transfer and agent
// tools) each record the servers of their own tools.
func TestAgentRecordIsCoreBuild(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	wiki := startServer(t, "wiki", nil, nil)

	helper := agentConfig("helper", &scripted{}, adapt(t, wiki.tools["search_docs"]))
	helper.Description = "Helps."
	checker := agentConfig("checker", &scripted{}, adapt(t, wiki.tools["fail"]))
	checker.Description = "Checks."
	cfg := agentConfig("researcher", &scripted{}, adapt(t, docs.tools["search_docs"], docs.tools["schema_tool"]))
	cfg.SubAgents = []*guardianeino.AgentConfig{helper}
	cfg.AgentTools = []*guardianeino.AgentConfig{checker}

	agent, def, err := guardianeino.NewChatModelAgent(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if agent == nil {
		t.Fatal("no agent")
	}
	got, err := def.Document()
	if err != nil {
		t.Fatal(err)
	}

	// The same agent given to the core's Build: the MCP tools themselves,
	// and the agent tool as the native tool the model sees.
	agentTool, err := guardianeino.NewNativeTool(ctx, adk.NewAgentTool(ctx, helperLike{"checker", "Checks."}))
	if err != nil {
		t.Fatal(err)
	}
	prompt := "You research questions using the internal docs."
	core, err := definition.Build(&definition.Agent{
		Name: "researcher", Description: "Researches questions.", Model: "gpt-4.1", SystemPrompt: prompt,
		Tools: []definition.Tool{docs.tools["search_docs"], docs.tools["schema_tool"], agentTool},
		SubAgents: []*definition.Agent{
			{Name: "helper", Description: "Helps.", Model: "gpt-4.1", SystemPrompt: prompt, Tools: []definition.Tool{wiki.tools["search_docs"]}},
			{Name: "checker", Description: "Checks.", Model: "gpt-4.1", SystemPrompt: prompt, Tools: []definition.Tool{wiki.tools["fail"]}},
		},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := core.Document()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("adapter record differs from core Build:\n--- adapter\n%s\n--- core\n%s", got, want)
	}
	rec := def.Record()
	if len(rec.SubAgents) != 2 || rec.SubAgents[0].MCPServers[0].Name != "wiki" || rec.MCPServers[0].Name != "docs" {
		t.Fatalf("sub-agents' servers: %+v", rec)
	}
}

type helperLike struct{ name, desc string }

func (h helperLike) Name(context.Context) string        { return h.name }
func (h helperLike) Description(context.Context) string { return h.desc }
func (h helperLike) Run(context.Context, *adk.AgentInput, ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	it, gen := adk.NewAsyncIteratorPair[*adk.AgentEvent]()
	gen.Close()
	return it
}

// TestAgentRunsThroughAdapter: a real adk.Runner runs the agent over the
// real stdio server; the scripted model calls search_docs and answers with
// what it returned; the server received exactly that one call.
func TestAgentRunsThroughAdapter(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	m := &scripted{steps: []func([]*schema.Message) *schema.Message{
		call("search_docs", `{"query":"release notes"}`), answer("Summary: "),
	}}
	agent, _, err := guardianeino.NewChatModelAgent(ctx, agentConfig("researcher", m, adapt(t, docs.tools["search_docs"])), nil)
	if err != nil {
		t.Fatal(err)
	}
	o := drain(t, adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).Query(ctx, "Summarise the release notes."))
	if o.err != nil {
		t.Fatal(o.err)
	}
	if o.last == nil || o.last.Content != `Summary: No pages match "release notes" yet.` {
		t.Fatalf("last = %+v", o.last)
	}
	if got := docs.Calls(); !slices.Equal(got, []string{"search_docs"}) {
		t.Fatalf("server calls = %v", got)
	}
	if len(m.tools) != 1 || m.tools[0].Name != "search_docs" {
		t.Fatalf("model was offered %v", m.tools)
	}
	if in := m.lastInput(); in[0].Role != schema.System || in[0].Content != "You research questions using the internal docs." {
		t.Fatalf("system prompt: %+v", in[0])
	}
}

// TestIsErrorReachesTheModel: a failure the server reports is the tool's
// answer, which the model reads; the run goes on.
func TestIsErrorReachesTheModel(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	m := &scripted{steps: []func([]*schema.Message) *schema.Message{call("fail", `{}`), answer("I read: ")}}
	agent, _, err := guardianeino.NewChatModelAgent(ctx, agentConfig("researcher", m, adapt(t, docs.tools["fail"])), nil)
	if err != nil {
		t.Fatal(err)
	}
	o := drain(t, adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).Query(ctx, "Open the page."))
	if o.err != nil {
		t.Fatal(o.err)
	}
	if want := "I read: Error: no such page: try search_docs first"; o.last == nil || o.last.Content != want {
		t.Fatalf("last = %+v, want %q", o.last, want)
	}
}

// TestTransportFailureIsAGoError: a server that dies mid-call ends the run
// with the adapter's Go error, not an answer for the model.
func TestTransportFailureIsAGoError(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	m := &scripted{steps: []func([]*schema.Message) *schema.Message{call("crash", `{}`), say("unreachable")}}
	agent, _, err := guardianeino.NewChatModelAgent(ctx, agentConfig("researcher", m, adapt(t, docs.tools["crash"])), nil)
	if err != nil {
		t.Fatal(err)
	}
	o := drain(t, adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).Query(ctx, "Crash."))
	if !errors.Is(o.err, mcpservers.ErrConnectionLost) {
		t.Fatalf("err = %v, want ErrConnectionLost", o.err)
	}
	if o.last != nil && o.last.Content == "unreachable" {
		t.Fatalf("the run went on to the model: %+v", o.last)
	}
}

// TestInvalidArgumentsReachTheModel: arguments that are not a JSON object
// are the model's mistake: it is told, and nothing is sent.
func TestInvalidArgumentsReachTheModel(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	a := adapt(t, docs.tools["search_docs"])[0].(tool.InvokableTool)
	out, err := a.InvokableRun(ctx, `{"query":`)
	if err != nil || !strings.HasPrefix(out, "Error: the arguments are not a JSON object") {
		t.Fatalf("out = %q, err = %v", out, err)
	}
	if got := docs.Calls(); len(got) != 0 {
		t.Fatalf("server calls = %v", got)
	}
}

// TestNonTextContentAsText: what text cannot carry is named, never lost
// silently; structured content is kept when no block carries text.
func TestNonTextContentAsText(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	a := adapt(t, docs.tools["screenshot"])[0].(tool.InvokableTool)
	out, err := a.InvokableRun(ctx, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	want := "a screenshot\n[image (image/png)]\n[audio (audio/wav)]\n[resource file:///doc/3 (application/pdf), binary]"
	if out != want {
		t.Fatalf("out = %q, want %q", out, want)
	}
	r := &mcpservers.Result{StructuredContent: json.RawMessage(`{ "width": 640 }`)}
	if got := guardianeino.Text(r); got != `{"width":640}` {
		t.Fatalf("structured = %q", got)
	}
}

// TestEnhancedToolCarriesMedia: through Tool.Enhanced, an image, audio and
// a binary resource reach the model as parts of the tool message, with the
// data and MIME type the server sent.
func TestEnhancedToolCarriesMedia(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	a, err := guardianeino.NewTool(docs.tools["screenshot"])
	if err != nil {
		t.Fatal(err)
	}
	m := &scripted{steps: []func([]*schema.Message) *schema.Message{call("screenshot", `{}`), say("seen")}}
	agent, _, err := guardianeino.NewChatModelAgent(ctx, agentConfig("viewer", m, []tool.BaseTool{a.Enhanced()}), nil)
	if err != nil {
		t.Fatal(err)
	}
	o := drain(t, adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).Query(ctx, "Take a screenshot."))
	if o.err != nil {
		t.Fatal(o.err)
	}
	var parts []schema.MessageInputPart
	for _, msg := range m.lastInput() {
		if msg.Role == schema.Tool {
			parts = msg.UserInputMultiContent
		}
	}
	if len(parts) != 4 || parts[0].Text != "a screenshot" ||
		parts[1].Image == nil || *parts[1].Image.Base64Data != "iVBORw0KGgo=" || parts[1].Image.MIMEType != "image/png" ||
		parts[2].Audio == nil || parts[2].Audio.MIMEType != "audio/wav" ||
		parts[3].File == nil || *parts[3].File.Base64Data != "AAEC" || parts[3].File.MIMEType != "application/pdf" {
		t.Fatalf("parts = %+v", parts)
	}
	if got := docs.Calls(); !slices.Equal(got, []string{"screenshot"}) {
		t.Fatalf("server calls = %v", got)
	}
}
