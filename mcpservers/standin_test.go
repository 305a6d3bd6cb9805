package mcpservers

import (
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/refusals"
)

// A server name, an env name or a header name that holds a credential is
// never quoted by NewClient's refusals: the server is <withheld>, a key
// its index among the sorted keys, <member N>.
func TestNewClientRefusalsWithholdCredentialKeys(t *testing.T) {
	tok := "ghp_" + strings.Repeat("Zq8Lm3Vx4Rb7", 3) // built, not a literal
	_, err := NewClient(map[string]Connection{
		tok:    Stdio{Command: "node", Args: []string{"a\x00b"}},
		"docs": Stdio{Command: "node", Env: map[string]string{"A": "1", tok: "x\x00"}},
		"web":  StreamableHTTP{URL: "https://h/mcp", Headers: map[string]string{tok: "a\x01b"}},
	}, nil)
	var got []string
	for _, r := range refusals.All(err) {
		got = append(got, r.Pointer+" "+r.Subject)
	}
	want := "/mcpServers/<withheld>/args/0 <withheld>\x00/mcpServers/docs/env/<member 1> docs\x00/mcpServers/web/headers/<member 0> web"
	if strings.Join(got, "\x00") != want {
		t.Errorf("refusals %q", got)
	}
	for j := 0; j+10 <= len(tok); j++ {
		if strings.Contains(err.Error(), tok[j:j+10]) {
			t.Fatal("NewClient's error quotes the credential")
		}
	}
}
