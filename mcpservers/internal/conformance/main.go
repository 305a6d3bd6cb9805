// Command conformance is an MCP client built on package mcpservers, for the
// client scenarios of the MCP conformance suite
// (@modelcontextprotocol/conformance). For each scenario the suite starts a
// test server and runs
//
//	conformance [-protocol-version V] [-timeout D] SERVER_URL
//
// with the scenario's name in $MCP_CONFORMANCE_SCENARIO; the suite then
// judges what its server saw. The client exits 0 when it did its part, 1
// when the scenario failed on its side, and 2 on bad usage.
//
// Scenarios: initialize, tools_call, elicitation-sep1034-client-defaults.
// See docs/interop.md for how the test runs the suite against it.
package main

import (
	"context"
	"os"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}
