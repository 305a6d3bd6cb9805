package eino

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"

	"github.com/eino-contrib/jsonschema"
	orderedmap "github.com/wk8/go-ordered-map/v2"

	"github.com/guardian-agent/guardian-go/internal/canonjson"
)

// A tool's input schema reaches Eino as a *jsonschema.Schema, a typed
// struct that drops what it has no field for when decoded the ordinary way
// (unknown keywords, "definitions", "default": null, "required": [], {} turned
// into true). Model clients marshal that struct to send it, so what the
// model sees is what the struct marshals to. schemaOf builds the struct so
// that it marshals to the same JSON value the server sent: every keyword
// the struct can carry exactly goes in its field (so clients that read the
// fields, not the JSON, see it), and every other keyword goes, as sent, in
// Extras, which the struct marshals alongside its fields.

// errNotSchema: a schema that is neither an object nor a boolean.
var errNotSchema = errors.New("a JSON Schema is an object or a boolean")

// schemaOf converts a tool's raw input schema. The result marshals to the
// same JSON value as raw (equal under RFC 8785 canonicalization); it fails
// only for bytes that are not a JSON object or boolean.
func schemaOf(raw json.RawMessage) (*jsonschema.Schema, error) {
	want, err := canonical(raw)
	if err != nil {
		return nil, err
	}
	s, err := convert(raw)
	if err == nil {
		if got, merr := json.Marshal(s); merr == nil {
			if c, cerr := canonical(got); cerr == nil && bytes.Equal(c, want) {
				return s, nil
			}
		}
	}
	// Not expected: convert checks each keyword. Keep the value exact even
	// so, with every keyword as sent and none typed.
	members, err := objectMembers(raw)
	if err != nil {
		return nil, err
	}
	s = &jsonschema.Schema{Extras: make(map[string]any, len(members))}
	for _, m := range members {
		s.Extras[m.key] = m.value
	}
	return s, nil
}

// canonical is raw's RFC 8785 form, compact.
func canonical(raw []byte) ([]byte, error) {
	v, err := canonjson.Parse(raw)
	if err != nil {
		return nil, err
	}
	return canonjson.EncodeCompact(v), nil
}

type member struct {
	key   string
	value json.RawMessage
}

// objectMembers splits a JSON object into its members, in order. Duplicate
// keys are an error: which one a reader keeps is not defined.
func objectMembers(raw []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errNotSchema
	}
	var out []member
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errNotSchema
		}
		if seen[key] {
			return nil, fmt.Errorf("duplicate key in a JSON Schema object")
		}
		seen[key] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON Schema")
	}
	return out, nil
}

// fieldOf maps a keyword to the index of the Schema field carrying it.
func fieldOf(keyword string) (int, bool) {
	t := reflect.TypeFor[jsonschema.Schema]()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := bytes.Cut([]byte(f.Tag.Get("json")), []byte(","))
		if string(name) == keyword && keyword != "-" {
			return i, true
		}
	}
	return 0, false
}

// convert builds the Schema for raw, keyword by keyword.
func convert(raw json.RawMessage) (*jsonschema.Schema, error) {
	trimmed := bytes.TrimSpace(raw)
	switch string(trimmed) {
	case "true":
		s := *jsonschema.TrueSchema
		return &s, nil
	case "false":
		s := *jsonschema.FalseSchema
		return &s, nil
	}
	members, err := objectMembers(trimmed)
	if err != nil {
		return nil, err
	}
	// A non-nil Extras keeps {} as {}: the struct marshals an all-zero
	// Schema as true, which means the same but is not what was sent.
	s := &jsonschema.Schema{Extras: map[string]any{}}
	for _, m := range members {
		if !setKeyword(s, m.key, m.value) {
			s.Extras[m.key] = m.value
		}
	}
	return s, nil
}

