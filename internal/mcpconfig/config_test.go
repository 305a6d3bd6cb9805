package mcpconfig

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/refusals"
)

func TestParseClaudeDesktop(t *testing.T) {
	data := []byte(`{
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "from-env", "RETRIES": 3, "DEBUG": true, "UNSET": null}
    },
    "fs/local": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me"], "cwd": "/tmp", "disabled": false},
    "remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer from-header"}},
    "legacy": {"url": "https://mcp.example.com/v1/sse"},
    "live": {"url": "wss://mcp.example.com/ws"}
  },
  "globalShortcut": "Ctrl+Space"
}`)
	cfg, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range cfg.Servers {
		got = append(got, s.Name+" "+s.Pointer+" "+string(s.Transport))
	}
	want := []string{
		"github /mcpServers/github stdio",
		"fs/local /mcpServers/fs~1local stdio",
		"remote /mcpServers/remote streamable_http",
		"legacy /mcpServers/legacy sse",
		"live /mcpServers/live websocket",
	}
	if !slices.Equal(got, want) {
		t.Errorf("servers = %q, want %q", got, want)
	}
	gh := cfg.Servers[0]
	if gh.Command != "npx" || !slices.Equal(gh.Args, []string{"-y", "@modelcontextprotocol/server-github"}) {
		t.Errorf("github = %+v", gh)
	}
	if env := gh.Connection.Env; env["GITHUB_PERSONAL_ACCESS_TOKEN"] != "from-env" || env["RETRIES"] != "3" || env["DEBUG"] != "true" || len(env) != 3 {
		t.Errorf("env = %v", env)
	}
	fs := cfg.Servers[1]
	if fs.Connection.Cwd != "/tmp" || string(fs.Connection.Other["disabled"]) != "false" {
		t.Errorf("fs connection = %+v", fs.Connection)
	}
	if h := cfg.Servers[2].Connection.Headers; h["Authorization"] != "Bearer from-header" || cfg.Servers[2].URL != "https://mcp.example.com/mcp" {
		t.Errorf("remote = %+v", cfg.Servers[2])
	}
}

func TestParseVSCode(t *testing.T) {
	data := []byte(`// .vscode/mcp.json
{
  "inputs": [
    {"type": "promptString", "id": "token", "description": "GitHub token", "password": true},
  ],
  /* servers by name */
  "servers": {
    "github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": {"Authorization": "Bearer ${input:token}"}},
    "fetch": {"type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"], "envFile": "${workspaceFolder}/.env",},
    "old": {"type": "sse", "url": "http://localhost:3000/events"},
    "alias1": {"type": "streamable-http", "url": "http://localhost:1/mcp"},
    "alias2": {"transport": "streamable", "url": "http://localhost:2/mcp"},
    "alias3": {"type": "ws", "url": "ws://localhost:3/"},
    "both": {"type": "STDIO", "transport": "stdio", "command": "x"},
  },
}`)
	cfg, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range cfg.Servers {
		got = append(got, s.Pointer+" "+string(s.Transport))
	}
	want := []string{"/servers/github streamable_http", "/servers/fetch stdio", "/servers/old sse",
		"/servers/alias1 streamable_http", "/servers/alias2 streamable_http", "/servers/alias3 websocket", "/servers/both stdio"}
	if !slices.Equal(got, want) {
		t.Errorf("servers = %q, want %q", got, want)
	}
	if cfg.Servers[1].Connection.EnvFile != "${workspaceFolder}/.env" {
		t.Errorf("envFile = %q", cfg.Servers[1].Connection.EnvFile)
	}
}

