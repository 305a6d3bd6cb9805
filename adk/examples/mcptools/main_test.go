package main

import (
	"context"
	"os"
)

// Example runs the example as `go -C adk run ./examples/mcptools` does:
// the core example's docs server over stdio, built and started by
// `go run`, and an ADK agent whose model is the scripted stand-in.
func Example() {
	if err := run(context.Background(), os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// [{"name":"docs","transport":"stdio","command":"go","args":["run","./docsserver"]}]
	// {"search_docs":"docs"}
	// Here is what the docs say about the release notes: No pages match "release notes" yet.
}
