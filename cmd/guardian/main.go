// Command guardian is guardian-go's command line: it records the
// definition document of an agent given the MCP servers of a client config
// (Claude Desktop, Claude Code, Cursor, VS Code), checks it against a golden
// file in CI, compares two documents, validates one, and scans configs for
// credentials where a definition would record them:
//
//	guardian record .vscode/mcp.json -o agent.json
//	guardian check .vscode/mcp.json --golden agent.json
//	guardian diff old.json new.json
//	guardian validate agent.json
//	guardian scan ~/.cursor/mcp.json
//
// Run "guardian --help" for the list of subcommands and "guardian CMD
// --help" for each one's flags; docs/cli.md describes them all, with the
// JSON report shapes and a CI recipe.
//
// Exit status: 0 when all is well, 1 when something is refused or a
// definition drifted, 2 on bad usage, unreadable input, a server that
// cannot be loaded, or an interrupt.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	// Ctrl-C (and a CI runner's SIGTERM) cancels ctx: the command stops
	// its servers and exits 2. A second one kills guardian at once.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	// A closed pipe on stdout is a failed write, exit 2 (runChecked), not
	// death by SIGPIPE: with SIGPIPE notified, the write returns EPIPE.
	// (Notified, not ignored: servers started would inherit SIG_IGN.)
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	e := &env{stdout: os.Stdout, stderr: os.Stderr, lookupEnv: os.LookupEnv, progress: isTerminal(os.Stderr)}
	code := runEnv(ctx, os.Args[1:], e)
	stop()
	os.Exit(code)
}
