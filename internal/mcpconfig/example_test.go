package mcpconfig_test

import (
	"fmt"

	"github.com/guardian-agent/guardian-go/internal/mcpconfig"
)

func ExampleParse() {
	cfg, err := mcpconfig.Parse([]byte(`{
  // comments and trailing commas, as VS Code allows
  "servers": {
    "fetch": {"type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"]},
    "docs": {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${input:token}"}},
  },
}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range cfg.Servers {
		fmt.Println(s.Pointer, s.Transport, s.Command, s.Args, s.URL, len(s.Connection.Headers))
	}
	_, err = mcpconfig.Parse([]byte(`{"mcpServers": {"a": {"command": "x",}, "a": {}}}`))
	fmt.Println(err)
	// Output:
	// /servers/fetch stdio uvx [mcp-server-fetch]  0
	// /servers/docs streamable_http  [] https://mcp.example.com/mcp 1
	// mcpconfig: 1:41: /mcpServers/a: duplicate key
}

func ExampleServer_Resolve() {
	cfg, err := mcpconfig.Parse([]byte(`{
  "servers": {
    "docs": {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${input:token}"}},
    "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "${workspaceFolder}"]},
  },
}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	vars := mcpconfig.Vars{
		Input:           func(id string) (string, bool) { return "example-token", id == "token" },
		WorkspaceFolder: "/src/project",
	}
	for _, s := range cfg.Servers {
		r, err := s.Resolve(vars)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(r.Name, r.Args, r.Connection.Headers)
	}
	_, err = cfg.Servers[0].Resolve(mcpconfig.Vars{})
	fmt.Println(err)
	// Output:
	// docs [] map[Authorization:Bearer example-token]
	// files [-y @modelcontextprotocol/server-filesystem /src/project] map[]
	// mcpconfig: /servers/docs/headers/Authorization: a ${input:...} reference has no value
}

func ExampleParseEnvFile() {
	env, err := mcpconfig.ParseEnvFile([]byte("# the server's settings\nexport LOG_LEVEL=debug\nGREETING=\"hello\\nworld\"\n"))
	fmt.Printf("%q %v\n", env, err)
	_, err = mcpconfig.ParseEnvFile([]byte("LOG_LEVEL debug\n"))
	fmt.Println(err)
	// Output:
	// map["GREETING":"hello\nworld" "LOG_LEVEL":"debug"] <nil>
	// mcpconfig: 1:11: want '=' after the key
}

func ExampleReadFile() {
	cfg, err := mcpconfig.ReadFile("../../testdata/configs/vscode.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range cfg.Servers {
		fmt.Println(s.Name, s.Transport, s.URLPointer())
	}
	// Output:
	// github streamable_http /servers/github/url
	// playwright stdio /servers/playwright/url
	// memory stdio /servers/memory/url
}
