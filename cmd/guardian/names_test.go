package main

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// variedToken is a GitHub-shaped token with a varied body (not a
// placeholder), built here so that no literal one is in the repository.
func variedToken() string { return "ghp_" + strings.Repeat("Zq8Lm3Vx4Rb7", 3) }

// writeJSONFile writes v as JSON to dir/name.
func writeJSONFile(t *testing.T, dir, name string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// toolsConfig writes a config of one toolserver server called server,
// serving one tool called tool, and returns its file name.
func toolsConfig(t *testing.T, dir, name, server, tool string) string {
	t.Helper()
	writeJSONFile(t, dir, name+".tools.json", []map[string]any{{"name": tool, "description": "A tool.", "inputSchema": map[string]any{"type": "object"}}})
	writeJSONFile(t, dir, name, map[string]any{"mcpServers": map[string]any{server: map[string]any{"command": "./toolserver", "args": []string{"-tools", name + ".tools.json"}}}})
	return name
}

// A config key holding a token was recorded as a server's name, printed,
// passed by scan, and refused by validate afterwards. Now scan and record
// refuse it, at the server's pointer with its stand-in, before anything
// starts; and neither output quotes it, in text or --json, a usage error
// included.
func TestServerNameHoldingCredential(t *testing.T) {
	dir := workspace(t)
	tok := variedToken()
	cfg := toolsConfig(t, dir, "named.json", tok, "search")
	for _, args := range [][]string{
		{"scan", cfg}, {"scan", cfg, "--json"},
		{"record", cfg, "-o", "out.json"}, {"record", cfg, "--json"},
		{"record", cfg, "--servers", "nope"}, {"record", cfg, "--servers", "nope", "--json"},
		{"check", cfg, "--golden", "none.json", "--update", "--json"},
	} {
		r := guardian(t, dir, nil, args...)
		assertNoSecret(t, r.stdout+r.stderr, tok)
		usage := args[len(args)-2] == "nope" || args[len(args)-1] == "nope"
		switch {
		case usage:
			if r.code != exitBad || !strings.Contains(r.stdout+r.stderr, "<member 0>") {
				t.Errorf("%q: exit %d, want 2 naming the server <member 0>:\n%s%s", args, r.code, r.stdout, r.stderr)
			}
		case r.code != exitRefused || !strings.Contains(r.stdout+r.stderr, "/mcpServers/<member 0>") || !strings.Contains(r.stdout+r.stderr, "token/github"):
			t.Errorf("%q: exit %d, want 1 with token/github at /mcpServers/<member 0>:\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("record wrote a document")
	}
}

// record never writes a document that validate refuses, whatever the
// names hold: for each server name and tool name, either record refuses
// (writing nothing, quoting no credential) or validate passes what it
// wrote.
func TestRecordNeverWritesWhatValidateRefuses(t *testing.T) {
	dir := workspace(t)
	tok := variedToken()
	assign := "API_KEY=" + "q7Lk2Vx9Rb4Tz8Mw3Np6Hs1J"
	names := []string{"docs", tok, "my-" + tok, assign, "do\u202ecs", "a\u200bb", "x\ny", "tab\tname", "检索文档", "my server", "admin.tools.list", "user-profile/update"}
	var recorded, refused int
	for i, n := range names {
		for j, c := range []struct{ server, tool string }{{n, "search"}, {"docs", n}} {
			cfg := toolsConfig(t, dir, "cfg-"+string(rune('a'+i))+string(rune('0'+j))+".json", c.server, c.tool)
			out := strings.TrimSuffix(cfg, ".json") + ".agent.json"
			r := guardian(t, dir, nil, "record", cfg, "-o", out, "--timeout", "30s")
			assertNoSecret(t, r.stdout+r.stderr, tok, assign)
			if r.code != exitOK {
				if r.code != exitRefused {
					t.Errorf("name #%d (%d): exit %d, want 0 or 1:\n%s", i, j, r.code, r.stderr)
				}
				if _, err := os.Stat(filepath.Join(dir, out)); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("name #%d (%d): refused, but a document was written", i, j)
				}
				refused++
				continue
			}
			recorded++
			if v := guardian(t, dir, nil, "validate", out); v.code != exitOK {
				t.Errorf("name #%d (%d): record wrote %s, validate refuses it (exit %d):\n%s%s", i, j, out, v.code, v.stdout, v.stderr)
			}
		}
	}
	// The names above hold both kinds: the test proves nothing if record
	// refused them all or passed them all.
	if recorded < 8 || refused < 12 {
		t.Errorf("%d recorded, %d refused: want the plain names recorded and the others refused", recorded, refused)
	}
}

// A key holding a credential was quoted raw in every pointer made from it
// (/mcpServers/gh/headers/Authorization: Bearer ghp_...: is a boolean);
// it is now its stand-in, in text and --json, in scan and record alike,
// and a reference under such a key that has no value too.
func TestKeysHoldingCredentialsAreNotQuoted(t *testing.T) {
	dir := workspace(t)
	tok := variedToken()
	writeJSONFile(t, dir, "boolean.json", map[string]any{"mcpServers": map[string]any{"gh": map[string]any{
		"url": "https://mcp.example/mcp", "headers": map[string]any{"Authorization: Bearer " + tok: true}}}})
	writeJSONFile(t, dir, "unset.json", map[string]any{"mcpServers": map[string]any{"gh": map[string]any{
		"command": "./toolserver", "env": map[string]any{"A": "1", tok: "${env:GUARDIAN_TEST_UNSET}"}}}})
	// Values mcpservers.NewClient refuses, under keys that are the secret:
	// its pointers (sorted order) become the config's (file order).
	if err := os.WriteFile(filepath.Join(dir, "newclient-headers.json"), []byte(`{"mcpServers": {"gh": {"url": "https://mcp.example/mcp", "headers": {"zz": "1", "`+tok+`": "a\u0001b"}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "newclient-env.json"), []byte(`{"mcpServers": {"gh": {"command": "./toolserver", "env": {"zz": "1", "`+tok+`": "x\u0000"}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args    []string
		code    int
		pointer string
	}{
		{[]string{"record", "newclient-headers.json"}, exitBad, "/mcpServers/gh/headers/<member 1>: header-invalid"},
		{[]string{"record", "newclient-env.json", "--json"}, exitBad, `"pointer": "/mcpServers/gh/env/<member 1>"`},
		{[]string{"scan", "boolean.json"}, exitBad, "/mcpServers/gh/headers/<member 0>"},
		{[]string{"scan", "boolean.json", "--json"}, exitBad, "/mcpServers/gh/headers/<member 0>"},
		{[]string{"record", "boolean.json"}, exitBad, "/mcpServers/gh/headers/<member 0>"},
		{[]string{"record", "unset.json"}, exitBad, "/mcpServers/gh/env/<member 1>"},
		{[]string{"record", "unset.json", "--json"}, exitBad, "/mcpServers/gh/env/<member 1>"},
	} {
		r := guardian(t, dir, nil, c.args...)
		assertNoSecret(t, r.stdout+r.stderr, tok)
		if r.code != c.code || !strings.Contains(r.stdout+r.stderr, c.pointer) {
			t.Errorf("%q: exit %d, want %d at %s:\n%s%s", c.args, r.code, c.code, c.pointer, r.stdout, r.stderr)
		}
	}
}

// A tool name holding a token was quoted by the refusals that came before
// the name's own (tool-name-duplicate between two servers): each says
// <withheld>, and the name's own refusal is at its pointer.
func TestToolNameHoldingCredentialIsNotQuoted(t *testing.T) {
	dir := workspace(t)
	tok := variedToken()
	toolsConfig(t, dir, "one.json", "a", tok)
	writeJSONFile(t, dir, "two.json", map[string]any{"mcpServers": map[string]any{
		"a": map[string]any{"command": "./toolserver", "args": []string{"-tools", "one.json.tools.json"}},
		"b": map[string]any{"command": "./toolserver", "args": []string{"-tools", "one.json.tools.json"}},
	}})
	for _, args := range [][]string{{"record", "one.json"}, {"record", "one.json", "--json"}, {"record", "two.json"}, {"record", "two.json", "--json"}} {
		r := guardian(t, dir, nil, args...)
		assertNoSecret(t, r.stdout+r.stderr, tok)
		if r.code != exitRefused {
			t.Errorf("%q: exit %d, want 1:\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		want := "/tools/0/name"
		if args[1] == "two.json" {
			want = "<withheld>"
		}
		if !strings.Contains(r.stdout+r.stderr, want) {
			t.Errorf("%q: no %s in:\n%s%s", args, want, r.stdout, r.stderr)
		}
	}
}
