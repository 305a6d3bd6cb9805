package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeConfig writes body into dir/name and returns name.
func writeConfig(t *testing.T, dir, name, body string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return name
}

// nonStringConfig is a config whose server a has an arg that is not a
// string, and a credential in a string arg; b and c have credentials too.
func nonStringConfig(t *testing.T, dir string) (name string, secrets []string) {
	ta, tb, tc := fakeToken("A"), fakeToken("B"), fakeToken("C")
	return writeConfig(t, dir, "ns.json", `{"mcpServers": {
  "a": {"command": "x", "args": ["--token", 8080, "`+ta+`"]},
  "b": {"command": "./toolserver", "args": ["--token", "`+tb+`"]},
  "c": {"url": "https://u:`+tc+`@h/"}
}}`), []string{ta, tb, tc}
}

// The refusals of the file above, in order: a's arg that is not a string
// does not hide any credential, a's own string args included.
var nonStringRefusals = []string{
	"/mcpServers/a/args/1 args-not-strings",
	"/mcpServers/a/args/2 token/github",
	"/mcpServers/b/args/1 token/github",
	"/mcpServers/c/url token/github",
	"/mcpServers/c/url url-password",
}

func TestScanArgsNotStringsHidesNothing(t *testing.T) {
	dir := t.TempDir()
	name, secrets := nonStringConfig(t, dir)

	r := guardian(t, dir, nil, "scan", name)
	assertNoSecret(t, r.stdout+r.stderr, secrets...)
	var got []string
	for _, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
		parts := strings.SplitN(line, ": ", 4)
		if len(parts) != 4 || parts[0] != name {
			t.Fatalf("line %q is not FILE: POINTER: RULE: FIX", line)
		}
		got = append(got, parts[1]+" "+parts[2])
	}
	if !slices.Equal(got, nonStringRefusals) {
		t.Errorf("refusals:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(nonStringRefusals, "\n"))
	}
	if r.code != exitRefused || !strings.Contains(r.stderr, "ns.json: 3 servers, 5 values refused") {
		t.Errorf("exit %d, stderr %q; want 1 and the summary", r.code, r.stderr)
	}

	js := guardian(t, dir, nil, "scan", name, "--json")
	assertNoSecret(t, js.stdout+js.stderr, secrets...)
	var rep scanReport
	if err := json.Unmarshal([]byte(js.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, p := range rep.Problems {
		got = append(got, p.Pointer+" "+p.Rule)
	}
	if !slices.Equal(got, nonStringRefusals) {
		t.Errorf("--json problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(nonStringRefusals, "\n"))
	}
	want := []scannedFile{{File: name, Status: statusRefused, Servers: 3, Refused: 5}}
	if js.code != exitRefused || rep.ExitCode != exitRefused || rep.Status != statusRefused || !slices.Equal(rep.Files, want) || js.stderr != "" {
		t.Errorf("--json: exit %d, %+v, files %+v, stderr %q", js.code, rep.header, rep.Files, js.stderr)
	}
}

// Record and check refuse such a config before starting anything, with
// every refusal at once.
func TestRecordArgsNotStringsHidesNothing(t *testing.T) {
	dir := workspace(t)
	name, secrets := nonStringConfig(t, dir)
	for _, args := range [][]string{
		{"record", name},
		{"check", name, "--golden", "agent.json"},
	} {
		t.Run(args[0], func(t *testing.T) {
			if args[0] == "check" {
				rec := guardian(t, dir, nil, "record", "mcp.json", "-o", "agent.json")
				if rec.code != exitOK {
					t.Fatalf("record: %+v", rec)
				}
			}
			r := guardian(t, dir, nil, args...)
			assertNoSecret(t, r.stdout+r.stderr, secrets...)
			var got []string
			for _, line := range strings.Split(r.stderr, "\n") {
				parts := strings.SplitN(line, ": ", 5)
				if len(parts) == 5 && parts[1] == name {
					got = append(got, parts[2]+" "+parts[3])
				}
			}
			if r.code != exitRefused || !slices.Equal(got, nonStringRefusals) {
				t.Errorf("exit %d; refusals:\n%s\nwant:\n%s\nstderr: %s", r.code, strings.Join(got, "\n"), strings.Join(nonStringRefusals, "\n"), r.stderr)
			}

			js := guardian(t, dir, nil, append(args, "--json")...)
			assertNoSecret(t, js.stdout+js.stderr, secrets...)
			var rep struct {
				header
				Servers  []serverReport `json:"servers"`
				Problems []problem      `json:"problems"`
			}
			if err := json.Unmarshal([]byte(js.stdout), &rep); err != nil {
				t.Fatal(err)
			}
			got = nil
			for _, p := range rep.Problems {
				got = append(got, p.Pointer+" "+p.Rule)
			}
			if js.code != exitRefused || rep.Status != statusRefused || !slices.Equal(got, nonStringRefusals) {
				t.Errorf("--json: exit %d, %+v, problems %q", js.code, rep.header, got)
			}
			for _, s := range rep.Servers {
				if s.Status != serverSkipped || s.Reason != "not started: the config is refused" {
					t.Errorf("server %q: %s (%s): want it not started", s.Name, s.Status, s.Reason)
				}
			}
			if len(rep.Servers) != 3 {
				t.Errorf("%d servers reported, want 3", len(rep.Servers))
			}
		})
	}
}
