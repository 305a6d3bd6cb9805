package eino

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/guardian-agent/guardian-go/internal/resulttext"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// Tool is an MCP tool as an Eino tool (tool.InvokableTool). Its Info is
// the tool as its server sent it; InvokableRun calls it through
// mcpservers.Tool.Call. Make one with NewTool or NewTools.
//
// A failure the server reports (isError) is the tool's answer, text the
// model reads and can recover from, starting "Error: ". A failure to reach
// the server or to speak MCP is a Go error, which ends the run: a model
// cannot act on it. A call whose server asks the user for input pauses the
// run with an Eino interrupt (see ElicitationInterrupt).
//
// Run inside an agent made by NewChatModelAgent, or a graph compiled by
// CompileGraph, the call's context carries the agent's definition
// (definition.Bind), and mcpservers.Tool.Call vets the tool against it
// before anything is sent.
type Tool struct {
	mcp  *mcpservers.Tool
	info *schema.ToolInfo
}

// NewTool adapts an MCP tool. It fails only when the tool's input schema is
// not a JSON object or boolean, which Eino cannot carry.
func NewTool(t *mcpservers.Tool) (*Tool, error) {
	if t == nil {
		return nil, errors.New("eino: NewTool: a nil *mcpservers.Tool")
	}
	registerInterrupts()
	s, err := schemaOf(t.InputSchema())
	if err != nil {
		return nil, fmt.Errorf("eino: tool %q: its input schema cannot be carried: %w", t.Name(), err)
	}
	extra := map[string]any{"server": t.Server().Name}
	if a := t.MCPRecord().Annotations; len(a) > 0 {
		extra["annotations"] = json.RawMessage(a)
	}
	if title := t.Title(); title != "" {
		extra["title"] = title
	}
	if m := t.Meta(); len(m) > 0 {
		extra["_meta"] = json.RawMessage(m)
	}
	return &Tool{mcp: t, info: &schema.ToolInfo{
		Name:        t.Name(),
		Desc:        t.Description(),
		Extra:       map[string]any{"mcp": extra},
		ParamsOneOf: schema.NewParamsOneOfByJSONSchema(s),
	}}, nil
}

// NewTools adapts MCP tools, in order, as Eino's ToolsConfig takes them.
func NewTools(ts []*mcpservers.Tool) ([]tool.BaseTool, error) {
	out := make([]tool.BaseTool, len(ts))
	var errs []error
	for i, t := range ts {
		a, err := NewTool(t)
		if err != nil {
			errs = append(errs, err)
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

// Info returns the tool as the model sees it: its name, the description its
// server gave, and its input schema, which marshals to the same JSON value
// the server sent (anyOf, $defs, a root description and every other keyword
// kept). Extra["mcp"] holds the server's name and, when sent, the tool's
// annotations, title and _meta.
func (t *Tool) Info(context.Context) (*schema.ToolInfo, error) {
	info := *t.info
	return &info, nil
}

// InvokableRun calls the tool with the model's JSON arguments and returns
// its answer as text (see Tool).
func (t *Tool) InvokableRun(ctx context.Context, argumentsInJSON string, _ ...tool.Option) (string, error) {
	res, err := t.run(ctx, argumentsInJSON)
	if err != nil {
		return "", err
	}
	return res.text, nil
}

type result struct {
	text string
	mcp  *mcpservers.Result // nil when the call was not made (bad arguments)
}

func (t *Tool) run(ctx context.Context, argumentsInJSON string) (result, error) {
	args, problem := parseArguments(argumentsInJSON)
	if problem != "" {
		// The model wrote them: tell it, send nothing.
		return result{text: "Error: " + problem + "; nothing was sent to tool " + t.mcp.Name() + "."}, nil
	}
	res, err := t.call(ctx, args)
	if err != nil {
		return result{}, err
	}
	return result{text: Text(res), mcp: res}, nil
}

// parseArguments decodes the model's arguments: a JSON object, or nothing.
// Numbers stay as written, so large integers reach the server exactly.
func parseArguments(s string) (map[string]any, string) {
	if strings.TrimSpace(s) == "" {
		return map[string]any{}, ""
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var args map[string]any
	if err := dec.Decode(&args); err != nil || dec.More() {
		return nil, "the arguments are not a JSON object"
	}
	if args == nil {
		args = map[string]any{}
	}
	return args, ""
}

// Text renders a tool result as the text a model reads: the text blocks;
// an embedded text resource's text; a line naming each block text cannot
// carry (images, audio, binary resources, links); the structured content as
// JSON when no block carries text. A result the server marked isError
// starts "Error: ", so that the model knows the call failed.
func Text(r *mcpservers.Result) string {
	text := resulttext.Text(r)
	if r != nil && r.IsError {
		return "Error: " + text
	}
	return text
}

// nameOnly is a tool known only by the name a call asked for, to have
// Definition.Vet word the refusal of a name it does not describe (and
// withhold a name holding a credential, as it does).
type nameOnly string

func (n nameOnly) Name() string               { return string(n) }
func (nameOnly) Description() string          { return "" }
func (nameOnly) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
