package definitiontest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/definition/definitiontest"
)

func ExampleCheckLeaks() {
	def, _ := definition.Build(&definition.Agent{Name: "a", SystemPrompt: "The password is hunter2."}, nil)
	doc, _ := def.Document()
	fmt.Println(definitiontest.CheckLeaks(doc, "hunter2"))
	fmt.Println(definitiontest.CheckLeaks(doc, "swordfish"))
	// Output:
	// the document contains secret number 1 of those given
	// <nil>
}

func ExampleReport() {
	old, _ := definition.Build(&definition.Agent{Name: "a", Model: "gpt-4.1"}, nil)
	new, _ := definition.Build(&definition.Agent{Name: "a", Model: "gpt-5"}, nil)
	want, _ := old.Document()
	got, _ := new.Document()
	fmt.Print(strings.SplitAfter(definitiontest.Report(want, got), "\n")[0])
	// Output:
	//   agent-changed: model changed; model "gpt-4.1" → "gpt-5"
}

func ExampleGolden() {
	def, _ := definition.Build(&definition.Agent{Name: "researcher", Model: "gpt-5"}, nil)
	dir, _ := os.MkdirTemp("", "golden")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "researcher.json")
	doc, _ := def.Document()
	_ = os.WriteFile(path, doc, 0o644) // as go test -update would

	// In a test: definitiontest.Golden(t, def, "testdata/researcher.json").
	// An example has no *testing.T; testing.Benchmark lends it a testing.TB.
	r := testing.Benchmark(func(b *testing.B) {
		definitiontest.Golden(b, def, path)
	})
	fmt.Println("matches the golden file:", r.N > 0)
	// Output:
	// matches the golden file: true
}
