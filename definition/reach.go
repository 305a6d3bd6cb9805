package definition

import (
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/guardian-agent/guardian-go/refusals"
)

// An MCP tool held where the definition cannot see it being called (by
// middleware it does not offer, or by a tool's own code) calls a server the
// definition might not record; a chat-model client a tool holds makes calls
// that do not go through the agent's routed model. Build finds both by
// walking the values (walk.go). What no walk can see, the variables a
// closure captures, the call-time check stops (Bind).

// held is what a walk of a tool's code, or of the tool, found.
type held struct {
	tools    []MCPTool
	models   []heldModel
	channels []string // where a channel of MCP tools is held
}

// heldModel is a chat-model client found, and where.
type heldModel struct {
	v     reflect.Value
	where string
}

// collect walks root, the code of role (the idx-th interceptor) or, with
// role "", the tool itself, adding what it finds to h.
func (w *walker) collect(root any, role Role, idx int, h *held) {
	if !w.worthWalking(root) {
		return
	}
	label := func() string {
		switch role {
		case "":
			return "the tool"
		case RoleInterceptor:
			return string(role) + " " + strconv.Itoa(idx)
		}
		return string(role)
	}
	w.find(root, visit{
		tool:    func(t MCPTool, path string) { h.tools = append(h.tools, t) },
		model:   func(v reflect.Value, path string) { h.models = append(h.models, heldModel{v, label() + path}) },
		channel: func(path string) { h.channels = append(h.channels, label()+path) },
	})
}

// reach refuses what tool p's code, or p itself, holds: MCP tools the agent
// is not given, channels of MCP tools, and chat-model clients that are not
// the agent's routed model.
func (b *builder) reach(p *pending, tp string, given *toolSet) {
	var h held
	if p.mcp != nil {
		h = p.code.held
		if !b.walk.isLibraryType(reflect.TypeOf(p.tool)) && !isLibraryPointer(b.walk, p.tool) {
			// A wrapper of the user's around an MCP tool: its fields too.
			b.walk.collect(p.tool, "", 0, &h)
		}
	} else {
		b.walk.collect(p.tool, "", 0, &h)
	}
	var reported map[string]bool
	for _, t := range h.tools {
		if p.mcp != nil && (given.sameAs(t, p.tool) || namedKey(t, t.MCPRecord()) == namedKey(p.mcp, p.record)) {
			continue // the tool itself, or the MCP tool a wrapper wraps
		}
		if given.holds(t) {
			continue
		}
		name := t.Name()
		if reported[name] {
			continue
		}
		if reported == nil {
			reported = map[string]bool{}
		}
		reported[name] = true
		b.refuse(refusals.ErrForeignTool, tp, "foreign-mcp-tool", name,
			"tool "+quote(p.name)+" holds this MCP tool, whose server the definition would not record",
			"give the agent that tool too")
	}
	for _, where := range h.channels {
		b.refuse(refusals.ErrForeignTool, tp, "mcp-tool-channel", p.name,
			where+" is a channel of MCP tools, whose contents Build cannot see, so their servers would not be recorded",
			"hold the tools where Build can read them (a field, slice, map, atomic.Pointer or sync.Map) and give the agent the tools held")
	}
	for _, m := range h.models {
		if b.routed.has(m.v) {
			continue
		}
		b.refuse(refusals.ErrUnroutedModel, tp, "unrouted-model", p.name,
			where(m.where)+" holds a chat-model client ("+m.v.Type().String()+") that is not the agent's routed model (Agent.ChatModel): its calls would not go through the agent's model",
			"give the agent that model as Agent.ChatModel, or let the tool reach only the agent's model")
	}
}

func where(w string) string {
	if w == "" {
		return "the tool"
	}
	return w
}

// isLibraryPointer reports whether t is a pointer to a library type (a
// *mcpservers.Tool, say), whose fields Build does not walk.
func isLibraryPointer(w *walker, t any) bool {
	rt := reflect.TypeOf(t)
	return rt != nil && rt.Kind() == reflect.Pointer && w.isLibraryType(rt.Elem())
}

// reachMiddleware refuses MCP tools middleware m holds but neither offers
// nor the agent is given, and channels of MCP tools it holds.
func (b *builder) reachMiddleware(m Middleware, ptr string, given *toolSet) {
	if isNil(m) {
		return
	}
	reported := map[string]bool{}
	b.walk.find(m, visit{
		tool: func(h MCPTool, _ string) {
			if given.holds(h) {
				return
			}
			name := h.Name()
			if reported[name] {
				return
			}
			reported[name] = true
			b.refuse(refusals.ErrHiddenTool, ptr, "hidden-mcp-tool", name,
				"a middleware holds this MCP tool but does not offer it, so it could run it out of the definition's sight",
				"give the agent that tool, or list it in the middleware's Tools")
		},
		channel: func(path string) {
			b.refuse(refusals.ErrHiddenTool, ptr, "mcp-tool-channel", "",
				"the middleware"+path+" is a channel of MCP tools, whose contents Build cannot see",
				"hold the tools where Build can read them (a field, slice, map, atomic.Pointer or sync.Map) and give the agent the tools held")
		},
	})
}

func quote(s string) string {
	return "\"" + strings.ReplaceAll(s, "\"", "\\\"") + "\""
}

// toolSet identifies tools: pointer-shaped values by their interface words
// (type and address), any other MCP tool by its server and name.
type toolSet struct {
	ptrs  map[[2]uintptr]bool
	named map[string]bool
}

func newToolSet() *toolSet {
	return &toolSet{ptrs: map[[2]uintptr]bool{}, named: map[string]bool{}}
}

// keyOf is t's identity when t is a pointer: its interface words, type and
// address. (A struct and its first field share an address, not a type.)
func keyOf(t any) ([2]uintptr, bool) {
	if t == nil || reflect.TypeOf(t).Kind() != reflect.Pointer {
		return [2]uintptr{}, false
	}
	return *(*[2]uintptr)(unsafe.Pointer(&t)), true
}

func namedKey(m MCPTool, r MCPRecord) string { return r.Server.Name + "\x00" + m.Name() }

func (s *toolSet) add(t Tool, m MCPTool, r MCPRecord) {
	if k, ok := keyOf(t); ok {
		s.ptrs[k] = true
		return
	}
	if m != nil {
		s.named[namedKey(m, r)] = true
	}
}

func (s *toolSet) has(t Tool, m MCPTool, r MCPRecord) bool {
	if k, ok := keyOf(t); ok {
		return s.ptrs[k]
	}
	return m != nil && s.named[namedKey(m, r)]
}

// holds reports whether the agent is given tool h.
func (s *toolSet) holds(h MCPTool) bool {
	if k, ok := keyOf(h); ok {
		return s.ptrs[k]
	}
	return s.named[namedKey(h, h.MCPRecord())]
}

func (s *toolSet) sameAs(h MCPTool, t Tool) bool {
	ka, oka := keyOf(h)
	kb, okb := keyOf(t)
	return oka && okb && ka == kb
}
