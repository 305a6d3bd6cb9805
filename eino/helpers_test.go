package eino_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
)

// scripted is a ToolCallingChatModel that stands in for a real model: it
// plays its steps in order, each given the conversation so far. It is the
// one fake of these tests (no model runs here), and it records what the
// agent sent it so the tests can check what a model would have read.
type scripted struct {
	mu     sync.Mutex
	steps  []func(in []*schema.Message) *schema.Message
	inputs [][]*schema.Message
	tools  []*schema.ToolInfo
}

func (s *scripted) Generate(_ context.Context, in []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inputs = append(s.inputs, in)
	if len(s.steps) == 0 {
		return nil, fmt.Errorf("scripted model: no step left")
	}
	step := s.steps[0]
	s.steps = s.steps[1:]
	return step(in), nil
}

func (s *scripted) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	m, err := s.Generate(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{m}), nil
}

func (s *scripted) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tools = tools
	return s, nil
}

// lastInput is the last conversation the model was given.
func (s *scripted) lastInput() []*schema.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.inputs) == 0 {
		return nil
	}
	return s.inputs[len(s.inputs)-1]
}

// call is a step asking for one tool call.
func call(name, args string) func([]*schema.Message) *schema.Message {
	return func(in []*schema.Message) *schema.Message {
		return schema.AssistantMessage("", []schema.ToolCall{{
			ID: fmt.Sprintf("call-%d", len(in)), Type: "function",
			Function: schema.FunctionCall{Name: name, Arguments: args},
		}})
	}
}

// answer is a step answering with what the last tool returned.
func answer(prefix string) func([]*schema.Message) *schema.Message {
	return func(in []*schema.Message) *schema.Message {
		last := ""
		for _, m := range in {
			if m.Role == schema.Tool {
				last = m.Content
			}
		}
		return schema.AssistantMessage(prefix+last, nil)
	}
}

func say(text string) func([]*schema.Message) *schema.Message {
	return func([]*schema.Message) *schema.Message { return schema.AssistantMessage(text, nil) }
}

// outcome is what a run ended with.
type outcome struct {
	last      *schema.Message
	err       error
	interrupt *adk.InterruptInfo
}

func drain(t testing.TB, iter *adk.AsyncIterator[*adk.AgentEvent]) outcome {
	t.Helper()
	var o outcome
	for {
		ev, ok := iter.Next()
		if !ok {
			return o
		}
		if ev.Err != nil {
			o.err = ev.Err
		}
		if ev.Action != nil && ev.Action.Interrupted != nil {
			o.interrupt = ev.Action.Interrupted
		}
		if ev.Output != nil && ev.Output.MessageOutput != nil {
			m, err := ev.Output.MessageOutput.GetMessage()
			if err == nil && m.Role == schema.Assistant {
				o.last = m
			}
		}
	}
}

// memStore is an in-memory checkpoint store, as the Eino examples use.
type memStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *memStore) Get(_ context.Context, id string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[id]
	return b, ok, nil
}

func (s *memStore) Set(_ context.Context, id string, b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string][]byte{}
	}
	s.m[id] = b
	return nil
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func composeTools(tools []tool.BaseTool) compose.ToolsNodeConfig {
	return compose.ToolsNodeConfig{Tools: tools}
}
