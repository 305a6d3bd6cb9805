// Package definitiontest compares agent definitions with golden files in
// tests, the way a CI job pins what an agent is made of.
//
// A test records the agent, then calls Golden:
//
//	var update = flag.Bool("update", false, "rewrite golden files")
//
//	func TestAgentDefinition(t *testing.T) {
//		def, err := definition.Build(agent, nil)
//		if err != nil {
//			t.Fatal(err)
//		}
//		definitiontest.Golden(t, def, "testdata/agent.json")
//	}
//
// `go test -update` rewrites the file; without it, a difference fails the
// test with a per-tool report and a line diff. The package registers no
// flag itself (importing it changes nothing): Golden reads the test
// binary's "update" flag if the test declares one.
package definitiontest

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/internal/textdiff"
)

// Golden compares def's document with the golden file at path, or rewrites
// the file when the test runs with -update. Before either, it checks the
// document for leaked secrets: that it parses strictly (which refuses
// credentials in servers' commands, URLs and args) and that none of the
// given secrets appears in it. A leak fails the test without writing and
// without printing the secret.
func Golden(t testing.TB, def *definition.Definition, path string, secrets ...string) {
	t.Helper()
	doc, err := def.Document()
	if err != nil {
		t.Fatalf("definitiontest: %v", err)
	}
	if err := CheckLeaks(doc, secrets...); err != nil {
		t.Fatalf("definitiontest: %s: %v", path, err)
	}
	if updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("definitiontest: %v", err)
		}
		if err := os.WriteFile(path, doc, 0o644); err != nil {
			t.Fatalf("definitiontest: %v", err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("definitiontest: golden file %s does not exist; run go test -update to write it", path)
	}
	if err != nil {
		t.Fatalf("definitiontest: %v", err)
	}
	if bytes.Equal(want, doc) {
		return
	}
	if err := CheckLeaks(want, secrets...); err != nil {
		t.Fatalf("definitiontest: the golden file %s itself: %v", path, err)
	}
	t.Errorf("definitiontest: the definition differs from %s (go test -update rewrites it):\n%s", path, Report(want, doc))
}

// Report describes how the document got differs from the document want: a
// per-tool summary (definition.Diff) when both parse, then a unified line
// diff.
func Report(want, got []byte) string {
	var b strings.Builder
	old, errOld := definition.Parse(want)
	now, errNew := definition.Parse(got)
	switch {
	case errOld != nil:
		b.WriteString("the golden file does not parse: " + errOld.Error() + "\n")
	case errNew != nil:
		b.WriteString("the new document does not parse: " + errNew.Error() + "\n")
	default:
		for _, c := range definition.Diff(old, now) {
			b.WriteString("  " + c.String() + "\n")
		}
	}
	b.WriteString(textdiff.Unified("golden", "got", want, got))
	return b.String()
}

// CheckLeaks reports whether doc holds a secret: whether it fails to parse
// as a definition document (the strict reader refuses credentials in
// servers' commands, URLs and args), or contains any of secrets. The error
// never contains the secret.
func CheckLeaks(doc []byte, secrets ...string) error {
	for i, s := range secrets {
		if s != "" && bytes.Contains(doc, []byte(s)) {
			return errors.New("the document contains secret number " + strconv.Itoa(i+1) + " of those given")
		}
	}
	if _, err := definition.Parse(doc); err != nil {
		return err
	}
	return nil
}

// updating reports whether the test binary was run with -update.
func updating() bool {
	f := flag.Lookup("update")
	if f == nil {
		return false
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	b, ok := g.Get().(bool)
	return ok && b
}
