package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/definition"
)

// useTools points the config's server at another tools file, changing
// its command line.
func useTools(t *testing.T, dir, from, to string) {
	t.Helper()
	path := filepath.Join(dir, "mcp.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), from, to, 1))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// replaceTools makes the server serve other tools under the same command
// line, as a server upgrade would.
func replaceTools(t *testing.T, dir, from string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, from))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tools-v1.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCheckDrift records a golden file, changes what the server serves (a
// description, a schema, annotations with a destructiveHint flip, a name,
// a tool added and one removed) and how it is run, and checks the report.
func TestCheckDrift(t *testing.T) {
	dir := workspace(t)
	r := guardian(t, dir, nil, "check", "mcp.json", "--golden", "agent.json", "--name", "docs-agent")
	if r.code != exitBad || !strings.Contains(r.stderr, "agent.json: cannot read") || !strings.Contains(r.stderr, "run with --update to create agent.json") {
		t.Errorf("missing golden: %+v", r)
	}
	r = guardian(t, dir, nil, "check", "mcp.json", "--golden", "agent.json", "--name", "docs-agent", "--update")
	if r.code != exitOK || !strings.HasPrefix(r.stderr, "guardian check: created agent.json; ") || strings.Contains(r.stderr, "accepted") {
		t.Fatalf("--update: %+v; want it created, with no changes accepted", r)
	}
	// Unchanged: exit 0, under the golden file's name without --name.
	r = guardian(t, dir, nil, "check", "mcp.json", "--golden", "agent.json")
	checkGolden(t, "check-clean.golden", r.transcript())
	if r.code != exitOK {
		t.Errorf("unchanged: exit %d", r.code)
	}

	useTools(t, dir, "tools-v1.json", "tools-v2.json")
	r = guardian(t, dir, nil, "check", "mcp.json", "--golden", "agent.json")
	checkGolden(t, "check-drift.golden", r.transcript())
	if r.code != exitRefused {
		t.Errorf("drift: exit %d, want %d", r.code, exitRefused)
	}
	js := guardian(t, dir, nil, "check", "mcp.json", "--golden", "agent.json", "--json")
	checkGolden(t, "check-drift.json.golden", js.stdout)
	var rep checkReport
	if err := json.Unmarshal([]byte(js.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, c := range *rep.Changes {
		what := c.Tool
		if what == "" {
			what = c.Server
		}
		kinds = append(kinds, string(c.Kind)+" "+what)
	}
	want := []string{
		"server-changed docs",
		"tool-input-schema-changed fetch",
		"tool-renamed lookup",
		"tool-added publish",
		"tool-destructive-hint-flipped purge",
		"tool-annotations-changed purge",
		"tool-description-changed search",
		"tool-removed stats",
	}
	if !slices.Equal(kinds, want) {
		t.Errorf("changes =\n%q\nwant\n%q", kinds, want)
	}
	if rep.Status != statusDrift || rep.Updated || rep.GoldenDigest == rep.Digest {
		t.Errorf("report: %+v", rep.header)
	}

	// The same tools under the same command line: only the tools drift.
	useTools(t, dir, "tools-v2.json", "tools-v1.json")
	replaceTools(t, dir, "tools-v2.json")
	r = guardian(t, dir, nil, "check", "mcp.json", "--golden", "agent.json")
	if r.code != exitRefused || strings.Contains(r.stdout, "server \"docs\": changed") || !strings.Contains(r.stdout, `tool "purge": DESTRUCTIVE HINT FLIPPED: false → true`) {
		t.Errorf("tools only: %+v", r)
	}

	// --update accepts the changes; the next check is clean.
	r = guardian(t, dir, nil, "check", "mcp.json", "--golden", "agent.json", "--update")
	if r.code != exitOK || !strings.Contains(r.stderr, "updated agent.json: 7 changes accepted") {
		t.Errorf("--update: %+v", r)
	}
	if r = guardian(t, dir, nil, "check", "mcp.json", "--golden", "agent.json"); r.code != exitOK || r.stdout != "" {
		t.Errorf("after --update: %+v", r)
	}
}

func TestCheckGoldenDefaults(t *testing.T) {
	dir := workspace(t)
	r := guardian(t, dir, nil, "record", "mcp.json", "--name", "researcher", "--exclude", "/mcpServers/0/args", "-o", "agent.json")
	if r.code != exitOK {
		t.Fatal(r.stderr)
	}
	// The golden file's name and exclusions are check's defaults.
	if r = guardian(t, dir, nil, "check", "mcp.json", "--golden", "agent.json"); r.code != exitOK {
		t.Errorf("defaults: %+v", r)
	}
	// Flags win over them.
	r = guardian(t, dir, nil, "check", "mcp.json", "--golden", "agent.json", "--name", "other", "--exclude", "/tools/0/annotations")
	if r.code != exitRefused || !strings.Contains(r.stdout, "agent changed: name changed") || !strings.Contains(r.stdout, "exclusions-changed") {
		t.Errorf("flags: %+v", r)
	}
}

func TestCheckUnreadableGolden(t *testing.T) {
	dir := workspace(t)
	secret := fakeToken("g")
	for name, body := range map[string]string{
		"unknown.json": `{"formatVersion": 1, "name": "a", "tools": [], "mcpServers": [], "extensions": {"guardian": {"mcpTools": {}}}, "extra": "` + secret + `"}`,
		"broken.json":  `{"formatVersion": 1, "name": "` + secret,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		r := guardian(t, dir, nil, "check", "mcp.json", "--golden", name)
		assertNoSecret(t, r.stdout+r.stderr, secret)
		if r.code != exitBad || !strings.Contains(r.stderr, "guardian check: "+name+": ") {
			t.Errorf("%s: %+v", name, r)
		}
		// --update does not paper over a golden file that is not one.
		if r = guardian(t, dir, nil, "check", "mcp.json", "--golden", name, "--update"); r.code != exitBad {
			t.Errorf("%s --update: exit %d", name, r.code)
		}
	}
	r := guardian(t, dir, nil, "check", "mcp.json")
	if r.code != exitBad || !strings.Contains(r.stderr, "--golden FILE is required") {
		t.Errorf("no --golden: %+v", r)
	}
}

// A recording with a failed server is never written over the golden file.
func TestCheckKeepGoingNeverUpdates(t *testing.T) {
	dir := workspace(t)
	env := []string{"GUARDIAN_TEST_TOKEN=x"}
	r := guardian(t, dir, env, "record", "failing.json", "--servers", "docs", "-o", "agent.json")
	if r.code != exitOK {
		t.Fatal(r.stderr)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "agent.json"))
	r = guardian(t, dir, env, "check", "failing.json", "--golden", "agent.json", "--keep-going", "--update", "--timeout", "1s")
	after, _ := os.ReadFile(filepath.Join(dir, "agent.json"))
	if r.code != exitBad || string(before) != string(after) || !strings.Contains(r.stderr, "agent.json not updated: the recording is incomplete") {
		t.Errorf("--keep-going --update: %+v", r)
	}
	// Without --update it reports the drift it can see, and still exits 2.
	r = guardian(t, dir, env, "check", "failing.json", "--golden", "agent.json", "--keep-going", "--timeout", "1s", "--json")
	var rep checkReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if r.code != exitBad || rep.Status != statusFailed || rep.Changes == nil || len(*rep.Changes) != 0 {
		t.Errorf("--keep-going: exit %d, %+v", r.code, rep)
	}
	if _, err := definition.Parse(after); err != nil {
		t.Error(err)
	}
}
