package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recordVersions records the docs server serving tools-v1.json as v1.json
// and tools-v2.json as v2.json, under the same command line.
func recordVersions(t *testing.T, dir string) {
	t.Helper()
	if r := guardian(t, dir, nil, "record", "mcp.json", "--name", "docs-agent", "-o", "v1.json"); r.code != exitOK {
		t.Fatal(r.stderr)
	}
	replaceTools(t, dir, "tools-v2.json")
	if r := guardian(t, dir, nil, "record", "mcp.json", "--name", "docs-agent", "-o", "v2.json"); r.code != exitOK {
		t.Fatal(r.stderr)
	}
}

func TestDiff(t *testing.T) {
	dir := workspace(t)
	recordVersions(t, dir)

	r := guardian(t, dir, nil, "diff", "v1.json", "v2.json")
	checkGolden(t, "diff.golden", r.transcript())
	if r.code != exitRefused {
		t.Errorf("exit %d, want %d", r.code, exitRefused)
	}
	js := guardian(t, dir, nil, "diff", "v1.json", "v2.json", "--json")
	checkGolden(t, "diff.json.golden", js.stdout)
	var rep diffReport
	if err := json.Unmarshal([]byte(js.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Changes == nil || len(*rep.Changes) != 7 || rep.OldDigest == rep.NewDigest {
		t.Errorf("report: %+v", rep)
	}

	// The other way round: added and removed swap, the rename reverses.
	r = guardian(t, dir, nil, "diff", "v2.json", "v1.json")
	if r.code != exitRefused || !strings.Contains(r.stdout, `tool "find": renamed from "lookup"`) || !strings.Contains(r.stdout, `tool "stats": added`) {
		t.Errorf("reversed: %+v", r)
	}
	r = guardian(t, dir, nil, "diff", "v1.json", "v1.json")
	if r.code != exitOK || r.stdout != "" || !strings.Contains(r.stderr, "no changes") {
		t.Errorf("same file: %+v", r)
	}
}

func TestDiffUnreadable(t *testing.T) {
	dir := workspace(t)
	recordVersions(t, dir)
	secret := fakeToken("d")
	v1, err := os.ReadFile(filepath.Join(dir, "v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	// A credential in a server's args: refused (1), never printed.
	leaky := strings.Replace(string(v1), `"tools-v1.json"`, `"tools-v1.json", "--token", "`+secret+`"`, 1)
	if err := os.WriteFile(filepath.Join(dir, "leaky.json"), []byte(leaky), 0o644); err != nil {
		t.Fatal(err)
	}
	r := guardian(t, dir, nil, "diff", "v1.json", "leaky.json")
	assertNoSecret(t, r.stdout+r.stderr, secret)
	if r.code != exitRefused || !strings.Contains(r.stderr, "leaky.json: /mcpServers/0/args/3: ") {
		t.Errorf("leaky: %+v", r)
	}
	r = guardian(t, dir, nil, "diff", "v1.json", "missing.json", "--json")
	var rep diffReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if r.code != exitBad || rep.Status != statusInvalid || rep.Changes != nil || len(rep.Problems) != 1 || rep.Problems[0].Kind != kindUnreadable {
		t.Errorf("missing: %+v", rep)
	}
	for _, args := range [][]string{{"diff", "v1.json"}, {"diff", "a", "b", "c"}, {"diff", "--bogus", "a", "b"}} {
		if r := guardian(t, dir, nil, args...); r.code != exitBad || !strings.Contains(r.stderr, "Usage: guardian diff OLD NEW") {
			t.Errorf("%q: %+v", args, r)
		}
	}
}
