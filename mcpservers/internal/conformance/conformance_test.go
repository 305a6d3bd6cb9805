package main

// Runs the MCP conformance suite (@modelcontextprotocol/conformance, pinned
// with the Node 22 it needs in mcpservers/testdata/conformance) against this
// client. The suite runs the test binary itself as the client: TestMain
// turns it into the program when asClientEnv is set.
//
// Install: npm ci --prefix mcpservers/testdata/conformance (or
// .ci/interop-setup). Without it the suite tests skip, unless
// GUARDIAN_REQUIRE_INTEROP=1, as in CI, where they fail.

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// asClientEnv makes the test binary run as the conformance client.
const asClientEnv = "GUARDIAN_CONFORMANCE_AS_CLIENT"

func TestMain(m *testing.M) {
	if os.Getenv(asClientEnv) == "1" {
		os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

const suiteDir = "../../testdata/conformance"

// suite returns the pinned node 22 and the suite's entry point.
func suite(t *testing.T) (node, entry string) {
	t.Helper()
	dir, err := filepath.Abs(suiteDir)
	if err != nil {
		t.Fatal(err)
	}
	node = filepath.Join(dir, "node_modules", ".bin", "node")
	entry = filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, p := range []string{node, entry} {
		if _, err := os.Stat(p); err != nil {
			msg := "the MCP conformance suite is not installed; run: npm ci --prefix mcpservers/testdata/conformance (or .ci/interop-setup)"
			if os.Getenv("GUARDIAN_REQUIRE_INTEROP") == "1" {
				t.Fatalf("%s (GUARDIAN_REQUIRE_INTEROP=1, so this fails instead of skipping)", msg)
			}
			t.Skip(msg)
		}
	}
	return node, entry
}

// check is one of the suite's conformance checks, from checks.json.
type check struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	Description  string `json:"description"`
	ErrorMessage string `json:"errorMessage"`
}

// TestConformanceSuite runs the suite's client scenarios against this
// client, each as real processes: node runs the scenario's server and this
// test binary as the client over loopback HTTP. A scenario passes when the
// suite exits 0, no check failed or warned, and the checks that say the
// client did its part are there and succeeded (so that a run that checked
// nothing cannot pass).
func TestConformanceSuite(t *testing.T) {
	node, entry := suite(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(self, " \t") {
		t.Fatalf("the suite splits --command on spaces, and the test binary's path has one: %q", self)
	}
	for _, sc := range []struct {
		name string
		want []string // check IDs that must be there and succeed
	}{
		{"initialize", []string{"mcp-client-initialization"}},
		{"tools_call", []string{"tool-add-numbers"}},
		// OAuth (MCP authorization 2025-11-25): discovery, registration,
		// PKCE S256, the resource parameter, token endpoint auth, step-up.
		{"auth/metadata-default", []string{"prm-pathbased-requested", "authorization-server-metadata", "client-registration",
			"authorization-request", "token-request", "pkce-verifier-matches-challenge", "valid-bearer-token"}},
		{"auth/basic-cimd", []string{"cimd-client-id-used", "authorization-request", "token-request", "pkce-verifier-matches-challenge"}},
		{"auth/token-endpoint-auth-basic", []string{"token-endpoint-auth-method", "resource-parameter-in-authorization", "resource-parameter-in-token"}},
		{"auth/token-endpoint-auth-post", []string{"token-endpoint-auth-method", "resource-parameter-in-authorization", "resource-parameter-in-token"}},
		{"auth/token-endpoint-auth-none", []string{"token-endpoint-auth-method", "resource-parameter-in-authorization", "resource-parameter-in-token"}},
		{"auth/scope-step-up", []string{"scope-step-up-initial", "scope-step-up-escalation"}},
		{"elicitation-sep1034-client-defaults", []string{
			"client-elicitation-sep1034-string-default",
			"client-elicitation-sep1034-integer-default",
			"client-elicitation-sep1034-number-default",
			"client-elicitation-sep1034-enum-default",
			"client-elicitation-sep1034-boolean-default",
		}},
	} {
		for _, mode := range []struct{ name, flags string }{
			// As a user's client: negotiate, probing server/discover first.
			{"negotiated", ""},
			// Pinned to the newest version the suite's scenarios are for.
			{"pinned_2025-11-25", " -protocol-version 2025-11-25"},
		} {
			t.Run(sc.name+"/"+mode.name, func(t *testing.T) {
				runScenarioSuite(t, node, entry, self+mode.flags, sc.name, sc.want)
			})
		}
	}
}

// runScenarioSuite runs one scenario of the suite with command as the
// client, and checks what the suite found.
func runScenarioSuite(t *testing.T, node, entry, command, scenario string, want []string) {
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, entry, "client",
		"--command", command,
		"--scenario", scenario,
		"--timeout", "30000",
		"-o", out)
	cmd.Env = append(os.Environ(), asClientEnv+"=1")
	start := time.Now()
	output, err := cmd.CombinedOutput()
	t.Logf("suite ran %s in %v", scenario, time.Since(start))
	if err != nil {
		t.Errorf("the suite failed: %v", err)
	}
	checks := readChecks(t, out)
	byID := map[string]check{}
	for _, c := range checks {
		t.Logf("check %-45s %-8s %s %s", c.ID, c.Status, c.Description, c.ErrorMessage)
		if c.Status == "FAILURE" || c.Status == "WARNING" {
			t.Errorf("check %s: %s: %s %s", c.ID, c.Status, c.Description, c.ErrorMessage)
		}
		if _, seen := byID[c.ID]; !seen || c.Status != "SUCCESS" {
			byID[c.ID] = c
		}
	}
	for _, id := range want {
		if c, ok := byID[id]; !ok || c.Status != "SUCCESS" {
			t.Errorf("check %s = %+v, want SUCCESS", id, c)
		}
	}
	if t.Failed() {
		t.Logf("suite output:\n%s", output)
		if b, err := os.ReadFile(filepath.Join(filepath.Dir(firstChecks(out)), "stdout.txt")); err == nil {
			t.Logf("client stdout:\n%s", b)
		}
		if b, err := os.ReadFile(filepath.Join(filepath.Dir(firstChecks(out)), "stderr.txt")); err == nil {
			t.Logf("client stderr:\n%s", b)
		}
	}
}

// findChecks lists the checks.json files under dir, at any depth: a
// scenario named auth/x writes its results under auth/.
func findChecks(dir string) []string {
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "checks.json" {
			files = append(files, p)
		}
		return nil
	})
	return files
}

func firstChecks(dir string) string {
	files := findChecks(dir)
	if len(files) == 0 {
		return filepath.Join(dir, "none", "checks.json")
	}
	return files[0]
}

// readChecks reads the one checks.json the suite wrote under dir.
func readChecks(t *testing.T, dir string) []check {
	t.Helper()
	files := findChecks(dir)
	if len(files) != 1 {
		t.Fatalf("want one checks.json under the output directory, found %q", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var checks []check
	if err := json.Unmarshal(b, &checks); err != nil {
		t.Fatalf("checks.json: %v", err)
	}
	return checks
}
