package mcpservers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Decoding of what servers send. Objects are read key by key from
// map[string]json.RawMessage, so that keys match exactly (encoding/json
// matches struct fields case-insensitively) and every member keeps the bytes
// the server sent.

// object is a JSON object's members, as sent.
type object map[string]json.RawMessage

func decodeObject(raw json.RawMessage) (object, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, errNotObject
	}
	var o object
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, errMalformed
	}
	return o, nil
}

var (
	errNotObject = errors.New("not a JSON object")
	errMalformed = errors.New("malformed JSON")
)

// present reports whether key is there and not null.
func (o object) present(key string) bool {
	v, ok := o[key]
	return ok && !isNull(v)
}

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// str returns a string member: "" when absent or null, an error when it is
// not a string.
func (o object) str(key string) (string, error) {
	if !o.present(key) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(o[key], &s); err != nil {
		return "", fmt.Errorf("%s is not a string", key)
	}
	return s, nil
}

// obj returns an object member's bytes: nil when absent or null, an error
// when it is not an object.
func (o object) obj(key string) (json.RawMessage, error) {
	if !o.present(key) {
		return nil, nil
	}
	v := bytes.TrimSpace(o[key])
	if v[0] != '{' {
		return nil, fmt.Errorf("%s is not an object", key)
	}
	return v, nil
}

// boolean returns a boolean member, nil when absent, null or not a boolean.
func (o object) boolean(key string) *bool {
	if !o.present(key) {
		return nil
	}
	var b bool
	if json.Unmarshal(o[key], &b) != nil {
		return nil
	}
	return &b
}

// wireTool is one tool of a tools/list result, as sent.
type wireTool struct {
	name, title, description         string
	input, output, annotations, meta json.RawMessage
	raw                              json.RawMessage
	ann                              Annotations
}

// parseTool reads one tool definition. It is strict about what the
// specification requires (a non-empty string name, an object inputSchema)
// and about the types of the members it reads, and keeps every byte.
func parseTool(raw json.RawMessage) (*wireTool, error) {
	o, err := decodeObject(raw)
	if err != nil {
		return nil, err
	}
	t := &wireTool{raw: bytes.TrimSpace(raw)}
	if t.name, err = o.str("name"); err != nil {
		return nil, err
	}
	if t.name == "" {
		return nil, errors.New("a tool has no name")
	}
	if t.title, err = o.str("title"); err != nil {
		return nil, err
	}
	if t.description, err = o.str("description"); err != nil {
		return nil, err
	}
	if t.input, err = o.obj("inputSchema"); err != nil {
		return nil, err
	}
	if t.input == nil {
		return nil, errors.New("a tool has no inputSchema")
	}
	if t.output, err = o.obj("outputSchema"); err != nil {
		return nil, err
	}
	if t.annotations, err = o.obj("annotations"); err != nil {
		return nil, err
	}
	if t.meta, err = o.obj("_meta"); err != nil {
		return nil, err
	}
	if t.annotations != nil {
		a, _ := decodeObject(t.annotations)
		title, _ := a.str("title")
		t.ann = Annotations{
			Title:           title,
			ReadOnlyHint:    a.boolean("readOnlyHint"),
			DestructiveHint: a.boolean("destructiveHint"),
			IdempotentHint:  a.boolean("idempotentHint"),
			OpenWorldHint:   a.boolean("openWorldHint"),
		}
	}
	return t, nil
}

// listPage is one page of a tools/list result.
type listPage struct {
	tools      []json.RawMessage
	nextCursor string
	meta       json.RawMessage
}

func parseListPage(raw json.RawMessage) (*listPage, error) {
	o, err := decodeObject(raw)
	if err != nil {
		return nil, err
	}
	p := &listPage{}
	if o.present("tools") {
		if err := json.Unmarshal(o["tools"], &p.tools); err != nil {
			return nil, errors.New("tools is not an array")
		}
	}
	if p.nextCursor, err = o.str("nextCursor"); err != nil {
		return nil, err
	}
	p.meta, _ = o.obj("_meta")
	return p, nil
}

// callResult is a tools/call result: final, or asking for input.
type callResult struct {
	result        *Result
	inputRequired bool
	inputRequests map[string]json.RawMessage
	requestState  json.RawMessage
}

