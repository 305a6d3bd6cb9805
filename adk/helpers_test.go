package adk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/agent/llmagent"
	"google.golang.org/adk/v2/model"
	"google.golang.org/adk/v2/runner"
	"google.golang.org/adk/v2/session"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/genai"

	guardianadk "github.com/guardian-agent/guardian-go/adk"
	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// scripted is a model.LLM that stands in for a real model (no model runs
// here, and no key is needed): it plays its steps in order, each given the
// request so far. It is the one fake of these tests, and it records what
// the agent sent it, so a test can check what a model would have read.
type scripted struct {
	name     string
	mu       sync.Mutex
	steps    []step
	requests []*model.LLMRequest
}

type step func(req *model.LLMRequest) *genai.Content

func newModel(steps ...step) *scripted { return &scripted{name: "scripted-model", steps: steps} }

func (s *scripted) Name() string { return s.name }

func (s *scripted) GenerateContent(_ context.Context, req *model.LLMRequest, _ bool) iter.Seq2[*model.LLMResponse, error] {
	return func(yield func(*model.LLMResponse, error) bool) {
		s.mu.Lock()
		s.requests = append(s.requests, req)
		if len(s.steps) == 0 {
			s.mu.Unlock()
			yield(nil, fmt.Errorf("scripted model: no step left"))
			return
		}
		st := s.steps[0]
		s.steps = s.steps[1:]
		s.mu.Unlock()
		yield(&model.LLMResponse{Content: st(req), TurnComplete: true}, nil)
	}
}

// calls is how many requests the model was sent.
func (s *scripted) calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// lastRequest is the last request the model was sent.
func (s *scripted) lastRequest() *model.LLMRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.requests) == 0 {
		return nil
	}
	return s.requests[len(s.requests)-1]
}

// declarations are the function declarations a request sent the model, by
// name.
func declarations(req *model.LLMRequest) map[string]*genai.FunctionDeclaration {
	out := map[string]*genai.FunctionDeclaration{}
	if req == nil || req.Config == nil {
		return out
	}
	for _, t := range req.Config.Tools {
		if t == nil {
			continue
		}
		for _, d := range t.FunctionDeclarations {
			out[d.Name] = d
		}
	}
	return out
}

var callSeq sync.Mutex
var callN int

// call is a step asking for one tool call.
func call(name string, args map[string]any) step {
	return func(*model.LLMRequest) *genai.Content {
		callSeq.Lock()
		callN++
		id := fmt.Sprintf("call-%d", callN)
		callSeq.Unlock()
		return &genai.Content{Role: genai.RoleModel, Parts: []*genai.Part{{FunctionCall: &genai.FunctionCall{ID: id, Name: name, Args: args}}}}
	}
}

// lastResponse is the last function response in a request's contents.
func lastResponse(req *model.LLMRequest) *genai.FunctionResponse {
	var last *genai.FunctionResponse
	for _, c := range req.Contents {
		if c == nil {
			continue
		}
		for _, p := range c.Parts {
			if p != nil && p.FunctionResponse != nil {
				last = p.FunctionResponse
			}
		}
	}
	return last
}

// answer is a step answering with what the last tool returned: its
// "output", or its "error" in brackets.
func answer(prefix string) step {
	return func(req *model.LLMRequest) *genai.Content {
		r := lastResponse(req)
		text := ""
		if r != nil {
			if o, ok := r.Response["output"].(string); ok {
				text = o
			} else if e, ok := r.Response["error"].(string); ok {
				text = "[" + e + "]"
			} else {
				b, _ := json.Marshal(r.Response)
				text = string(b)
			}
		}
		return genai.NewContentFromText(prefix+text, genai.RoleModel)
	}
}

func say(text string) step {
	return func(*model.LLMRequest) *genai.Content { return genai.NewContentFromText(text, genai.RoleModel) }
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// session is one conversation with an agent through a real ADK runner and
// an in-memory session service.
type conversation struct {
	t      testing.TB
	ctx    context.Context
	runner *runner.Runner
	id     string
}

func converse(t testing.TB, a agent.Agent) *conversation {
	t.Helper()
	r, err := runner.New(runner.Config{AppName: "guardian-test", Agent: a, SessionService: session.InMemoryService(), AutoCreateSession: true})
	if err != nil {
		t.Fatal(err)
	}
	return &conversation{t: t, ctx: testCtx(t), runner: r, id: "session-1"}
}

// outcome is what a run yielded.
type outcome struct {
	events []*session.Event
	err    error
}

// send runs the agent on a user message (text or parts).
func (c *conversation) send(parts ...*genai.Part) outcome {
	c.t.Helper()
	var o outcome
	for ev, err := range c.runner.Run(c.ctx, "user", c.id, &genai.Content{Role: genai.RoleUser, Parts: parts}, agent.RunConfig{}) {
		if err != nil {
			o.err = err
			continue
		}
		o.events = append(o.events, ev)
	}
	return o
}

func (c *conversation) say(text string) outcome {
	c.t.Helper()
	return c.send(genai.NewPartFromText(text))
}

// text is the last text a model wrote in the run.
func (o outcome) text() string {
	last := ""
	for _, ev := range o.events {
		if ev.Content == nil || ev.Content.Role != genai.RoleModel {
			continue
		}
		for _, p := range ev.Content.Parts {
			if p != nil && p.Text != "" {
				last = p.Text
			}
		}
	}
	return last
}

// responses are the function responses of the run, by tool name, the last
// of each.
func (o outcome) responses() map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, ev := range o.events {
		if ev.Content == nil {
			continue
		}
		for _, p := range ev.Content.Parts {
			if p != nil && p.FunctionResponse != nil {
				out[p.FunctionResponse.Name] = p.FunctionResponse.Response
			}
		}
	}
	return out
}

// pending are the guardian-go confirmations the run ended with.
func (o outcome) pending() []*guardianadk.Confirmation {
	var out []*guardianadk.Confirmation
	for _, ev := range o.events {
		out = append(out, guardianadk.Pending(ev)...)
	}
	return out
}

// adapt adapts MCP tools, failing the test on error.
func adapt(t testing.TB, ts ...*mcpservers.Tool) []tool.Tool {
	t.Helper()
	out, err := guardianadk.NewTools(ts)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// researcher is the LLM agent most tests make.
func researcher(m model.LLM, tools []tool.Tool) *guardianadk.LLMAgent {
	return &guardianadk.LLMAgent{Config: llmagent.Config{
		Name:        "researcher",
		Description: "Researches questions using the internal docs.",
		Instruction: "You research questions using the internal docs.",
		Model:       m,
		Tools:       tools,
	}}
}

// newAgent makes the agent with New and no options.
func newAgent(a guardianadk.Agent) (agent.Agent, *definition.Definition, error) {
	return guardianadk.New(a, nil)
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// Short names for the types of a BeforeModelCallback.
type (
	agentContext  = agent.Context
	modelRequest  = *model.LLMRequest
	modelResponse = *model.LLMResponse
)
