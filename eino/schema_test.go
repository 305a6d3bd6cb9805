package eino

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestSchemaOfKeepsTheValue: each schema marshals back to the JSON value
// it was made from, including what Eino's struct cannot type: {} (which
// it would turn into true), "required": [], "default": null, draft-07
// "definitions", unknown keywords, numbers a float64 would round.
func TestSchemaOfKeepsTheValue(t *testing.T) {
	for _, raw := range []string{
		`{}`,
		`true`,
		`false`,
		`{"type":"object"}`,
		`{"type":["string","null"],"description":"either"}`,
		`{"type":"object","properties":{"a":{}},"required":[]}`,
		`{"type":"object","properties":{"a":{"default":null,"const":null}}}`,
		`{"definitions":{"x":{"type":"string"}},"properties":{"y":{"$ref":"#/definitions/x"}}}`,
		`{"x-vendor":{"a":[1,2]},"nullable":true,"discriminator":{"propertyName":"kind"}}`,
		`{"enum":[12345678901234567890,1.5,"a",null]}`,
		`{"maxLength":10.0,"minimum":1e2,"multipleOf":0.1}`,
		`{"items":{},"additionalProperties":true,"not":false}`,
		`{"deprecated":false,"uniqueItems":false,"readOnly":true}`,
		`{"$defs":{"a":{"anyOf":[{"$ref":"#/$defs/b"},{}]},"b":true}}`,
		`{"properties":{"<b>":{"description":"a & b"}}}`,
	} {
		s, err := schemaOf(json.RawMessage(raw))
		if err != nil {
			t.Errorf("%s: %v", raw, err)
			continue
		}
		out, err := json.Marshal(s)
		if err != nil {
			t.Errorf("%s: %v", raw, err)
			continue
		}
		a, _ := canonical([]byte(raw))
		b, err := canonical(out)
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s became %s", raw, out)
		}
	}
}

// TestSchemaOfTypesWhatItCan: keywords the struct carries exactly are in
// its fields, for model clients that read them.
func TestSchemaOfTypesWhatItCan(t *testing.T) {
	s, err := schemaOf(json.RawMessage(`{"type":"object","description":"d","properties":{"q":{"type":"string","enum":["a"]}},"required":["q"],"x":1}`))
	if err != nil {
		t.Fatal(err)
	}
	q, _ := s.Properties.Get("q")
	if s.Type != "object" || s.Description != "d" || len(s.Required) != 1 || q == nil || q.Type != "string" || len(q.Enum) != 1 {
		t.Fatalf("%+v", s)
	}
	if _, ok := s.Extras["x"]; !ok || len(s.Extras) != 1 {
		t.Fatalf("extras = %v", s.Extras)
	}
}

// TestSchemaOfRefusesNonSchemas: what is not an object or boolean, or
// repeats a key, is an error, not a guess.
func TestSchemaOfRefusesNonSchemas(t *testing.T) {
	for _, raw := range []string{``, `[]`, `"x"`, `1`, `null`, `{"a":1,"a":2}`, `{"a":`, `{} {}`} {
		if _, err := schemaOf(json.RawMessage(raw)); err == nil {
			t.Errorf("%q: no error", raw)
		}
	}
}

// FuzzSchemaOf: for any input, schemaOf errors or gives a schema that
// marshals to the input's JSON value; it never panics.
func FuzzSchemaOf(f *testing.F) {
	for _, s := range []string{`{}`, `true`, `{"type":"object","properties":{"a":{"anyOf":[{},{"type":"null"}]}}}`,
		`{"$defs":{"x":{}},"required":[],"default":null}`, `{"enum":[1e400]}`, `{"a":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, err := schemaOf(raw)
		if err != nil {
			return
		}
		out, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("%s: marshal: %v", raw, err)
		}
		a, err := canonical(raw)
		if err != nil {
			t.Fatalf("%s: accepted but not canonical: %v", raw, err)
		}
		b, err := canonical(out)
		if err != nil || !bytes.Equal(a, b) {
			t.Fatalf("%s became %s", raw, out)
		}
	})
}

// FuzzParseArguments: the model's arguments are a JSON object (or
// nothing), decoded with numbers as written; anything else is a problem
// for the model to read, never a panic, and never a partial map.
func FuzzParseArguments(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"a":1}`, `{"n":12345678901234567890}`, `[]`, `null`, `{"a":`, `{} {}`, ` {"x":[1,{"y":null}]} `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args, problem := parseArguments(s)
		if problem != "" {
			if args != nil {
				t.Fatalf("%q: a problem and a map", s)
			}
			return
		}
		if args == nil {
			t.Fatalf("%q: no problem and no map", s)
		}
		out, err := json.Marshal(args)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if strings.TrimSpace(s) == "" || strings.TrimSpace(s) == "null" {
			return
		}
		a, err1 := canonical([]byte(s))
		b, err2 := canonical(out)
		if err1 == nil && (err2 != nil || !bytes.Equal(a, b)) {
			t.Fatalf("%q became %s", s, out)
		}
	})
}
