package main

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// Exit codes, the same for every subcommand.
const (
	exitOK      = 0 // nothing refused
	exitRefused = 1 // something was refused
	exitBad     = 2 // bad usage, or input that cannot be read or parsed
)

// command is one subcommand. Each lives in its own file (scan.go, and later
// record.go, check.go, diff.go, validate.go) and is listed in commands.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// commands lists the subcommands, in the order help shows them.
func commands() []command {
	return []command{
		{"scan", "check MCP client config files for credentials in commands, args and URLs", runScan},
	}
}

const usage = `guardian records what an AI agent is made of, and refuses credentials
where such a record would keep them.

Usage:

	guardian <command> [arguments]

Commands:

%s
Run "guardian <command> --help" for a command's usage.

Example:

	guardian scan .vscode/mcp.json ~/.cursor/mcp.json
`

func printUsage(w io.Writer) {
	var b strings.Builder
	for _, c := range commands() {
		fmt.Fprintf(&b, "\t%-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, usage, b.String())
}

// run is main without the process: tests call it directly.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stderr)
		return exitBad
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if args[0] == "help" && len(args) > 1 {
			return run(ctx, []string{args[1], "--help"}, stdout, stderr)
		}
		printUsage(stdout)
		return exitOK
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "guardian: unknown command %q\n\n", args[0])
	printUsage(stderr)
	return exitBad
}
