package main

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

// defaultsElicitor answers a form elicitation as a user who accepts the
// form as shown: every field that has a default is submitted with it, as
// SEP-1034 asks clients to pre-fill them. It declines URL elicitations:
// there is no user here to open the link.
type defaultsElicitor struct{}

func (defaultsElicitor) Elicit(_ context.Context, req *mcpservers.ElicitationRequest) (*mcpservers.ElicitationResponse, error) {
	if req.Mode == "url" {
		return &mcpservers.ElicitationResponse{Action: mcpservers.ElicitationDecline}, nil
	}
	return &mcpservers.ElicitationResponse{
		Action:  mcpservers.ElicitationAccept,
		Content: schemaDefaults(req.RequestedSchema),
	}, nil
}

// schemaDefaults returns the default of each top-level property of an
// object schema that has one, numbers as written. It returns an empty map
// for a schema that is not a JSON object, or has no such property.
func schemaDefaults(schema json.RawMessage) map[string]any {
	content := map[string]any{}
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return content
	}
	for name, prop := range s.Properties {
		var p struct {
			Default json.RawMessage `json:"default"`
		}
		if json.Unmarshal(prop, &p) != nil || len(p.Default) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(p.Default))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			continue
		}
		content[name] = v
	}
	return content
}
