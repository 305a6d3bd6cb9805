package fingerprint_test

// These tests build a real program (testdata/prog) with the go command,
// in several build modes and directories, run it as a process, and compare
// the digests it prints. They need the go command and the module cache
// that `go mod download` fills; GOFLAGS=-mod=mod lets the program's module
// resolve this repository through a replace directive.

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// repoRoot is this module's directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(wd) // the test runs in <root>/fingerprint
}

// copyProgram copies testdata/prog into a new directory, with a go.mod
// that resolves this repository from disk and this repository's go.sum.
func copyProgram(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("testdata", "prog")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	root := repoRoot(t)
	gomod := "module example.com/fpprog\n\ngo 1.26\n\n" +
		"require (\n\tgithub.com/guardian-agent/guardian-go v0.0.0\n\texample.com/locallib v0.0.0\n" +
		"\tgithub.com/mark3labs/mcp-go v1.2.1\n\tgithub.com/zeebo/blake3 v0.2.4\n)\n\n" +
		"replace github.com/guardian-agent/guardian-go => " + filepath.ToSlash(root) + "\n\n" +
		"replace example.com/locallib => ./locallib\n"
	if err := os.WriteFile(filepath.Join(dst, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// goBuild builds the program in dir into out with extra build flags.
func goBuild(t *testing.T, dir, out string, flags ...string) {
	t.Helper()
	args := append([]string{"build", "-o", out}, flags...)
	cmd := exec.Command(goCommand(t), append(args, ".")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"), "GOWORK=off", "GOTOOLCHAIN=local")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, b)
	}
}

func goCommand(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	//lint:ignore SA1019 a fallback for a test machine whose PATH has no go
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("no go command: %v", err)
	}
	return p
}

// runProgram runs the built program in dir and returns its result lines,
// name → result.
func runProgram(t *testing.T, bin, dir string, args ...string) map[string]string {
	t.Helper()
	return runProgramEnv(t, bin, dir, nil, args...)
}

// runProgramEnv is runProgram with more environment variables.
func runProgramEnv(t *testing.T, bin, dir string, env []string, args ...string) map[string]string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", bin, args, err, stderr.Bytes())
	}
	res := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, result, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("bad output line %q", line)
		}
		res[name] = result
	}
	return res
}

// baseline is the program's output when built plainly from testdata/prog,
// computed once for the tests that compare against it.
var baseline struct {
	once sync.Once
	res  map[string]string
}

func baselineResults(t *testing.T) map[string]string {
	t.Helper()
	baseline.once.Do(func() {
		dir := copyProgram(t)
		bin := filepath.Join(t.TempDir(), "prog")
		goBuild(t, dir, bin)
		baseline.res = runProgram(t, bin, dir)
	})
	if baseline.res == nil {
		t.Fatal("baseline build failed")
	}
	return baseline.res
}

// wantShape checks the baseline's shape: user code found, stdlib skipped,
// an interface method value refused.
func wantShape(t *testing.T, res map[string]string) {
	t.Helper()
	for name, r := range res {
		switch name {
		case "stdlib", "stdlib-method-value", "mcp-method-value":
			if r != "skipped" {
				t.Errorf("%s = %s, want skipped", name, r)
			}
		case "interface-method":
			if r != "refused opaque fingerprint/interface-method-value" {
				t.Errorf("%s = %s, want an interface-method refusal", name, r)
			}
		default:
			if !strings.HasPrefix(r, "blake3:") {
				t.Errorf("%s = %s, want a digest", name, r)
			}
		}
	}
	if len(res) != 20 {
		t.Errorf("got %d results, want 20", len(res))
	}
}

func diffResults(t *testing.T, label string, got, want map[string]string) {
	t.Helper()
	var names []string
	for n := range want {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if got[n] != want[n] {
			t.Errorf("%s: %s = %s, want %s", label, n, got[n], want[n])
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d results, want %d", label, len(got), len(want))
	}
}

// TestBuildModes builds the program plainly and with -trimpath, in two
// directories, and with inlining off plus coverage and with the race
// detector, and asserts that every build prints the same digests.
func TestBuildModes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs; not in -short")
	}
	want := baselineResults(t)
	wantShape(t, want)
	modes := []struct {
		name  string
		flags []string
	}{
		{"trimpath", []string{"-trimpath"}},
		{"noinline-cover", []string{"-gcflags=example.com/fpprog/...=-l", "-cover"}},
		{"race", []string{"-race"}},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			if m.name == "race" && !raceSupported() {
				t.Skip("no race detector on " + runtime.GOOS + "/" + runtime.GOARCH)
			}
			dir := copyProgram(t) // another directory than the baseline's
			bin := filepath.Join(t.TempDir(), "prog")
			goBuild(t, dir, bin, m.flags...)
			diffResults(t, m.name, runProgram(t, bin, dir), want)
		})
	}
}

func raceSupported() bool {
	switch runtime.GOOS + "/" + runtime.GOARCH {
	case "linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "freebsd/amd64", "linux/ppc64le", "linux/s390x", "netbsd/amd64", "linux/loong64":
		return true
	}
	return false
}

