package mcpservers

import (
	"encoding/json"
	"errors"
)

// parseElicitation reads elicitation/create params.
func parseElicitation(params json.RawMessage) (*ElicitationRequest, error) {
	if params == nil || isNull(params) {
		return nil, errors.New("the request has no params")
	}
	o, err := decodeObject(params)
	if err != nil {
		return nil, err
	}
	var s strs
	er := &ElicitationRequest{
		Mode:          s.must(o, "mode"),
		Message:       s.must(o, "message"),
		URL:           s.must(o, "url"),
		ElicitationID: s.must(o, "elicitationId"),
	}
	if s.bad {
		return nil, errors.New("a member is not a string")
	}
	if er.Mode == "" {
		er.Mode = "form"
	}
	if er.RequestedSchema, err = o.obj("requestedSchema"); err != nil {
		return nil, err
	}
	return er, nil
}

// encodeElicitation renders a user's answer as an elicitation result. An
// accepted form that leaves out a field the requested schema gives a
// default for gets the default (SEP-1034).
func encodeElicitation(r *ElicitationResponse, req *ElicitationRequest) (json.RawMessage, error) {
	if r == nil {
		return nil, errors.New("the elicitation handler gave no answer")
	}
	switch r.Action {
	case ElicitationAccept, ElicitationDecline, ElicitationCancel:
	default:
		return nil, errors.New("the answer's action is not accept, decline or cancel")
	}
	out := struct {
		Action  ElicitationAction `json:"action"`
		Content map[string]any    `json:"content,omitempty"`
	}{Action: r.Action}
	if r.Action == ElicitationAccept {
		out.Content = r.Content
		if defaults := req.Defaults(); len(defaults) > 0 {
			out.Content = make(map[string]any, len(r.Content)+len(defaults))
			for k, v := range defaults {
				out.Content[k] = v
			}
			for k, v := range r.Content {
				out.Content[k] = v
			}
		}
	}
	return json.Marshal(out)
}

// parseSampling reads sampling/createMessage params.
func parseSampling(params json.RawMessage) (*SamplingRequest, error) {
	if params == nil || isNull(params) {
		return nil, errors.New("the request has no params")
	}
	o, err := decodeObject(params)
	if err != nil {
		return nil, err
	}
	var s strs
	sr := &SamplingRequest{
		SystemPrompt:   s.must(o, "systemPrompt"),
		IncludeContext: s.must(o, "includeContext"),
		Params:         params,
	}
	if s.bad {
		return nil, errors.New("a member is not a string")
	}
	if o.present("maxTokens") {
		if err := json.Unmarshal(o["maxTokens"], &sr.MaxTokens); err != nil {
			return nil, errors.New("maxTokens is not an integer")
		}
	}
	if o.present("temperature") {
		var t float64
		if err := json.Unmarshal(o["temperature"], &t); err != nil {
			return nil, errors.New("temperature is not a number")
		}
		sr.Temperature = &t
	}
	if o.present("stopSequences") {
		if err := json.Unmarshal(o["stopSequences"], &sr.StopSequences); err != nil {
			return nil, errors.New("stopSequences is not a list of strings")
		}
	}
	if sr.ModelPreferences, err = o.obj("modelPreferences"); err != nil {
		return nil, err
	}
	if sr.Metadata, err = o.obj("metadata"); err != nil {
		return nil, err
	}
	var msgs []json.RawMessage
	if o.present("messages") {
		if err := json.Unmarshal(o["messages"], &msgs); err != nil {
			return nil, errors.New("messages is not an array")
		}
	}
	for _, m := range msgs {
		mo, err := decodeObject(m)
		if err != nil {
			return nil, errors.New("a message is not an object")
		}
		role, err := mo.str("role")
		if err != nil {
			return nil, err
		}
		sm := SamplingMessage{Role: role}
		if c := mo["content"]; c != nil {
			var blocks []json.RawMessage
			if json.Unmarshal(c, &blocks) == nil {
				for _, b := range blocks {
					sm.Content = append(sm.Content, parseContent(b))
				}
			} else {
				sm.Content = []Content{parseContent(c)}
			}
		}
		sr.Messages = append(sr.Messages, sm)
	}
	return sr, nil
}

