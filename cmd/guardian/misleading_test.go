//go:build linux

package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// envFile: /proc/self/environ was read (a regular file of size 0 that
// holds guardian's whole environment) and the server was then refused at
// /mcpServers/s/env/SHELL, a member the config does not have. It is now
// refused as it is read, at the envFile member, exit 2, and nothing of the
// environment is printed; a missing or non-directory cwd is reported at
// the cwd member, not as the command not existing.
func TestMisleadingInputsPointAtTheirMember(t *testing.T) {
	dir := workspace(t)
	secret := "envsecret-" + strings.Repeat("Qw7Er5", 4)
	if err := os.WriteFile(dir+"/afile", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	server := func(extra map[string]any) map[string]any {
		s := map[string]any{"command": "./toolserver", "args": []string{"-tools", "tools-v1.json"}}
		for k, v := range extra {
			s[k] = v
		}
		return map[string]any{"mcpServers": map[string]any{"s": s}}
	}
	writeJSONFile(t, dir, "proc.json", server(map[string]any{"envFile": "/proc/self/environ"}))
	writeJSONFile(t, dir, "nocwd.json", server(map[string]any{"cwd": "no/such/dir"}))
	writeJSONFile(t, dir, "filecwd.json", server(map[string]any{"cwd": "afile"}))
	for _, c := range []struct {
		config, pointer, message string
	}{
		{"proc.json", "/mcpServers/s/envFile", "not the size the system reports"},
		{"nocwd.json", "/mcpServers/s/cwd", "the working directory does not exist"},
		{"filecwd.json", "/mcpServers/s/cwd", "the working directory is a file"},
	} {
		r := guardian(t, dir, []string{"GUARDIAN_TEST_SECRET=" + secret}, "record", c.config)
		assertNoSecret(t, r.stdout+r.stderr, secret)
		if r.code != exitBad || !strings.Contains(r.stderr, c.config+": "+c.pointer+": ") || !strings.Contains(r.stderr, c.message) {
			t.Errorf("%s: exit %d, want 2 at %s:\n%s", c.config, r.code, c.pointer, r.stderr)
		}
		rj := guardian(t, dir, []string{"GUARDIAN_TEST_SECRET=" + secret}, "record", c.config, "--json")
		assertNoSecret(t, rj.stdout, secret)
		var rep struct {
			Problems []problem `json:"problems"`
		}
		if err := json.Unmarshal([]byte(rj.stdout), &rep); err != nil || len(rep.Problems) != 1 || rep.Problems[0].Pointer != c.pointer || rep.Problems[0].Kind != kindUnreadable {
			t.Errorf("%s --json: %v %+v", c.config, err, rep.Problems)
		}
	}
}
