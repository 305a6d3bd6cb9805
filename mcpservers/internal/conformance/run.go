package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"time"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

// scenarioEnv names the variable the suite gives the scenario in.
const scenarioEnv = "MCP_CONFORMANCE_SCENARIO"

// serverName is the connection's name in the Client.
const serverName = "conformance"

// errUsage marks a command line or environment the client cannot run with.
var errUsage = errors.New("usage")

// run is the whole program: it parses args, connects to the scenario's
// server and plays the scenario, writing what it did to stdout and what
// went wrong to stderr. It returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	err := runScenario(ctx, args, getenv, stdout)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "conformance: %v\n", err)
		fmt.Fprintf(stderr, "usage: %s=SCENARIO conformance [-protocol-version V] [-timeout D] SERVER_URL\n", scenarioEnv)
		return 2
	default:
		fmt.Fprintf(stderr, "conformance: %v\n", err)
		return 1
	}
}

func runScenario(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("conformance", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	protocol := fs.String("protocol-version", "", "pin the MCP protocol version (default: negotiate)")
	timeout := fs.Duration("timeout", 25*time.Second, "give up on the scenario after this long")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: want one argument, the server's URL; got %d", errUsage, fs.NArg())
	}
	serverURL := fs.Arg(0)
	if u, err := url.Parse(serverURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// url.Parse errors quote the URL: never print them.
		return fmt.Errorf("%w: the server's URL is not an http or https URL", errUsage)
	}
	name := getenv(scenarioEnv)
	sc, ok := lookupScenario(name)
	if !ok {
		return fmt.Errorf("%w: unknown scenario %q in $%s", errUsage, name, scenarioEnv)
	}

	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	opts := &mcpservers.ClientOptions{ProtocolVersion: *protocol}
	if sc.configure != nil {
		sc.configure(opts)
	}
	conn := mcpservers.StreamableHTTP{URL: serverURL}
	if sc.auth != nil {
		a, err := sc.auth()
		if err != nil {
			return fmt.Errorf("scenario %s: %w", name, err)
		}
		conn.Auth = a
	}
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{serverName: conn}, opts)
	if err != nil {
		return fmt.Errorf("scenario %s: %w", name, err)
	}
	err = sc.play(ctx, c, stdout)
	if cerr := c.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close: %w", cerr)
	}
	if err != nil {
		return fmt.Errorf("scenario %s: %w", name, err)
	}
	fmt.Fprintf(stdout, "scenario %s: done\n", name)
	return nil
}
