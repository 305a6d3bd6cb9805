// Package resulttext renders an MCP tool result as the text a model reads,
// for the agent framework adapters (the eino and adk modules, which import
// it as packages under this module's path): one rendering, so that a model
// reads a result alike in either framework.
package resulttext

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

// Text renders r: the text blocks; an embedded text resource's text; a
// line naming each block text cannot carry (images, audio, binary
// resources, links, blocks of unknown types); the structured content as
// compact JSON when no block carries text. A result the server marked
// isError with nothing to say says so. Lines are joined by newlines.
func Text(r *mcpservers.Result) string {
	if r == nil {
		return ""
	}
	var lines []string
	hasText := false
	for _, c := range r.Content {
		switch c := c.(type) {
		case *mcpservers.TextContent:
			lines = append(lines, c.Text)
			hasText = true
		case *mcpservers.EmbeddedResource:
			if c.Resource.Blob == "" {
				lines = append(lines, c.Resource.Text)
				hasText = true
			} else {
				lines = append(lines, fmt.Sprintf("[resource %s (%s), binary]", c.Resource.URI, mimeOr(c.Resource.MIMEType)))
			}
		case *mcpservers.ImageContent:
			lines = append(lines, fmt.Sprintf("[image (%s)]", mimeOr(c.MIMEType)))
		case *mcpservers.AudioContent:
			lines = append(lines, fmt.Sprintf("[audio (%s)]", mimeOr(c.MIMEType)))
		case *mcpservers.ResourceLink:
			lines = append(lines, fmt.Sprintf("[resource link %s]", c.URI))
		default:
			lines = append(lines, fmt.Sprintf("[%s content]", c.Type()))
		}
	}
	if !hasText && len(r.StructuredContent) > 0 {
		var b bytes.Buffer
		if json.Compact(&b, r.StructuredContent) == nil {
			lines = append(lines, b.String())
		}
	}
	text := strings.Join(lines, "\n")
	if r.IsError && text == "" {
		text = "the tool reported an error and said nothing more"
	}
	return text
}

func mimeOr(m string) string {
	if m == "" {
		return "no MIME type"
	}
	return m
}
