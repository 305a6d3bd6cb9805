// Package standin is a chat model that stands in for a real one in the
// tests of the chat-model rule: a type of its own package, so that a test
// can name the package as a chat-model package (Options.ChatModelPackages)
// as a user names theirs. It answers every request with its Reply.
package standin

import (
	"context"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// Model is an Eino ToolCallingChatModel that answers with Reply.
type Model struct {
	Reply string
}

// Generate answers with m.Reply.
func (m *Model) Generate(context.Context, []*schema.Message, ...model.Option) (*schema.Message, error) {
	return schema.AssistantMessage(m.Reply, nil), nil
}

// Stream answers with m.Reply, as a stream of one message.
func (m *Model) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
}

// WithTools returns m: it calls no tools.
func (m *Model) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) { return m, nil }
