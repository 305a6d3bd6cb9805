package adk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/model"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/toolutils"
	"google.golang.org/genai"

	"github.com/guardian-agent/guardian-go/internal/resulttext"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// Tool is an MCP tool as an ADK tool (tool.Tool, with the Declaration, Run
// and ProcessRequest methods ADK's function tools have). Its declaration is
// the tool as its server sent it: the name, the description, and the input
// schema as ParametersJsonSchema, a json.RawMessage holding the exact bytes
// the server sent. Run calls it through mcpservers.Tool.Call. Make one with
// NewTool or NewTools.
//
// What Run returns, the function response the model reads:
//
//   - "output": the result as text: the text blocks, an embedded text
//     resource's text, a line naming each block text cannot carry
//     ("[image (image/png)]"), and the structured content as JSON when no
//     block carries text (Text);
//   - "structuredContent": the structured content, when the server sent
//     one, as JSON values;
//   - "content": every block as MCP sent it (type, text, mimeType, base64
//     data, resource, link), when any block is not text, so that nothing
//     is dropped;
//   - a failure the server reports (isError) is "error" in place of
//     "output": an answer the model reads and can recover from, not a Go
//     error.
//
// A failure to reach the server or to speak MCP is a Go error, which ADK
// passes to the agent's OnToolErrorCallbacks and then shows the model as
// {"error": ...}. A call whose server asks the user for input pauses the
// run with ADK's tool confirmation (see Confirmation).
//
// Inside an agent made by New, each call's context carries the agent's
// definition (definition.Bind), and mcpservers.Tool.Call vets the tool
// against it before anything is sent.
type Tool struct {
	mcp    *mcpservers.Tool
	schema json.RawMessage
	name   string
	desc   string
}

// NewTool adapts an MCP tool.
func NewTool(t *mcpservers.Tool) (*Tool, error) {
	if t == nil {
		return nil, errors.New("guardian-go adk: NewTool: a nil *mcpservers.Tool")
	}
	return &Tool{mcp: t, schema: t.InputSchema(), name: t.Name(), desc: t.Description()}, nil
}

// NewTools adapts MCP tools, in order, as llmagent.Config's Tools takes
// them.
func NewTools(ts []*mcpservers.Tool) ([]tool.Tool, error) {
	out := make([]tool.Tool, len(ts))
	var errs []error
	for i, t := range ts {
		a, err := NewTool(t)
		if err != nil {
			errs = append(errs, fmt.Errorf("tool %d: %w", i, err))
			continue
		}
		out[i] = a
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// MCP returns the MCP tool t calls.
func (t *Tool) MCP() *mcpservers.Tool { return t.mcp }

// Name is the tool's name, as the model calls it.
func (t *Tool) Name() string { return t.name }

// Description is the description the server gave.
func (t *Tool) Description() string { return t.desc }

// IsLongRunning is false: a call answers when the server does.
func (t *Tool) IsLongRunning() bool { return false }

// Declaration returns the function declaration the model is sent: the
// tool's name, its description, and its input schema as
// ParametersJsonSchema, a json.RawMessage of the bytes the server sent
// (anyOf, $defs, a root description and every other keyword kept; no
// round trip through a schema type). Each call returns a new declaration.
//
// The tool's output schema is not declared as ResponseJsonSchema: the
// response the model reads wraps the structured content (see Tool).
func (t *Tool) Declaration() *genai.FunctionDeclaration {
	return &genai.FunctionDeclaration{
		Name:                 t.name,
		Description:          t.desc,
		ParametersJsonSchema: append(json.RawMessage(nil), t.schema...),
	}
}

// ProcessRequest adds the tool's declaration to the model request, as
// ADK's function tools do.
func (t *Tool) ProcessRequest(_ agent.Context, req *model.LLMRequest) error {
	return toolutils.PackTool(req, t)
}

// Run calls the tool with the model's arguments (see Tool for what it
// returns).
func (t *Tool) Run(ctx agent.Context, args any) (map[string]any, error) {
	a, err := arguments(args)
	if err != nil {
		// The model wrote them: tell it, send nothing.
		return map[string]any{"error": err.Error() + "; nothing was sent to tool " + t.name + "."}, nil
	}
	res, err := t.call(ctx, a)
	if err != nil {
		return nil, err
	}
	return Response(res), nil
}

// arguments are the model's arguments as a JSON object's members.
func arguments(args any) (map[string]any, error) {
	switch a := args.(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		if a == nil {
			return map[string]any{}, nil
		}
		return a, nil
	}
	return nil, fmt.Errorf("the arguments are not a JSON object (%T)", args)
}

// Response is the function response the model reads for an MCP tool
// result (see Tool): "output" (or "error", for a result the server marked
// isError) with Text(r), "structuredContent" when the server sent one, and
// "content" with every block as sent when any block is not text.
func Response(r *mcpservers.Result) map[string]any {
	m := map[string]any{}
	if r == nil {
		m["output"] = ""
		return m
	}
	if r.IsError {
		m["error"] = Text(r)
	} else {
		m["output"] = Text(r)
	}
	if len(r.StructuredContent) > 0 {
		if v, ok := jsonValue(r.StructuredContent); ok {
			m["structuredContent"] = v
		}
	}
	allText := true
	for _, c := range r.Content {
		if _, ok := c.(*mcpservers.TextContent); !ok {
			allText = false
			break
		}
	}
	if !allText {
		blocks := make([]any, 0, len(r.Content))
		for _, c := range r.Content {
			blocks = append(blocks, block(c))
		}
		m["content"] = blocks
	}
	return m
}

// block is a content block as MCP sends it, as JSON values.
func block(c mcpservers.Content) map[string]any {
	b := map[string]any{"type": c.Type()}
	put := func(k, v string) {
		if v != "" {
			b[k] = v
		}
	}
	switch c := c.(type) {
	case *mcpservers.TextContent:
		b["text"] = c.Text
	case *mcpservers.ImageContent:
		put("mimeType", c.MIMEType)
		b["data"] = c.Data
	case *mcpservers.AudioContent:
		put("mimeType", c.MIMEType)
		b["data"] = c.Data
	case *mcpservers.EmbeddedResource:
		r := map[string]any{"uri": c.Resource.URI}
		if c.Resource.MIMEType != "" {
			r["mimeType"] = c.Resource.MIMEType
		}
		if c.Resource.Blob != "" {
			r["blob"] = c.Resource.Blob
		} else {
			r["text"] = c.Resource.Text
		}
		b["resource"] = r
	case *mcpservers.ResourceLink:
		b["uri"] = c.URI
		put("name", c.Name)
		put("title", c.Title)
		put("description", c.Description)
		put("mimeType", c.MIMEType)
		if c.Size != nil {
			b["size"] = *c.Size
		}
	case *mcpservers.UnknownContent:
		if v, ok := jsonValue(c.Raw); ok {
			if o, ok := v.(map[string]any); ok {
				return o
			}
		}
	}
	return b
}

// jsonValue decodes raw JSON, keeping numbers as written; false when raw
// is not one JSON value (a decoder alone takes "0}" for 0).
func jsonValue(raw json.RawMessage) (any, bool) {
	if !json.Valid(raw) {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, false
	}
	return v, true
}

// Text renders a tool result as the text a model reads: the text blocks;
// an embedded text resource's text; a line naming each block text cannot
// carry (images, audio, binary resources, links); the structured content as
// JSON when no block carries text. It is the "output" (or "error") of the
// function response; the Eino module renders results alike.
func Text(r *mcpservers.Result) string { return resulttext.Text(r) }
