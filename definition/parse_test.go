package definition_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/refusals"
)

// minimal is a small valid document, edited by the cases below.
const minimal = `{
  "extensions": {
    "guardian": {
      "mcpTools": {
        "search": "docs"
      }
    }
  },
  "formatVersion": 1,
  "mcpServers": [
    {
      "args": [
        "server.js"
      ],
      "command": "node",
      "name": "docs",
      "transport": "stdio"
    }
  ],
  "name": "a",
  "tools": [
    {
      "description": "",
      "inputSchema": {
        "type": "object"
      },
      "name": "search",
      "sourceHash": "blake3:0000000000000000000000000000000000000000000000000000000000000000"
    }
  ]
}
`

func TestParseRoundTrips(t *testing.T) {
	d, err := definition.Parse([]byte(minimal))
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := d.Document()
	if string(doc) != minimal {
		t.Errorf("Document() =\n%s\nwant the input back", doc)
	}
	// Non-canonical input reads as the same document.
	compact := strings.Join(strings.Fields(minimal), "")
	d2, err := definition.Parse([]byte(compact))
	if err != nil {
		t.Fatal(err)
	}
	if d2.Digest() != d.Digest() {
		t.Errorf("digest of the compact form %s, want %s", d2.Digest(), d.Digest())
	}
}

func TestParseRefuses(t *testing.T) {
	secret := "sk-proj-" + strings.Repeat("Ab3", 16)
	tests := []struct {
		name    string
		edit    func(string) string
		pointer string
		rule    string
		kind    error
	}{
		{"unknown field", replace(`"name": "a",`, `"name": "a", "env": {"TOKEN": "x"},`), "/env", "unknown-field", refusals.ErrInvalid},
		{"unknown server field", replace(`"command": "node",`, `"command": "node", "headers": {},`), "/mcpServers/0/headers", "unknown-field", refusals.ErrInvalid},
		{"wrong type", replace(`"name": "a",`, `"name": 7,`), "/name", "wrong-type", refusals.ErrInvalid},
		{"args not strings", replace(`"server.js"`, `"server.js", 3`), "/mcpServers/0/args/1", "wrong-type", refusals.ErrInvalid},
		{"duplicate key", replace(`"name": "a",`, `"name": "a", "name": "b",`), "/name", "json-invalid", refusals.ErrInvalid},
		{"version", replace(`"formatVersion": 1`, `"formatVersion": 2`), "/formatVersion", "format-version", refusals.ErrInvalid},
		{"missing tools", replace(`"tools": [`, `"toolz": [`), "", "missing-field", refusals.ErrInvalid},
		{"bad hash", replace(`"blake3:0000`, `"sha256:0000`), "/tools/0/sourceHash", "schema/pattern", refusals.ErrInvalid},
		{"stdio url", replace(`"command": "node",`, `"command": "node", "url": "http://x",`), "/mcpServers/0/url", "schema/not-allowed", refusals.ErrInvalid},
		{"websocket", replace(`"transport": "stdio"`, `"transport": "websocket"`), "/mcpServers/0/transport", "schema/enum", refusals.ErrInvalid},
		{"unused server", replace(`"search": "docs"`, ``), "/mcpServers/0", "server-unused", refusals.ErrInvalid},
		{"unknown tool in map", replace(`"search": "docs"`, `"search": "docs", "other": "docs"`), "/extensions/guardian/mcpTools/other", "mcp-tool-unknown", refusals.ErrInvalid},
		{"secret in args", replace(`"server.js"`, `"--api-key=`+secret+`"`), "/mcpServers/0/args/0", "", refusals.ErrContainsSecret},
		{"secret in unknown field", replace(`"name": "a",`, `"name": "a", "token": "`+secret+`",`), "/token", "unknown-field", refusals.ErrInvalid},
		{"invalid utf8", replace(`"name": "a",`, "\"name\": \"a\xff\","), "/name", "json-invalid", refusals.ErrInvalid},
		{"trailing data", func(s string) string { return s + "{}" }, "", "json-invalid", refusals.ErrInvalid},
	}
	for _, tt := range tests {
		in := tt.edit(minimal)
		if in == minimal {
			t.Fatalf("%s: the edit changed nothing", tt.name)
		}
		_, err := definition.Parse([]byte(in))
		if !errors.Is(err, tt.kind) {
			t.Errorf("%s: Parse = %v, want %v", tt.name, err, tt.kind)
			continue
		}
		found := false
		for _, r := range refusals.All(err) {
			if r.Pointer == tt.pointer && (tt.rule == "" || r.Rule == tt.rule) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no refusal at %q with rule %q in:\n%v", tt.name, tt.pointer, tt.rule, err)
		}
		if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), secret[:12]) {
			t.Errorf("%s: the error quotes the secret", tt.name)
		}
	}
}

func replace(old, new string) func(string) string {
	return func(s string) string { return strings.Replace(s, old, new, 1) }
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(minimal))
	f.Add([]byte(`{"formatVersion":1,"name":"x","tools":[],"mcpServers":[],"extensions":{"guardian":{"mcpTools":{}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := definition.Parse(data)
		if err != nil {
			if len(refusals.All(err)) == 0 {
				t.Fatalf("Parse error is not a refusal: %v", err)
			}
			return
		}
		doc, _ := d.Document()
		d2, err := definition.Parse(doc)
		if err != nil {
			t.Fatalf("Parse(Document()) = %v", err)
		}
		doc2, _ := d2.Document()
		if string(doc) != string(doc2) || d.Digest() != d2.Digest() {
			t.Fatalf("round trip changed the document")
		}
	})
}
