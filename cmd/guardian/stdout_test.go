package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// guardianStdout runs the guardian binary in dir with stdout as given,
// and returns its stderr and exit status.
func guardianStdout(t *testing.T, dir string, stdout *os.File, args ...string) (string, int) {
	t.Helper()
	bin, _ := binaries(t)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = testEnv()
	cmd.Stdout = stdout
	var errb strings.Builder
	cmd.Stderr = &errb
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
		t.Fatalf("guardian %s: still running after 2 minutes", strings.Join(args, " "))
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if !ee.Exited() {
			t.Fatalf("guardian %s: %v (killed by a signal)\nstderr: %s", strings.Join(args, " "), err, errb.String())
		}
		return errb.String(), ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return errb.String(), 0
}

// TestStdoutWriteFails: a document or report that cannot be written to
// stdout (a closed pipe, a read-only descriptor) is exit 2, said on
// stderr, never exit 0.
func TestStdoutWriteFails(t *testing.T) {
	dir := workspace(t)
	if r := guardian(t, dir, nil, "record", "mcp.json", "-o", "agent.json"); r.code != exitOK {
		t.Fatalf("record -o: %+v", r)
	}
	cmds := [][]string{
		{"record", "mcp.json"},
		{"record", "mcp.json", "--json"},
		{"validate", "agent.json", "--json"},
		{"check", "mcp.json", "--golden", "agent.json", "--json"},
		{"scan", "mcp.json", "--json"},
		{"diff", "agent.json", "agent.json", "--json"},
	}
	outs := map[string]func(t *testing.T) *os.File{
		"closed-pipe": func(t *testing.T) *os.File {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			_ = r.Close()
			t.Cleanup(func() { _ = w.Close() })
			return w
		},
		"read-only": func(t *testing.T) *os.File {
			f, err := os.OpenFile(filepath.Join(dir, "agent.json"), os.O_RDONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = f.Close() })
			return f
		},
	}
	for name, open := range outs {
		for _, args := range cmds {
			t.Run(name+"/"+strings.Join(args, "_"), func(t *testing.T) {
				stderr, code := guardianStdout(t, dir, open(t), args...)
				if code != exitBad || !strings.Contains(stderr, "cannot write to stdout") {
					t.Errorf("exit %d, want 2 and a message\nstderr: %s", code, stderr)
				}
			})
		}
	}
}