// encodeSampling renders a completion as a sampling result: one content
// block as an object, as before 2025-11-25, several as an array.
func encodeSampling(r *SamplingResult) (json.RawMessage, error) {
	if r == nil {
		return nil, errors.New("the sampling handler gave no result")
	}
	if len(r.Content) == 0 {
		return nil, errors.New("the sampling result has no content")
	}
	blocks := make([]json.RawMessage, len(r.Content))
	for i, c := range r.Content {
		b, err := encodeContent(c)
		if err != nil {
			return nil, err
		}
		blocks[i] = b
	}
	var content any = blocks
	if len(blocks) == 1 {
		content = blocks[0]
	}
	role := r.Role
	if role == "" {
		role = "assistant"
	}
	return json.Marshal(struct {
		Role       string `json:"role"`
		Content    any    `json:"content"`
		Model      string `json:"model"`
		StopReason string `json:"stopReason,omitempty"`
	}{role, content, r.Model, r.StopReason})
}

// encodeContent renders a content block as MCP sends it.
func encodeContent(c Content) (json.RawMessage, error) {
	// Every Content is a pointer: a nil one has nothing to send, and would
	// panic below, on the goroutine answering the server.
	if isNil(c) {
		return nil, errors.New("a content block is nil")
	}
	type base struct {
		Type        string          `json:"type"`
		Annotations json.RawMessage `json:"annotations,omitempty"`
		Meta        json.RawMessage `json:"_meta,omitempty"`
	}
	switch c := c.(type) {
	case *TextContent:
		return json.Marshal(struct {
			base
			Text string `json:"text"`
		}{base{"text", c.Annotations, c.Meta}, c.Text})
	case *ImageContent:
		return json.Marshal(struct {
			base
			Data     string `json:"data"`
			MIMEType string `json:"mimeType"`
		}{base{"image", c.Annotations, c.Meta}, c.Data, c.MIMEType})
	case *AudioContent:
		return json.Marshal(struct {
			base
			Data     string `json:"data"`
			MIMEType string `json:"mimeType"`
		}{base{"audio", c.Annotations, c.Meta}, c.Data, c.MIMEType})
	case *ResourceLink:
		return json.Marshal(struct {
			base
			URI         string `json:"uri"`
			Name        string `json:"name"`
			Title       string `json:"title,omitempty"`
			Description string `json:"description,omitempty"`
			MIMEType    string `json:"mimeType,omitempty"`
			Size        *int64 `json:"size,omitempty"`
		}{base{"resource_link", c.Annotations, c.Meta}, c.URI, c.Name, c.Title, c.Description, c.MIMEType, c.Size})
	case *EmbeddedResource:
		type contents struct {
			URI      string          `json:"uri"`
			MIMEType string          `json:"mimeType,omitempty"`
			Text     string          `json:"text,omitempty"`
			Blob     string          `json:"blob,omitempty"`
			Meta     json.RawMessage `json:"_meta,omitempty"`
		}
		r := c.Resource
		return json.Marshal(struct {
			base
			Resource contents `json:"resource"`
		}{base{"resource", c.Annotations, c.Meta}, contents(r)})
	case *UnknownContent:
		if !json.Valid(c.Raw) {
			return nil, errors.New("an unknown content block is not valid JSON")
		}
		return c.Raw, nil
	}
	return nil, errors.New("a content block is nil or of an unknown type")
}

func encodeRoots(roots []Root) (json.RawMessage, error) {
	type root struct {
		URI  string `json:"uri"`
		Name string `json:"name,omitempty"`
	}
	out := struct {
		Roots []root `json:"roots"`
	}{Roots: make([]root, 0, len(roots))}
	for _, r := range roots {
		out.Roots = append(out.Roots, root(r))
	}
	return json.Marshal(out)
}
