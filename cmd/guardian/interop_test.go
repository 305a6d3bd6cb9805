package main

// The npm reference servers (server-everything, server-filesystem,
// server-memory), pinned in mcpservers/testdata/npm and installed with
//
//	npm ci --prefix mcpservers/testdata/npm
//
// (.ci/interop-setup does it). When they are not installed these tests
// skip, unless GUARDIAN_REQUIRE_INTEROP=1, as in CI, where they fail.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const requireInteropEnv = "GUARDIAN_REQUIRE_INTEROP"

// npmConfig is the config of the three servers. Its commands are relative
// to its directory, so the golden document is the same on every machine.
const (
	npmConfig = "testdata/npm/mcp.json"
	npmGolden = "testdata/npm/mcp.golden.json"
)

func requireNPMServers(t *testing.T) {
	t.Helper()
	missing := func(what string) {
		msg := what + " is not installed; run: npm ci --prefix mcpservers/testdata/npm (or .ci/interop-setup)"
		if os.Getenv(requireInteropEnv) == "1" {
			t.Fatalf("%s (%s=1, so this fails instead of skipping)", msg, requireInteropEnv)
		}
		t.Skip(msg)
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing("node")
	}
	for _, bin := range []string{"mcp-server-everything", "mcp-server-filesystem", "mcp-server-memory"} {
		if _, err := os.Stat(filepath.Join("../../mcpservers/testdata/npm/node_modules/.bin", bin)); err != nil {
			missing(bin)
		}
	}
}

func npmEnv(t *testing.T) []string {
	return []string{"GUARDIAN_TEST_MEMORY_FILE=" + filepath.Join(t.TempDir(), "memory.jsonl")}
}

// TestInteropCheck records the three servers and checks them against the
// golden document (go test -update rewrites it).
func TestInteropCheck(t *testing.T) {
	requireNPMServers(t)
	args := []string{"check", npmConfig, "--golden", npmGolden, "--name", "reference-servers"}
	if *update {
		if r := guardian(t, ".", npmEnv(t), append(args, "--update")...); r.code != exitOK {
			t.Fatalf("check --update: %+v", r)
		}
	}
	r := guardian(t, ".", npmEnv(t), append(args, "--json")...)
	var rep checkReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if r.code != exitOK {
		t.Fatalf("check: exit %d\n%s", r.code, r.stdout)
	}
	checkGolden(t, "npm/check.json.golden", r.stdout)
	if r := guardian(t, ".", nil, "validate", npmGolden); r.code != exitOK {
		t.Errorf("validate: %+v", r)
	}
}

// TestInteropDrift checks the servers against a golden document in which
// they once were different: a description, a destructiveHint, a schema and
// a name.
func TestInteropDrift(t *testing.T) {
	requireNPMServers(t)
	golden, err := os.ReadFile(npmGolden)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(golden, &doc); err != nil {
		t.Fatal(err)
	}
	tools := doc["tools"].([]any)
	byName := map[string]map[string]any{}
	for _, x := range tools {
		tool := x.(map[string]any)
		byName[tool["name"].(string)] = tool
	}
	edit := func(name string, f func(map[string]any)) {
		tool, ok := byName[name]
		if !ok {
			t.Fatalf("the servers offer no tool %q any more", name)
		}
		f(tool)
	}
	edit("echo", func(m map[string]any) { m["description"] = "Echoes back the input." })
	edit("write_file", func(m map[string]any) {
		m["annotations"].(map[string]any)["destructiveHint"] = false
	})
	edit("read_graph", func(m map[string]any) {
		m["inputSchema"].(map[string]any)["properties"] = map[string]any{"limit": map[string]any{"type": "number"}}
	})
	// create_entities was once called add_entities.
	edit("create_entities", func(m map[string]any) { m["name"] = "add_entities" })
	mcpTools := doc["extensions"].(map[string]any)["guardian"].(map[string]any)["mcpTools"].(map[string]any)
	mcpTools["add_entities"] = mcpTools["create_entities"]
	delete(mcpTools, "create_entities")
	// Documents list tools sorted by name.
	sortTools(tools)

	old, _ := json.Marshal(doc)
	path := filepath.Join(t.TempDir(), "old.json")
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	r := guardian(t, ".", npmEnv(t), "check", npmConfig, "--golden", path)
	want := strings.Join([]string{
		`tool "create_entities": renamed from "add_entities" (same description and schemas)`,
		`tool "echo": description changed: "Echoes back the input." → "Echoes back the input string"`,
		`tool "read_graph": input schema changed at /properties/limit`,
		`tool "write_file": DESTRUCTIVE HINT FLIPPED: false → true`,
	}, "\n") + "\n"
	if r.code != exitRefused || r.stdout != want {
		t.Errorf("drift: exit %d\n--- got ---\n%s--- want ---\n%s\n%s", r.code, r.stdout, want, r.stderr)
	}
}

func sortTools(tools []any) {
	name := func(i int) string { return tools[i].(map[string]any)["name"].(string) }
	for i := 1; i < len(tools); i++ {
		for j := i; j > 0 && name(j) < name(j-1); j-- {
			tools[j], tools[j-1] = tools[j-1], tools[j]
		}
	}
}
