// Command mcptools is the spec page's MCP example in Go: an agent,
// "researcher", given the tools of a small docs MCP server run over stdio,
// and the definition document that records it.
//
// It prints the servers the definition records and which tool calls which
// server, then the whole document, then calls search_docs directly, as a
// model would, after vetting it against the definition. No model is needed.
//
// Run it from the repository's root:
//
//	go run ./examples/mcptools
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mcptools:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()

	// The server starts with the go your shell finds. Its arguments are
	// relative, so the definition is the same on every machine: they
	// resolve against Dir, which is never recorded.
	client, err := mcpservers.NewClient(map[string]mcpservers.Connection{
		"docs": mcpservers.Stdio{
			Command: "go",
			Args:    []string{"run", "./docsserver"},
			Dir:     exampleDir(),
		},
	}, nil)
	if err != nil {
		return err
	}
	defer client.Close()

	tools, err := client.Tools(ctx)
	if err != nil {
		return err
	}
	// Each tool brings its server, which the definition records.
	researcher := &definition.Agent{
		Name:         "researcher",
		SystemPrompt: "You research questions using the internal docs.",
		Tools:        toolsOf(tools),
	}
	def, err := definition.Build(researcher, nil)
	if err != nil {
		return err
	}
	rec := def.Record()
	servers, _ := json.Marshal(rec.MCPServers)
	mcpTools, _ := json.Marshal(rec.Extensions.Guardian.MCPTools)
	fmt.Fprintln(out, string(servers))
	fmt.Fprintln(out, string(mcpTools))

	doc, err := def.Document()
	if err != nil {
		return err
	}
	fmt.Fprint(out, string(doc))

	// An agent loop vets each tool before calling it.
	search := tools[0]
	if err := def.Vet(search); err != nil {
		return err
	}
	result, err := search.Call(ctx, map[string]any{"query": "release notes"})
	if err != nil {
		return err
	}
	fmt.Fprintln(out, result.Text())
	return nil
}

func toolsOf(ts []*mcpservers.Tool) []definition.Tool {
	out := make([]definition.Tool, len(ts))
	for i, t := range ts {
		out[i] = t
	}
	return out
}

// exampleDir is this example's source directory, where ./docsserver is, so
// the example runs from any working directory. It is absolute on this
// machine only, which is why it goes in Dir, never recorded.
func exampleDir() string {
	_, file, _, ok := runtime.Caller(0)
	if ok && filepath.IsAbs(file) {
		return filepath.Dir(file)
	}
	wd, _ := os.Getwd()
	return filepath.Join(wd, "examples", "mcptools")
}
