package fingerprint

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/guardian-agent/guardian-go/fingerprint/internal/shapes"
)

// testOnlyType is declared in a _test.go file: its fingerprint needs the
// package's test files.
type testOnlyType struct{ n int }

func (t *testOnlyType) RoundTrip() int { return t.n }

// TestTestFilesReadOnlyForTestTypes: a production type's fingerprint
// reads none of its package's _test.go files (the one here does not even
// parse, which refused the type before), and a type declared in a test
// file is still found in them.
func TestTestFilesReadOnlyForTestTypes(t *testing.T) {
	loc, ok := locate(reflect.ValueOf(shapes.TopLevel).Pointer())
	if !ok {
		t.Fatal("cannot locate shapes.TopLevel")
	}
	dir := loc.file[:strings.LastIndexByte(loc.file, '/')]
	src := mustRead(t, filepath.Join("internal", "shapes", "shapes.go"))
	fp := New(&Options{Sources: []Source{{fsys: fstest.MapFS{
		"shapes.go":      {Data: src},
		"shapes_test.go": {Data: []byte("package shapes\n\nfunc {")},
	}, dir: dir, pkg: "github.com/guardian-agent/guardian-go/fingerprint/internal/shapes"}}})
	got, err := fp.Value("/v", &shapes.AuthRT{})
	want, werr := New(nil).Value("/v", &shapes.AuthRT{})
	if err != nil || werr != nil || got != want {
		t.Errorf("with a test file that does not parse: %v, %v; want %v, %v", got, err, want, werr)
	}
	if n := fp.parses.Load(); n != 1 {
		t.Errorf("%d files read, want 1: shapes.go alone", n)
	}

	onDisk := New(nil)
	if _, err := onDisk.Value("/v", &testOnlyType{}); err != nil {
		t.Errorf("a type declared in a test file: %v", err)
	}
}
