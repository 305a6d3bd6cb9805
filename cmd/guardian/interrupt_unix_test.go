//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterruptStopsServers runs guardian as a process whose servers never
// answer (one of them ignoring a closed stdin and SIGTERM, so that only
// SIGKILL stops it), sends it a real signal, and checks that it exits 2
// and leaves no server process behind.
func TestInterruptStopsServers(t *testing.T) {
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			dir := workspace(t)
			bin, _ := binaries(t)
			cmd := exec.Command(bin, "record", "hang.json", "--timeout", "5m")
			cmd.Dir = dir
			cmd.Env = testEnv()
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			t.Cleanup(func() {
				if cmd.ProcessState == nil {
					_ = cmd.Process.Kill()
					<-done
				}
			})

			var pids []int
			deadline := time.Now().Add(time.Minute)
			for _, name := range []string{"docs.pid", "hang.pid", "stubborn.pid"} {
				for {
					data, err := os.ReadFile(filepath.Join(dir, name))
					if pid, perr := strconv.Atoi(string(data)); err == nil && perr == nil {
						pids = append(pids, pid)
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("%s never written; stderr: %s", name, errb.String())
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
			for _, pid := range pids {
				if err := syscall.Kill(pid, 0); err != nil {
					t.Fatalf("server %d is not running: %v", pid, err)
				}
			}

			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			var err error
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("guardian still running 30s after %v; stderr: %s", sig, errb.String())
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitBad {
				t.Errorf("exit: %v, want status %d", err, exitBad)
			}
			for _, want := range []string{`server "hang" failed: interrupted`, `server "stubborn" failed: interrupted`, "interrupted: servers stopped: nothing recorded"} {
				if !strings.Contains(errb.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, errb.String())
				}
			}
			if out.Len() != 0 {
				t.Errorf("stdout = %q, want nothing", out.String())
			}
			for _, pid := range pids {
				if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
					t.Errorf("server %d left running after guardian exited (kill 0: %v)", pid, err)
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		})
	}
}