func parseCallResult(raw json.RawMessage) (*callResult, error) {
	o, err := decodeObject(raw)
	if err != nil {
		return nil, err
	}
	kind, err := o.str("resultType")
	if err != nil {
		return nil, err
	}
	if kind == "input_required" {
		cr := &callResult{inputRequired: true}
		if o.present("inputRequests") {
			if err := json.Unmarshal(o["inputRequests"], &cr.inputRequests); err != nil {
				return nil, errors.New("inputRequests is not an object")
			}
		}
		if o.present("requestState") {
			cr.requestState = bytes.TrimSpace(o["requestState"])
		}
		return cr, nil
	}
	r := &Result{}
	if o.present("content") {
		var blocks []json.RawMessage
		if err := json.Unmarshal(o["content"], &blocks); err != nil {
			return nil, errors.New("content is not an array")
		}
		r.Content = make([]Content, len(blocks))
		for i, b := range blocks {
			r.Content[i] = parseContent(b)
		}
	}
	if o.present("structuredContent") {
		r.StructuredContent = bytes.TrimSpace(o["structuredContent"])
	}
	if o.present("isError") {
		if err := json.Unmarshal(o["isError"], &r.IsError); err != nil {
			return nil, errors.New("isError is not a boolean")
		}
	}
	r.Meta, _ = o.obj("_meta")
	return &callResult{result: r}, nil
}

// parseContent reads one content block. A block of an unknown type, or one
// that does not read as its type, becomes *UnknownContent holding the bytes
// as sent, so that one odd block never costs the rest of the result.
func parseContent(raw json.RawMessage) Content {
	raw = bytes.TrimSpace(raw)
	unknown := func(typ string) Content { return &UnknownContent{ContentType: typ, Raw: raw} }
	o, err := decodeObject(raw)
	if err != nil {
		return unknown("")
	}
	typ, err := o.str("type")
	if err != nil {
		return unknown("")
	}
	annotations, err1 := o.obj("annotations")
	meta, err2 := o.obj("_meta")
	if err1 != nil || err2 != nil {
		return unknown(typ)
	}
	var s strs
	switch typ {
	case "text":
		c := &TextContent{Text: s.must(o, "text"), Annotations: annotations, Meta: meta}
		if s.bad || !o.present("text") {
			return unknown(typ)
		}
		return c
	case "image", "audio":
		data, mime := s.must(o, "data"), s.must(o, "mimeType")
		if s.bad {
			return unknown(typ)
		}
		if typ == "image" {
			return &ImageContent{Data: data, MIMEType: mime, Annotations: annotations, Meta: meta}
		}
		return &AudioContent{Data: data, MIMEType: mime, Annotations: annotations, Meta: meta}
	case "resource_link":
		c := &ResourceLink{
			URI: s.must(o, "uri"), Name: s.must(o, "name"), Title: s.must(o, "title"),
			Description: s.must(o, "description"), MIMEType: s.must(o, "mimeType"),
			Annotations: annotations, Meta: meta,
		}
		if o.present("size") {
			n, err := strconv.ParseInt(string(bytes.TrimSpace(o["size"])), 10, 64)
			if err != nil {
				return unknown(typ)
			}
			c.Size = &n
		}
		if s.bad || c.URI == "" {
			return unknown(typ)
		}
		return c
	case "resource":
		res, err := o.obj("resource")
		if err != nil || res == nil {
			return unknown(typ)
		}
		r, _ := decodeObject(res)
		rmeta, err := r.obj("_meta")
		if err != nil {
			return unknown(typ)
		}
		c := &EmbeddedResource{
			Resource: ResourceContents{
				URI: s.must(r, "uri"), MIMEType: s.must(r, "mimeType"),
				Text: s.must(r, "text"), Blob: s.must(r, "blob"), Meta: rmeta,
			},
			Annotations: annotations, Meta: meta,
		}
		if s.bad || c.Resource.URI == "" {
			return unknown(typ)
		}
		return c
	}
	return unknown(typ)
}

// strs reads several string members, remembering whether any was not a
// string.
type strs struct{ bad bool }

func (s *strs) must(o object, key string) string {
	v, err := o.str(key)
	if err != nil {
		s.bad = true
	}
	return v
}
