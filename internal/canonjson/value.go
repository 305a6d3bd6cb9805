// Package canonjson is the JSON core of the definition document: a strict
// parser (UTF-8 only, no duplicate keys, no lone surrogates, bounded depth,
// errors located by JSON pointer and byte offset that never quote the input)
// and a canonical encoder (members sorted by UTF-16 code units as RFC 8785
// sorts them, numbers in the shortest ECMAScript form, minimal string
// escaping, no HTML escaping, two-space indentation, trailing newline).
//
// The same value always encodes to the same bytes, and parsing canonical
// bytes and encoding them again gives the same bytes.
package canonjson

import (
	"encoding/json"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The JSON types.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	case Object:
		return "object"
	}
	return "unknown"
}

// Value is a parsed JSON value. Objects keep their members sorted by key
// (UTF-16 order), so a Value is already canonical.
type Value struct {
	Kind Kind
	// Text is the string for a String, the canonical number text for a
	// Number, and "true" or "false" for a Bool.
	Text    string
	Items   []Value  // Array
	Members []Member // Object, sorted by Key, keys unique
}

// Member is one member of an object.
type Member struct {
	Key   string
	Value Value
}

// Str returns a String value.
func Str(s string) Value { return Value{Kind: String, Text: s} }

// Boolean returns a Bool value.
func Boolean(b bool) Value {
	if b {
		return Value{Kind: Bool, Text: "true"}
	}
	return Value{Kind: Bool, Text: "false"}
}

// Arr returns an Array value.
func Arr(items ...Value) Value {
	if items == nil {
		items = []Value{}
	}
	return Value{Kind: Array, Items: items}
}

// Obj returns an Object value from members in any order. Later duplicates of
// a key replace earlier ones; callers building documents never repeat keys.
func Obj(members ...Member) Value {
	m := make([]Member, 0, len(members))
	m = append(m, members...)
	sortMembers(m)
	out := m[:0]
	for i, x := range m {
		if i+1 < len(m) && m[i+1].Key == x.Key {
			continue
		}
		out = append(out, x)
	}
	return Value{Kind: Object, Members: out}
}

// Get returns the member named key of an object, and whether it exists.
func (v Value) Get(key string) (Value, bool) {
	if v.Kind != Object {
		return Value{}, false
	}
	lo, hi := 0, len(v.Members)
	for lo < hi {
		mid := (lo + hi) / 2
		if compareKeys(v.Members[mid].Key, key) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(v.Members) && v.Members[lo].Key == key {
		return v.Members[lo].Value, true
	}
	return Value{}, false
}

// Equal reports whether v and w are the same JSON value.
func (v Value) Equal(w Value) bool {
	if v.Kind != w.Kind || v.Text != w.Text || len(v.Items) != len(w.Items) || len(v.Members) != len(w.Members) {
		return false
	}
	for i := range v.Items {
		if !v.Items[i].Equal(w.Items[i]) {
			return false
		}
	}
	for i := range v.Members {
		if v.Members[i].Key != w.Members[i].Key || !v.Members[i].Value.Equal(w.Members[i].Value) {
			return false
		}
	}
	return true
}

// Any converts v to the types encoding/json decodes into with UseNumber:
// map[string]any, []any, json.Number, string, bool and nil. The JSON Schema
// validator takes this form.
func (v Value) Any() any {
	switch v.Kind {
	case Bool:
		return v.Text == "true"
	case Number:
		return json.Number(v.Text)
	case String:
		return v.Text
	case Array:
		out := make([]any, len(v.Items))
		for i, x := range v.Items {
			out[i] = x.Any()
		}
		return out
	case Object:
		out := make(map[string]any, len(v.Members))
		for _, m := range v.Members {
			out[m.Key] = m.Value.Any()
		}
		return out
	}
	return nil
}

// CompareKeys orders object keys as a canonical object's members are
// ordered (by their UTF-16 code units), for callers that index them.
func CompareKeys(a, b string) int { return compareKeys(a, b) }

// compareKeys orders object keys by their UTF-16 code units, as RFC 8785
// requires; it differs from byte order only for characters above U+FFFF
// against U+E000–U+FFFF.
func compareKeys(a, b string) int {
	for a != "" && b != "" {
		ca, cb := a[0], b[0]
		if ca < utf8.RuneSelf && cb < utf8.RuneSelf {
			if ca != cb {
				return int(ca) - int(cb)
			}
			a, b = a[1:], b[1:]
			continue
		}
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := firstUnit(ra), firstUnit(rb)
			if ua != ub {
				return int(ua) - int(ub)
			}
			// Same high surrogate: the low surrogates decide.
			return int(secondUnit(ra)) - int(secondUnit(rb))
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) - len(b)
}

func firstUnit(r rune) uint16 {
	if r >= 0x10000 {
		hi, _ := utf16.EncodeRune(r)
		return uint16(hi)
	}
	return uint16(r)
}

func secondUnit(r rune) uint16 {
	if r >= 0x10000 {
		_, lo := utf16.EncodeRune(r)
		return uint16(lo)
	}
	return 0
}

func sortMembers(m []Member) {
	byKey := func(a, b Member) int { return compareKeys(a.Key, b.Key) }
	if !slices.IsSortedFunc(m, byKey) {
		slices.SortStableFunc(m, byKey)
	}
}
