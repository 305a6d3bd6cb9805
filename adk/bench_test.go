package adk_test

import (
	"context"
	"fmt"
	"iter"
	"testing"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/agent/llmagent"
	"google.golang.org/adk/v2/model"
	"google.golang.org/adk/v2/runner"
	"google.golang.org/adk/v2/session"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/functiontool"
	"google.golang.org/genai"

	guardianadk "github.com/guardian-agent/guardian-go/adk"
)

// stepModel is a model for benchmarks: it asks for tool with args, and
// once given the tool's answer, answers. It keeps no history.
type stepModel struct {
	tool string
	args map[string]any
}

func (m stepModel) Name() string { return "step-model" }

func (m stepModel) GenerateContent(_ context.Context, req *model.LLMRequest, _ bool) iter.Seq2[*model.LLMResponse, error] {
	return func(yield func(*model.LLMResponse, error) bool) {
		last := req.Contents[len(req.Contents)-1]
		for _, p := range last.Parts {
			if p.FunctionResponse != nil {
				yield(&model.LLMResponse{Content: genai.NewContentFromText("done", genai.RoleModel), TurnComplete: true}, nil)
				return
			}
		}
		fc := &genai.FunctionCall{ID: "call-1", Name: m.tool, Args: m.args}
		yield(&model.LLMResponse{Content: &genai.Content{Role: genai.RoleModel, Parts: []*genai.Part{{FunctionCall: fc}}}, TurnComplete: true}, nil)
	}
}

// runStep runs one agent step (the model's call, the tool, the model's
// answer) in a new session.
func runStep(b *testing.B, ctx context.Context, r *runner.Runner, i int) {
	msg := genai.NewContentFromText("go", genai.RoleUser)
	for _, err := range r.Run(ctx, "user", fmt.Sprint("s", i), msg, agent.RunConfig{}) {
		if err != nil {
			b.Fatal(err)
		}
	}
}

func benchRunner(b *testing.B, a agent.Agent) *runner.Runner {
	r, err := runner.New(runner.Config{AppName: "bench", Agent: a, SessionService: session.InMemoryService(), AutoCreateSession: true})
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkAgentStep: one tool step over the real stdio test server,
// three ways: search_docs called directly (Tool.Call); an agent step of a
// plain ADK agent (llmagent.New) whose tool is ADK's function tool calling
// Tool.Call; and the same step of an agent New made, with the adapter's
// Tool (vetted, bound, and the model request checked). Reported, never
// asserted.
func BenchmarkAgentStep(b *testing.B) {
	docs := startServer(b, "docs", nil, nil)
	search := docs.tools["search_docs"]
	ctx := context.Background()
	args := map[string]any{"query": "release notes"}
	m := stepModel{tool: "search_docs", args: args}

	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			if _, err := search.Call(ctx, args); err != nil {
				b.Fatal(err)
			}
		}
	})

	b.Run("adk-functiontool", func(b *testing.B) {
		ft, err := functiontool.New(functiontool.Config{Name: "search_docs", Description: search.Description()},
			func(ctx agent.Context, q query) (string, error) {
				res, err := search.Call(ctx, map[string]any{"query": q.Query})
				if err != nil {
					return "", err
				}
				return res.Text(), nil
			})
		if err != nil {
			b.Fatal(err)
		}
		a, err := llmagent.New(llmagent.Config{Name: "researcher", Model: m, Tools: []tool.Tool{ft}})
		if err != nil {
			b.Fatal(err)
		}
		r := benchRunner(b, a)
		i := 0
		for b.Loop() {
			runStep(b, ctx, r, i)
			i++
		}
	})

	b.Run("guardian", func(b *testing.B) {
		a, _, err := guardianadk.New(&guardianadk.LLMAgent{Config: llmagent.Config{Name: "researcher", Model: m, Tools: adapt(b, search)}}, nil)
		if err != nil {
			b.Fatal(err)
		}
		r := benchRunner(b, a)
		i := 0
		for b.Loop() {
			runStep(b, ctx, r, i)
			i++
		}
	})
}

// BenchmarkGuardOverhead: an in-process tool (no I/O) in one agent step, in
// a plain ADK agent and in an agent New made: what guardian-go's checks
// cost a step, apart from the server's round trip.
func BenchmarkGuardOverhead(b *testing.B) {
	ctx := context.Background()
	m := stepModel{tool: "look", args: map[string]any{"query": "x"}}
	for _, guarded := range []bool{false, true} {
		name := "adk"
		if guarded {
			name = "guardian"
		}
		b.Run(name, func(b *testing.B) {
			ft, err := functiontool.New(functiontool.Config{Name: "look", Description: "Looks a query up."}, lookUp)
			if err != nil {
				b.Fatal(err)
			}
			cfg := llmagent.Config{Name: "researcher", Model: m, Tools: []tool.Tool{ft}}
			var a agent.Agent
			if guarded {
				a, _, err = guardianadk.New(&guardianadk.LLMAgent{Config: cfg}, nil)
			} else {
				a, err = llmagent.New(cfg)
			}
			if err != nil {
				b.Fatal(err)
			}
			r := benchRunner(b, a)
			i := 0
			for b.Loop() {
				runStep(b, ctx, r, i)
				i++
			}
		})
	}
}
