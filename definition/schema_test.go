package definition

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestSchemaMatchesGoTypes holds the Go record types and the published JSON
// Schema together: every field has a property, every property a field, and
// the fields written always (no omitempty) are the required ones.
func TestSchemaMatchesGoTypes(t *testing.T) {
	var schema struct {
		Defs map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(schemaJSON, &schema); err != nil {
		t.Fatal(err)
	}
	ext := schema.Defs["agent"].Properties["extensions"]
	var extSchema struct {
		Properties struct {
			Guardian struct {
				Properties map[string]json.RawMessage `json:"properties"`
				Required   []string                   `json:"required"`
			} `json:"guardian"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	var extProps struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(ext, &extProps); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(ext, &extSchema); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		def      string
		typ      reflect.Type
		props    map[string]json.RawMessage
		required []string
		// alwaysOptional are fields Go writes always but the schema lets a
		// document go without (Options.Exclude may remove them).
		alwaysOptional []string
	}{
		{"agent", reflect.TypeFor[AgentRecord](), schema.Defs["agent"].Properties, schema.Defs["agent"].Required, nil},
		{"tool", reflect.TypeFor[ToolRecord](), schema.Defs["tool"].Properties, schema.Defs["tool"].Required, nil},
		{"server", reflect.TypeFor[Server](), schema.Defs["server"].Properties, schema.Defs["server"].Required, nil},
		{"extensions", reflect.TypeFor[Extensions](), extProps.Properties, extSchema.Required, nil},
		{"guardian", reflect.TypeFor[GuardianExtension](), extSchema.Properties.Guardian.Properties, extSchema.Properties.Guardian.Required, nil},
	}
	for _, c := range cases {
		var fields, required []string
		for i := range c.typ.NumField() {
			f := c.typ.Field(i)
			tag := f.Tag.Get("json")
			name, opts, _ := strings.Cut(tag, ",")
			fields = append(fields, name)
			if raw, ok := c.props[name]; ok {
				if want, got := jsonTypeOfGo(f.Type), jsonTypeOfSchema(t, raw); got != "" && want != got {
					t.Errorf("%s.%s: Go %s is JSON %s, the schema says %s", c.def, name, f.Type, want, got)
				}
			}
			if !strings.Contains(opts, "omitempty") && !slices.Contains(c.alwaysOptional, name) {
				required = append(required, name)
			}
		}
		var props []string
		for p := range c.props {
			props = append(props, p)
		}
		slices.Sort(fields)
		slices.Sort(props)
		slices.Sort(required)
		want := slices.Clone(c.required)
		slices.Sort(want)
		if !slices.Equal(fields, props) {
			t.Errorf("%s: Go fields %q, schema properties %q", c.def, fields, props)
		}
		if !slices.Equal(required, want) {
			t.Errorf("%s: Go always writes %q, schema requires %q", c.def, required, want)
		}
	}
}

func TestSchemaPublishedInDocs(t *testing.T) {
	docs, err := os.ReadFile("../docs/definition.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(docs) != string(schemaJSON) {
		t.Error("docs/definition.schema.json differs from definition/definition.schema.json; copy it over")
	}
	if _, err := compiledSchema(); err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
}

// TestSchemaLeavesToolSchemasOpaque holds the schema to what shallow
// assumes: a tool's inputSchema, outputSchema and annotations are only
// required to be objects.
func TestSchemaLeavesToolSchemasOpaque(t *testing.T) {
	var schema struct {
		Defs struct {
			Tool struct {
				Properties map[string]map[string]any `json:"properties"`
			} `json:"tool"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(schemaJSON, &schema); err != nil {
		t.Fatal(err)
	}
	for _, k := range opaqueToolKeys {
		p := schema.Defs.Tool.Properties[k]
		if p == nil {
			t.Errorf("the schema has no tool property %s", k)
		}
		for kw, v := range p {
			if kw == "description" {
				continue
			}
			if kw != "type" || v != "object" {
				t.Errorf("the schema of a tool's %s has %s: %v; validate converts its contents too, then", k, kw, v)
			}
		}
	}
}

// jsonTypeOfGo is the JSON type encoding/json writes for a value of type t
// (a json.RawMessage here always holds an object: a schema or annotations).
func jsonTypeOfGo(t reflect.Type) string {
	switch {
	case t == reflect.TypeFor[json.RawMessage]():
		return "object"
	case t.Kind() == reflect.String:
		return "string"
	case t.Kind() == reflect.Int:
		return "integer"
	case t.Kind() == reflect.Slice:
		return "array:" + jsonTypeOfGo(t.Elem())
	case t.Kind() == reflect.Map, t.Kind() == reflect.Struct:
		return "object"
	}
	return t.Kind().String()
}

// jsonTypeOfSchema is the JSON type a property's schema allows, in
// jsonTypeOfGo's terms, or "" for a schema that allows any.
func jsonTypeOfSchema(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var p struct {
		Type  string            `json:"type"`
		Ref   string            `json:"$ref"`
		Enum  []json.RawMessage `json:"enum"`
		Const json.RawMessage   `json:"const"`
		Items json.RawMessage   `json:"items"`
	}
	if string(raw) == "true" {
		return ""
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatalf("property schema %s: %v", raw, err)
	}
	switch {
	case p.Type == "array":
		return "array:" + jsonTypeOfSchema(t, p.Items)
	case p.Type != "":
		return p.Type
	case p.Ref != "":
		return "object" // every $defs entry is an object
	case len(p.Enum) > 0 && p.Enum[0][0] == '"':
		return "string"
	case len(p.Const) > 0 && p.Const[0] >= '0' && p.Const[0] <= '9':
		return "integer"
	}
	return ""
}
