package main

import (
	"context"
	"fmt"
	"iter"

	"google.golang.org/adk/v2/model"
	"google.golang.org/genai"
)

// scriptedModel STANDS IN FOR A REAL MODEL, so that the example runs with
// no network and no key. It is an ADK model.LLM that does what Gemini
// would here: asked anything, it calls search_docs for the release notes;
// given the tool's answer, it answers with it. Replace it with a real
// model to have a real conversation (see docs/adk.md).
type scriptedModel struct{}

func newScriptedModel() model.LLM { return scriptedModel{} }

// Name is the model's name, which the definition records.
func (scriptedModel) Name() string { return "scripted-stand-in" }

// GenerateContent calls search_docs, then answers with what it returned.
func (scriptedModel) GenerateContent(_ context.Context, req *model.LLMRequest, _ bool) iter.Seq2[*model.LLMResponse, error] {
	return func(yield func(*model.LLMResponse, error) bool) {
		last := req.Contents[len(req.Contents)-1]
		for _, p := range last.Parts {
			if r := p.FunctionResponse; r != nil && r.Name == "search_docs" {
				text := fmt.Sprint(r.Response["output"])
				yield(&model.LLMResponse{Content: genai.NewContentFromText("Here is what the docs say about the release notes: "+text, genai.RoleModel), TurnComplete: true}, nil)
				return
			}
		}
		if _, offered := req.Tools["search_docs"]; !offered {
			yield(nil, fmt.Errorf("scripted model: search_docs was not offered"))
			return
		}
		call := &genai.FunctionCall{ID: "call-1", Name: "search_docs", Args: map[string]any{"query": "release notes"}}
		yield(&model.LLMResponse{Content: &genai.Content{Role: genai.RoleModel, Parts: []*genai.Part{{FunctionCall: call}}}, TurnComplete: true}, nil)
	}
}
