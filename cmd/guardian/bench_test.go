package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/definition"
)

// benchConfig writes a config of n copies of the docs server, prefixed so
// that their tools do not clash, into a workspace.
func benchConfig(b *testing.B, n int) string {
	dir := workspace(b)
	var servers []string
	for i := range n {
		servers = append(servers, fmt.Sprintf(`"docs%d": {"command": "./toolserver", "args": ["-tools", "tools-v1.json"]}`, i))
	}
	path := filepath.Join(dir, "bench.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": {`+strings.Join(servers, ",")+`}}`), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkRecord is guardian record end to end, in process: read the
// config, start the stdio servers, load their tools, build and print the
// document. Starting the processes dominates.
func BenchmarkRecord(b *testing.B) {
	for _, n := range []int{1, 10} {
		b.Run(fmt.Sprintf("servers=%d", n), func(b *testing.B) {
			path := benchConfig(b, n)
			e := &env{stdout: io.Discard, stderr: io.Discard, lookupEnv: os.LookupEnv}
			b.ReportAllocs()
			for b.Loop() {
				if code := runEnv(context.Background(), []string{"record", path, "--prefix-tool-names"}, e); code != exitOK {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}

// BenchmarkCheckReport is what check does once both definitions are in
// hand: diff them and format the report.
func BenchmarkCheckReport(b *testing.B) {
	old, now := driftPair(b)
	b.ReportAllocs()
	for b.Loop() {
		printChanges(io.Discard, definition.Diff(old, now))
	}
}

func driftPair(b *testing.B) (*definition.Definition, *definition.Definition) {
	b.Helper()
	var defs []*definition.Definition
	for _, v := range []string{"tools-v1.json", "tools-v2.json"} {
		path := benchConfig(b, 1)
		dir := filepath.Dir(path)
		data, err := os.ReadFile(filepath.Join(dir, v))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "tools-v1.json"), data, 0o644); err != nil {
			b.Fatal(err)
		}
		rec := recordConfig(context.Background(), &env{stdout: io.Discard, stderr: io.Discard, lookupEnv: os.LookupEnv}, "bench", path,
			&recordOptions{name: "a", timeout: defaultTimeout})
		if rec.def == nil {
			b.Fatalf("%s: %+v", v, rec.problems)
		}
		defs = append(defs, rec.def)
	}
	return defs[0], defs[1]
}

func BenchmarkStderrTail(b *testing.B) {
	tail := newStderrTail([]string{"docs", "memory", "github"})
	line := []byte("[memory] " + strings.Repeat("log line text ", 8) + "\n")
	b.ReportAllocs()
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		_, _ = tail.Write(line)
	}
}
