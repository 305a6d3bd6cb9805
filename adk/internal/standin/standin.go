// Package standin is a model that stands in for a real one in the tests of
// the chat-model rule: a type of its own package, so that a test can name
// the package as a chat-model package (Options.ChatModelPackages) as a
// user names theirs. It answers every request with its Reply.
package standin

import (
	"context"
	"iter"

	"google.golang.org/adk/v2/model"
	"google.golang.org/genai"
)

// Model is an ADK model.LLM that answers with Reply.
type Model struct {
	Reply string
}

// Name is the model's name.
func (m *Model) Name() string { return "standin" }

// GenerateContent answers with m.Reply.
func (m *Model) GenerateContent(context.Context, *model.LLMRequest, bool) iter.Seq2[*model.LLMResponse, error] {
	return func(yield func(*model.LLMResponse, error) bool) {
		yield(&model.LLMResponse{Content: genai.NewContentFromText(m.Reply, genai.RoleModel), TurnComplete: true}, nil)
	}
}
