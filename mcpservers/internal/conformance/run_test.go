package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

func TestRunUsage(t *testing.T) {
	env := func(scenario string) func(string) string {
		return func(k string) string {
			if k == scenarioEnv {
				return scenario
			}
			return ""
		}
	}
	// A URL that might carry a secret must never be printed.
	secretURL := "http://user:" + strings.Repeat("p", 12) + "@[::1"
	for _, tc := range []struct {
		name     string
		args     []string
		scenario string
		wantCode int
		wantErr  string
	}{
		{"no url", nil, "initialize", 2, "want one argument"},
		{"two urls", []string{"http://a", "http://b"}, "initialize", 2, "want one argument"},
		{"bad flag", []string{"-nope", "http://127.0.0.1:1"}, "initialize", 2, "flag provided but not defined"},
		{"not a url", []string{secretURL}, "initialize", 2, "not an http or https URL"},
		{"not http", []string{"ftp://127.0.0.1/mcp"}, "initialize", 2, "not an http or https URL"},
		{"no scenario", []string{"http://127.0.0.1:1/mcp"}, "", 2, `unknown scenario ""`},
		{"unknown scenario", []string{"http://127.0.0.1:1/mcp"}, "sse-retry", 2, `unknown scenario "sse-retry"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tc.args, env(tc.scenario), &stdout, &stderr)
			if code != tc.wantCode || !strings.Contains(stderr.String(), tc.wantErr) {
				t.Errorf("run(%q) = %d, stderr %q; want %d and %q", tc.args, code, stderr.String(), tc.wantCode, tc.wantErr)
			}
			if strings.Contains(stderr.String(), "pppp") {
				t.Errorf("stderr quotes the URL's password: %q", stderr.String())
			}
		})
	}
}

func TestRunUnreachableServer(t *testing.T) {
	var stdout, stderr bytes.Buffer
	// Port 1 on loopback: nothing listens there.
	code := run(context.Background(), []string{"-timeout", "5s", "http://127.0.0.1:1/mcp"},
		func(string) string { return "initialize" }, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "scenario initialize") {
		t.Errorf("run against nothing = %d, stderr %q; want 1 and the scenario's failure", code, stderr.String())
	}
}

func TestAcceptingElicitor(t *testing.T) {
	ctx := context.Background()
	r, err := acceptingElicitor{}.Elicit(ctx, &mcpservers.ElicitationRequest{
		Mode: "form", RequestedSchema: json.RawMessage(`{"properties":{"ok":{"type":"boolean","default":false}}}`),
	})
	if err != nil || r.Action != mcpservers.ElicitationAccept || r.Content != nil {
		t.Errorf("form: %+v, %v; want accept, the form as shown", r, err)
	}
	r, err = acceptingElicitor{}.Elicit(ctx, &mcpservers.ElicitationRequest{Mode: "url", URL: "https://example.com/auth"})
	if err != nil || r.Action != mcpservers.ElicitationDecline {
		t.Errorf("url: %+v, %v; want decline", r, err)
	}
}

// Example_run shows the program's usage error: the suite always gives the
// URL and the scenario, so this is what a person running it by hand sees.
func Example_run() {
	var stderr strings.Builder
	code := run(context.Background(), nil, func(string) string { return "" }, io.Discard, &stderr)
	fmt.Print(stderr.String())
	fmt.Println("exit status", code)
	// Output:
	// conformance: usage: want one argument, the server's URL; got 0
	// usage: MCP_CONFORMANCE_SCENARIO=SCENARIO conformance [-protocol-version V] [-timeout D] SERVER_URL
	// exit status 2
}
