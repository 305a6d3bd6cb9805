package definition

import (
	"hash/maphash"
	"unsafe"

	"github.com/guardian-agent/guardian-go/fingerprint"
	"github.com/guardian-agent/guardian-go/refusals"
)

// codeInfo is what Build learns from one tool's code: its fingerprinted
// parts, its sourceHash, and the MCP tools the code values hold.
type codeInfo struct {
	parts []fingerprint.Part
	hash  string
	held  held
	ids   []codeID // the code list's identity, to check a hash match
}

// codeID is one code value's identity: its role and interface words. The
// same boxed value, func or pointer gives the same words; the values are
// alive for the whole Build (the tools hold them), so no address is reused
// while it is compared.
type codeID struct {
	role  Role
	words [2]uintptr
}

func idOf(c Code) codeID {
	return codeID{role: c.Role, words: *(*[2]uintptr)(unsafe.Pointer(&c.Value))}
}

// code analyses the code of the MCP tool at pointer tp, memoised by the identity of the code
// values: the tools of one client share their interceptors and handlers,
// so most of an agent's tools have the same code. A code list that is
// refused is not memoised, so every tool that has it is refused at its own
// pointer.
func (b *builder) code(tp, tool string, code []Code) *codeInfo {
	key := codeSlice{unsafe.SliceData(code), len(code)}
	if ci, ok := b.slices[key]; ok {
		return ci
	}
	ids := b.ids[:0]
	for _, c := range code {
		ids = append(ids, idOf(c))
	}
	b.ids = ids
	// The ids' memory as bytes: equal ids hash equal (a role's string
	// header may differ for equal roles; that only misses the memo).
	raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(ids))), len(ids)*int(unsafe.Sizeof(codeID{})))
	h := maphash.Hash{}
	h.SetSeed(b.seed)
	h.Write(raw)
	sum := h.Sum64()
	for _, ci := range b.codes[sum] {
		if len(ci.ids) == len(code) && sameIDs(ci.ids, code) {
			b.rememberSlice(key, ci)
			return ci
		}
	}
	before := len(b.errs)
	ci := &codeInfo{parts: b.codeParts(refusals.Append(tp, keySourceHash), tool, code)}
	ci.hash = b.combine(ci.parts)
	interceptors := 0
	for _, c := range code {
		b.walk.collect(c.Value, c.Role, interceptors, &ci.held)
		if c.Role == RoleInterceptor {
			interceptors++
		}
	}
	if len(b.errs) == before {
		ci.ids = make([]codeID, len(code))
		for i, c := range code {
			ci.ids[i] = idOf(c)
		}
		if b.codes == nil {
			b.codes = map[uint64][]*codeInfo{}
		}
		b.codes[sum] = append(b.codes[sum], ci)
		b.rememberSlice(key, ci)
	}
	return ci
}

// codeSlice is a code list's memory: where it starts and how long it is.
type codeSlice struct {
	data *Code
	n    int
}

func (b *builder) rememberSlice(key codeSlice, ci *codeInfo) {
	if key.data == nil {
		return
	}
	if b.slices == nil {
		b.slices = map[codeSlice]*codeInfo{}
	}
	b.slices[key] = ci
}

func sameIDs(ids []codeID, code []Code) bool {
	for i, c := range code {
		if ids[i] != idOf(c) {
			return false
		}
	}
	return true
}
