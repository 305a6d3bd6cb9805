package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	dir := workspace(t)
	if r := guardian(t, dir, nil, "record", "mcp.json", "--name", "docs-agent", "-o", "agent.json"); r.code != exitOK {
		t.Fatal(r.stderr)
	}
	doc, err := os.ReadFile(filepath.Join(dir, "agent.json"))
	if err != nil {
		t.Fatal(err)
	}
	secret := fakeToken("w")
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// One line, not indented: valid, but not canonical.
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	compact, _ := json.Marshal(v)
	write("compact.json", string(compact))
	write("invalid.json", strings.NewReplacer(
		`"name": "docs-agent"`, `"name": "docs-agent", "owner": "`+secret+`"`,
		`"description": "Fetch a page."`, `"description": 7`,
	).Replace(string(doc)))
	write("leaky.json", strings.Replace(string(doc), `"./toolserver"`, `"./toolserver --api-key `+secret+`"`, 1))
	write("dupkey.json", strings.Replace(string(doc), `"name": "docs-agent"`, `"name": "docs-agent", "name": "`+secret+`"`, 1))

	var out strings.Builder
	for _, name := range []string{"agent.json", "compact.json", "invalid.json", "leaky.json", "dupkey.json", "missing.json"} {
		r := guardian(t, dir, nil, "validate", name)
		out.WriteString(r.transcript())
		js := guardian(t, dir, nil, "validate", name, "--json")
		out.WriteString(js.stdout)
		if js.code != r.code {
			t.Errorf("%s: --json exit %d, plain %d", name, js.code, r.code)
		}
	}
	checkGolden(t, "validate.golden", out.String(), secret)
}
