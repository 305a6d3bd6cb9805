package mcpservers

import (
	"encoding/json"
	"strings"
)

// Result is what a tool call returned.
//
// IsError marks a failure the tool reported itself (isError: true): the
// content says what went wrong, for the agent to read and recover from. A
// failure to reach the server or to speak MCP is a Go error instead.
type Result struct {
	// Content holds the content blocks in the order the server sent them.
	// A block of a type this package does not know is an *UnknownContent,
	// and never loses the blocks around it.
	Content []Content
	// StructuredContent is the structured result exactly as the server sent
	// it, or nil when it sent none.
	StructuredContent json.RawMessage
	IsError           bool
	// Meta is the result's _meta object as sent, or nil.
	Meta json.RawMessage
}

// Text returns the text of the result's text blocks, joined by newlines.
func (r *Result) Text() string {
	if r == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range r.Content {
		if t, ok := c.(*TextContent); ok {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// Content is one content block: *TextContent, *ImageContent,
// *AudioContent, *ResourceLink, *EmbeddedResource or *UnknownContent.
type Content interface {
	// Type is the block's type as sent: "text", "image", "audio",
	// "resource_link", "resource", or another for *UnknownContent.
	Type() string
	isContent()
}

// TextContent is a text block.
type TextContent struct {
	Text string
	// Annotations and Meta are the block's annotations and _meta as sent.
	Annotations json.RawMessage
	Meta        json.RawMessage
}

// ImageContent is an image block.
type ImageContent struct {
	Data        string // base64, as sent
	MIMEType    string
	Annotations json.RawMessage
	Meta        json.RawMessage
}

// AudioContent is an audio block.
type AudioContent struct {
	Data        string // base64, as sent
	MIMEType    string
	Annotations json.RawMessage
	Meta        json.RawMessage
}

// ResourceLink is a link to a resource the server can read.
type ResourceLink struct {
	URI         string
	Name        string
	Title       string
	Description string
	MIMEType    string
	Size        *int64
	Annotations json.RawMessage
	Meta        json.RawMessage
}

// EmbeddedResource is a resource's contents, embedded in the result.
type EmbeddedResource struct {
	Resource    ResourceContents
	Annotations json.RawMessage
	Meta        json.RawMessage
}

// ResourceContents is the contents of a resource: Text, or Blob for binary.
type ResourceContents struct {
	URI      string
	MIMEType string
	Text     string
	Blob     string // base64, as sent
	Meta     json.RawMessage
}

// UnknownContent is a block this package does not know, or one it could
// not read: Raw holds it exactly as sent.
type UnknownContent struct {
	ContentType string
	Raw         json.RawMessage
}

// Type returns "text".
func (*TextContent) Type() string { return "text" }

// Type returns "image".
func (*ImageContent) Type() string { return "image" }

// Type returns "audio".
func (*AudioContent) Type() string { return "audio" }

// Type returns "resource_link".
func (*ResourceLink) Type() string { return "resource_link" }

// Type returns "resource".
func (*EmbeddedResource) Type() string { return "resource" }

// Type returns the type the server gave the block.
func (c *UnknownContent) Type() string {
	if c == nil {
		return ""
	}
	return c.ContentType
}

func (*TextContent) isContent()      {}
func (*ImageContent) isContent()     {}
func (*AudioContent) isContent()     {}
func (*ResourceLink) isContent()     {}
func (*EmbeddedResource) isContent() {}
func (*UnknownContent) isContent()   {}
