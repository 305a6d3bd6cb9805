package definition

import (
	"bytes"
	_ "embed"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/guardian-agent/guardian-go/internal/canonjson"
	"github.com/guardian-agent/guardian-go/refusals"
)

// Schema returns the JSON Schema (draft 2020-12) of the definition
// document; docs/definition.schema.json is the same file.
func Schema() []byte { return bytes.Clone(schemaJSON) }

//go:embed definition.schema.json
var schemaJSON []byte

const schemaURL = "https://github.com/guardian-agent/guardian-go/definition/definition.schema.json"

// compiledSchema is compiled once per process, on first use.
var compiledSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
})

// validate checks a document tree against the schema. Refusals say where
// and which keyword failed, never the value: the validator's own messages
// quote values, so they are not passed on.
func validate(root canonjson.Value) error {
	sch, err := compiledSchema()
	if err != nil {
		return &refusals.Error{Kind: refusals.ErrInvalid, Rule: "schema-unusable", Detail: "the embedded schema does not compile"}
	}
	err = sch.Validate(shallow(root))
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return &refusals.Error{Kind: refusals.ErrInvalid, Rule: "schema", Detail: "the document could not be validated"}
	}
	var out []error
	var leaves func(*jsonschema.ValidationError)
	leaves = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, schemaRefusal(e))
			return
		}
		for _, c := range e.Causes {
			leaves(c)
		}
	}
	leaves(ve)
	return refusals.Join(out...)
}

func schemaRefusal(e *jsonschema.ValidationError) error {
	keyword := "schema"
	if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
		keyword = kp[len(kp)-1]
	}
	r := &refusals.Error{Kind: refusals.ErrInvalid, Pointer: refusals.Pointer(e.InstanceLocation...), Rule: "schema/" + keyword,
		Fix: "see the document format in docs/definition-format.md"}
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		// Missing names come from the schema, not the input.
		r.Detail = "missing required " + strings.Join(k.Missing, ", ")
	case *kind.Type:
		r.Detail = "want " + strings.Join(k.Want, " or ") + ", got " + k.Got
	case *kind.AdditionalProperties:
		// These names are the input's: say how many, not which.
		r.Detail = "unknown properties"
	case *kind.FalseSchema:
		r.Rule = "schema/not-allowed"
		r.Detail = "this property is not allowed here"
	}
	return r
}

// opaqueToolKeys are the tool members whose contents the schema does not
// constrain: it asks only that each is an object
// (TestSchemaLeavesToolSchemasOpaque holds it to that). shallow leaves their contents out, so validating a
// document costs the same whatever the size of its tools' schemas.
var opaqueToolKeys = [...]string{keyInputSchema, keyOutputSchema, keyAnnotations}

// shallow converts an agent's document tree for the validator, with the
// contents of opaqueToolKeys left out.
func shallow(agent canonjson.Value) any {
	if agent.Kind != canonjson.Object {
		return agent.Any()
	}
	m := make(map[string]any, len(agent.Members))
	for _, mem := range agent.Members {
		switch {
		case mem.Key == keyTools && mem.Value.Kind == canonjson.Array:
			items := make([]any, len(mem.Value.Items))
			for i, tool := range mem.Value.Items {
				items[i] = shallowTool(tool)
			}
			m[mem.Key] = items
		case mem.Key == keySubAgents && mem.Value.Kind == canonjson.Array:
			items := make([]any, len(mem.Value.Items))
			for i, sub := range mem.Value.Items {
				items[i] = shallow(sub)
			}
			m[mem.Key] = items
		default:
			m[mem.Key] = mem.Value.Any()
		}
	}
	return m
}

func shallowTool(tool canonjson.Value) any {
	if tool.Kind != canonjson.Object {
		return tool.Any()
	}
	m := make(map[string]any, len(tool.Members))
	for _, mem := range tool.Members {
		if mem.Value.Kind == canonjson.Object && slices.Contains(opaqueToolKeys[:], mem.Key) {
			m[mem.Key] = map[string]any{}
			continue
		}
		m[mem.Key] = mem.Value.Any()
	}
	return m
}
