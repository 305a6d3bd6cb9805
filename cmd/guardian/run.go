package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
)

// Exit codes, the same for every subcommand.
const (
	exitOK      = 0 // nothing refused, no drift
	exitRefused = 1 // something was refused, or the definition drifted
	exitBad     = 2 // bad usage, input that cannot be read or parsed, a server that cannot be loaded, or interrupted
)

// env is what a command sees of its process.
type env struct {
	stdout, stderr io.Writer
	// lookupEnv reads guardian's environment (os.LookupEnv), for
	// ${env:NAME} and GUARDIAN_INPUT_<ID>.
	lookupEnv func(string) (string, bool)
	// progress is true when stderr is a terminal: only then are servers'
	// progress lines printed.
	progress bool
}

// command is one subcommand. Each lives in its own file (scan.go,
// record.go, check.go, diff.go, validate.go) and is listed in commands.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, e *env) int
}

// commands lists the subcommands, in the order help shows them.
func commands() []command {
	return []command{
		{"record", "connect to a config's MCP servers and write the agent's definition document", runRecord},
		{"check", "record again and compare with a golden definition: exit 1 on drift", runCheck},
		{"diff", "report how two definition documents differ, tool by tool and server by server", runDiff},
		{"validate", "strictly parse and schema-validate a definition document", runValidate},
		{"login", "sign in to a config's servers that require OAuth, caching the tokens", runLogin},
		{"logout", "remove cached OAuth sign-ins", runLogout},
		{"scan", "check MCP client config files for credentials in commands, args and URLs", func(ctx context.Context, args []string, e *env) int {
			return runScan(ctx, args, e.stdout, e.stderr)
		}},
	}
}

const usage = `guardian records what an AI agent is made of, and refuses credentials
where such a record would keep them.

Usage:

	guardian <command> [arguments]

Commands:

%s
Run "guardian <command> --help" for a command's usage.

Exit status: 0 when all is well; 1 when something is refused (a
credential where it would be recorded) or a definition drifted; 2 on bad
usage, a file that cannot be read or parsed, a server that cannot be
loaded, or an interrupt.

Example:

	guardian record .vscode/mcp.json -o agent.json
	guardian check .vscode/mcp.json --golden agent.json
	guardian diff old.json new.json
	guardian validate agent.json
	guardian scan .vscode/mcp.json ~/.cursor/mcp.json
	guardian login .vscode/mcp.json
	guardian logout .vscode/mcp.json

docs/cli.md has every command, flag and JSON shape, and a CI recipe.
`

func printUsage(w io.Writer) {
	var b strings.Builder
	for _, c := range commands() {
		fmt.Fprintf(&b, "\t%-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, usage, b.String())
}

// run is main without the process, with guardian's own environment and
// no progress: tests call it directly.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runEnv(ctx, args, &env{stdout: stdout, stderr: stderr, lookupEnv: os.LookupEnv})
}

func runEnv(ctx context.Context, args []string, e *env) int {
	if len(args) == 0 {
		printUsage(e.stderr)
		return exitBad
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if args[0] == "help" && len(args) > 1 {
			return runEnv(ctx, []string{args[1], "--help"}, e)
		}
		printUsage(e.stdout)
		return exitOK
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return runChecked(ctx, c, args[1:], e)
		}
	}
	printLine(e.stderr, "guardian: unknown command %q", args[0])
	fmt.Fprint(e.stderr, "\n")
	printUsage(e.stderr)
	return exitBad
}

// runChecked runs c with its stdout checked: stdout holds a command's
// product (a document, a report, changes), so a write to it that fails (a
// full disk, a closed pipe) fails the command, exit 2, said on stderr,
// whatever the command would have returned.
func runChecked(ctx context.Context, c command, args []string, e *env) int {
	out := &checkedWriter{w: e.stdout}
	ce := *e
	ce.stdout = out
	code := c.run(ctx, args, &ce)
	if out.err != nil {
		printLine(e.stderr, "guardian %s: cannot write to stdout: %v: the output is incomplete", c.name, out.err)
		return max(code, exitBad)
	}
	return code
}

// checkedWriter remembers the first error writing to w, and writes
// nothing after it.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		c.err = err
	}
	return n, err
}
