package definitiontest_test

import (
	"fmt"
	"strings"

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