// setKeyword sets keyword k of s to v if the Schema carries it exactly,
// and reports whether it did.
func setKeyword(s *jsonschema.Schema, k string, v json.RawMessage) bool {
	one := &jsonschema.Schema{}
	if !decodeKeyword(one, k, v) {
		return false
	}
	// The keyword alone must marshal to what was sent.
	got, err := json.Marshal(one)
	if err != nil {
		return false
	}
	wantObj, err := json.Marshal(map[string]json.RawMessage{k: v})
	if err != nil {
		return false
	}
	a, err1 := canonical(got)
	b, err2 := canonical(wantObj)
	if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
		return false
	}
	copyKeyword(s, one, k)
	return true
}

func decodeKeyword(one *jsonschema.Schema, k string, v json.RawMessage) bool {
	sub := func() (*jsonschema.Schema, bool) {
		c, err := convert(v)
		return c, err == nil
	}
	list := func() ([]*jsonschema.Schema, bool) {
		var items []json.RawMessage
		if json.Unmarshal(v, &items) != nil {
			return nil, false
		}
		out := make([]*jsonschema.Schema, len(items))
		for i, it := range items {
			c, err := convert(it)
			if err != nil {
				return nil, false
			}
			out[i] = c
		}
		return out, true
	}
	dict := func() ([]member, bool) {
		ms, err := objectMembers(bytes.TrimSpace(v))
		if err != nil {
			return nil, false
		}
		return ms, true
	}
	dictOf := func() (map[string]*jsonschema.Schema, bool) {
		ms, ok := dict()
		if !ok {
			return nil, false
		}
		out := make(map[string]*jsonschema.Schema, len(ms))
		for _, m := range ms {
			c, err := convert(m.value)
			if err != nil {
				return nil, false
			}
			out[m.key] = c
		}
		return out, true
	}
	var ok bool
	switch k {
	case "type":
		var tmp jsonschema.Schema
		if json.Unmarshal([]byte(`{"type":`+string(v)+`}`), &tmp) != nil {
			return false
		}
		one.Type, one.TypeEnhanced = tmp.Type, tmp.TypeEnhanced
		return true
	case "items":
		one.Items, ok = sub()
	case "not":
		one.Not, ok = sub()
	case "if":
		one.If, ok = sub()
	case "then":
		one.Then, ok = sub()
	case "else":
		one.Else, ok = sub()
	case "additionalProperties":
		one.AdditionalProperties, ok = sub()
	case "propertyNames":
		one.PropertyNames, ok = sub()
	case "contains":
		one.Contains, ok = sub()
	case "contentSchema":
		one.ContentSchema, ok = sub()
	case "allOf":
		one.AllOf, ok = list()
	case "anyOf":
		one.AnyOf, ok = list()
	case "oneOf":
		one.OneOf, ok = list()
	case "prefixItems":
		one.PrefixItems, ok = list()
	case "$defs":
		var d map[string]*jsonschema.Schema
		d, ok = dictOf()
		one.Definitions = d
	case "patternProperties":
		one.PatternProperties, ok = dictOf()
	case "dependentSchemas":
		one.DependentSchemas, ok = dictOf()
	case "properties":
		// Properties keep the server's order.
		var ms []member
		if ms, ok = dict(); ok {
			om := orderedmap.New[string, *jsonschema.Schema]()
			for _, m := range ms {
				c, err := convert(m.value)
				if err != nil {
					return false
				}
				om.Set(m.key, c)
			}
			one.Properties = om
		}
	default:
		i, known := fieldOf(k)
		if !known {
			return false
		}
		f := reflect.ValueOf(one).Elem().Field(i)
		p := reflect.New(f.Type())
		if json.Unmarshal(v, p.Interface()) != nil {
			return false
		}
		f.Set(p.Elem())
		return true
	}
	return ok
}

// copyKeyword copies keyword k's field from one to s.
func copyKeyword(s, one *jsonschema.Schema, k string) {
	if k == "type" {
		s.Type, s.TypeEnhanced = one.Type, one.TypeEnhanced
		return
	}
	i, ok := fieldOf(k)
	if !ok {
		return
	}
	reflect.ValueOf(s).Elem().Field(i).Set(reflect.ValueOf(one).Elem().Field(i))
}