// TestMovedBinary runs a binary away from its source: user code is
// refused as unreadable (the standard library is still skipped), and with
// the embedded source supplied, the digests are those of a normal build.
func TestMovedBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs; not in -short")
	}
	want := baselineResults(t)
	for _, flags := range [][]string{nil, {"-trimpath"}} {
		name := "plain"
		if flags != nil {
			name = "trimpath"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := copyProgram(t)
			bin := filepath.Join(t.TempDir(), "prog")
			goBuild(t, dir, bin, flags...)
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			elsewhere := t.TempDir()
			// Away from the module cache too: no module's source on the
			// machine, and no GOROOT variable.
			noCache := []string{"GOMODCACHE=" + t.TempDir(), "GOPATH=" + t.TempDir(), "HOME=" + t.TempDir(), "GOROOT="}

			away := runProgramEnv(t, bin, elsewhere, noCache)
			for n, r := range away {
				switch n {
				case "stdlib", "stdlib-method-value", "mcp-method-value":
					if r != "skipped" {
						t.Errorf("away: %s = %s, want skipped", n, r)
					}
				case "dep-func", "dep-method-value":
					if r != want[n] {
						t.Errorf("away: %s = %s, want %s, as built in place", n, r, want[n])
					}
				default:
					if r != "refused unreadable fingerprint/unreadable-source" {
						t.Errorf("away: %s = %s, want an unreadable-source refusal", n, r)
					}
				}
			}

			// The embedded tree holds the program's own module; the locally
			// replaced module is another, and stays unreadable.
			embedded := runProgramEnv(t, bin, elsewhere, noCache, "-embed")
			if r := embedded["local-replace"]; r != "refused unreadable fingerprint/unreadable-source" {
				t.Errorf("embedded: local-replace = %s, want an unreadable-source refusal", r)
			}
			embedded["local-replace"] = want["local-replace"]
			diffResults(t, "embedded", embedded, want)
		})
	}
}

// TestSourceEdits edits a copy of the program's source and rebuilds it:
// comments, layout, moving a func down the file and renaming the file
// leave every digest as it was; a change to one body changes that code's
// digest only.
func TestSourceEdits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs; not in -short")
	}
	want := baselineResults(t)
	const file = "shapes/shapes.go"
	edits := []struct {
		name    string
		edit    func(t *testing.T, dir string)
		changed []string // results that must differ from the baseline
	}{
		{"comments", func(t *testing.T, dir string) {
			replaceIn(t, dir, file,
				"return strings.ToUpper(s) + \"!\"", "/* shout */ return strings.ToUpper(s) + // upper\n\t\t\"!\" // bang",
				"func (c *Counter) step() int { return 1 }", "// step is one.\nfunc (c *Counter) step() int {\n\t// always\n\treturn 1\n}",
				"// Map is a generic function.", "// Map maps, and the comment changed.")
		}, nil},
		{"layout", func(t *testing.T, dir string) {
			replaceIn(t, dir, file,
				"return func() int { return n + 1 }", "return func() int {\n\n\t\treturn n + 1;\n\t}",
				"out := make([]U, 0, len(xs))", "out := make(\n\t\t[]U,\n\t\t0,\n\t\tlen(xs),\n\t)",
				"func Leaf(\n\ta int,\n\tb int,\n) int {", "func Leaf(a int, b int) int {",
				"return s != \"\"", "return s != ``")
		}, nil},
		{"move-down", func(t *testing.T, dir string) {
			p := filepath.Join(dir, file)
			src := readString(t, p)
			decl := "// TopLevel is a top-level func.\nfunc TopLevel(s string) string {\n\treturn strings.ToUpper(s) + \"!\"\n}\n"
			if !strings.Contains(src, decl) {
				t.Fatal("TopLevel not found")
			}
			writeString(t, p, strings.Replace(src, decl, "", 1)+"\n\n\n"+decl)
		}, nil},
		{"rename-file", func(t *testing.T, dir string) {
			if err := os.Rename(filepath.Join(dir, file), filepath.Join(dir, "shapes", "zz_renamed.go")); err != nil {
				t.Fatal(err)
			}
		}, nil},
		{"body", func(t *testing.T, dir string) {
			replaceIn(t, dir, file, "return func() int { return n + 1 }", "return func() int { return n + 2 }")
		}, []string{"closure"}},
		{"unexported-method", func(t *testing.T, dir string) {
			replaceIn(t, dir, file, "func (c *Counter) step() int { return 1 }", "func (c *Counter) step() int { return 2 }")
		}, []string{"impl-value"}},
	}
	for _, ed := range edits {
		t.Run(ed.name, func(t *testing.T) {
			t.Parallel()
			dir := copyProgram(t)
			ed.edit(t, dir)
			bin := filepath.Join(t.TempDir(), "prog")
			goBuild(t, dir, bin)
			got := runProgram(t, bin, dir)
			for n, w := range want {
				if slices.Contains(ed.changed, n) {
					if got[n] == w || !strings.HasPrefix(got[n], "blake3:") {
						t.Errorf("%s = %s, want a digest other than %s", n, got[n], w)
					}
				} else if got[n] != w {
					t.Errorf("%s = %s, want %s (unchanged)", n, got[n], w)
				}
			}
		})
	}
}

func replaceIn(t *testing.T, dir, file string, oldnew ...string) {
	t.Helper()
	p := filepath.Join(dir, file)
	src := readString(t, p)
	for i := 0; i < len(oldnew); i += 2 {
		if !strings.Contains(src, oldnew[i]) {
			t.Fatalf("edit: %q not in %s", oldnew[i], file)
		}
		src = strings.Replace(src, oldnew[i], oldnew[i+1], 1)
	}
	writeString(t, p, src)
}

func readString(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeString(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
