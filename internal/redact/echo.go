package redact

import (
	"bytes"
	"encoding/json"
)

// HoldsCredential reports whether s holds a credential r learnt: in any of
// its forms and case, a 12-byte run of a long one, a short one as a whole
// word, or inside a base64 or percent-encoded run that decodes to one.
func (r *Redactor) HoldsCredential(s string) bool {
	set := r.load()
	return set != nil && set.holds(s, set.creds)
}

// EchoedIn reports whether a tool's raw JSON definition holds a credential
// r learnt: in any string or member name, decoded (so that JSON escapes
// hide nothing), or in the raw text itself.
func (r *Redactor) EchoedIn(raw []byte) bool {
	set := r.load()
	if set == nil || len(set.creds) == 0 {
		return false // no credential to find: not worth decoding the tool
	}
	// The raw text as it is; its encoded runs are looked into in the
	// decoded strings below, which hold the same runs unescaped.
	if !set.find(foldASCII(string(raw)), set.creds, true, func(int, int) bool { return false }) {
		return true
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return false // the raw text was checked
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case string:
			return r.HoldsCredential(x)
		case json.Number:
			return r.HoldsCredential(string(x))
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case map[string]any:
			for k, e := range x {
				if r.HoldsCredential(k) || walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}
