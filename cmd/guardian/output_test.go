//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOutputFollowsSymlink: -o and check --update through a symlink write
// its target, and the symlink stays a symlink.
func TestOutputFollowsSymlink(t *testing.T) {
	dir := workspace(t)
	want := guardian(t, dir, nil, "record", "mcp.json").stdout
	for _, args := range [][]string{
		{"record", "mcp.json", "-o", "link.json"},
		{"check", "mcp.json", "--golden", "link.json", "--update"},
	} {
		t.Run(args[0], func(t *testing.T) {
			target := filepath.Join(dir, args[0]+"-target.json")
			if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(dir, "link.json")
			_ = os.Remove(link)
			if err := os.Symlink(filepath.Base(target), link); err != nil {
				t.Fatal(err)
			}
			if args[0] == "check" { // a valid golden to update
				if err := os.WriteFile(target, []byte(want), 0o644); err != nil {
					t.Fatal(err)
				}
				useTools(t, dir, "tools-v1.json", "tools-v2.json")
				t.Cleanup(func() { useTools(t, dir, "tools-v2.json", "tools-v1.json") })
			}
			r := guardian(t, dir, nil, args...)
			if r.code != exitOK {
				t.Fatalf("%+v", r)
			}
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("link.json is no longer a symlink (%v)", err)
			}
			got, err := os.ReadFile(target)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) == "old" || (args[0] == "record" && string(got) != want) || (args[0] == "check" && string(got) == want) {
				t.Errorf("the symlink's target was not written:\n%s", got)
			}
		})
	}
}

// TestOutputRefusesNonRegular: a FIFO at -o is refused (exit 2), not
// replaced by a regular file.
func TestOutputRefusesNonRegular(t *testing.T) {
	dir := workspace(t)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"record", "mcp.json", "-o", "fifo"}, {"record", "mcp.json", "-o", "fifo", "--json"}} {
		r := guardian(t, dir, nil, args...)
		if r.code != exitBad || !strings.Contains(r.stdout+r.stderr, "not a regular file (a named pipe)") {
			t.Errorf("%v: %+v", args, r)
		}
		if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			t.Fatalf("the FIFO was replaced (%v)", err)
		}
	}
}

// TestOutputRefusesConfig: -o naming the config itself, directly or
// through a symlink, is refused and the config is left as it was.
func TestOutputRefusesConfig(t *testing.T) {
	dir := workspace(t)
	before, err := os.ReadFile(filepath.Join(dir, "mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("mcp.json", filepath.Join(dir, "alias.json")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"record", "mcp.json", "-o", "mcp.json"},
		{"record", "mcp.json", "-o", "./alias.json"},
		{"record", "alias.json", "-o", "mcp.json"},
	} {
		r := guardian(t, dir, nil, args...)
		if r.code != exitBad || !strings.Contains(r.stderr, "the config being read") {
			t.Errorf("%v: %+v", args, r)
		}
		after, err := os.ReadFile(filepath.Join(dir, "mcp.json"))
		if err != nil || string(after) != string(before) {
			t.Fatalf("%v: the config was overwritten (%v)", args, err)
		}
	}
}

// TestOutputKeepsMode: an existing 0600 file stays 0600 when -o or check
// --update rewrites it.
func TestOutputKeepsMode(t *testing.T) {
	dir := workspace(t)
	path := filepath.Join(dir, "agent.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := guardian(t, dir, nil, "record", "mcp.json", "-o", "agent.json"); r.code != exitOK {
		t.Fatalf("%+v", r)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("record -o: mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	useTools(t, dir, "tools-v1.json", "tools-v2.json")
	if r := guardian(t, dir, nil, "check", "mcp.json", "--golden", "agent.json", "--update"); r.code != exitOK {
		t.Fatalf("%+v", r)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("check --update: mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	// A new file is 0644, as before.
	if r := guardian(t, dir, nil, "record", "mcp.json", "-o", "new.json"); r.code != exitOK {
		t.Fatalf("%+v", r)
	}
	if fi, err := os.Stat(filepath.Join(dir, "new.json")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("new file: mode %v (%v), want 0644", fi.Mode().Perm(), err)
	}
}
