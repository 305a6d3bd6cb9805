package definition

import (
	"bytes"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// The vet memo makes a bound call's check cost a comparison, not a record:
// a tool that passed Vet is remembered with everything Vet read from it (its
// name, description, schemas, annotations, server, and the identity of the
// code values that shape its calls). When the same tool value presents all
// of that unchanged, the outcome is the same, and Vet passes it without
// recording it again. Code is compared by identity, as Build's code memo
// does: the same func or value has the same source, so the same
// fingerprint; what a value holds is not fingerprinted.
//
// Each entry holds its tool, so the tool's address is not reused while it
// is remembered. At most maxVetMemo tools are remembered per definition;
// beyond that, each call is vetted in full.

const maxVetMemo = 1 << 12

type vetMemo struct {
	m sync.Map // vetKey → *vetEntry
	n atomic.Int64
}

type vetKey struct {
	words [2]uintptr // the tool's interface words: type and value
	path  string     // the sub-agent it was vetted for
}

// vetEntry is what a tool presented when it passed.
type vetEntry struct {
	tool       Tool
	name, desc string
	input      []byte
	fn         ToolFunc // a *FuncTool's function
	mcp        bool
	record     MCPRecord // with copies of its byte slices and args
	code       []codeID
	codeValues []any // held, so that no code value's address is reused
}

func keyFor(t Tool, path string) vetKey {
	return vetKey{words: *(*[2]uintptr)(unsafe.Pointer(&t)), path: path}
}

// lookup reports whether t, vetted for path, presents what it presented
// when it last passed.
func (m *vetMemo) lookup(t Tool, path string) (vetKey, bool) {
	key := keyFor(t, path)
	v, ok := m.m.Load(key)
	if !ok {
		return key, false
	}
	return key, v.(*vetEntry).matches(t)
}

// remember records what t presents now, having passed.
func (m *vetMemo) remember(key vetKey, t Tool) {
	if _, ok := m.m.Load(key); !ok && m.n.Load() >= maxVetMemo {
		return
	}
	e := present(t)
	if _, loaded := m.m.Swap(key, e); !loaded {
		m.n.Add(1)
	}
}

func present(t Tool) *vetEntry {
	e := &vetEntry{tool: t, name: t.Name(), desc: t.Description(), input: bytes.Clone(t.InputSchema())}
	if ft, ok := t.(*FuncTool); ok {
		e.fn = ft.fn
	}
	if m, ok := t.(MCPTool); ok {
		r := m.MCPRecord()
		e.mcp = true
		e.record = r
		e.record.Server.Args = slices.Clone(r.Server.Args)
		e.record.OutputSchema = bytes.Clone(r.OutputSchema)
		e.record.Annotations = bytes.Clone(r.Annotations)
		e.record.Code = nil
		e.code = make([]codeID, len(r.Code))
		e.codeValues = make([]any, len(r.Code))
		for i, c := range r.Code {
			e.code[i], e.codeValues[i] = idOf(c), c.Value
		}
	}
	return e
}

func (e *vetEntry) matches(t Tool) bool {
	if t.Name() != e.name || t.Description() != e.desc || !bytes.Equal(t.InputSchema(), e.input) {
		return false
	}
	if ft, ok := t.(*FuncTool); ok && funcPC(ft.fn) != funcPC(e.fn) {
		return false
	}
	m, ok := t.(MCPTool)
	if ok != e.mcp {
		return false
	}
	if !ok {
		return true
	}
	r := m.MCPRecord()
	w := &e.record
	if r.Server.Name != w.Server.Name || r.Server.Transport != w.Server.Transport || r.Server.URL != w.Server.URL ||
		r.Server.Command != w.Server.Command || !slices.Equal(r.Server.Args, w.Server.Args) ||
		r.SessionBound != w.SessionBound || r.Title != w.Title ||
		!bytes.Equal(r.OutputSchema, w.OutputSchema) || !bytes.Equal(r.Annotations, w.Annotations) ||
		len(r.Code) != len(e.code) {
		return false
	}
	for i, c := range r.Code {
		if idOf(c) != e.code[i] {
			return false
		}
	}
	return true
}

// funcPC is a func value's identity: its closure's address, which names
// the code and what it captured; 0 for nil.
func funcPC(fn ToolFunc) uintptr {
	return uintptr(*(*unsafe.Pointer)(unsafe.Pointer(&fn)))
}
