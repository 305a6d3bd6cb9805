package adk_test

import (
	"encoding/json"
	"testing"

	"google.golang.org/adk/v2/session"
	"google.golang.org/adk/v2/tool/toolconfirmation"
	"google.golang.org/genai"

	guardianadk "github.com/guardian-agent/guardian-go/adk"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// FuzzResponse: whatever content a server returns, the function response
// the model reads is JSON, says "error" exactly when the server marked the
// result isError, keeps every block when any is not text, and carries the
// structured content exactly when it is JSON.
func FuzzResponse(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5}, "text", false, []byte(`{"a":1}`))
	f.Add([]byte{0}, "", true, []byte(`not json`))
	f.Add([]byte{}, "x", false, []byte(nil))
	f.Add([]byte{5, 5}, "\xff\x00", true, []byte(`[1,2]`))
	f.Fuzz(func(t *testing.T, kinds []byte, text string, isError bool, structured []byte) {
		r := &mcpservers.Result{IsError: isError, StructuredContent: structured}
		allText := true
		for _, k := range kinds {
			var c mcpservers.Content
			switch k % 7 {
			case 0:
				c = &mcpservers.TextContent{Text: text}
			case 1:
				c = &mcpservers.ImageContent{Data: text, MIMEType: text}
			case 2:
				c = &mcpservers.AudioContent{Data: text}
			case 3:
				c = &mcpservers.EmbeddedResource{Resource: mcpservers.ResourceContents{URI: text, Text: text}}
			case 4:
				c = &mcpservers.EmbeddedResource{Resource: mcpservers.ResourceContents{URI: text, Blob: text}}
			case 5:
				c = &mcpservers.ResourceLink{URI: text, Name: text}
			case 6:
				c = &mcpservers.UnknownContent{ContentType: text, Raw: structured}
			}
			if _, ok := c.(*mcpservers.TextContent); !ok {
				allText = false
			}
			r.Content = append(r.Content, c)
		}
		m := guardianadk.Response(r)
		if _, err := json.Marshal(m); err != nil {
			t.Fatalf("the response does not marshal: %v", err)
		}
		_, hasErr := m["error"]
		_, hasOut := m["output"]
		if hasErr != isError || hasOut == isError {
			t.Fatalf("isError %v, response keys %v", isError, m)
		}
		blocks, hasBlocks := m["content"].([]any)
		if hasBlocks == allText || (hasBlocks && len(blocks) != len(r.Content)) {
			t.Fatalf("%d blocks (all text: %v), response content %v", len(r.Content), allText, m["content"])
		}
		_, hasStructured := m["structuredContent"]
		if hasStructured != (len(structured) > 0 && json.Valid(structured)) {
			t.Fatalf("structured %q, response %v", structured, m["structuredContent"])
		}
	})
}

// FuzzPending: whatever an adk_request_confirmation call's arguments hold
// (an application, or a session service that stores events as JSON, gives
// them back), Pending reads a guardian-go Request only from a payload of a
// known kind, and never panics; an answer it makes is a function response
// to that call.
func FuzzPending(f *testing.F) {
	f.Add([]byte(`{"payload":{"kind":"approval","tool":"delete_page","server":"docs"}}`))
	f.Add([]byte(`{"payload":{"kind":"elicitation","requests":[{"Key":"date"}]}}`))
	f.Add([]byte(`{"payload":{"kind":"other"}}`))
	f.Add([]byte(`{"payload":null}`))
	f.Add([]byte(`[1,2,3]`))
	f.Fuzz(func(t *testing.T, arg []byte) {
		var v any
		if json.Unmarshal(arg, &v) != nil {
			return
		}
		ev := &session.Event{}
		ev.Content = &genai.Content{Parts: []*genai.Part{{FunctionCall: &genai.FunctionCall{ID: "c1", Name: toolconfirmation.FunctionCallName,
			Args: map[string]any{"toolConfirmation": v}}}}}
		for _, c := range guardianadk.Pending(ev) {
			if k := c.Request.Kind; k != guardianadk.KindApproval && k != guardianadk.KindElicitation {
				t.Fatalf("a request of kind %q", k)
			}
			for _, p := range []*genai.Part{c.Approve(), c.Reject("no"), c.Answer(nil)} {
				if p.FunctionResponse == nil || p.FunctionResponse.ID != "c1" || p.FunctionResponse.Name != toolconfirmation.FunctionCallName {
					t.Fatalf("answer %+v", p)
				}
			}
		}
	})
}
