package definition

import (
	"reflect"
	"runtime/debug"
	"strings"
	"unsafe"

	"github.com/guardian-agent/guardian-go/refusals"
)

// An MCP tool held where the definition cannot see it being called (by
// middleware it does not offer, or by a tool's own code) calls a server the
// definition might not record. Build finds such tools by walking the
// values' fields with reflect: every field of the user's types, the
// exported fields of the standard library's, mcp-go's and this module's
// (their unexported fields are runtime state such as connection pools,
// which other goroutines may be changing). What reflect cannot see, the
// variables a closure captures, is listed in docs/definition.md under what a
// definition can't see.

var mcpToolType = reflect.TypeFor[MCPTool]()

// reach refuses MCP tools that tool p's code holds but the agent is not
// given.
func (b *builder) reach(p *pending, tp string, given *toolSet) {
	var held []MCPTool
	if p.mcp != nil {
		held = p.code.held
	} else {
		b.walk.find(p.tool, func(h MCPTool) { held = append(held, h) })
	}
	var reported map[string]bool
	for _, h := range held {
		if p.mcp != nil && given.sameAs(h, p.tool) {
			continue
		}
		if given.holds(h) {
			continue
		}
		name := h.Name()
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
}

// reachMiddleware refuses MCP tools middleware m holds but neither offers
// nor the agent is given.
func (b *builder) reachMiddleware(m Middleware, ptr string, given *toolSet) {
	if isNil(m) {
		return
	}
	reported := map[string]bool{}
	b.walk.find(m, func(h MCPTool) {
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

// walker finds MCP tools reachable from a value. It remembers, per type,
// whether a value of that type can hold one at all, so walking plain data is
// cheap.
type walker struct {
	mayHold map[reflect.Type]bool
	modules []string // the build's module paths, read when first needed
}

func newWalker() *walker { return &walker{mayHold: map[reflect.Type]bool{}} }

type visitKey struct {
	t reflect.Type
	p uintptr
}

// find calls found for each MCP tool reachable from root (root itself
// excluded), not descending into the tools it finds.
func (w *walker) find(root any, found func(MCPTool)) {
	if root == nil {
		return
	}
	rv := reflect.ValueOf(root)
	if !w.canHold(rv.Type()) {
		return // plain data, a func, or a type that cannot hold a tool: the common case
	}
	c := reflect.New(rv.Type()).Elem()
	c.Set(rv)
	seen := map[visitKey]bool{}
	w.walk(c, seen, found, true)
}

func (w *walker) walk(v reflect.Value, seen map[visitKey]bool, found func(MCPTool), root bool) {
	if !v.IsValid() {
		return
	}
	if !v.CanInterface() && v.CanAddr() {
		// An unexported field: read it through its address. Nothing is
		// written, and the value found is only asked for its record.
		v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	}
	t := v.Type()
	if !root && t.Kind() != reflect.Interface && t.Implements(mcpToolType) && v.CanInterface() {
		if t.Kind() == reflect.Pointer && v.IsNil() {
			return
		}
		found(v.Interface().(MCPTool))
		return
	}
	if !w.canHold(t) {
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		k := visitKey{t, v.Pointer()}
		if seen[k] {
			return
		}
		seen[k] = true
		w.walk(v.Elem(), seen, found, false)
	case reflect.Interface:
		if v.IsNil() || !v.CanInterface() {
			return
		}
		e := v.Elem()
		c := reflect.New(e.Type()).Elem()
		c.Set(e)
		w.walk(c, seen, found, false)
	case reflect.Struct:
		library := w.isLibraryType(t)
		for i := range t.NumField() {
			if library && !t.Field(i).IsExported() {
				continue
			}
			w.walk(v.Field(i), seen, found, false)
		}
	case reflect.Slice:
		if v.IsNil() {
			return
		}
		k := visitKey{t, v.Pointer()}
		if seen[k] {
			return
		}
		seen[k] = true
		for i := range v.Len() {
			w.walk(v.Index(i), seen, found, false)
		}
	case reflect.Array:
		for i := range v.Len() {
			w.walk(v.Index(i), seen, found, false)
		}
	case reflect.Map:
		if v.IsNil() || !v.CanInterface() {
			return
		}
		k := visitKey{t, v.Pointer()}
		if seen[k] {
			return
		}
		seen[k] = true
		it := v.MapRange()
		for it.Next() {
			for _, x := range []reflect.Value{it.Key(), it.Value()} {
				c := reflect.New(x.Type()).Elem()
				c.Set(x)
				w.walk(c, seen, found, false)
			}
		}
	}
}

// canHold reports whether a value of type t can hold an MCP tool.
func (w *walker) canHold(t reflect.Type) bool {
	if v, ok := w.mayHold[t]; ok {
		return v
	}
	w.mayHold[t] = true // a recursive type: assume it can while deciding
	v := false
	switch t.Kind() {
	case reflect.Interface:
		v = true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		v = t.Elem().Implements(mcpToolType) || t.Implements(mcpToolType) || w.canHold(t.Elem())
	case reflect.Map:
		v = t.Key().Implements(mcpToolType) || t.Elem().Implements(mcpToolType) || w.canHold(t.Key()) || w.canHold(t.Elem())
	case reflect.Struct:
		v = t.Implements(mcpToolType)
		library := w.isLibraryType(t)
		for i := 0; !v && i < t.NumField(); i++ {
			f := t.Field(i)
			if library && !f.IsExported() {
				continue
			}
			v = f.Type.Implements(mcpToolType) || w.canHold(f.Type)
		}
	}
	w.mayHold[t] = v
	return v
}

// isLibraryType reports whether t is declared by the standard library,
// mcp-go or this module, whose unexported fields Build does not read.
func (w *walker) isLibraryType(t reflect.Type) bool {
	p := t.PkgPath()
	if p == "" || p == "main" || strings.HasSuffix(p, "_test") {
		return false // unnamed, or declared in a program or a test: the user's
	}
	if underModule(p, "github.com/mark3labs/mcp-go") || underModule(p, "github.com/guardian-agent/guardian-go") {
		return true
	}
	first, _, _ := strings.Cut(p, "/")
	if strings.Contains(first, ".") {
		return false
	}
	// No dot in the first element: the standard library's, unless a module
	// of this build has the path (a module may be named "myapp").
	if w.modules == nil {
		w.modules = buildModules()
	}
	for _, m := range w.modules {
		if underModule(p, m) {
			return false
		}
	}
	return true
}

// buildModules lists the paths of the running program's main module and
// its dependencies (the replaced paths too).
func buildModules() []string {
	out := []string{}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return out
	}
	add := func(m *debug.Module) {
		for ; m != nil; m = m.Replace {
			if m.Path != "" {
				out = append(out, m.Path)
			}
		}
	}
	add(&bi.Main)
	for _, d := range bi.Deps {
		add(d)
	}
	return out
}

// underModule reports whether package path p is module m's or one of its
// subpackages'.
func underModule(p, m string) bool {
	return p == m || (len(p) > len(m) && p[len(m)] == '/' && p[:len(m)] == m)
}
