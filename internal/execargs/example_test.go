package execargs_test

import (
	"fmt"

	"github.com/guardian-agent/guardian-go/internal/execargs"
)

func ExampleRefusals() {
	for _, err := range execargs.Refusals("/mcpServers/0", "docs", "node", []string{"server.js", "a\x00b"}) {
		fmt.Println(err)
	}
	// Output:
	// /mcpServers/0/args/1: invalid: arg-invalid ("docs"): the argument holds a NUL byte; remove it
}
