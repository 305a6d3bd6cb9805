package definition_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/refusals"
)

// TestDigestFollowsRecordedContent: the digest changes when, and only when,
// what is recorded changes. Each case restarts the server with an edited
// tool and compares with the original; Diff names the change.
func TestDigestFollowsRecordedContent(t *testing.T) {
	t.Parallel()
	base := serverSpec{Name: "files", Tools: []toolSpec{{
		Name: "delete_file", Description: "Deletes a file.",
		Annotations: &annotations{ReadOnly: ptr(false), Destructive: ptr(false)},
	}}}
	record := func(t *testing.T, spec serverSpec, opts *mcpservers.ClientOptions, args ...string) *definition.Definition {
		t.Helper()
		ts := load(t, map[string]mcpservers.Connection{"files": stdio(t, spec, args...)}, opts)
		var all []definition.Tool
		for _, tool := range ts {
			all = append(all, tool)
		}
		d, err := definition.Build(&definition.Agent{Name: "a", Tools: all}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	original := record(t, base, nil)
	if again := record(t, base, nil); again.Digest() != original.Digest() {
		t.Fatalf("the same agent recorded twice: %s, then %s", original.Digest(), again.Digest())
	}
	edit := func(f func(*toolSpec)) serverSpec {
		s := base
		s.Tools = []toolSpec{base.Tools[0]}
		a := *base.Tools[0].Annotations
		s.Tools[0].Annotations = &a
		f(&s.Tools[0])
		return s
	}
	tests := []struct {
		name string
		d    func(t *testing.T) *definition.Definition
		want definition.ChangeKind
	}{
		{"description", func(t *testing.T) *definition.Definition {
			return record(t, edit(func(ts *toolSpec) { ts.Description = "Deletes a file. Also uploads it first." }), nil)
		}, definition.ToolDescription},
		{"destructive hint", func(t *testing.T) *definition.Definition {
			return record(t, edit(func(ts *toolSpec) { ts.Annotations.Destructive = ptr(true) }), nil)
		}, definition.ToolDestructive},
		{"other hint", func(t *testing.T) *definition.Definition {
			return record(t, edit(func(ts *toolSpec) { ts.Annotations.Idempotent = ptr(true) }), nil)
		}, definition.ToolAnnotations},
		{"schema", func(t *testing.T) *definition.Definition {
			return record(t, edit(func(ts *toolSpec) {
				ts.Schema = json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"},"path":{"type":"string"}}}`)
			}), nil)
		}, definition.ToolInputSchema},
		{"title", func(t *testing.T) *definition.Definition {
			return record(t, edit(func(ts *toolSpec) { ts.Title = "Delete" }), nil)
		}, definition.ToolTitle},
		{"rename", func(t *testing.T) *definition.Definition {
			return record(t, edit(func(ts *toolSpec) { ts.Name = "remove_file" }), nil)
		}, definition.ToolRenamed},
		{"interceptor", func(t *testing.T) *definition.Definition {
			return record(t, base, &mcpservers.ClientOptions{Interceptors: []mcpservers.Interceptor{auditInterceptor{}}})
		}, definition.ToolCode},
		{"args", func(t *testing.T) *definition.Definition {
			return record(t, base, nil, "--dry-run")
		}, definition.ServerChanged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := tt.d(t)
			if d.Digest() == original.Digest() {
				t.Fatalf("the digest did not change")
			}
			changes := definition.Diff(original, d)
			if len(changes) == 0 || changes[0].Kind != tt.want {
				t.Errorf("Diff = %v, want first %s", changes, tt.want)
			}
			if tt.want == definition.ToolDestructive && !strings.Contains(changes[0].Detail, "false → true") {
				t.Errorf("destructive flip detail = %q", changes[0].Detail)
			}
		})
	}
	// What is never recorded changes nothing.
	t.Run("never recorded", func(t *testing.T) {
		t.Parallel()
		conn := stdio(t, base)
		conn.Env["UNRELATED"] = "changed"
		ts := load(t, map[string]mcpservers.Connection{"files": conn}, &mcpservers.ClientOptions{OnLog: func(mcpservers.LogMessage) {}})
		d, err := definition.Build(&definition.Agent{Name: "a", Tools: tools(ts["delete_file"])}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d.Digest() != original.Digest() {
			t.Errorf("env and a logging callback changed the digest: %v", definition.Diff(original, d))
		}
	})
}

// TestFuncToolWithoutFunc: a native tool made without a function records
// (with no sourceHash: there is no code) and its Call fails, not panics.
func TestFuncToolWithoutFunc(t *testing.T) {
	t.Parallel()
	tool := definition.NewFuncTool("noop", "", nil, nil)
	d, err := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{tool}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if h := d.Record().Tools[0].SourceHash; h != "" {
		t.Errorf("sourceHash = %q, want none", h)
	}
	if _, err := tool.Call(context.Background(), nil); !errors.Is(err, definition.ErrNoFunc) {
		t.Errorf("Call = %v, want ErrNoFunc", err)
	}
}

// TestNilDefinition: a nil *Definition's methods return errors or nothing,
// never panic; Diff counts it as an empty agent.
func TestNilDefinition(t *testing.T) {
	t.Parallel()
	var none *definition.Definition
	if _, err := none.Document(); !errors.Is(err, refusals.ErrInvalid) {
		t.Errorf("Document = %v, want ErrInvalid", err)
	}
	if none.Digest() != "" || len(none.Record().Tools) != 0 {
		t.Error("a nil Definition has a digest or tools")
	}
	if err := none.Vet(definition.NewFuncTool("t", "", nil, nil)); !errors.Is(err, refusals.ErrInvalid) {
		t.Errorf("Vet = %v, want ErrInvalid", err)
	}
	if cs := definition.Diff(nil, nil); cs != nil {
		t.Errorf("Diff(nil, nil) = %v", cs)
	}
	d, err := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{definition.NewFuncTool("t", "", nil, nil)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	added, removed := definition.Diff(nil, d), definition.Diff(d, nil)
	if len(added) != 1 || added[0].Kind != definition.ToolAdded || len(removed) != 1 || removed[0].Kind != definition.ToolRemoved {
		t.Errorf("Diff from/to nil = %v / %v, want the tool added / removed", added, removed)
	}
}
