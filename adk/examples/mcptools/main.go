// Command mcptools is the spec page's MCP example in Google's ADK for Go:
// an agent, "researcher", made with guardian-go's adk.New and given the
// tool of the small docs MCP server run over stdio (the core example's
// server, examples/mcptools/docsserver).
//
// It prints the servers the definition records and which tool calls which
// server, exactly as the core example does, then runs the agent with an
// ADK runner and an in-memory session on "Summarise the release notes."
// and prints its last message.
//
// The model is a stand-in: scriptedModel (model.go) plays Gemini's part,
// asking for search_docs and then answering with what it returned, because
// no model or key is available on a fresh machine. To use Gemini, replace
// newScriptedModel() with gemini.NewModel (docs/adk.md shows the lines).
//
// Run it from the repository's root:
//
//	go -C adk run ./examples/mcptools
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

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/agent/llmagent"
	"google.golang.org/adk/v2/runner"
	"google.golang.org/adk/v2/session"
	"google.golang.org/genai"

	guardianadk "github.com/guardian-agent/guardian-go/adk"
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
	tools, err := guardianadk.NewTools(mcpTools)
	if err != nil {
		return err
	}
	// Each tool brings its server, which the definition records.
	researcher, def, err := guardianadk.New(&guardianadk.LLMAgent{Config: llmagent.Config{
		Name:        "researcher",
		Description: "Researches questions using the internal docs.",
		Instruction: "You research questions using the internal docs.",
		Model:       newScriptedModel(), // a stand-in for Gemini
		Tools:       tools,
	}}, nil)
	if err != nil {
		return err
	}

	rec := def.Record()
	servers, _ := json.Marshal(rec.MCPServers)
	toolServers, _ := json.Marshal(rec.Extensions.Guardian.MCPTools)
	fmt.Fprintln(out, string(servers))
	fmt.Fprintln(out, string(toolServers))

	r, err := runner.New(runner.Config{AppName: "mcptools", Agent: researcher, SessionService: session.InMemoryService(), AutoCreateSession: true})
	if err != nil {
		return err
	}
	last := ""
	msg := genai.NewContentFromText("Summarise the release notes.", genai.RoleUser)
	for ev, err := range r.Run(ctx, "user", "session-1", msg, agent.RunConfig{}) {
		if err != nil {
			return err
		}
		if ev.Content == nil || ev.Content.Role != genai.RoleModel {
			continue
		}
		for _, p := range ev.Content.Parts {
			if p.Text != "" {
				last = p.Text
			}
		}
	}
	if last == "" {
		return fmt.Errorf("the agent said nothing")
	}
	fmt.Fprintln(out, last)
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
