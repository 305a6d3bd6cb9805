package definitiontest_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/definition/definitiontest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failed []string
}

func (r *recorder) Errorf(format string, args ...any) { r.failed = append(r.failed, "error") }
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = append(r.failed, "fatal")
	panic(r) // stop the helper, as FailNow would
}
func (r *recorder) Helper() {}

func run(tb testing.TB, f func(r *recorder)) (failed []string) {
	r := &recorder{TB: tb}
	defer func() {
		if p := recover(); p != nil && p != any(r) {
			panic(p)
		}
		failed = r.failed
	}()
	f(r)
	return r.failed
}

func TestGolden(t *testing.T) {
	if *update {
		t.Skip("this test writes its own files; it does not run under -update")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "testdata", "agent.json")
	def, _ := definition.Build(&definition.Agent{Name: "a", Model: "m1"}, nil)

	// A missing golden file fails with how to make it.
	if got := run(t, func(r *recorder) { definitiontest.Golden(r, def, path) }); len(got) != 1 || got[0] != "fatal" {
		t.Errorf("missing golden: %v", got)
	}
	// -update writes it (the flag is the test binary's own).
	if err := flag.Set("update", "true"); err != nil {
		t.Fatal(err)
	}
	got := run(t, func(r *recorder) { definitiontest.Golden(r, def, path) })
	flag.Set("update", "false")
	if len(got) != 0 {
		t.Fatalf("update failed: %v", got)
	}
	if got := run(t, func(r *recorder) { definitiontest.Golden(r, def, path) }); len(got) != 0 {
		t.Errorf("equal golden failed: %v", got)
	}
	other, _ := definition.Build(&definition.Agent{Name: "a", Model: "m2"}, nil)
	if got := run(t, func(r *recorder) { definitiontest.Golden(r, other, path) }); len(got) != 1 || got[0] != "error" {
		t.Errorf("different golden: %v", got)
	}
	// A leak fails even under -update, and writes nothing.
	leaky, _ := definition.Build(&definition.Agent{Name: "a", SystemPrompt: "token tok-123456"}, nil)
	flag.Set("update", "true")
	got = run(t, func(r *recorder) { definitiontest.Golden(r, leaky, path, "tok-123456") })
	flag.Set("update", "false")
	if len(got) != 1 || got[0] != "fatal" {
		t.Errorf("leak under -update: %v", got)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "tok-123456") {
		t.Error("the leak was written")
	}
}
