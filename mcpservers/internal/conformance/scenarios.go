package main

import (
	"context"
	"fmt"
	"io"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

// scenario is how the client plays one of the suite's client scenarios.
type scenario struct {
	// configure sets the client options the scenario needs, if any.
	configure func(*mcpservers.ClientOptions)
	// auth, if set, makes the connection's Auth.
	auth func() (mcpservers.Auth, error)
	// play connects through c and does what the scenario's server expects.
	play func(ctx context.Context, c *mcpservers.Client, out io.Writer) error
}

// lookupScenario returns how to play the named scenario.
func lookupScenario(name string) (scenario, bool) {
	switch name {
	case "initialize":
		// The server checks the initialize request: protocol version and
		// clientInfo. Loading the tools connects and initializes.
		return scenario{play: listTools}, true
	case "tools_call":
		return scenario{play: func(ctx context.Context, c *mcpservers.Client, out io.Writer) error {
			return callTool(ctx, c, out, "add_numbers", map[string]any{"a": 5, "b": 3})
		}}, true
	case "auth/metadata-default", "auth/basic-cimd", "auth/token-endpoint-auth-basic",
		"auth/token-endpoint-auth-post", "auth/token-endpoint-auth-none":
		// Sign in (discovery, registration, PKCE, token) and list tools.
		return scenario{auth: newOAuth, play: listTools}, true
	case "auth/scope-step-up":
		// Listing needs one scope, calling a tool another: the 403
		// insufficient_scope makes the client sign in again for both.
		return scenario{auth: newOAuth, play: func(ctx context.Context, c *mcpservers.Client, out io.Writer) error {
			return callTool(ctx, c, out, "test-tool", map[string]any{})
		}}, true
	case "elicitation-sep1034-client-defaults":
		// The tool asks for a form whose fields all have defaults and
		// checks that the client answers with them (SEP-1034).
		return scenario{
			configure: func(o *mcpservers.ClientOptions) { o.Elicitation = acceptingElicitor{} },
			play: func(ctx context.Context, c *mcpservers.Client, out io.Writer) error {
				return callTool(ctx, c, out, "test_client_elicitation_defaults", map[string]any{})
			},
		}, true
	}
	return scenario{}, false
}

func listTools(ctx context.Context, c *mcpservers.Client, out io.Writer) error {
	tools, err := c.Tools(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "tools: %d\n", len(tools))
	for _, t := range tools {
		fmt.Fprintf(out, "tool %q (protocol %s)\n", t.Name(), t.Server().ProtocolVersion)
	}
	return nil
}

// callTool loads the tools, calls the named one and prints its text. A
// result with isError set fails the scenario.
func callTool(ctx context.Context, c *mcpservers.Client, out io.Writer, name string, args map[string]any) error {
	tools, err := c.Tools(ctx)
	if err != nil {
		return err
	}
	for _, t := range tools {
		if t.Name() != name {
			continue
		}
		r, err := t.Call(ctx, args)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: %s\n", name, r.Text())
		if r.IsError {
			return fmt.Errorf("tool %q reported an error", name)
		}
		return nil
	}
	return fmt.Errorf("the server offers no tool %q", name)
}
