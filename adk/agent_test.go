package adk_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/tool"

	guardianadk "github.com/guardian-agent/guardian-go/adk"
	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/refusals"
)

// TestAgentRunsThroughTheAdapter: a real ADK runner runs the agent New
// made; the model's call of search_docs reaches the real server once, and
// the model reads its answer.
func TestAgentRunsThroughTheAdapter(t *testing.T) {
	docs := startServer(t, "docs", nil, nil)
	m := newModel(call("search_docs", map[string]any{"query": "release notes"}), answer("The docs say: "))
	a, _, err := guardianadk.New(researcher(m, adapt(t, docs.tools["search_docs"])), nil)
	if err != nil {
		t.Fatal(err)
	}
	o := converse(t, a).say("Summarise the release notes.")
	if o.err != nil {
		t.Fatal(o.err)
	}
	if got, want := o.text(), `The docs say: No pages match "release notes" yet.`; got != want {
		t.Fatalf("last message %q, want %q", got, want)
	}
	if got := docs.Calls(); len(got) != 1 || got[0] != "search_docs" {
		t.Fatalf("the server received %v, want one search_docs", got)
	}
}

// TestAgentRecordIsCoreBuild: the definition New records is the core
// Build of the same agent, byte for byte.
func TestAgentRecordIsCoreBuild(t *testing.T) {
	docs := startServer(t, "docs", nil, nil)
	_, def, err := guardianadk.New(researcher(newModel(), adapt(t, docs.list...)), nil)
	if err != nil {
		t.Fatal(err)
	}
	core := make([]definition.Tool, len(docs.list))
	for i, tl := range docs.list {
		core[i] = tl
	}
	want, err := definition.Build(&definition.Agent{Name: "researcher", Description: "Researches questions using the internal docs.",
		Model: "scripted-model", SystemPrompt: "You research questions using the internal docs.", Tools: core}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := def.Document()
	if err != nil {
		t.Fatal(err)
	}
	wantDoc, _ := want.Document()
	if !bytes.Equal(got, wantDoc) {
		t.Fatalf("adapter record differs from core Build:\n%s\n---\n%s", got, wantDoc)
	}
}

// TestDeclarationCarriesTheSchemaAsSent: the declaration the model is
// sent holds the server's input schema byte for byte (anyOf, $defs, a root
// description, unknown keywords), in the request a real run makes.
func TestDeclarationCarriesTheSchemaAsSent(t *testing.T) {
	docs := startServer(t, "docs", nil, nil)
	st := docs.tools["schema_tool"]
	m := newModel(say("nothing to do"))
	a, _, err := guardianadk.New(researcher(m, adapt(t, st)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if o := converse(t, a).say("hello"); o.err != nil {
		t.Fatal(o.err)
	}
	d := declarations(m.lastRequest())["schema_tool"]
	if d == nil {
		t.Fatal("the model was not sent schema_tool")
	}
	raw, ok := d.ParametersJsonSchema.(json.RawMessage)
	if !ok {
		t.Fatalf("ParametersJsonSchema is a %T, want json.RawMessage", d.ParametersJsonSchema)
	}
	if !bytes.Equal(raw, st.InputSchema()) || !bytes.Equal(raw, []byte(richSchema)) {
		t.Fatalf("the model was sent\n%s\nthe server sent\n%s", raw, st.InputSchema())
	}
	// And as the declaration marshals for the wire.
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"parametersJsonSchema":`+richSchema)) {
		t.Fatalf("the marshalled declaration does not hold the schema as sent: %s", b)
	}
	if d.Description != st.Description() || d.Name != "schema_tool" {
		t.Fatalf("declaration %q %q", d.Name, d.Description)
	}
}

// TestNothingBuiltOnRefusal: a refused agent is not made, and no
// definition is returned.
func TestNothingBuiltOnRefusal(t *testing.T) {
	docs := startServer(t, "docs", nil, nil)
	for name, cfg := range map[string]*guardianadk.LLMAgent{
		"nil tool": researcher(newModel(), []tool.Tool{nil}),
		"ADK sub-agent": func() *guardianadk.LLMAgent {
			c := researcher(newModel(), nil)
			c.Config.SubAgents = []agent.Agent{nil}
			return c
		}(),
		"credential in text": func() *guardianadk.LLMAgent {
			c := researcher(newModel(), nil)
			c.Instruction = "use " + fakeGitHubToken()
			return c
		}(),
		"two tools, one name": researcher(newModel(), append(adapt(t, docs.tools["search_docs"]), adapt(t, docs.tools["search_docs"])...)),
	} {
		a, def, err := guardianadk.New(cfg, nil)
		if err == nil || a != nil || def != nil {
			t.Errorf("%s: New = %v, %v, %v; want a refusal and nothing built", name, a, def, err)
		}
	}
	// The credential is refused as the core refuses it, without quoting it.
	c := researcher(newModel(), nil)
	c.Instruction = "use " + fakeGitHubToken()
	_, _, err := guardianadk.New(c, nil)
	if !errors.Is(err, refusals.ErrContainsSecret) || contains(err.Error(), fakeGitHubToken()) {
		t.Fatalf("err = %v", err)
	}
	var _ = mcpservers.Tool{}
}

// fakeGitHubToken is a GitHub token of the right shape, made in code so
// that no literal token sits in the repository.
func fakeGitHubToken() string {
	return "ghp_" + string(bytes.Repeat([]byte("a1B2"), 9))
}
