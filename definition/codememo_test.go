package definition_test

import (
	"encoding/json"
	"testing"

	"github.com/guardian-agent/guardian-go/definition"
)

// codeTool is an MCP tool of another client library whose record carries
// the Code slice it is given, so a test decides which tools share one.
type codeTool struct {
	name string
	code []definition.Code
}

func (c codeTool) Name() string                 { return c.name }
func (c codeTool) Description() string          { return "" }
func (c codeTool) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (c codeTool) MCPRecord() definition.MCPRecord {
	return definition.MCPRecord{
		Server: definition.Server{Name: "s", Transport: definition.TransportStdio, Command: "srv"},
		Code:   c.code,
	}
}

// TestSharedCodeSlices: Build memoises a tool's code by the slice's memory
// as well as by its values. Tools sharing a slice, tools with equal
// slices, and a tool with a shorter view of the same memory must each get
// the sourceHash of what their slice holds.
func TestSharedCodeSlices(t *testing.T) {
	t.Parallel()
	audit, tag := auditInterceptor{header: "x"}, tagger{secret: "y"}
	both := []definition.Code{
		{Role: definition.RoleInterceptor, Value: audit},
		{Role: definition.RoleInterceptor, Value: tag},
	}
	equal := append([]definition.Code(nil), both...)
	a := &definition.Agent{Name: "a", Tools: []definition.Tool{
		codeTool{"t1", both},
		codeTool{"t2", both},
		codeTool{"t3", equal},
		codeTool{"t4", both[:1]}, // the same memory, shorter
		codeTool{"t5", []definition.Code{{Role: definition.RoleInterceptor, Value: audit}}},
	}}
	d, err := definition.Build(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := map[string]string{}
	for _, tr := range d.Record().Tools {
		h[tr.Name] = tr.SourceHash
	}
	if h["t1"] == "" || h["t1"] != h["t2"] || h["t1"] != h["t3"] {
		t.Errorf("tools with the same code: %q %q %q, want one hash", h["t1"], h["t2"], h["t3"])
	}
	if h["t4"] == "" || h["t4"] == h["t1"] || h["t4"] != h["t5"] {
		t.Errorf("a shorter view of shared code: %q, want %q's (%q), not %q", h["t4"], "t5", h["t5"], h["t1"])
	}
}
