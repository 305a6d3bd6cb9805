// Command docsserver is a small MCP server, over stdio, that the mcptools
// example's agent loads its tool from: search_docs, which finds nothing yet.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	s := server.NewMCPServer("docs", "1.0.0")
	s.AddTool(mcp.NewTool("search_docs",
		mcp.WithDescription("Search the internal documentation."),
		mcp.WithString("query", mcp.Required()),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
	), searchDocs)
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, "docsserver:", err)
		os.Exit(1)
	}
}

func searchDocs(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	query, err := req.RequireString("query")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	return mcp.NewToolResultText(fmt.Sprintf("No pages match %q yet.", query)), nil
}
