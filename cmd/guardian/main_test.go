package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/internal/mcpconfig"
)

var update = flag.Bool("update", false, "rewrite golden files")

// The README's main-job command, run from the repository root.
var readmeArgs = []string{"scan", "testdata/configs/clean.json", "testdata/configs/dirty.json"}

const golden = "cmd/guardian/testdata/scan.golden"

func runHere(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), code
}

// transcript is what the golden file holds: the command, its output
// streams and its exit status.
func transcript(args []string, stdout, stderr string, code int) string {
	return fmt.Sprintf("$ guardian %s\n-- stdout --\n%s-- stderr --\n%s-- exit %d --\n",
		strings.Join(args, " "), stdout, stderr, code)
}

func TestScanGolden(t *testing.T) {
	t.Chdir("../..")
	stdout, stderr, code := runHere(t, readmeArgs...)
	got := transcript(readmeArgs, stdout, stderr, code)
	// The leak check runs before any rewrite, so -update cannot write a
	// secret into the golden file.
	assertNoRefusedValue(t, "testdata/configs/dirty.json", got)
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	assertNoRefusedValue(t, "testdata/configs/dirty.json", string(want))
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n got:\n%s\nwant:\n%s", golden, got, want)
	}
	if code != exitRefused {
		t.Errorf("exit %d, want %d", code, exitRefused)
	}
	// Every refusal line has the documented shape.
	for _, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		parts := strings.SplitN(line, ": ", 4)
		if len(parts) != 4 || parts[0] != "testdata/configs/dirty.json" || !strings.HasPrefix(parts[1], "/mcpServers/") {
			t.Errorf("line %q is not FILE: POINTER: RULE: FIX", line)
		}
	}
}

// assertNoRefusedValue fails if text holds any refused value of file, or
// any 8-byte piece of one. It finds the refused values by running the scan
// and reading each refusal's pointer back out of the file.
func assertNoRefusedValue(t *testing.T, file, text string) {
	t.Helper()
	cfg, err := mcpconfig.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]string{}
	for _, s := range cfg.Servers {
		values[s.Pointer+"/command"] = s.Command
		values[s.Pointer+"/url"] = s.URL
		for i, a := range s.Args {
			values[s.Pointer+"/args/"+strconv.Itoa(i)] = a
		}
	}
	var out bytes.Buffer
	run(context.Background(), []string{"scan", file}, &out, &bytes.Buffer{})
	n := 0
	for _, line := range strings.Split(out.String(), "\n") {
		parts := strings.SplitN(line, ": ", 4)
		if len(parts) < 2 {
			continue
		}
		v, ok := values[parts[1]]
		if !ok {
			t.Fatalf("refusal at %q, which holds no value", parts[1])
		}
		n++
		// The secret part of each refused value: its last word.
		secret := v[strings.LastIndexAny(v, " =:@/")+1:]
		if strings.Contains(v, "://") {
			secret = v[strings.Index(v, "://")+3:]
		}
		for i := 0; i+8 <= len(secret); i++ {
			if strings.Contains(text, secret[i:i+8]) {
				t.Fatalf("output holds part of the refused value at %s", parts[1])
			}
		}
	}
	if n == 0 {
		t.Fatalf("%s: nothing refused", file)
	}
}

