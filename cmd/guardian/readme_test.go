package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The README's quick start, run as written from the repository's root: a
// fresh clone with only Go installed records the example config, whose
// server is the docs server of examples/mcptools, started with go run.
const (
	readmeRecord = "go run ./cmd/guardian record testdata/configs/docs.json"
	readmeCheck  = "go run ./cmd/guardian check testdata/configs/docs.json --golden testdata/configs/docs.golden.json"
	docsGolden   = "testdata/configs/docs.golden.json"
)

func TestReadmeQuickStart(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{readmeRecord, readmeCheck} {
		if !strings.Contains(string(readme), "\n"+c+"\n") {
			t.Errorf("README.md does not show %q", c)
		}
	}
	if *update {
		if r := guardian(t, "../..", nil, "check", "testdata/configs/docs.json", "--golden", docsGolden, "--update"); r.code != exitOK {
			t.Fatalf("check --update: %+v", r)
		}
	}
	want, err := os.ReadFile("../../" + docsGolden)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{readmeRecord, readmeCheck} {
		args := strings.Fields(c)
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = "../.."
		cmd.Env = testEnv()
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\n%s", c, err, errb.String())
		}
		if c == readmeRecord && out.String() != string(want) {
			t.Errorf("%s printed another document than %s:\n%s", c, docsGolden, out.String())
		}
		if c == readmeCheck && !strings.Contains(errb.String(), "matches "+docsGolden) {
			t.Errorf("%s: %s", c, errb.String())
		}
	}
}
