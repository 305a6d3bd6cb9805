// Command mcptools is the spec page's MCP example in Eino: an agent,
// "researcher", made with guardian-go's eino.NewChatModelAgent and given the
// tool of the small docs MCP server run over stdio (the core example's
// server, examples/mcptools/docsserver).
//
// It prints the servers the definition records and which tool calls which
// server, exactly as the core example does, then runs the agent with
// Eino's Runner on "Summarise the release notes." and prints its last
// message.
//
// The model is a stand-in: scriptedModel (model.go) plays a real model's
// part, asking for search_docs and then answering with what it returned,
// because no model or key is available on a fresh machine. To use a real
// model, replace newScriptedModel() with one, such as eino-ext's OpenAI
// client (docs/eino.md shows the two lines).
//
// Run it from the repository's root:
//
//	go -C eino run ./examples/mcptools
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

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"

	guardianeino "github.com/guardian-agent/guardian-go/eino"
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

	// The core example's docs server, started with the go your shell
	// finds. Its arguments are relative, so the definition is the same on
	// every machine: they resolve against Dir, which is never recorded.
	client, err := mcpservers.NewClient(map[string]mcpservers.Connection{
		"docs": mcpservers.Stdio{
			Command: "go",
			Args:    []string{"run", "./docsserver"},
			Dir:     serverDir(),
		},
	}, nil)
	if err != nil {
		return err
	}
	defer client.Close()

	mcpTools, err := client.Tools(ctx)
	if err != nil {
		return err
	}
	tools, err := guardianeino.NewTools(mcpTools)
	if err != nil {
		return err
	}
	// Each tool brings its server, which the definition records.
	researcher, def, err := guardianeino.NewChatModelAgent(ctx, &guardianeino.AgentConfig{
		ChatModelAgentConfig: adk.ChatModelAgentConfig{
			Name:        "researcher",
			Description: "Researches questions using the internal docs.",
			Instruction: "You research questions using the internal docs.",
			Model:       newScriptedModel(), // a stand-in for a real model
			ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: toolsNode(tools)},
		},
	}, nil)
	if err != nil {
		return err
	}

	rec := def.Record()
	servers, _ := json.Marshal(rec.MCPServers)
	toolServers, _ := json.Marshal(rec.Extensions.Guardian.MCPTools)
	fmt.Fprintln(out, string(servers))
	fmt.Fprintln(out, string(toolServers))

	runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: researcher})
	iter := runner.Query(ctx, "Summarise the release notes.")
	var last *schema.Message
	for {
		event, ok := iter.Next()
		if !ok {
			break
		}
		if event.Err != nil {
			return event.Err
		}
		if event.Output != nil && event.Output.MessageOutput != nil {
			if m, err := event.Output.MessageOutput.GetMessage(); err == nil {
				last = m
			}
		}
	}
	if last == nil {
		return fmt.Errorf("the agent said nothing")
	}
	fmt.Fprintln(out, last.Content)
	return nil
}

// serverDir is the core example's directory, where ./docsserver is, so the
// example runs from any working directory. It is absolute on this machine
// only, which is why it goes in Dir, never recorded.
func serverDir() string {
	_, file, _, ok := runtime.Caller(0)
	if ok && filepath.IsAbs(file) {
		return filepath.Join(filepath.Dir(file), "..", "..", "..", "examples", "mcptools")
	}
	wd, _ := os.Getwd()
	return filepath.Join(wd, "..", "examples", "mcptools")
}
