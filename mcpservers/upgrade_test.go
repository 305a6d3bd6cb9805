package mcpservers

import (
	"archive/zip"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestUpgradeKeepsSourceHash: upgrading guardian-go must not change a
// user's sourceHash when the user's code did not change. Two byte-identical
// copies of this module are served at two versions from a local file://
// GOPROXY; the same user program, using InterceptorFunc, AuthFunc-free
// handler funcs (ElicitationHandlerFunc, SamplingHandlerFunc) and a real
// stdio server (itself), is built against each and prints its tool's
// sourceHash. The two must be equal. As a control, the program also prints
// the fingerprint of the adapter type itself, guardian-go's code at its
// version, which must differ: the versions are told apart.
func TestUpgradeKeepsSourceHash(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program twice against a module proxy")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	modCache := strings.TrimSpace(run(t, "", nil, goBin, "env", "GOMODCACHE"))
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	const mod = "github.com/guardian-agent/guardian-go"
	for _, v := range []string{"v0.0.1", "v0.0.2"} {
		moduleZip(t, root, filepath.Join(proxy, mod, "@v"), mod, v)
	}
	if err := os.WriteFile(filepath.Join(proxy, mod, "@v", "list"), []byte("v0.0.1\nv0.0.2\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	prog := filepath.Join(tmp, "prog")
	if err := os.MkdirAll(prog, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(prog, "go.mod"), []byte("module example.com/upgrade\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(prog, "main.go"), []byte(upgradeProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{
		"GOPROXY=file://" + filepath.ToSlash(proxy) + ",file://" + filepath.ToSlash(filepath.Join(modCache, "cache", "download")),
		"GOMODCACHE=" + filepath.Join(tmp, "modcache"), "GOFLAGS=-mod=mod -modcacherw", "GOSUMDB=off", "GOWORK=off", "GOTOOLCHAIN=local",
	}
	var outs []string
	for _, v := range []string{"v0.0.1", "v0.0.2"} {
		run(t, prog, env, goBin, "get", mod+"@"+v)
		bin := filepath.Join(tmp, "prog-"+v)
		run(t, prog, env, goBin, "build", "-o", bin, ".")
		outs = append(outs, run(t, prog, nil, bin))
	}
	lines := func(s string) []string { return strings.Split(strings.TrimSpace(s), "\n") }
	a, b := lines(outs[0]), lines(outs[1])
	if len(a) != 3 || len(b) != 3 {
		t.Fatalf("program output:\n%s\n%s", outs[0], outs[1])
	}
	for i, what := range []string{"lookup's sourceHash", "elicit's sourceHash"} {
		if a[i] != b[i] || !strings.HasPrefix(a[i], "blake3:") {
			t.Errorf("%s: %s at v0.0.1, %s at v0.0.2: the upgrade changed it", what, a[i], b[i])
		}
	}
	if a[2] == b[2] {
		t.Errorf("control: the adapter type's fingerprint is %s at both versions, so the versions are not told apart", a[2])
	}
}

// moduleZip writes mod@v's .info, .mod and .zip into dir: this module's
// files as they are (no tests, testdata, nested modules or node_modules),
// so every version is byte-identical.
func moduleZip(t *testing.T, root, dir, mod, v string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, v+".info"), []byte(`{"Version":"`+v+`","Time":"2026-01-01T00:00:00Z"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, v+".mod"), gomod, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, v+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			switch d.Name() {
			case ".git", "node_modules", "testdata", "vendor":
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module
			}
			return nil
		}
		if !d.Type().IsRegular() || strings.HasSuffix(path, "_test.go") || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		w, err := zw.Create(mod + "@" + v + "/" + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, stderr)
	}
	return string(out)
}

// upgradeProgram is the user's program: an MCP server when asked to be one,
// else a client of itself that records one tool and prints its sourceHash.
const upgradeProgram = `package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/fingerprint"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

func audit(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	return next(ctx, req)
}

func ask(ctx context.Context, req *mcpservers.ElicitationRequest) (*mcpservers.ElicitationResponse, error) {
	return &mcpservers.ElicitationResponse{Action: "decline"}, nil
}

func main() {
	if os.Getenv("UPGRADE_SERVE") != "" {
		s := server.NewMCPServer("docs", "1.0.0")
		s.AddTool(mcp.NewTool("lookup", mcp.WithDescription("Looks up.")), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ok"), nil
		})
		s.AddTool(mcp.NewTool("elicit", mcp.WithDescription("Asks.")), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ok"), nil
		})
		if err := server.ServeStdio(s); err != nil {
			os.Exit(1)
		}
		return
	}
	exe, err := os.Executable()
	check(err)
	withIC, err := mcpservers.NewClient(map[string]mcpservers.Connection{"docs": mcpservers.Stdio{Command: exe, Env: map[string]string{"UPGRADE_SERVE": "1"}}},
		&mcpservers.ClientOptions{Interceptors: []mcpservers.Interceptor{mcpservers.InterceptorFunc(audit)}})
	check(err)
	defer withIC.Close()
	withH, err := mcpservers.NewClient(map[string]mcpservers.Connection{"docs2": mcpservers.Stdio{Command: exe, Env: map[string]string{"UPGRADE_SERVE": "1"}}},
		&mcpservers.ClientOptions{Elicitation: mcpservers.ElicitationHandlerFunc(ask), PrefixToolNames: true})
	check(err)
	defer withH.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a, err := withIC.Tools(ctx)
	check(err)
	b, err := withH.Tools(ctx)
	check(err)
	var lookup, elicit definition.Tool
	for _, t := range a {
		if t.Name() == "lookup" {
			lookup = t
		}
	}
	for _, t := range b {
		if t.MCPName() == "elicit" {
			elicit = t
		}
	}
	def, err := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{lookup, elicit}}, nil)
	check(err)
	for _, t := range def.Record().Tools {
		if t.Name == "lookup" {
			fmt.Println(t.SourceHash)
		}
	}
	for _, t := range def.Record().Tools {
		if t.Name != "lookup" {
			fmt.Println(t.SourceHash)
		}
	}
	d, err := fingerprint.New(nil).Value("", mcpservers.InterceptorFunc(audit))
	check(err)
	fmt.Println(d.String())
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
`
