// Command dotlessprog is built by TestDotlessModule in a module named
// "dotless" (no dot, as the standard library's paths have none). Its
// middleware and tool keep MCP tools in unexported fields; it prints the
// rule of each refusal Build gives.
package main

import (
	"errors"
	"fmt"

	"dotless/mw"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/refusals"
)

func main() {
	offered := &mw.Remote{ToolName: "search", Server: "docs"}
	kept := &mw.Remote{ToolName: "delete", Server: "admin"}
	for _, a := range []*definition.Agent{
		{Name: "middleware", Tools: []definition.Tool{offered}, Middleware: []definition.Middleware{mw.NewGate(kept)}},
		{Name: "tool", Tools: []definition.Tool{offered, mw.NewSummarizer(kept)}},
	} {
		_, err := definition.Build(a, nil)
		var r *refusals.Error
		if errors.As(err, &r) {
			fmt.Println(a.Name, r.Rule)
		} else {
			fmt.Println(a.Name, err)
		}
	}
}
