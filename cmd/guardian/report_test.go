package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/definition"
)

func TestChangeLine(t *testing.T) {
	tests := []struct {
		c    definition.Change
		want string
	}{
		{definition.Change{Kind: definition.AgentChanged, Detail: "name changed"}, `agent changed: name changed`},
		{definition.Change{Kind: definition.ToolAdded, Tool: "a", Server: "s"}, `tool "a": added (server "s")`},
		{definition.Change{Kind: definition.ToolAdded, Tool: "native"}, `tool "native": added`},
		{definition.Change{Kind: definition.ToolRemoved, Tool: "a", Server: "s"}, `tool "a": removed (server "s")`},
		{definition.Change{Kind: definition.ToolRenamed, Tool: "b", From: "a"}, `tool "b": renamed from "a" (same description and schemas)`},
		{definition.Change{Kind: definition.ToolDescription, Tool: "a", Detail: `"x" → "y"`}, `tool "a": description changed: "x" → "y"`},
		{definition.Change{Kind: definition.ToolTitle, Tool: "a", Detail: `"" → "A"`}, `tool "a": title changed: "" → "A"`},
		{definition.Change{Kind: definition.ToolInputSchema, Tool: "a", Detail: "changed at /type"}, `tool "a": input schema changed at /type`},
		{definition.Change{Kind: definition.ToolOutputSchema, Tool: "a", Detail: "changed at /"}, `tool "a": output schema changed at /`},
		{definition.Change{Kind: definition.ToolAnnotations, Tool: "a", Detail: "readOnlyHint true → false"}, `tool "a": annotations changed: readOnlyHint true → false`},
		{definition.Change{Kind: definition.ToolDestructive, Tool: "a", Detail: "destructiveHint (unset) → false"}, `tool "a": DESTRUCTIVE HINT FLIPPED: (unset) → false`},
		{definition.Change{Kind: definition.ToolCode, Tool: "a", Detail: "sourceHash x → y"}, `tool "a": code changed: sourceHash x → y`},
		{definition.Change{Kind: definition.ToolServer, Tool: "a", Detail: `"s" → "t"`}, `tool "a": calls another server: "s" → "t"`},
		{definition.Change{Kind: definition.ServerAdded, Server: "s", Detail: `stdio "x" []`}, `server "s": added: stdio "x" []`},
		{definition.Change{Kind: definition.ServerRemoved, Server: "s", Detail: `sse "u"`}, `server "s": removed: sse "u"`},
		{definition.Change{Kind: definition.ServerChanged, Server: "s", Detail: `url "a" → "b"`}, `server "s": changed: url "a" → "b"`},
		{definition.Change{Kind: definition.SubAgentAdded, Agent: "/subAgents/0", Detail: `"helper"`}, `sub-agent /subAgents/0: added: "helper"`},
		{definition.Change{Kind: definition.SubAgentRemoved, Agent: "/subAgents/1", Detail: `"old"`}, `sub-agent /subAgents/1: removed: "old"`},
		{definition.Change{Kind: definition.ToolDescription, Agent: "/subAgents/0", Tool: "a", Detail: "d"}, `sub-agent /subAgents/0: tool "a": description changed: d`},
		{definition.Change{Kind: definition.ExclusionsChanged, Detail: " → /tools/0/title"}, `exclusions-changed:  → /tools/0/title`},
		{definition.Change{Kind: definition.FormatVersionChanged, Detail: "1 → 2"}, `format-version-changed: 1 → 2`},
		{definition.Change{Kind: "some-future-kind", Tool: "a"}, `some-future-kind tool "a"`},
	}
	for _, tt := range tests {
		if got := changeLine(tt.c); got != tt.want {
			t.Errorf("changeLine(%+v) = %q, want %q", tt.c, got, tt.want)
		}
	}
}

func TestProblemString(t *testing.T) {
	tests := []struct {
		p    problem
		want string
	}{
		// As guardian scan prints a refusal.
		{problem{File: "c.json", Pointer: "/mcpServers/a/args/2", Kind: "contains-secret", Rule: "token/github", Fix: "remove it"}, "c.json: /mcpServers/a/args/2: token/github: remove it"},
		{problem{File: "c.json", Line: 3, Column: 26, Pointer: "/mcpServers/a", Kind: kindInvalid, Message: "want ',' or '}'"}, "c.json:3:26: /mcpServers/a: want ',' or '}'"},
		{problem{Pointer: "/tools/3/inputSchema", Kind: kindInvalid, Rule: "schema-invalid", Subject: "search", Message: "not a schema", Fix: "fix it"}, `recorded document: /tools/3/inputSchema: schema-invalid ("search"): not a schema; fix it`},
		{problem{File: "c.json", Pointer: "/servers/gh/url", Kind: kindUnset, Subject: "gh", Message: "${env:X} is not set", Fix: "set X"}, "c.json: /servers/gh/url: ${env:X} is not set; set X"},
		{problem{File: "g.json", Kind: kindUnreadable, Message: "cannot read: no such file or directory"}, "g.json: cannot read: no such file or directory"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func TestStatuses(t *testing.T) {
	for status, code := range map[string]int{statusOK: 0, statusDrift: 1, statusRefused: 1, statusInvalid: 2, statusFailed: 2, statusInterrupted: 2, statusUsage: 2} {
		if got := exitCodeOf(status); got != code {
			t.Errorf("exitCodeOf(%q) = %d, want %d", status, got, code)
		}
	}
	if worse(statusDrift, statusFailed) != statusFailed || worse(statusFailed, statusDrift) != statusFailed || worse(statusRefused, statusDrift) != statusRefused {
		t.Errorf("worse does not keep the higher exit code, first on a tie")
	}
}

func TestInputEnvName(t *testing.T) {
	for id, want := range map[string]string{
		"github-token": "GUARDIAN_INPUT_GITHUB_TOKEN",
		"apiKey":       "GUARDIAN_INPUT_APIKEY",
		"a.b c/é":      "GUARDIAN_INPUT_A_B_C__",
		"x9":           "GUARDIAN_INPUT_X9",
	} {
		if got := inputEnvName(id); got != want {
			t.Errorf("inputEnvName(%q) = %q, want %q", id, got, want)
		}
	}
	token := fakeToken("n")
	for name, want := range map[string]bool{"GITHUB_TOKEN": true, "tools-file": true, "a.b": true, "": false, "a b": false, "${x}": false, token: false, strings.Repeat("a", 65): false} {
		if got := printableName(name); got != want {
			t.Errorf("printableName(%.20q) = %v, want %v", name, got, want)
		}
	}
}

func TestConfigDirs(t *testing.T) {
	root := t.TempDir()
	for path, want := range map[string]string{
		filepath.Join(root, "mcp.json"):                    root,
		filepath.Join(root, "p", ".vscode", "mcp.json"):    filepath.Join(root, "p"),
		filepath.Join(root, "p", ".cursor", "mcp.json"):    filepath.Join(root, "p"),
		filepath.Join(root, "p", "vscode", "mcp.json"):     filepath.Join(root, "p", "vscode"),
		filepath.Join(root, "p", ".claude", "settings.js"): filepath.Join(root, "p", ".claude"),
	} {
		if got, err := configDirs(path); err != nil || got != want {
			t.Errorf("configDirs(%q) = %q, %v, want %q", path, got, err, want)
		}
	}
}
