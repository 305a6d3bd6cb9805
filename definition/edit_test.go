package definition_test

// TestInterceptorEdits builds a real program (testdata/editprog) with the
// go command, edits copies of its source, rebuilds and reruns it: comments
// and formatting in an interceptor leave the definition's digest as it was,
// an edit to the interceptor's body changes it. It needs the go command and
// the module cache `go mod download` fills.

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestInterceptorEdits(t *testing.T) {
	t.Parallel()
	build := func(t *testing.T, edits ...string) string {
		t.Helper()
		return buildProgram(t, "editprog", "example.com/editprog", edits...)
	}
	const body = "\treq.Arguments[\"audited\"] = true // the server sees it\n"
	base := build(t)
	same := map[string][]string{
		"comments": {"// audit marks every call as audited.", "// audit marks calls.\n// It is the code of the interceptor role.",
			"// the server sees it", "/* seen by the server */"},
		"formatting": {body, "\n\n\treq.Arguments[ \"audited\" ]=true\n\n"},
		"moved":      {"// audit marks every call as audited.", "var _ = 1\n\n// audit marks every call as audited."},
	}
	for name, edits := range same {
		t.Run(name, func(t *testing.T) {
			if got := build(t, edits...); got != base {
				t.Errorf("after %s edits the program printed\n%s\nwant\n%s", name, got, base)
			}
		})
	}
	t.Run("body", func(t *testing.T) {
		got := build(t, body, "\treq.Arguments[\"audited\"] = false\n")
		gotLines, baseLines := strings.Fields(got), strings.Fields(base)
		if len(gotLines) != 2 || gotLines[0] == baseLines[0] || gotLines[1] == baseLines[1] {
			t.Errorf("after a body edit the program printed\n%s\nwant a new digest and sourceHash than\n%s", got, base)
		}
	})
}

// TestDotlessModule: a module may be named without a dot ("myapp"), like a
// standard library path. Build must still read its types' unexported
// fields when it looks for MCP tools held out of sight.
func TestDotlessModule(t *testing.T) {
	t.Parallel()
	got := buildProgram(t, "dotlessprog", "dotless")
	want := "middleware hidden-mcp-tool\ntool foreign-mcp-tool\n"
	if got != want {
		t.Errorf("dotlessprog printed\n%s\nwant\n%s", got, want)
	}
}

// buildProgram copies testdata/<name> into a module of the given path that
// uses this checkout of guardian-go, applies edits (pairs of old and new
// text, to main.go), builds it, runs it and returns what it printed.
func buildProgram(t *testing.T, name, module string, edits ...string) string {
	t.Helper()
	dir := t.TempDir()
	compileProgram(t, dir, name, module, edits...)
	return runProgram(t, dir, name)
}

// compileProgram builds testdata/<name> as buildProgram does, in dir, as
// dir/prog.
func compileProgram(t *testing.T, dir, name, module string, edits ...string) {
	t.Helper()
	src := filepath.Join("testdata", name)
	err := filepath.WalkDir(src, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if rel == "main.go" {
			s := string(b)
			for i := 0; i+1 < len(edits); i += 2 {
				if !strings.Contains(s, edits[i]) {
					t.Fatalf("edit %q matches nothing", edits[i])
				}
				s = strings.Replace(s, edits[i], edits[i+1], 1)
			}
			b = []byte(s)
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	root := filepath.Dir(wd)
	gomod := "module " + module + "\n\ngo 1.26\n\nrequire (\n\tgithub.com/guardian-agent/guardian-go v0.0.0\n\tgithub.com/mark3labs/mcp-go v1.2.1\n)\n\n" +
		"replace github.com/guardian-agent/guardian-go => " + filepath.ToSlash(root) + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		//lint:ignore SA1019 a fallback for a test machine whose PATH has no go
		goCmd = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	cmd := exec.Command(goCmd, "build", "-o", "prog", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
}

// runProgram runs dir/prog in dir and returns what it printed.
func runProgram(t *testing.T, dir, name string) string {
	t.Helper()
	run := exec.Command(filepath.Join(dir, "prog"))
	run.Dir = dir
	out, err := run.Output()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return string(out)
}
