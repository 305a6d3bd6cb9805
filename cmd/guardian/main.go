// Command guardian is guardian-go's command line. For now it has one
// subcommand, scan, which checks MCP client config files for credentials
// where a definition would record them:
//
//	guardian scan ~/Library/Application\ Support/Claude/claude_desktop_config.json .vscode/mcp.json
//
// Run "guardian --help" for the list of subcommands and "guardian scan
// --help" for scan's.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