func TestParseWindsurfAndCline(t *testing.T) {
	cfg, err := Parse([]byte(`{"mcpServers": {
  "w": {"serverUrl": "https://mcp.example.com/sse"},
  "c": {"url": "https://mcp.example.com/mcp", "transportType": "streamableHttp"}
}}`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Servers[0].URLPointer() != "/mcpServers/w/serverUrl" || cfg.Servers[1].URLPointer() != "/mcpServers/c/url" {
		t.Errorf("URL pointers %q %q", cfg.Servers[0].URLPointer(), cfg.Servers[1].URLPointer())
	}
	if cfg.Servers[0].URL != "https://mcp.example.com/sse" || cfg.Servers[0].Transport != SSE || cfg.Servers[1].Transport != StreamableHTTP {
		t.Errorf("servers = %+v", cfg.Servers)
	}
	if _, err := Parse([]byte(`{"mcpServers": {"w": {"url": "https://a", "serverUrl": "https://b"}}}`)); err == nil {
		t.Error("url and serverUrl both accepted")
	}
}

func TestParseSettingsJSON(t *testing.T) {
	cfg, err := Parse([]byte("\xef\xbb\xbf{\"editor.fontSize\": 14, \"mcp\": {\"servers\": {\"a\": {\"command\": \"node\", \"args\": [\"s.js\"]}}}}"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Servers) != 1 || cfg.Servers[0].Pointer != "/mcp/servers/a" {
		t.Errorf("servers = %+v", cfg.Servers)
	}
}

func TestParseErrors(t *testing.T) {
	secret := "ghp_" + strings.Repeat("Q", 36)
	tests := []struct {
		name    string
		data    string
		line    int
		col     int
		pointer string
	}{
		{"empty", "", 1, 1, ""},
		{"not an object", `["x"]`, 1, 1, ""},
		{"no servers", `{"other": {}}`, 1, 1, ""},
		{"servers not object", `{"mcpServers": ["` + secret + `"]}`, 1, 16, "/mcpServers"},
		{"both roots", `{"mcpServers": {}, "servers": {}}`, 1, 20, "/servers"},
		{"trailing garbage", `{"mcpServers": {}} x`, 1, 20, ""},
		{"unterminated string", "{\"mcpServers\": {\"a\": {\"command\": \"" + secret, 1, 34, "/mcpServers/a/command"},
		{"bad escape", `{"mcpServers": {"a": {"command": "` + secret + `\q"}}}`, 1, 75, "/mcpServers/a/command"},
		{"invalid utf-8", "{\"mcpServers\": {\"a\": {\"command\": \"" + secret + "\xff\"}}}", 1, 75, "/mcpServers/a/command"},
		{"control char", "{\"mcpServers\": {\"a\": {\"command\": \"a\x01\"}}}", 1, 36, "/mcpServers/a/command"},
		{"unpaired surrogate", `{"mcpServers": {"a": {"command": "\ud800"}}}`, 1, 41, "/mcpServers/a/command"},
		{"duplicate server", "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\"},\n  \"a\": {\"command\": \"y\"}}}", 3, 3, "/mcpServers/a"},
		{"duplicate field", `{"mcpServers": {"a": {"command": "x", "command": "` + secret + `"}}}`, 1, 39, "/mcpServers/a/command"},
		{"missing comma", "{\"mcpServers\": {\"a\": {\"command\": \"x\"\n \"args\": []}}}", 2, 2, "/mcpServers/a"},
		{"unterminated comment", `{"mcpServers": {} /* `, 1, 19, ""},
		{"bad number", `{"mcpServers": {"a": {"command": "x", "env": {"A": 01}}}}`, 1, 53, "/mcpServers/a/env"},
		{"command not string", `{"mcpServers": {"a": {"command": ["npx"]}}}`, 1, 34, "/mcpServers/a/command"},
		{"env value object", `{"mcpServers": {"a": {"command": "x", "env": {"T": {"v": "` + secret + `"}}}}}`, 1, 52, "/mcpServers/a/env/T"},
		{"header not string", `{"mcpServers": {"a": {"url": "https://h", "headers": {"X": 1}}}}`, 1, 60, "/mcpServers/a/headers/X"},
		{"unknown type", `{"servers": {"a": {"type": "carrier-pigeon", "url": "https://h"}}}`, 1, 28, "/servers/a/type"},
		{"type and transport disagree", `{"servers": {"a": {"type": "sse", "transport": "http", "url": "https://h"}}}`, 1, 48, "/servers/a/transport"},
		{"command and url", `{"mcpServers": {"a": {"command": "x", "url": "https://h"}}}`, 1, 22, "/mcpServers/a"},
		{"neither", `{"mcpServers": {"a": {"env": {}}}}`, 1, 22, "/mcpServers/a"},
		{"stdio without command", `{"servers": {"a": {"type": "stdio", "url": "https://h"}}}`, 1, 19, "/servers/a"},
		{"remote without url", `{"servers": {"a": {"type": "http", "command": "x"}}}`, 1, 19, "/servers/a"},
		{"server not object", `{"mcpServers": {"a": "` + secret + `"}}`, 1, 22, "/mcpServers/a"},
		{"too deep", `{"mcpServers": {"a": {"command": "x", "x": ` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}}}`, 1, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse([]byte(tt.data))
			if cfg != nil || err == nil {
				t.Fatalf("Parse = %v, %v, want an error", cfg, err)
			}
			if strings.Contains(err.Error(), secret[4:12]) {
				t.Fatalf("error quotes the input: %v", err)
			}
			if !errors.Is(err, refusals.ErrInvalid) {
				t.Errorf("errors.Is(%v, ErrInvalid) = false", err)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not *Error", err)
			}
			if tt.col == 0 { // position not pinned, only present
				if e.Line < 1 || e.Column < 1 {
					t.Errorf("position %d:%d", e.Line, e.Column)
				}
				return
			}
			if e.Line != tt.line || e.Column != tt.col || e.Pointer != tt.pointer {
				t.Errorf("error at %d:%d %q, want %d:%d %q (%v)", e.Line, e.Column, e.Pointer, tt.line, tt.col, tt.pointer, err)
			}
		})
	}
}

func TestParseArgsNotStrings(t *testing.T) {
	data := []byte(`{"mcpServers": {
  "a": {"command": "x", "args": ["--port", 8080, true, "ok", null]},
  "b": {"command": "y", "args": "--port 8080"}
}}`)
	cfg, err := Parse(data)
	if cfg != nil {
		t.Fatalf("config returned with an error")
	}
	var got []string
	for _, r := range refusals.All(err) {
		if !errors.Is(r, refusals.ErrArgsNotStrings) || !errors.Is(r, refusals.ErrCannotRecord) {
			t.Errorf("kind of %v", r)
		}
		got = append(got, r.Pointer+" "+r.Detail)
	}
	want := []string{"/mcpServers/a/args/1 line 2, column 44", "/mcpServers/a/args/2 line 2, column 50",
		"/mcpServers/a/args/4 line 2, column 62", "/mcpServers/b/args line 3, column 33"}
	if !slices.Equal(got, want) {
		t.Errorf("refusals = %q, want %q", got, want)
	}
}

// ParseAll gives the config with such refusals, every string arg at its
// index, so that the rest can be checked; with a *Error, nothing.
func TestParseAllArgsNotStrings(t *testing.T) {
	data := []byte(`{"mcpServers": {
  "a": {"command": "x", "args": ["--port", 8080, true, "ok", null]},
  "b": {"command": "y", "args": "--port 8080"},
  "c": {"url": "https://h/mcp"}
}}`)
	cfg, err := ParseAll(data)
	if cfg == nil || len(refusals.All(err)) != 4 {
		t.Fatalf("ParseAll = %v, %v: want the config and 4 refusals", cfg, err)
	}
	var names []string
	for _, s := range cfg.Servers {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"a", "b", "c"}) || !slices.Equal(cfg.Servers[0].Args, []string{"--port", "", "", "ok", ""}) ||
		cfg.Servers[1].Args != nil || cfg.Servers[2].URL != "https://h/mcp" {
		t.Errorf("servers %q, a's args %q, b's args %q", names, cfg.Servers[0].Args, cfg.Servers[1].Args)
	}
	bad := []byte(`{"mcpServers": {"a": {"command": "x", "args": [1]}, "b": {"command": 2}}}`)
	if cfg, err := ParseAll(bad); cfg != nil || err == nil {
		t.Errorf("ParseAll with a *Error = %v, %v: want no config", cfg, err)
	}
}

func TestPositionCountsCharacters(t *testing.T) {
	// Columns are characters, not bytes: "é" is one column.
	_, err := Parse([]byte(`{"mcpServers": {"é": {"command": 1}}}`))
	var e *Error
	if !errors.As(err, &e) || e.Column != 34 {
		t.Errorf("error = %v, want column 34", err)
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(name, []byte(`{"mcpServers": {"a": {"command": "x"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := ReadFile(name)
	if err != nil || len(cfg.Servers) != 1 || cfg.Servers[0].Args != nil {
		t.Errorf("ReadFile = %+v, %v", cfg, err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	secret := "ghp_" + strings.Repeat("Z", 36)
	keySecret := fakeKeyToken()
	for _, s := range []string{
		`{"mcpServers": {"a": {"command": "x", "args": ["y"]}}}`,
		`{"servers": {"a": {"type": "http", "url": "https://h", "headers": {"A": "b"}},}, // c` + "\n}",
		`{"mcp": {"servers": {}}}`, `[`, `{"a": "\u00e9\ud83d\ude00"}`, `/* */ {"mcpServers": {"a": {"url": "ws://h"}}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Any input: no panic, exactly one of config and error, and a
		// position on every *Error.
		for _, data := range []string{s,
			// The secret as a string value before the fuzzed text, and
			// after it: whatever the text breaks, the error must not
			// quote the value. (Keys may appear in pointers; values never.)
			`{"mcpServers": {"a": {"command": "` + secret + `", "x": ` + s + `}}}`,
			`{"mcpServers": {"a": ` + s + `, "b": {"command": "` + secret + `", "args": [1]}}}`,
			// The secret as a key: pointers write it as its stand-in.
			`{"mcpServers": {"` + keySecret + `": ` + s + `}}`,
			`{"servers": {"a": {"type": "http", "url": "https://h", "headers": {"Authorization: Bearer ` + keySecret + `": ` + s + `}}}}`,
		} {
			cfg, err := Parse([]byte(data))
			if (cfg == nil) == (err == nil) {
				t.Fatalf("Parse = %v, %v: want exactly one", cfg, err)
			}
			if err == nil {
				continue
			}
			if data != s && strings.Contains(err.Error(), secret[4:12]) && !strings.Contains(s, secret[4:12]) {
				t.Fatalf("error quotes a value: %v", err)
			}
			if data != s && strings.Contains(err.Error(), keySecret[4:14]) && !strings.Contains(s, keySecret[4:14]) {
				t.Fatalf("error quotes a key holding a credential: %v", err)
			}
			var e *Error
			if errors.As(err, &e) && (e.Line < 1 || e.Column < 1) {
				t.Fatalf("bad position in %v", err)
			}
		}
	})
}

// Claude Code's ~/.claude.json: the user's servers, then each project's,
// at pointers naming the project; a file with projects alone is a config.
func TestParseClaudeProjects(t *testing.T) {
	cfg, err := Parse([]byte(`{
  "numStartups": 3,
  "mcpServers": {"a": {"command": "x"}},
  "projects": {
    "/home/u/app": {"allowedTools": [], "mcpServers": {"a": {"type": "http", "url": "https://h/mcp"}, "b": {"command": "y"}}},
    "/home/u/~x": {"mcpServers": {"c": {"command": "z"}}},
    "/home/u/none": {"history": []}
  }
}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range cfg.Servers {
		got = append(got, s.Name+" "+s.Pointer+" "+s.Project)
	}
	want := []string{"a /mcpServers/a ", "a /projects/~1home~1u~1app/mcpServers/a /home/u/app",
		"b /projects/~1home~1u~1app/mcpServers/b /home/u/app", "c /projects/~1home~1u~1~0x/mcpServers/c /home/u/~x"}
	if !slices.Equal(got, want) {
		t.Errorf("servers:\n%q\nwant:\n%q", got, want)
	}
	if cfg, err := Parse([]byte(`{"projects": {"/p": {"mcpServers": {"a": {"command": "x"}}}}}`)); err != nil || len(cfg.Servers) != 1 {
		t.Errorf("projects alone: %v, %v", cfg, err)
	}
	for data, ptr := range map[string]string{
		`{"projects": []}`:                                "/projects",
		`{"projects": {"/p": 1}}`:                         "/projects/~1p",
		`{"projects": {"/p": {"mcpServers": []}}}`:        "/projects/~1p/mcpServers",
		`{"projects": {"/p": {"mcpServers": {"a": {}}}}}`: "/projects/~1p/mcpServers/a",
	} {
		_, err := Parse([]byte(data))
		var e *Error
		if !errors.As(err, &e) || e.Pointer != ptr {
			t.Errorf("Parse(%s) = %v, want an *Error at %s", data, err, ptr)
		}
	}
}
