package adk

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"google.golang.org/adk/v2/tool"
	"google.golang.org/genai"
)

// NativeTool is an ADK tool that is not an MCP tool, as a definition
// records it: the name, description and input schema its declaration gives
// the model, and the code a call runs as its sourceHash. Build walks Tool,
// the ADK tool itself, for MCP tools and chat models it holds that the
// agent is not given, and refuses them.
type NativeTool struct {
	Tool              tool.Tool
	name, description string
	schema            json.RawMessage
	code              any
}

// NewNativeTool records an ADK tool that is not an MCP tool as New does:
// what its declaration gives the model. Use it to give the same tool to
// definition.Build. It refuses a tool that calls an MCP server through a
// session guardian-go did not load (ADK's mcptoolset, the official Go MCP
// SDK's client), and agenttool's tools, whose agent only NewAgentTool
// records.
func NewNativeTool(t tool.Tool) (*NativeTool, error) {
	switch t.(type) {
	case *Tool:
		return nil, errors.New("guardian-go adk: NewNativeTool: an MCP tool (record its MCP() tool)")
	case *AgentTool:
		return nil, errors.New("guardian-go adk: NewNativeTool: an agent tool (New records it with its agent)")
	}
	return recordNative(t, "")
}

// Name is the tool's name, as the model calls it.
func (n *NativeTool) Name() string { return n.name }

// Description is the description the model is sent.
func (n *NativeTool) Description() string { return n.description }

// InputSchema is the input schema the model is sent, as JSON.
func (n *NativeTool) InputSchema() json.RawMessage { return append(json.RawMessage(nil), n.schema...) }

// Adapted returns the code a call runs: for a tool made with ADK's
// functiontool.New or NewStreaming, the function it wraps (so the
// sourceHash is your function's, not ADK's wrapper's); for any other, the
// ADK tool value itself (your type and its methods). A NativeTool is a
// definition.Adapter.
func (n *NativeTool) Adapted() any { return n.code }

// ADK's packages whose types a recording treats apart.
const (
	adkModule        = "google.golang.org/adk/v2"
	pkgFunctionTool  = adkModule + "/tool/functiontool"
	pkgAgentTool     = adkModule + "/tool/agenttool"
	pkgMCPToolset    = adkModule + "/tool/mcptoolset"
	pkgADKInternal   = adkModule + "/internal/"
	pkgGoSDKMCP      = "github.com/modelcontextprotocol/go-sdk/mcp"
	pkgMCPGoClient   = "github.com/mark3labs/mcp-go/client"
	sessionToolRule  = "adk-mcp-session"
	toolsetRule      = "adk-toolset"
	sessionToolFixed = "load the server's tools with mcpservers.NewClient and Client.Tools, and give them with guardianadk.NewTools in Tools"
)

// recordNative records t by its declaration. ptr locates t in the agent
// for a refusal.
func recordNative(t tool.Tool, ptr string) (*NativeTool, error) {
	if isNil(t) {
		return nil, invalid(ptr, "adk-tool-nil", "a nil tool", "remove it")
	}
	if pkgOf(t) == pkgAgentTool {
		return nil, invalid(ptr, "adk-agent-made-elsewhere", "an agenttool.New tool, whose agent was made elsewhere and cannot be recorded", "make it with guardianadk.NewAgentTool")
	}
	if where := reachesSession(t); where != "" {
		return nil, sessionRefusal(ptr, t.Name(), where)
	}
	n := &NativeTool{Tool: t, name: t.Name(), description: t.Description(), code: t}
	decl := declarationOf(t)
	if decl != nil && decl.Description != "" {
		n.description = decl.Description
	}
	s, err := declSchema(decl)
	if err != nil {
		return nil, invalid(ptr, "adk-schema", "the tool's input schema cannot be written as JSON ("+err.Error()+")", "give the tool a schema that marshals")
	}
	n.schema = s
	if f, ok := functionToolHandler(t); ok {
		n.code = f
	}
	return n, nil
}

// declarationOf is t's function declaration, or nil when it has none (a
// model's built-in tool, such as geminitool's).
func declarationOf(t tool.Tool) *genai.FunctionDeclaration {
	d, ok := t.(interface {
		Declaration() *genai.FunctionDeclaration
	})
	if !ok {
		return nil
	}
	return d.Declaration()
}

// noArguments is the input schema of a tool that declares none: the
// definition's for a tool that takes no arguments.
var noArguments = json.RawMessage(`{"type":"object"}`)

