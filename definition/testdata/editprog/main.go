// Command editprog records an agent whose one MCP tool has an interceptor
// declared below, and prints the definition's digest and the tool's
// sourceHash. TestInterceptorEdits edits copies of this file, rebuilds it,
// and compares what it prints.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

func main() {
	if os.Getenv("EDITPROG_SERVE") != "" {
		s := server.NewMCPServer("docs", "1.0.0")
		s.AddTool(mcp.NewTool("search_docs", mcp.WithDescription("Search the docs."), mcp.WithString("query")),
			func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText("none"), nil
			})
		server.ServeStdio(s)
		return
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "editprog:", err)
		os.Exit(1)
	}
}

func run() error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{
		"docs": mcpservers.Stdio{Command: exe, Env: map[string]string{"EDITPROG_SERVE": "1", "GORACE": "atexit_sleep_ms=0"}},
	}, &mcpservers.ClientOptions{Interceptors: []mcpservers.Interceptor{mcpservers.InterceptorFunc(audit)}})
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ts, err := c.Tools(ctx)
	if err != nil {
		return err
	}
	// The command is this binary's path, which differs per build directory.
	d, err := definition.Build(&definition.Agent{Name: "edited", Tools: []definition.Tool{ts[0]}},
		&definition.Options{Exclude: []string{"/mcpServers/0/command"}})
	if err != nil {
		return err
	}
	fmt.Println(d.Digest())
	fmt.Println(d.Record().Tools[0].SourceHash)
	return nil
}

// audit marks every call as audited.
func audit(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	req.Arguments["audited"] = true // the server sees it
	return next(ctx, req)
}