func TestScanExitCodes(t *testing.T) {
	t.Chdir("../..")
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	nonString := write("nonstring.json", `{"mcpServers": {"a": {"command": "x", "args": ["--port", 8080]}}}`)
	notJSON := write("bad.json", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\" \"args\": []}\n  }\n}\n")
	tests := []struct {
		name     string
		args     []string
		code     int
		stdout   []string // substrings
		stderr   []string
		noStdout bool
		notInAny string
	}{
		{"clean", []string{"scan", "testdata/configs/clean.json"}, exitOK, nil, []string{"clean.json: 7 servers, no credentials found"}, true, ""},
		{"vscode", []string{"scan", "testdata/configs/vscode.json"}, exitOK, nil, []string{"vscode.json: 3 servers, no credentials found"}, true, ""},
		{"dirty", []string{"scan", "testdata/configs/dirty.json"}, exitRefused, []string{"dirty.json: /mcpServers/github/args/4: token/github: "}, nil, false, ""},
		{"malformed", []string{"scan", "testdata/configs/malformed.json"}, exitBad, nil, []string{"malformed.json:7:5: /mcpServers/github: duplicate key"}, true, ""},
		{"not json", []string{"scan", notJSON}, exitBad, nil, []string{"bad.json:3:26: /mcpServers/a: want ',' or '}'"}, true, ""},
		{"missing", []string{"scan", "testdata/configs/missing.json"}, exitBad, nil, []string{"missing.json: cannot read: no such file or directory"}, true, ""},
		{"directory", []string{"scan", "testdata/configs"}, exitBad, nil, []string{"configs: cannot read"}, true, ""},
		{"malformed beats dirty", []string{"scan", "testdata/configs/dirty.json", "testdata/configs/malformed.json"}, exitBad, []string{"token/github"}, []string{"duplicate key"}, false, ""},
		{"args not strings", []string{"scan", nonString}, exitRefused, []string{"nonstring.json: /mcpServers/a/args/1: args-not-strings: give args as a list of strings"}, []string{"nonstring.json: 1 server, 1 value refused: fix it as its line says"}, false, "8080"},
		{"no files", []string{"scan"}, exitBad, nil, []string{"no files given", "Usage: guardian scan FILE..."}, true, ""},
		{"bad flag", []string{"scan", "-x", "f"}, exitBad, nil, []string{"flag provided but not defined", "Usage: guardian scan"}, true, ""},
		{"scan help", []string{"scan", "--help"}, exitOK, []string{"Usage: guardian scan FILE...", "FILE: POINTER: RULE: FIX", "Example:"}, nil, false, ""},
		{"help", []string{"--help"}, exitOK, []string{"Usage:", "scan ", "Example:"}, nil, false, ""},
		{"help -h", []string{"-h"}, exitOK, []string{"Commands:"}, nil, false, ""},
		{"help scan", []string{"help", "scan"}, exitOK, []string{"Usage: guardian scan FILE..."}, nil, false, ""},
		{"no command", nil, exitBad, nil, []string{"Usage:"}, true, ""},
		{"unknown command", []string{"frobnicate"}, exitBad, nil, []string{`unknown command "frobnicate"`}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runHere(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout)
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
			if tt.noStdout && stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
			if tt.notInAny != "" && (strings.Contains(stdout, tt.notInAny) || strings.Contains(stderr, tt.notInAny)) {
				t.Errorf("output quotes a value")
			}
		})
	}
}

func TestScanCanceled(t *testing.T) {
	t.Chdir("../..")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	if code := run(ctx, readmeArgs, &out, &errb); code != exitBad || !strings.Contains(errb.String(), "canceled") {
		t.Errorf("canceled scan: exit %d, stderr %q", code, errb.String())
	}
}

// TestBinary builds the real command and runs it as a process, from the
// repository root, as the README does.
func TestBinary(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go not on PATH: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "guardian")
	build := exec.Command(gobin, "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	exe := func(args ...string) (string, string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = root
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var ee *exec.ExitError
		code := 0
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), code
	}
	stdout, stderr, code := exe(readmeArgs...)
	want, err := os.ReadFile(filepath.Join(root, golden))
	if err != nil {
		t.Fatal(err)
	}
	if got := transcript(readmeArgs, stdout, stderr, code); got != string(want) {
		t.Errorf("binary output differs from %s:\n%s", golden, got)
	}
	if _, stderr, code := exe("scan", "testdata/configs/malformed.json"); code != exitBad || !strings.Contains(stderr, "malformed.json:7:5") {
		t.Errorf("malformed: exit %d, stderr %q", code, stderr)
	}
	if stdout, _, code := exe("--help"); code != exitOK || !strings.Contains(stdout, "guardian scan") {
		t.Errorf("--help: exit %d, stdout %q", code, stdout)
	}
	if _, _, code := exe("scan", "testdata/configs/clean.json", "testdata/configs/vscode.json"); code != exitOK {
		t.Errorf("clean files: exit %d", code)
	}
}

func TestScanJSON(t *testing.T) {
	t.Chdir("../..")
	args := []string{"scan", "testdata/configs/clean.json", "testdata/configs/dirty.json", "testdata/configs/malformed.json", "--json"}
	stdout, stderr, code := runHere(t, args...)
	if code != exitBad || stderr != "" {
		t.Errorf("exit %d, stderr %q: want 2 (malformed beats dirty) and nothing on stderr", code, stderr)
	}
	assertNoRefusedValue(t, "testdata/configs/dirty.json", stdout)
	const golden = "cmd/guardian/testdata/scan.json.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if stdout != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n%s", golden, stdout)
	}
	// One file at a time: the statuses and exit codes of the plain scan.
	for file, want := range map[string]int{"clean.json": exitOK, "dirty.json": exitRefused, "malformed.json": exitBad, "missing.json": exitBad} {
		_, _, plain := runHere(t, "scan", "testdata/configs/"+file)
		_, _, js := runHere(t, "scan", "--json", "testdata/configs/"+file)
		if plain != want || js != want {
			t.Errorf("%s: exit %d plain, %d with --json; want %d", file, plain, js, want)
		}
	}
}
