package mcpservers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
)

// answer fulfils a round of a server's requests for input (2026-07-28
// inputRequests), in key order, and renders the inputResponses to send back.
// An elicitation with neither a handler nor an answer interrupts the call
// before any other request is acted on, so that no handler runs for a round
// that is not sent.
func (sess *session) answer(ctx context.Context, cs *callState, requests map[string]json.RawMessage) (json.RawMessage, error) {
	srv := sess.srv
	keys := sortedKeys(requests)
	type input struct {
		key, method string
		params      json.RawMessage
	}
	inputs := make([]input, 0, len(keys))
	var pending []*ElicitationRequest
	for _, key := range keys {
		o, err := decodeObject(requests[key])
		if err != nil {
			return nil, srv.callError(cs.tool, ErrProtocol, fmt.Sprintf("input request %q cannot be read", key), err)
		}
		method, err := o.str("method")
		if err != nil {
			return nil, srv.callError(cs.tool, ErrProtocol, fmt.Sprintf("input request %q has no method", key), err)
		}
		in := input{key: key, method: method, params: o["params"]}
		if method == string(mcp.MethodElicitationCreate) && cs.opts.elicitation == nil {
			if _, ok := cs.answers[key]; !ok {
				er, err := parseElicitation(in.params)
				if err != nil {
					return nil, srv.callError(cs.tool, ErrProtocol, fmt.Sprintf("input request %q cannot be read: %v", key, err), err)
				}
				er.Server, er.Tool, er.Key = cs.server, cs.tool, key
				pending = append(pending, er)
			}
		}
		inputs = append(inputs, in)
	}
	if len(pending) > 0 {
		return nil, &ElicitationRequired{Server: cs.server, Tool: cs.tool, Requests: pending}
	}

	responses := make(map[string]json.RawMessage, len(inputs))
	for _, in := range inputs {
		var (
			out json.RawMessage
			err error
		)
		switch in.method {
		case string(mcp.MethodElicitationCreate):
			out, err = cs.elicit(ctx, in.key, in.params)
		case string(mcp.MethodSamplingCreateMessage):
			out, err = cs.sample(ctx, in.key, in.params)
		case string(mcp.MethodListRoots):
			out, err = cs.listRoots(ctx, in.key)
		default:
			return nil, srv.callError(cs.tool, ErrProtocol, fmt.Sprintf("input request %q asks for %q, which this client does not know", in.key, in.method), nil)
		}
		if err != nil {
			return nil, srv.inputError(cs.tool, in.key, err)
		}
		responses[in.key] = out
	}
	b, err := json.Marshal(responses)
	if err != nil {
		return nil, srv.callError(cs.tool, ErrHandler, "the answers cannot be encoded", err)
	}
	return b, nil
}

// errNoSampling and errNoRoots mean a server asked for what no handler
// provides.
var (
	errNoSampling = errors.New("the server asked for sampling, and there is no sampling handler")
	errNoRoots    = errors.New("the server asked for roots, and there is no roots handler")
)

// inputError reports a request the call could not answer.
func (s *remote) inputError(tool, key string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, errNoSampling) || errors.Is(err, errNoRoots) {
		return s.callError(tool, ErrNoHandler, err.Error(), err)
	}
	var proto *protocolError
	if errors.As(err, &proto) {
		return s.callError(tool, ErrProtocol, fmt.Sprintf("input request %q: %s", key, proto.msg), err)
	}
	return s.callError(tool, ErrHandler, fmt.Sprintf("input request %q: %s", key, s.red.describe(err)), err)
}

// protocolError is a server request that cannot be read.
type protocolError struct{ msg string }

func (e *protocolError) Error() string { return e.msg }

// elicit answers an elicitation: with the handler, or from the answers the
// call was resumed with.
func (cs *callState) elicit(ctx context.Context, key string, params json.RawMessage) (json.RawMessage, error) {
	er, err := parseElicitation(params)
	if err != nil {
		return nil, &protocolError{err.Error()}
	}
	er.Server, er.Tool, er.Key = cs.server, cs.tool, key
	var resp *ElicitationResponse
	if h := cs.opts.elicitation; h != nil {
		if resp, err = h.Elicit(ctx, er); err != nil {
			return nil, err
		}
	} else {
		a := cs.answers[key]
		resp = &a
	}
	return encodeElicitation(resp, er)
}

func (cs *callState) sample(ctx context.Context, key string, params json.RawMessage) (json.RawMessage, error) {
	h := cs.opts.sampling
	if h == nil {
		return nil, errNoSampling
	}
	sr, err := parseSampling(params)
	if err != nil {
		return nil, &protocolError{err.Error()}
	}
	sr.Server, sr.Tool, sr.Key = cs.server, cs.tool, key
	res, err := h.CreateMessage(ctx, sr)
	if err != nil {
		return nil, err
	}
	return encodeSampling(res)
}

