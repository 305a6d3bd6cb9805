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
		{"extensions", reflect.TypeFor[Extensions](), map[string]json.RawMessage{"guardian": nil}, extSchema.Required, nil},
		{"guardian", reflect.TypeFor[GuardianExtension](), extSchema.Properties.Guardian.Properties, extSchema.Properties.Guardian.Required, nil},
	}
	for _, c := range cases {
		var fields, required []string
		for i := range c.typ.NumField() {
			tag := c.typ.Field(i).Tag.Get("json")
			name, opts, _ := strings.Cut(tag, ",")
			fields = append(fields, name)
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
