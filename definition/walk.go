package definition

import (
	"context"
	"reflect"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// The walk for what a value can reach: the MCP tools it holds (whose
// servers the definition must record), the chat-model clients it holds
// (which must be the agent's routed model), and the channels of MCP tools
// it holds (whose contents no one can read without taking them).
//
// It follows every field of the user's types, and the exported fields of
// the standard library's, mcp-go's and this module's (their unexported
// fields are runtime state such as connection pools, which other goroutines
// may be changing), with these exceptions, read the way their own methods
// read them:
//
//   - sync/atomic's Pointer[T] and Value: what they hold now, loaded
//     atomically;
//   - sync.Map: its entries, by Range;
//   - context.Context values: the value and key of each WithValue, and the
//     parents;
//   - a method value x.M of a pointer whose type is an MCP tool type the
//     build knows (the type of a tool it was given or found): the receiver
//     x, which the compiler keeps in the func value's closure. reflect
//     gives a func value's code pointer only; the closure is read with
//     unsafe, in the layout gc has used since Go 1.1 (the code pointer,
//     then the receiver), and only for a func whose code the runtime names
//     "pkg.(*T).M-fm" for a type T the build knows.
//
// What no walk can see is a closure's captured variables: the call-time
// check (Bind, VetCall) stops a call made through one.

var (
	mcpToolType    = reflect.TypeFor[MCPTool]()
	contextType    = reflect.TypeFor[context.Context]()
	syncMapType    = reflect.TypeFor[sync.Map]()
	atomicValueTyp = reflect.TypeFor[atomic.Value]()
)

// defaultModelPackages are the package path prefixes of chat-model clients
// recognised without Options.ChatModelPackages.
var defaultModelPackages = [...]string{
	"github.com/openai/openai-go", // v1, and v2, v3 as subpaths
	"github.com/anthropics/anthropic-sdk-go",
	"google.golang.org/genai",
	"github.com/sashabaranov/go-openai",
	"github.com/tmc/langchaingo/llms",
	"github.com/cloudwego/eino/components/model",
	"github.com/cloudwego/eino-ext/components/model",
	"google.golang.org/adk/model",
	"github.com/firebase/genkit/go/ai",
	"charm.land/fantasy",
}

// walker walks values. It remembers, per type, whether a value of that
// type can hold anything it looks for, so walking plain data is cheap.
type walker struct {
	mayHold   map[reflect.Type]bool
	models    map[reflect.Type]bool // chat-model client types
	modules   []string              // the build's module paths, read when first needed
	modelPkgs []string
	// toolTypes are the MCP tool types the build knows, by the name the
	// runtime gives their pointer-receiver method values' receiver:
	// "pkg.(*T)".
	toolTypes map[string]reflect.Type
	known     map[reflect.Type]bool
	fnNames   map[uintptr]string // code pointer → runtime name
}

func newWalker(modelPkgs []string) *walker {
	w := &walker{mayHold: map[reflect.Type]bool{}, models: map[reflect.Type]bool{}, toolTypes: map[string]reflect.Type{}, fnNames: map[uintptr]string{}}
	w.modelPkgs = append(append(w.modelPkgs, defaultModelPackages[:]...), modelPkgs...)
	return w
}

// knowTool adds t's type to the MCP tool types whose method values the
// walk follows.
func (w *walker) knowTool(t any) {
	rt := reflect.TypeOf(t)
	if rt == nil || rt.Kind() != reflect.Pointer || w.known[rt] || !rt.Implements(mcpToolType) {
		return
	}
	if w.known == nil {
		w.known = map[reflect.Type]bool{}
	}
	w.known[rt] = true
	e := rt.Elem()
	if e.Name() == "" {
		return
	}
	w.toolTypes[e.PkgPath()+".(*"+e.Name()+")"] = rt
}

// visit is what a walk reports; path is the Go field path from the root.
type visit struct {
	tool    func(h MCPTool, path string)
	model   func(v reflect.Value, path string)
	channel func(path string) // a channel whose element can be an MCP tool
}

type visitKey struct {
	t reflect.Type
	p uintptr
}

type walkState struct {
	seen map[visitKey]bool
	at   visit
	path []string
}

func (s *walkState) where(seg string) string {
	return strings.Join(s.path, "") + seg
}

// find walks root (root itself is not reported).
func (w *walker) find(root any, at visit) {
	if root == nil {
		return
	}
	if !w.worthWalking(root) {
		return
	}
	rv := reflect.ValueOf(root)
	c := reflect.New(rv.Type()).Elem()
	c.Set(rv)
	s := &walkState{at: at}
	w.walk(c, s, true)
}

// worthWalking reports whether root can hold anything a walk looks for:
// not plain data, nor a type that cannot (the common case), nor a func
// when no MCP tool type is known whose method value it could be.
func (w *walker) worthWalking(root any) bool {
	t := reflect.TypeOf(root)
	if t == nil || !w.canHold(t) {
		return false
	}
	return t.Kind() != reflect.Func || len(w.toolTypes) > 0
}

// visited marks k seen, reporting whether it was already.
func (s *walkState) visited(k visitKey) bool {
	if s.seen[k] {
		return true
	}
	if s.seen == nil {
		s.seen = map[visitKey]bool{}
	}
	s.seen[k] = true
	return false
}

func (w *walker) walk(v reflect.Value, s *walkState, root bool) {
	if !v.IsValid() {
		return
	}
	if !v.CanInterface() && v.CanAddr() {
		// An unexported field: read it through its address. Nothing is
		// written, and what is found is only asked for its record or
		// compared.
		v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	}
	t := v.Type()
	if !root && t.Kind() != reflect.Interface && t.Implements(mcpToolType) && v.CanInterface() {
		if t.Kind() == reflect.Pointer && v.IsNil() {
			return
		}
		if s.at.tool != nil {
			s.at.tool(v.Interface().(MCPTool), s.where(""))
		}
		return
	}
	if !root && t.Kind() != reflect.Interface && w.isModel(t) {
		if (t.Kind() == reflect.Pointer || t.Kind() == reflect.Func) && v.IsNil() {
			return
		}
		if s.at.model != nil {
			s.at.model(v, s.where(""))
		}
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
		if s.visited(visitKey{t, v.Pointer()}) {
			return
		}
		w.walk(v.Elem(), s, false)
	case reflect.Interface:
		if v.IsNil() || !v.CanInterface() {
			return
		}
		e := v.Elem()
		c := reflect.New(e.Type()).Elem()
		c.Set(e)
		w.walk(c, s, false)
	case reflect.Struct:
		if w.special(v, s) {
			return
		}
		library := w.isLibraryType(t)
		for i := range t.NumField() {
			f := t.Field(i)
			if library && !f.IsExported() && !contextField(t, f.Name) {
				continue
			}
			s.path = append(s.path, "."+f.Name)
			w.walk(v.Field(i), s, false)
			s.path = s.path[:len(s.path)-1]
		}
	case reflect.Slice:
		if v.IsNil() {
			return
		}
		if s.visited(visitKey{t, v.Pointer()}) {
			return
		}
		w.items(v, s)
	case reflect.Array:
		w.items(v, s)
	case reflect.Map:
		if v.IsNil() || !v.CanInterface() {
			return
		}
		if s.visited(visitKey{t, v.Pointer()}) {
			return
		}
		// Keys are not written in the path: a key may be a credential.
		s.path = append(s.path, "[…]")
		it := v.MapRange()
		for it.Next() {
			for _, x := range []reflect.Value{it.Key(), it.Value()} {
				c := reflect.New(x.Type()).Elem()
				c.Set(x)
				w.walk(c, s, false)
			}
		}
		s.path = s.path[:len(s.path)-1]
	case reflect.Chan:
		if !v.IsNil() && s.at.channel != nil {
			s.at.channel(s.where(""))
		}
	case reflect.Func:
		w.methodValue(v, s)
	}
}

func (w *walker) items(v reflect.Value, s *walkState) {
	for i := range v.Len() {
		s.path = append(s.path, "["+strconv.Itoa(i)+"]")
		w.walk(v.Index(i), s, false)
		s.path = s.path[:len(s.path)-1]
	}
}

// special walks the library containers read through their own methods;
// it reports whether v was one.
func (w *walker) special(v reflect.Value, s *walkState) bool {
	t := v.Type()
	if t.PkgPath() != "sync/atomic" && t != syncMapType {
		return false
	}
	if !v.CanAddr() {
		c := reflect.New(t).Elem()
		c.Set(v)
		v = c
	}
	addr := unsafe.Pointer(v.UnsafeAddr())
	switch {
	case t == syncMapType:
		(*sync.Map)(addr).Range(func(k, x any) bool {
			s.path = append(s.path, "[…]")
			for _, e := range []any{k, x} {
				if e == nil {
					continue
				}
				c := reflect.New(reflect.TypeOf(e)).Elem()
				c.Set(reflect.ValueOf(e))
				w.walk(c, s, false)
			}
			s.path = s.path[:len(s.path)-1]
			return true
		})
	case t == atomicValueTyp:
		if x := (*atomic.Value)(addr).Load(); x != nil {
			c := reflect.New(reflect.TypeOf(x)).Elem()
			c.Set(reflect.ValueOf(x))
			s.path = append(s.path, ".Load()")
			w.walk(c, s, false)
			s.path = s.path[:len(s.path)-1]
		}
	default:
		elem, ok := atomicPointerElem(t)
		if !ok {
			return false
		}
		f, _ := t.FieldByName("v")
		p := atomic.LoadPointer((*unsafe.Pointer)(unsafe.Add(addr, f.Offset)))
		if p != nil {
			s.path = append(s.path, ".Load()")
			w.walk(reflect.NewAt(elem, p), s, false)
			s.path = s.path[:len(s.path)-1]
		}
	}
	return true
}

// atomicPointerElem returns T for sync/atomic's Pointer[T]: the element
// of its [0]*T field.
func atomicPointerElem(t reflect.Type) (reflect.Type, bool) {
	if t.PkgPath() != "sync/atomic" || !strings.HasPrefix(t.Name(), "Pointer[") {
		return nil, false
	}
	f, ok := t.FieldByName("v")
	if !ok || f.Type.Kind() != reflect.UnsafePointer {
		return nil, false
	}
	for i := range t.NumField() {
		ft := t.Field(i).Type
		if ft.Kind() == reflect.Array && ft.Len() == 0 && ft.Elem().Kind() == reflect.Pointer {
			return ft.Elem().Elem(), true
		}
	}
	return nil, false
}

// contextField reports whether unexported field name of library type t is
// one the walk reads: a context's value, key and parent.
func contextField(t reflect.Type, name string) bool {
	if t.PkgPath() != "context" {
		return false
	}
	switch t.Name() {
	case "valueCtx":
		return name == "key" || name == "val"
	case "withoutCancelCtx", "afterFuncCtx", "stopCtx":
		return name == "c" || name == "Context"
	}
	return false
}

// methodValue follows a method value x.M of a known MCP tool type to x.
func (w *walker) methodValue(v reflect.Value, s *walkState) {
	if v.IsNil() || len(w.toolTypes) == 0 {
		return
	}
	if !v.CanAddr() {
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		v = c
	}
	closure := *(*unsafe.Pointer)(unsafe.Pointer(v.UnsafeAddr()))
	if closure == nil {
		return
	}
	pc := *(*uintptr)(closure)
	name, ok := w.fnNames[pc]
	if !ok {
		if f := runtime.FuncForPC(pc); f != nil {
			name = f.Name()
		}
		w.fnNames[pc] = name
	}
	recv, ok := strings.CutSuffix(name, "-fm")
	if !ok {
		return
	}
	dot := strings.LastIndexByte(recv, '.')
	if dot < 0 {
		return
	}
	rt, ok := w.toolTypes[recv[:dot]]
	if !ok {
		return
	}
	x := *(*unsafe.Pointer)(unsafe.Add(closure, unsafe.Sizeof(uintptr(0))))
	if x == nil {
		return
	}
	s.path = append(s.path, " (method value "+recv[dot+1:]+" of)")
	if s.at.tool != nil {
		s.at.tool(reflect.NewAt(rt.Elem(), x).Interface().(MCPTool), s.where(""))
	}
	s.path = s.path[:len(s.path)-1]
}

// canHold reports whether a value of type t can hold anything the walk
// looks for.
func (w *walker) canHold(t reflect.Type) bool {
	if v, ok := w.mayHold[t]; ok {
		return v
	}
	w.mayHold[t] = true // a recursive type: assume it can while deciding
	v := false
	switch t.Kind() {
	case reflect.Interface, reflect.Func:
		v = true
	case reflect.Chan:
		v = w.staticHolds(t.Elem(), map[reflect.Type]bool{})
	case reflect.Pointer, reflect.Slice, reflect.Array:
		v = t.Elem().Implements(mcpToolType) || w.isModel(t.Elem()) || w.canHold(t.Elem())
	case reflect.Map:
		v = w.canHold(t.Key()) || w.canHold(t.Elem()) || t.Key().Implements(mcpToolType) || t.Elem().Implements(mcpToolType)
	case reflect.Struct:
		if t == syncMapType || t == atomicValueTyp {
			v = true
			break
		}
		if elem, ok := atomicPointerElem(t); ok {
			v = elem.Implements(mcpToolType) || reflect.PointerTo(elem).Implements(mcpToolType) || w.isModel(elem) || w.canHold(elem)
			break
		}
		v = t.Implements(mcpToolType) || w.isModel(t)
		library := w.isLibraryType(t)
		for i := 0; !v && i < t.NumField(); i++ {
			f := t.Field(i)
			if library && !f.IsExported() && !contextField(t, f.Name) {
				continue
			}
			v = f.Type.Implements(mcpToolType) || w.isModel(f.Type) || w.canHold(f.Type)
		}
	}
	w.mayHold[t] = v
	return v
}

// staticHolds reports whether a value of type t is, or holds in its
// fields, an MCP tool by its type: an interface type that is not an MCP
// tool's (any, say) does not count.
func (w *walker) staticHolds(t reflect.Type, seen map[reflect.Type]bool) bool {
	if t.Implements(mcpToolType) {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return w.staticHolds(t.Elem(), seen)
	case reflect.Map:
		return w.staticHolds(t.Key(), seen) || w.staticHolds(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if w.staticHolds(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

// isModel reports whether t is a chat-model client's type: declared in a
// package of Options.ChatModelPackages or the default list, and able to
// make a call: it, or a type it holds, has a method whose first parameter
// is a context.Context (a request type or an option is not a client).
func (w *walker) isModel(t reflect.Type) bool {
	if v, ok := w.models[t]; ok {
		return v
	}
	base := t
	for base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	v := false
	if p := base.PkgPath(); p != "" && w.modelPackage(p) {
		v = callsOut(t, map[reflect.Type]bool{})
	}
	w.models[t] = v
	return v
}

func (w *walker) modelPackage(p string) bool {
	for _, m := range w.modelPkgs {
		if underModule(p, m) {
			return true
		}
	}
	return false
}

// callsOut reports whether t or a type it holds has a method that takes a
// context first.
func callsOut(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if t.Kind() == reflect.Func {
		return t.NumIn() > 0 && t.In(0) == contextType
	}
	for _, mt := range []reflect.Type{t, reflect.PointerTo(t)} {
		for i := range mt.NumMethod() {
			ft := mt.Method(i).Type
			if t.Kind() == reflect.Interface {
				if ft.NumIn() > 0 && ft.In(0) == contextType {
					return true
				}
				continue
			}
			if ft.NumIn() > 1 && ft.In(1) == contextType {
				return true
			}
		}
		if t.Kind() == reflect.Interface {
			break
		}
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return callsOut(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if callsOut(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
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