// declSchema is the input schema a declaration sends the model, as JSON:
// ParametersJsonSchema when set (the JSON Schema ADK's function tools
// infer), else Parameters (genai's own schema form, as the model is sent
// it), else a schema of no arguments.
func declSchema(d *genai.FunctionDeclaration) (json.RawMessage, error) {
	if d == nil {
		return noArguments, nil
	}
	var v any
	switch {
	case d.ParametersJsonSchema != nil && !isNil(d.ParametersJsonSchema):
		v = d.ParametersJsonSchema
	case d.Parameters != nil:
		v = d.Parameters
	default:
		return noArguments, nil
	}
	if raw, ok := v.(json.RawMessage); ok {
		return append(json.RawMessage(nil), raw...), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// functionToolHandler returns the function a tool made by ADK's
// functiontool.New or NewStreaming wraps: the code its calls run. ADK keeps
// it in an unexported field, read here without calling anything; any
// other tool has none.
func functionToolHandler(t tool.Tool) (any, bool) {
	v := reflect.ValueOf(t)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct || v.Elem().Type().PkgPath() != pkgFunctionTool {
		return nil, false
	}
	f := v.Elem().FieldByName("handler")
	if !f.IsValid() || f.Kind() != reflect.Func || f.IsNil() {
		return nil, false
	}
	f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	return f.Interface(), true
}

// pkgOf is the package of v's type, through a pointer.
func pkgOf(v any) string {
	t := reflect.TypeOf(v)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return ""
	}
	return t.PkgPath()
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Interface, reflect.Chan:
		return rv.IsNil()
	}
	return false
}

// reachesSession reports where value v holds an MCP session guardian-go
// did not load: a value of a type of ADK's mcptoolset, of the official Go
// MCP SDK's mcp package, or of mcp-go's client package. Such a session
// calls whatever server it is connected to, and lists tools again
// whenever asked, which a definition cannot record. It walks v's fields
// (of any type, exported or not), pointers, interfaces, slices, arrays
// and maps; what a closure captures it cannot see. It returns "" when it
// finds none.
func reachesSession(v any) string {
	w := &sessionWalk{seen: map[visit]bool{}}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return ""
	}
	return w.find(rv, "the tool", 0)
}

type visit struct {
	t reflect.Type
	p uintptr
}

type sessionWalk struct {
	seen map[visit]bool
}

// maxWalkDepth bounds the walk: a session deeper than this in a tool's
// values is not looked for.
const maxWalkDepth = 64

func sessionPackage(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch p := t.PkgPath(); {
	case p == pkgMCPToolset, p == pkgGoSDKMCP, p == pkgMCPGoClient:
		return true
	case strings.HasPrefix(p, pkgMCPToolset+"/"), strings.HasPrefix(p, pkgMCPGoClient+"/"):
		return true
	}
	return false
}

func (w *sessionWalk) find(v reflect.Value, path string, depth int) string {
	if !v.IsValid() || depth > maxWalkDepth {
		return ""
	}
	t := v.Type()
	if t.Kind() != reflect.Interface && sessionPackage(t) {
		if (t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface) && v.IsNil() {
			return ""
		}
		return path + " (" + t.String() + ")"
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return ""
		}
		k := visit{t, v.Pointer()}
		if w.seen[k] {
			return ""
		}
		w.seen[k] = true
		return w.find(v.Elem(), path, depth+1)
	case reflect.Interface:
		if v.IsNil() {
			return ""
		}
		return w.find(v.Elem(), path, depth+1)
	case reflect.Struct:
		for i := range t.NumField() {
			if p := w.find(v.Field(i), path+"."+t.Field(i).Name, depth+1); p != "" {
				return p
			}
		}
	case reflect.Slice:
		if v.IsNil() {
			return ""
		}
		k := visit{t, v.Pointer()}
		if w.seen[k] {
			return ""
		}
		w.seen[k] = true
		fallthrough
	case reflect.Array:
		for i := range v.Len() {
			if p := w.find(v.Index(i), path+"["+fmt.Sprint(i)+"]", depth+1); p != "" {
				return p
			}
		}
	case reflect.Map:
		if v.IsNil() {
			return ""
		}
		k := visit{t, v.Pointer()}
		if w.seen[k] {
			return ""
		}
		w.seen[k] = true
		it := v.MapRange()
		for it.Next() {
			if p := w.find(it.Value(), path+"[…]", depth+1); p != "" {
				return p
			}
			if p := w.find(it.Key(), path+"[…]", depth+1); p != "" {
				return p
			}
		}
	}
	return ""
}