func (cs *callState) listRoots(ctx context.Context, key string) (json.RawMessage, error) {
	h := cs.opts.roots
	if h == nil {
		return nil, errNoRoots
	}
	roots, err := h.ListRoots(ctx, &RootsRequest{Server: cs.server, Tool: cs.tool, Key: key})
	if err != nil {
		return nil, err
	}
	return encodeRoots(roots)
}

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
		}{base{"resource", c.Annotations, c.Meta}, contents{r.URI, r.MIMEType, r.Text, r.Blob, r.Meta}})
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

// legacyHandlers answer the requests a server before 2026-07-28 sends
// during a call, for mcp-go's client. Such a request does not say which
// call it belongs to: over streamable HTTP it comes on the call's own
// stream, whose context says; over stdio and the GET stream it is taken to
// belong to the call in flight when there is exactly one.
type legacyHandlers struct{ sess *session }

func (h legacyHandlers) callOf(ctx context.Context) *callState {
	if cs, ok := ctx.Value(callStateKey{}).(*callState); ok {
		return cs
	}
	return h.sess.soleCall()
}

// Errors sent back to the server say nothing of the handler's own error,
// which may hold anything.
var (
	errLegacyHandler    = errors.New("the client's handler failed")
	errLegacyNoHandler  = errors.New("the client has no handler for this request")
	errLegacyUnreadable = errors.New("the client cannot read the request")
	// errLegacyInterrupted answers a request that interrupts its call.
	errLegacyInterrupted = errors.New("the client interrupted the call to ask its user; the call will be made again")
)

func (h legacyHandlers) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	raw, err := json.Marshal(req.Params)
	if err != nil {
		return nil, errLegacyUnreadable
	}
	er, err := parseElicitation(raw)
	if err != nil {
		return nil, errLegacyUnreadable
	}
	er.Server = h.sess.srv.cfg.name
	cs := h.callOf(ctx)
	opts := h.sess.srv.opts
	if cs != nil {
		opts = cs.opts
		er.Tool, er.Key = cs.tool, cs.nextLegacyKey()
	}
	var resp *ElicitationResponse
	switch {
	case opts.elicitation != nil:
		resp, err = opts.elicitation.Elicit(ctx, er)
		if err != nil {
			if cs != nil {
				cs.cancel(&handlerFailure{err})
			}
			return nil, errLegacyHandler
		}
	case cs == nil:
		return nil, errLegacyNoHandler
	default:
		a, ok := cs.answers[er.Key]
		if !ok {
			// Interrupt the call. The server is answered with an error, not
			// "cancel": a tool told the user cancelled may go on and ask
			// again, and nothing says which call a later question is for.
			cs.interrupt(er)
			return nil, errLegacyInterrupted
		}
		resp = &a
	}
	b, err := encodeElicitation(resp, er)
	if err != nil {
		if cs != nil {
			cs.cancel(&handlerFailure{err})
		}
		return nil, errLegacyHandler
	}
	var out mcp.ElicitationResult
	if err := json.Unmarshal(b, &out.ElicitationResponse); err != nil {
		return nil, errLegacyHandler
	}
	return &out, nil
}

func (h legacyHandlers) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	raw, err := json.Marshal(req.CreateMessageParams)
	if err != nil {
		return nil, errLegacyUnreadable
	}
	sr, err := parseSampling(raw)
	if err != nil {
		return nil, errLegacyUnreadable
	}
	sr.Server = h.sess.srv.cfg.name
	cs := h.callOf(ctx)
	opts := h.sess.srv.opts
	if cs != nil {
		opts, sr.Tool = cs.opts, cs.tool
	}
	if opts.sampling == nil {
		return nil, errLegacyNoHandler
	}
	res, err := opts.sampling.CreateMessage(ctx, sr)
	if err == nil {
		var b json.RawMessage
		if b, err = encodeSampling(res); err == nil {
			var out mcp.CreateMessageResult
			if err = json.Unmarshal(b, &out); err == nil {
				return &out, nil
			}
		}
	}
	if cs != nil {
		cs.cancel(&handlerFailure{err})
	}
	return nil, errLegacyHandler
}

func (h legacyHandlers) ListRoots(ctx context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	cs := h.callOf(ctx)
	opts := h.sess.srv.opts
	rr := &RootsRequest{Server: h.sess.srv.cfg.name}
	if cs != nil {
		opts, rr.Tool = cs.opts, cs.tool
	}
	if opts.roots == nil {
		return nil, errLegacyNoHandler
	}
	roots, err := opts.roots.ListRoots(ctx, rr)
	if err != nil {
		if cs != nil {
			cs.cancel(&handlerFailure{err})
		}
		return nil, errLegacyHandler
	}
	out := &mcp.ListRootsResult{Roots: make([]mcp.Root, 0, len(roots))}
	for _, r := range slices.Clone(roots) {
		out.Roots = append(out.Roots, mcp.Root{URI: r.URI, Name: r.Name})
	}
	return out, nil
}
