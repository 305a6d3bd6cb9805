package definition

import (
	"bytes"
	"reflect"
	"unsafe"
)

// routedModels are the agents' routed models (Agent.ChatModel), which a
// tool may hold: a chat-model client found is one of them when it is the
// same pointer (or the value a routed pointer points at), or a copy of the
// routed value (or of what a routed pointer points at): the same type and
// the same bytes (the same options, the same connection pool).
type routedModels struct {
	ptrs   map[visitKey]bool // a pointer-shaped model, by type and address
	elems  map[visitKey]bool // what a routed pointer points at
	values []reflect.Value   // models given as values, addressable copies
}

func (r *routedModels) add(m any) {
	if m == nil {
		return
	}
	v := reflect.ValueOf(m)
	t := v.Type()
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		if v.IsNil() {
			return
		}
		if r.ptrs == nil {
			r.ptrs, r.elems = map[visitKey]bool{}, map[visitKey]bool{}
		}
		r.ptrs[visitKey{t, v.Pointer()}] = true
		if t.Kind() == reflect.Pointer {
			r.elems[visitKey{t.Elem(), v.Pointer()}] = true
			r.add(v.Elem().Interface()) // and a copy of what it points at
		}
	default:
		c := reflect.New(t).Elem()
		c.Set(v)
		r.values = append(r.values, c)
	}
}

// has reports whether v, a chat-model client a walk found, is routed.
func (r *routedModels) has(v reflect.Value) bool {
	t := v.Type()
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		if r.ptrs[visitKey{t, v.Pointer()}] {
			return true
		}
		if t.Kind() == reflect.Pointer && !v.IsNil() {
			return r.has(v.Elem())
		}
		return false
	}
	if v.CanAddr() && r.elems[visitKey{t, v.UnsafeAddr()}] {
		return true
	}
	for _, m := range r.values {
		if m.Type() == t && sameBytes(m, v) {
			return true
		}
	}
	return false
}

// sameBytes reports whether a and b, of one type, hold the same bytes.
func sameBytes(a, b reflect.Value) bool {
	if !b.CanAddr() {
		c := reflect.New(b.Type()).Elem()
		c.Set(b)
		b = c
	}
	n := int(a.Type().Size())
	return bytes.Equal(unsafe.Slice((*byte)(unsafe.Pointer(a.UnsafeAddr())), n), unsafe.Slice((*byte)(unsafe.Pointer(b.UnsafeAddr())), n))
}
