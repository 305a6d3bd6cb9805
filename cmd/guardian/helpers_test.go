package main

// The end-to-end tests build the guardian command and the test MCP server
// (testdata/toolserver) once, then run them as real processes in a fresh
// copy of testdata/e2e, with the server's binary beside the configs: the
// configs name it by a relative command, "./toolserver", so the documents
// they record are the same on every machine.

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var builds struct {
	once                 sync.Once
	dir                  string
	guardian, toolserver string
	err                  error
}

func TestMain(m *testing.M) {
	if os.Getenv(asBrowserEnv) == "1" {
		os.Exit(followURL(os.Args[len(os.Args)-1]))
	}
	code := m.Run()
	if builds.dir != "" {
		_ = os.RemoveAll(builds.dir)
	}
	os.Exit(code)
}

// binaries builds guardian and the toolserver, once per test run.
func binaries(t testing.TB) (guardian, toolserver string) {
	t.Helper()
	builds.once.Do(func() {
		builds.dir, builds.err = os.MkdirTemp("", "guardian-e2e-")
		if builds.err != nil {
			return
		}
		builds.guardian = filepath.Join(builds.dir, "guardian")
		builds.toolserver = filepath.Join(builds.dir, "toolserver")
		for _, b := range []struct{ out, pkg string }{{builds.guardian, "."}, {builds.toolserver, "./testdata/toolserver"}} {
			out, err := exec.Command("go", "build", "-o", b.out, b.pkg).CombinedOutput()
			if err != nil {
				builds.err = errors.New("go build " + b.pkg + ": " + err.Error() + "\n" + string(out))
				return
			}
		}
	})
	if builds.err != nil {
		t.Fatal(builds.err)
	}
	return builds.guardian, builds.toolserver
}

// workspace returns a fresh copy of testdata/e2e with the toolserver
// binary in it.
func workspace(t testing.TB) string {
	t.Helper()
	_, ts := binaries(t)
	dir := t.TempDir()
	err := os.CopyFS(dir, os.DirFS("testdata/e2e"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(ts, filepath.Join(dir, "toolserver")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// result is what a run of the guardian binary gave.
type result struct {
	args           []string
	stdout, stderr string
	code           int
}

// transcript is what golden files hold: the command, its output streams,
// and its exit status.
func (r result) transcript() string {
	return transcript(r.args, r.stdout, r.stderr, r.code)
}

// guardian runs the guardian binary in dir with args, and extra
// environment variables ("NAME=value"), and waits at most two minutes.
func guardian(t testing.TB, dir string, extraEnv []string, args ...string) result {
	t.Helper()
	bin, _ := binaries(t)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(testEnv(), extraEnv...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("guardian %s: still running after 2 minutes\nstderr: %s", strings.Join(args, " "), errb.String())
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{args: args, stdout: out.String(), stderr: errb.String(), code: code}
}

// testEnv is the environment the binary runs with: the test's, without
// anything that would answer an input or set a variable a test means to
// leave unset.
func testEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, inputEnvPrefix) || strings.HasPrefix(kv, "GUARDIAN_TEST_") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// checkGolden compares got with the golden file testdata/name, or rewrites
// it under -update. The leak check runs first, so that -update cannot write
// a secret into the repository.
func checkGolden(t *testing.T, name, got string, secrets ...string) {
	t.Helper()
	assertNoSecret(t, got, secrets...)
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%s is missing: go test -update writes it", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

// assertNoSecret fails if text holds any of secrets, or any 8-byte piece
// of one, without printing it.
func assertNoSecret(t testing.TB, text string, secrets ...string) {
	t.Helper()
	for i, s := range secrets {
		for j := 0; j+8 <= len(s); j++ {
			if strings.Contains(text, s[j:j+8]) {
				t.Fatalf("output holds part of secret #%d", i)
			}
		}
	}
}

// fakeToken is a credential of a well-known shape, built here so that no
// literal one is in the repository.
func fakeToken(letter string) string {
	return "ghp_" + strings.Repeat(letter, 36)
}
