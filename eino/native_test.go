package eino_test

import (
	"context"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/guardian-agent/guardian-go/definition"
	guardianeino "github.com/guardian-agent/guardian-go/eino"
)

// upperTool and lowerTool are two native Eino tools of the user's that the
// model sees alike (same name, description and schema) but that run
// different code.
type upperTool struct{}

func (upperTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "shout", Desc: "Changes a word's case."}, nil
}

func (upperTool) InvokableRun(_ context.Context, args string, _ ...tool.Option) (string, error) {
	return "UPPER " + args, nil
}

type lowerTool struct{}

func (lowerTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "shout", Desc: "Changes a word's case."}, nil
}

func (lowerTool) InvokableRun(_ context.Context, args string, _ ...tool.Option) (string, error) {
	return "lower " + args, nil
}

// TestNativeToolHashesTheEinoTool: a native Eino tool's sourceHash is its
// own code's: two tools the model sees alike but that run different code
// hash apart (they hashed alike, as NativeTool, before NativeTool was a
// definition.Adapter), and a tool's hash is the same whether the adapter
// or the core records it through Adapted.
func TestNativeToolHashesTheEinoTool(t *testing.T) {
	ctx := context.Background()
	hash := func(bt tool.BaseTool) string {
		t.Helper()
		nt, err := guardianeino.NewNativeTool(ctx, bt)
		if err != nil {
			t.Fatal(err)
		}
		d, err := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{nt}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		h := d.Record().Tools[0].SourceHash
		if h == "" {
			t.Fatal("no sourceHash")
		}
		return h
	}
	upper, lower := hash(upperTool{}), hash(lowerTool{})
	if upper == lower {
		t.Errorf("two Eino tools running different code hash alike (%s): NativeTool's type, not the tool's, was fingerprinted", upper)
	}
	if again := hash(upperTool{}); again != upper {
		t.Errorf("one tool hashed %s then %s", upper, again)
	}
}
