package eino

import (
	"context"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

// EnhancedTool is an MCP tool as an Eino tool.EnhancedInvokableTool, whose
// answer is multimodal: text, images, audio and files reach the model as
// parts of the tool message (schema.ToolResult), where the chat model
// client supports them. Make one with Tool.Enhanced; it is recorded and
// vetted as its Tool is.
type EnhancedTool struct {
	t *Tool
}

// Enhanced returns t as an EnhancedInvokableTool. Give the agent one or
// the other: both have the tool's name.
func (t *Tool) Enhanced() *EnhancedTool { return &EnhancedTool{t: t} }

// Info is the Tool's Info.
func (e *EnhancedTool) Info(ctx context.Context) (*schema.ToolInfo, error) { return e.t.Info(ctx) }

// InvokableRun calls the tool as Tool.InvokableRun does and returns its
// answer as parts: each text block, and text resource, a text part; each
// image an image part, audio an audio part, a binary resource a file part,
// with the base64 data and MIME type as sent; a resource link a line of
// text naming it; the structured content as JSON text when no block
// carries text. An isError answer starts with the text part "Error:".
func (e *EnhancedTool) InvokableRun(ctx context.Context, arg *schema.ToolArgument, _ ...tool.Option) (*schema.ToolResult, error) {
	text := ""
	if arg != nil {
		text = arg.Text
	}
	res, err := e.t.run(ctx, text)
	if err != nil {
		return nil, err
	}
	if res.mcp == nil {
		return textResult(res.text), nil
	}
	return parts(res.mcp), nil
}

func parts(r *mcpservers.Result) *schema.ToolResult {
	out := &schema.ToolResult{}
	addText := func(s string) {
		out.Parts = append(out.Parts, schema.ToolOutputPart{Type: schema.ToolPartTypeText, Text: s})
	}
	media := func(data, mime string) schema.MessagePartCommon {
		d := data
		return schema.MessagePartCommon{Base64Data: &d, MIMEType: mime}
	}
	if r.IsError {
		addText("Error:")
	}
	hasText := false
	for _, c := range r.Content {
		switch c := c.(type) {
		case *mcpservers.TextContent:
			addText(c.Text)
			hasText = true
		case *mcpservers.ImageContent:
			out.Parts = append(out.Parts, schema.ToolOutputPart{Type: schema.ToolPartTypeImage,
				Image: &schema.ToolOutputImage{MessagePartCommon: media(c.Data, c.MIMEType)}})
		case *mcpservers.AudioContent:
			out.Parts = append(out.Parts, schema.ToolOutputPart{Type: schema.ToolPartTypeAudio,
				Audio: &schema.ToolOutputAudio{MessagePartCommon: media(c.Data, c.MIMEType)}})
		case *mcpservers.EmbeddedResource:
			if c.Resource.Blob == "" {
				addText(c.Resource.Text)
				hasText = true
				continue
			}
			out.Parts = append(out.Parts, schema.ToolOutputPart{Type: schema.ToolPartTypeFile,
				File: &schema.ToolOutputFile{MessagePartCommon: media(c.Resource.Blob, c.Resource.MIMEType)}})
		default:
			// A link, or a block of a type this package does not know:
			// named in text, as Text names it.
			addText(Text(&mcpservers.Result{Content: []mcpservers.Content{c}}))
		}
	}
	if !hasText && len(r.StructuredContent) > 0 {
		addText(Text(&mcpservers.Result{StructuredContent: r.StructuredContent}))
	}
	return out
}
