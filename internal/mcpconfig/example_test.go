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
