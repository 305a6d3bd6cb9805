package mcpservers_test

// Comparing what mcpservers loaded and returned with what a server sent.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

// wireTool is a tool of a tools/list result, its members as sent.
type wireTool struct {
	Name         string          `json:"name"`
	Title        *string         `json:"title"`
	Description  *string         `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  json.RawMessage `json:"annotations"`
	Meta         json.RawMessage `json:"_meta"`
}

// wireAnnotations are a tool's annotations as sent; a nil hint was not
// given.
type wireAnnotations struct {
	Title           string `json:"title"`
	ReadOnlyHint    *bool  `json:"readOnlyHint"`
	DestructiveHint *bool  `json:"destructiveHint"`
	IdempotentHint  *bool  `json:"idempotentHint"`
	OpenWorldHint   *bool  `json:"openWorldHint"`
}

func toolNames(tools []*mcpservers.Tool) []string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name()
	}
	return names
}

func wireToolNames(t testing.TB, wire []json.RawMessage) []string {
	t.Helper()
	names := make([]string, len(wire))
	for i, w := range wire {
		var wt wireTool
		if err := json.Unmarshal(w, &wt); err != nil {
			t.Fatalf("tool %d on the wire: %v", i, err)
		}
		names[i] = wt.Name
	}
	return names
}

// sameJSON reports whether two encodings hold the same JSON value; both
// empty counts as the same (neither was sent).
func sameJSON(a, b []byte) bool { return canonicalJSON(a) == canonicalJSON(b) }

// assertToolsMatch checks that the tools are exactly the wire tools, in
// order: name, title, description, input and output schema, annotations
// (raw and decoded) and _meta, compared as canonical JSON, and, when exact
// is set, byte for byte as well (the tools and wire come from one session).
func assertToolsMatch(t testing.TB, tools []*mcpservers.Tool, wire []json.RawMessage, exact bool) {
	t.Helper()
	got, want := toolNames(tools), wireToolNames(t, wire)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("tool names (in order)\n got: %q\nwant: %q (as the server sent them)", got, want)
	}
	for i, tool := range tools {
		var w wireTool
		if err := json.Unmarshal(wire[i], &w); err != nil {
			t.Fatal(err)
		}
		name := w.Name
		check := func(field string, got, want []byte) {
			t.Helper()
			if !sameJSON(got, want) {
				t.Errorf("tool %q: %s\n got: %s\nwant: %s", name, field, canonicalJSON(got), canonicalJSON(want))
				return
			}
			if exact && !bytes.Equal(got, want) {
				t.Errorf("tool %q: %s is the same JSON value but not the bytes the server sent\n got: %s\nwant: %s", name, field, got, want)
			}
		}
		if tool.MCPName() != w.Name {
			t.Errorf("tool %q: MCPName() = %q", name, tool.MCPName())
		}
		if got, want := tool.Title(), deref(w.Title); got != want {
			t.Errorf("tool %q: Title() = %q, want %q", name, got, want)
		}
		if got, want := tool.Description(), deref(w.Description); got != want {
			t.Errorf("tool %q: Description() = %q, want %q", name, got, want)
		}
		check("InputSchema()", tool.InputSchema(), w.InputSchema)
		check("OutputSchema()", tool.OutputSchema(), w.OutputSchema)
		check("Meta()", tool.Meta(), w.Meta)
		check("Raw()", tool.Raw(), wire[i])

		rec := tool.MCPRecord()
		if rec.Title != deref(w.Title) {
			t.Errorf("tool %q: MCPRecord().Title = %q, want %q", name, rec.Title, deref(w.Title))
		}
		check("MCPRecord().OutputSchema", rec.OutputSchema, w.OutputSchema)
		check("MCPRecord().Annotations", rec.Annotations, w.Annotations)

		var wa wireAnnotations
		if len(w.Annotations) > 0 {
			if err := json.Unmarshal(w.Annotations, &wa); err != nil {
				t.Fatalf("tool %q: annotations on the wire: %v", name, err)
			}
		}
		a := tool.Annotations()
		if a.Title != wa.Title {
			t.Errorf("tool %q: Annotations().Title = %q, want %q", name, a.Title, wa.Title)
		}
		for _, h := range []struct {
			hint      string
			got, want *bool
		}{
			{"readOnlyHint", a.ReadOnlyHint, wa.ReadOnlyHint},
			{"destructiveHint", a.DestructiveHint, wa.DestructiveHint},
			{"idempotentHint", a.IdempotentHint, wa.IdempotentHint},
			{"openWorldHint", a.OpenWorldHint, wa.OpenWorldHint},
		} {
			if fmtHint(h.got) != fmtHint(h.want) {
				t.Errorf("tool %q: Annotations() %s = %s, want %s", name, h.hint, fmtHint(h.got), fmtHint(h.want))
			}
		}
		// The safe default: only a server's explicit word makes a tool
		// not destructive.
		wantMay := !(wa.ReadOnlyHint != nil && *wa.ReadOnlyHint) && !(wa.DestructiveHint != nil && !*wa.DestructiveHint)
		if a.MayBeDestructive() != wantMay {
			t.Errorf("tool %q: MayBeDestructive() = %v, want %v", name, a.MayBeDestructive(), wantMay)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func fmtHint(p *bool) string {
	if p == nil {
		return "not given"
	}
	return fmt.Sprint(*p)
}

// contentJSON turns a content block back into the MCP JSON it stands for.
func contentJSON(c mcpservers.Content) any {
	m := map[string]any{"type": c.Type()}
	set := func(k, v string) {
		if v != "" {
			m[k] = v
		}
	}
	raw := func(k string, v json.RawMessage) {
		if len(v) > 0 {
			m[k] = v
		}
	}
	switch c := c.(type) {
	case *mcpservers.TextContent:
		m["text"] = c.Text
		raw("annotations", c.Annotations)
		raw("_meta", c.Meta)
	case *mcpservers.ImageContent:
		m["data"] = c.Data
		m["mimeType"] = c.MIMEType
		raw("annotations", c.Annotations)
		raw("_meta", c.Meta)
	case *mcpservers.AudioContent:
		m["data"] = c.Data
		m["mimeType"] = c.MIMEType
		raw("annotations", c.Annotations)
		raw("_meta", c.Meta)
	case *mcpservers.ResourceLink:
		m["uri"] = c.URI
		m["name"] = c.Name
		set("title", c.Title)
		set("description", c.Description)
		set("mimeType", c.MIMEType)
		if c.Size != nil {
			m["size"] = *c.Size
		}
		raw("annotations", c.Annotations)
		raw("_meta", c.Meta)
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
		if len(c.Resource.Meta) > 0 {
			r["_meta"] = c.Resource.Meta
		}
		m["resource"] = r
		raw("annotations", c.Annotations)
		raw("_meta", c.Meta)
	case *mcpservers.UnknownContent:
		return c.Raw
	default:
		return fmt.Sprintf("<content of Go type %T>", c)
	}
	return m
}

// resultJSON is a Result as the canonical JSON of the MCP result it stands
// for: content, structuredContent, isError (when set) and _meta.
func resultJSON(t testing.TB, r *mcpservers.Result) string {
	t.Helper()
	m := map[string]any{}
	content := make([]any, len(r.Content))
	for i, c := range r.Content {
		content[i] = contentJSON(c)
	}
	m["content"] = content
	if len(r.StructuredContent) > 0 {
		m["structuredContent"] = r.StructuredContent
	}
	if r.IsError {
		m["isError"] = true
	}
	if len(r.Meta) > 0 {
		m["_meta"] = r.Meta
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatalf("encoding the result: %v", err)
	}
	return canonicalJSON(b)
}

// wireResultJSON is a tools/call result as sent, cut to the members a
// Result holds, as canonical JSON.
func wireResultJSON(t testing.TB, raw json.RawMessage) string {
	t.Helper()
	var w struct {
		Content           []json.RawMessage `json:"content"`
		StructuredContent json.RawMessage   `json:"structuredContent"`
		IsError           bool              `json:"isError"`
		Meta              json.RawMessage   `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		t.Fatalf("tools/call result on the wire: %v", err)
	}
	m := map[string]any{"content": w.Content}
	if w.Content == nil {
		m["content"] = []any{}
	}
	if len(w.StructuredContent) > 0 && string(w.StructuredContent) != "null" {
		m["structuredContent"] = w.StructuredContent
	}
	if w.IsError {
		m["isError"] = true
	}
	if len(w.Meta) > 0 {
		m["_meta"] = w.Meta
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return canonicalJSON(b)
}

// assertResultMatchesWire checks that a call's Result holds exactly what
// the server answered the last tools/call of that tool with.
func assertResultMatchesWire(t testing.TB, log *wireLog, tool string, r *mcpservers.Result) {
	t.Helper()
	call := log.lastCall(t, tool)
	if call.Resp == nil {
		t.Fatalf("tools/call %q: no response on the wire", tool)
	}
	if len(call.Resp.Error) > 0 {
		t.Fatalf("tools/call %q: the server answered with an error: %s", tool, call.Resp.Error)
	}
	if got, want := resultJSON(t, r), wireResultJSON(t, call.Resp.Result); got != want {
		t.Errorf("tools/call %q: the Result is not what the server sent\n got: %s\nwant: %s", tool, got, want)
	}
}
