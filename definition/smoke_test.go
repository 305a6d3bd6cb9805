package definition_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/guardian-agent/guardian-go/definition"
)

type fakeMCP struct {
	name   string
	server definition.Server
	code   []definition.Code
}

func (f *fakeMCP) Name() string        { return f.name }
func (f *fakeMCP) Description() string { return "d " + f.name }
func (f *fakeMCP) InputSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)
}
func (f *fakeMCP) MCPRecord() definition.MCPRecord {
	return definition.MCPRecord{Server: f.server, Annotations: json.RawMessage(`{"readOnlyHint":true}`), Code: f.code}
}

func TestSmoke(t *testing.T) {
	docs := definition.Server{Name: "docs", Transport: definition.TransportStdio, Command: "go", Args: []string{"run", "./server"}}
	a := &definition.Agent{Name: "researcher", SystemPrompt: "You research.",
		Tools: []definition.Tool{&fakeMCP{name: "search_docs", server: docs},
			definition.NewFuncTool("add", "adds", nil, func(ctx context.Context, args map[string]any) (any, error) { return 1, nil })}}
	d, err := definition.Build(a, &definition.Options{Exclude: []string{"/mcpServers/0/args"}})
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := d.Document()
	fmt.Printf("%s%s\n", doc, d.Digest())
	p, err := definition.Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	doc2, _ := p.Document()
	if string(doc2) != string(doc) {
		t.Fatal("round trip")
	}
	if err := d.Vet(a.Tools[0]); err != nil {
		t.Fatal(err)
	}
	if err := p.Vet(a.Tools[0]); err != nil {
		t.Fatal(err)
	}
	other := &fakeMCP{name: "search_docs", server: definition.Server{Name: "docs", Transport: definition.TransportStdio, Command: "python"}}
	fmt.Println(d.Vet(other))
	bad := &definition.Agent{Name: "x", Tools: []definition.Tool{&fakeMCP{name: "a", server: definition.Server{Name: "s", Transport: "stdio", Command: "x", Args: []string{"postgres://u:p@h/db"}}},
		&fakeMCP{name: "b", server: definition.Server{Name: "s", Transport: "websocket", URL: "ws://x"}}}}
	_, err = definition.Build(bad, nil)
	fmt.Println(err)
}
