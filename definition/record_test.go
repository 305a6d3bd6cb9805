package definition

import (
	"testing"

	"github.com/guardian-agent/guardian-go/internal/canonjson"
)

// TestMembersWrittenInOrder: toolValue and serverValue write members in
// sorted order without sorting; Obj sorts. They must agree.
func TestMembersWrittenInOrder(t *testing.T) {
	obj := canonjson.Obj(canonjson.Member{Key: "k", Value: canonjson.Str("v")})
	tool := toolValue(&ToolRecord{Name: "n", Title: "t", Description: "d", SourceHash: "h"},
		toolValues{input: obj, output: obj, annotations: obj, hasOutput: true, hasAnnotations: true})
	for _, v := range []canonjson.Value{
		tool,
		toolValue(&ToolRecord{Name: "n"}, toolValues{input: obj}),
		serverValue(&Server{Name: "s", Transport: TransportStdio, Command: "c", Args: []string{"a"}}),
		serverValue(&Server{Name: "s", Transport: TransportSSE, URL: "u"}),
	} {
		if sorted := canonjson.Obj(v.Members...); !sorted.Equal(v) {
			t.Errorf("members out of order: %s", canonjson.EncodeCompact(v))
		}
	}
	if len(tool.Members) != 7 {
		t.Errorf("tool has %d members, want all 7", len(tool.Members))
	}
}
