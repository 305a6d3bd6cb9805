//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInputsBounded: every file guardian reads (config, document, golden,
// envFile) must be a regular file of bounded size: a FIFO nothing writes
// to, or a file larger than the bound, is exit 2 at once, naming the file.
func TestInputsBounded(t *testing.T) {
	dir := workspace(t)
	if r := guardian(t, dir, nil, "record", "mcp.json", "-o", "agent.json"); r.code != exitOK {
		t.Fatalf("record -o: %+v", r)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Sparse: no disk used, but larger than each bound.
	for name, size := range map[string]int64{"big.json": 65 << 20, "big.env": 2 << 20} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		_ = f.Close()
		if err := os.Truncate(filepath.Join(dir, name), size); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("fifo", filepath.Join(dir, "fifo-link")); err != nil {
		t.Fatal(err)
	}
	for _, ef := range []string{"fifo", "big.env"} {
		cfg := `{"mcpServers": {"docs": {"command": "./toolserver", "args": ["-tools", "tools-v1.json"], "envFile": "` + ef + `"}}}`
		if err := os.WriteFile(filepath.Join(dir, "env-"+ef+".json"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const pipe, large = "not a regular file (a named pipe)", "larger than"
	cases := []struct {
		args       []string
		file, want string
	}{
		{[]string{"record", "fifo"}, "fifo", pipe},
		{[]string{"record", "fifo-link"}, "fifo-link", pipe},
		{[]string{"record", "big.json"}, "big.json", "larger than 64 MiB"},
		{[]string{"validate", "fifo"}, "fifo", pipe},
		{[]string{"validate", "big.json", "--json"}, "big.json", large},
		{[]string{"scan", "fifo"}, "fifo", pipe},
		{[]string{"scan", "big.json", "--json"}, "big.json", large},
		{[]string{"diff", "fifo", "agent.json"}, "fifo", pipe},
		{[]string{"diff", "agent.json", "big.json"}, "big.json", large},
		{[]string{"check", "mcp.json", "--golden", "fifo"}, "fifo", pipe},
		{[]string{"check", "mcp.json", "--golden", "big.json", "--update"}, "big.json", large},
		{[]string{"record", "env-fifo.json"}, "envFile", pipe},
		{[]string{"record", "env-big.env.json"}, "envFile", "larger than 1 MiB"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, "_"), func(t *testing.T) {
			start := time.Now()
			r := guardian(t, dir, nil, c.args...)
			out := r.stdout + r.stderr
			if r.code != exitBad || !strings.Contains(out, c.file) || !strings.Contains(out, c.want) {
				t.Errorf("exit %d, want 2 naming %s and %q\nstdout: %s\nstderr: %s", r.code, c.file, c.want, r.stdout, r.stderr)
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
	// The golden file a check --update refused is left as it was.
	if fi, err := os.Stat(filepath.Join(dir, "big.json")); err != nil || fi.Size() != 65<<20 {
		t.Errorf("big.json changed (%v)", err)
	}
}
