package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
)

// scriptedModel STANDS IN FOR A REAL MODEL, so that the example runs with
// no network and no key. It is an Eino ToolCallingChatModel that does what
// a model would here: asked anything, it calls search_docs for the release
// notes; given the tool's answer, it answers with it. Replace it with a
// real model to have a real conversation (see docs/eino.md).
type scriptedModel struct {
	mu    sync.Mutex
	tools []*schema.ToolInfo
}

func newScriptedModel() model.ToolCallingChatModel { return &scriptedModel{} }

// Generate calls search_docs, then answers with what it returned.
func (m *scriptedModel) Generate(_ context.Context, in []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	last := in[len(in)-1]
	if last.Role == schema.Tool {
		return schema.AssistantMessage("Here is what the docs say about the release notes: "+last.Content, nil), nil
	}
	m.mu.Lock()
	offered := len(m.tools) > 0 && m.tools[0].Name == "search_docs"
	m.mu.Unlock()
	if !offered {
		return nil, fmt.Errorf("scripted model: search_docs was not offered")
	}
	return schema.AssistantMessage("", []schema.ToolCall{{
		ID: "call-1", Type: "function",
		Function: schema.FunctionCall{Name: "search_docs", Arguments: `{"query":"release notes"}`},
	}}), nil
}

// Stream gives Generate's message as a stream of one.
func (m *scriptedModel) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
}

// WithTools returns the model with tools bound, as the agent asks.
func (m *scriptedModel) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return &scriptedModel{tools: tools}, nil
}

func toolsNode(tools []tool.BaseTool) compose.ToolsNodeConfig {
	return compose.ToolsNodeConfig{Tools: tools}
}
