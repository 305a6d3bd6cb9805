package resulttext

import (
	"encoding/json"
	"testing"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

func TestText(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    *mcpservers.Result
		want string
	}{
		{"nil", nil, ""},
		{"text blocks", &mcpservers.Result{Content: []mcpservers.Content{&mcpservers.TextContent{Text: "a"}, &mcpservers.TextContent{Text: "b"}}}, "a\nb"},
		{"what text cannot carry is named", &mcpservers.Result{Content: []mcpservers.Content{
			&mcpservers.ImageContent{MIMEType: "image/png"}, &mcpservers.AudioContent{},
			&mcpservers.EmbeddedResource{Resource: mcpservers.ResourceContents{URI: "file:///a", Blob: "AA"}},
			&mcpservers.ResourceLink{URI: "file:///b"}, &mcpservers.UnknownContent{ContentType: "video"},
		}}, "[image (image/png)]\n[audio (no MIME type)]\n[resource file:///a (no MIME type), binary]\n[resource link file:///b]\n[video content]"},
		{"a text resource is text", &mcpservers.Result{Content: []mcpservers.Content{&mcpservers.EmbeddedResource{Resource: mcpservers.ResourceContents{URI: "file:///a", Text: "hi"}}}}, "hi"},
		{"structured content when no text", &mcpservers.Result{StructuredContent: json.RawMessage(`{ "a" : 1 }`)}, `{"a":1}`},
		{"structured content beside text", &mcpservers.Result{Content: []mcpservers.Content{&mcpservers.TextContent{Text: "t"}}, StructuredContent: json.RawMessage(`{"a":1}`)}, "t"},
		{"an error with nothing to say", &mcpservers.Result{IsError: true}, "the tool reported an error and said nothing more"},
	} {
		if got := Text(tc.r); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
