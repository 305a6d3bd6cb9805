package fingerprint

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/guardian-agent/guardian-go/fingerprint/internal/shapes"
	"github.com/guardian-agent/guardian-go/refusals"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/zeebo/blake3"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// userHandler is a user's tool handler, to be wrapped in mcp-go's type.
func userHandler(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultText("ok"), nil
}

// wrappedOAuth is a user's type that embeds an mcp-go type: its own
// declaration and methods are fingerprinted, mcp-go's are not.
type wrappedOAuth struct {
	*transport.OAuthHandler
	scope string
}

func (w *wrappedOAuth) Scope() string { return w.scope + "!" }

// shapeCase is one row of the shape table.
type shapeCase struct {
	name  string
	value bool // fingerprint with Value, else Func
	v     any
	want  string // "found", "skipped" or the refusal's rule
	kind  error  // the refusal's kind
	node  string // for a func: the exact source text the digest is of
	same  string // another case whose digest this one's equals
}

func shapeCases() []shapeCase {
	outer, inner := shapes.Nested()
	one, two := shapes.TwoOnOneLine()
	c := &shapes.Counter{}
	var g shapes.Getter = shapes.Counter{}
	srv := server.NewMCPServer("s", "1")
	mk := reflect.MakeFunc(reflect.TypeOf(func() {}), func([]reflect.Value) []reflect.Value { return nil }).Interface()
	return []shapeCase{
		{name: "top-level func", v: shapes.TopLevel, want: "found",
			node: "func TopLevel(s string) string { return strings.ToUpper(s) }"},
		{name: "leaf func, multi-line signature", v: shapes.MultiLineSig, want: "found",
			node: "func MultiLineSig(\n\ta int,\n\tb int,\n) int {\n\treturn a + b\n}"},
		{name: "closure", v: shapes.Closure(1), want: "found", node: "func() int { return n + 1 }"},
		{name: "nested closure, outer", v: outer, want: "found",
			node: "func() func() int {\n\t\treturn func() int { return 2 }\n\t}"},
		{name: "nested closure, inner", v: inner, want: "found", node: "func() int { return 2 }"},
		{name: "two literals on one line, first", v: one, want: "found"},
		{name: "two literals on one line, second", v: two, want: "found", same: "two literals on one line, first"},
		{name: "closure in method", v: c.ClosureInMethod(), want: "found", node: "func() int { return c.n * 2 }"},
		{name: "package-level func var", v: shapes.PackageVar, want: "found", node: `func(s string) bool { return s != "" }`},
		{name: "method value, pointer receiver", v: c.Inc, want: "found", node: "func (c *Counter) Inc() { c.n++ }"},
		{name: "method value, value receiver", v: c.Get, want: "found", node: "func (c Counter) Get() int { return c.n }"},
		{name: "method expression", v: (*shapes.Counter).Inc, want: "found", same: "method value, pointer receiver"},
		{name: "method expression, value method through pointer", v: (*shapes.Counter).Get, want: "found", same: "method value, value receiver"},
		{name: "method expression, value receiver", v: shapes.Counter.Get, want: "found", same: "method value, value receiver"},
		{name: "promoted method value", v: shapes.Outer{}.Hello, want: "found", node: `func (Inner) Hello() string { return "hello" }`},
		{name: "promoted method expression", v: shapes.Outer.Hello, want: "found", same: "promoted method value"},
		{name: "promoted pointer method value", v: (&shapes.Outer{Counter: c}).Inc, want: "found", same: "method value, pointer receiver"},
		{name: "generic func", v: shapes.Map[int, string], want: "found"},
		{name: "generic func, other instance", v: shapes.Map[string, int], want: "found", same: "generic func"},
		{name: "closure in generic func", v: shapes.GenericClosure(3), want: "found", node: "func() T { return v }"},
		{name: "generic method value", v: (&shapes.Box[int]{}).Get, want: "found", node: "func (b *Box[T]) Get() T { return b.v }"},
		{name: "aliased import", v: shapes.Dice, want: "found", node: "func Dice() int { return rnd.IntN(6) }"},
		{name: "func in a test file", v: userHandler, want: "found"},

		{name: "impl value with unexported method", value: true, v: &shapes.AuthRT{}, want: "found"},
		{name: "impl value embedding stdlib", value: true, v: &shapes.Transport{}, want: "found"},
		{name: "impl value embedding user types", value: true, v: shapes.Outer{}, want: "found"},
		{name: "named func type with method", value: true, v: shapes.HandlerFunc(shapes.Upper), want: "found"},
		{name: "plain func as value", value: true, v: shapes.Upper, want: "found"},
		{name: "type declared in a func", value: true, v: shapes.Local(), want: "found"},
		{name: "user func as mcp-go ToolHandlerFunc", value: true, v: server.ToolHandlerFunc(userHandler), want: "found", same: "func in a test file"},
		{name: "user type embedding mcp-go type", value: true, v: &wrappedOAuth{}, want: "found"},

		{name: "stdlib func", v: http.NewRequest, want: "skipped"},
		{name: "stdlib method value", v: http.DefaultClient.Do, want: "skipped"},
		{name: "promoted stdlib method value", v: (&shapes.Transport{}).CloseIdleConnections, want: "skipped"},
		{name: "stdlib impl value", value: true, v: http.DefaultClient, want: "skipped"},
		{name: "stdlib transport value", value: true, v: http.DefaultTransport, want: "skipped"},
		{name: "mcp-go func", v: server.NewMCPServer, want: "skipped"},
		{name: "mcp-go method value", v: srv.HandleMessage, want: "skipped"},
		{name: "mcp-go OAuth value", value: true, v: &transport.OAuthHandler{}, want: "skipped"},
		{name: "nil func", v: (func())(nil), want: "skipped"},
		{name: "nil", value: true, v: nil, want: "skipped"},
		{name: "unnamed non-struct value", value: true, v: map[string]int{}, want: "skipped"},

		{name: "third-party func", v: blake3.New, want: "found"},
		{name: "third-party value", value: true, v: blake3.New(), want: "found"},
		{name: "third-party method value", v: blake3.New().Sum, want: "found"},

		{name: "interface method value", v: g.Get, want: ruleInterfaceMethod, kind: refusals.ErrOpaqueCode},
		{name: "reflect.MakeFunc", v: mk, want: ruleMakeFunc, kind: refusals.ErrOpaqueCode},
		{name: "reflect method value", v: reflect.ValueOf(c).MethodByName("Inc").Interface(), want: ruleReflectMethod, kind: refusals.ErrOpaqueCode},
		{name: "not a func", v: 42, want: ruleNotFunc, kind: refusals.ErrInvalid},
	}
}

func fingerprintCase(fp *Fingerprinter, c shapeCase) (Digest, error) {
	ptr := refusals.Pointer("cases", c.name)
	if c.value {
		return fp.Value(ptr, c.v)
	}
	return fp.Func(ptr, c.v)
}

// TestShapes runs every shape and checks it is found, skipped or refused
// as it should be, that a found digest is the digest of the right source
// node, that it is stable (again, from a fresh Fingerprinter, and against
// the golden file), and that distinct code gets distinct digests.
func TestShapes(t *testing.T) {
	cases := shapeCases()
	fp, fresh := New(nil), New(nil)
	got := map[string]Digest{}
	var golden strings.Builder
	for _, c := range cases {
		d, err := fingerprintCase(fp, c)
		switch c.want {
		case "found":
			if err != nil || d.IsZero() {
				t.Errorf("%s: got %v, %v; want a digest", c.name, d, err)
			}
			fmt.Fprintf(&golden, "%s\t%s\n", c.name, d)
		case "skipped":
			if err != nil || !d.IsZero() {
				t.Errorf("%s: got %v, %v; want skipped (zero digest, no error)", c.name, d, err)
			}
			fmt.Fprintf(&golden, "%s\tskipped\n", c.name)
		default:
			var r *refusals.Error
			if !errors.As(err, &r) || r.Rule != c.want || !errors.Is(err, c.kind) || !d.IsZero() {
				t.Errorf("%s: got %v, %v; want refusal %s (%v)", c.name, d, err, c.want, c.kind)
				break
			}
			if r.Pointer != refusals.Pointer("cases", c.name) || r.Subject == "" || r.Fix == "" {
				t.Errorf("%s: refusal %+v lacks pointer, subject or fix", c.name, r)
			}
			if c.kind != refusals.ErrInvalid && !errors.Is(err, refusals.ErrCannotRecord) {
				t.Errorf("%s: %v is not of the cannot-be-recorded family", c.name, err)
			}
			fmt.Fprintf(&golden, "%s\trefused %s\n", c.name, c.want)
		}
		again, err2 := fingerprintCase(fp, c)
		other, err3 := fingerprintCase(fresh, c)
		if again != d || other != d || (err == nil) != (err2 == nil) || (err == nil) != (err3 == nil) {
			t.Errorf("%s: unstable: %v, again %v, fresh %v", c.name, d, again, other)
		}
		got[c.name] = d
	}

	// Found digests are of the right node.
	src, err := os.ReadFile(filepath.Join("internal", "shapes", "shapes.go"))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := indexFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.node == "" {
			continue
		}
		if !strings.Contains(string(src), c.node) {
			t.Fatalf("%s: node text not in shapes.go", c.name)
		}
		material, err := appendTokens(nil, []byte(c.node), idx.imports)
		if err != nil {
			t.Fatal(err)
		}
		if want := derive(ctxFunc, material); got[c.name] != want {
			t.Errorf("%s: digest %v is not that of its node %q (%v)", c.name, got[c.name], c.node, want)
		}
	}

	// Same code, same digest; different code, different digests.
	byDigest := map[Digest]string{}
	for _, c := range cases {
		d := got[c.name]
		if c.same != "" {
			if d != got[c.same] {
				t.Errorf("%s: %v, want the digest of %q, %v", c.name, d, c.same, got[c.same])
			}
			continue
		}
		if d.IsZero() {
			continue
		}
		if prev, ok := byDigest[d]; ok {
			t.Errorf("%s and %s share digest %v", prev, c.name, d)
		}
		byDigest[d] = c.name
	}

	checkGolden(t, filepath.Join("testdata", "shapes.golden"), golden.String())
}

// TestValueRecords checks what a value's digest is made of.
func TestValueRecords(t *testing.T) {
	fp := New(nil)
	typ := func(v any) Digest {
		t.Helper()
		o := fp.typeOutcome(reflect.TypeOf(v))
		if len(o.refs) > 0 || o.d.IsZero() {
			t.Fatalf("type of %T: %+v", v, o)
		}
		return o.d
	}
	value := func(v any) Digest {
		t.Helper()
		d, err := fp.Value("", v)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	fn := func(v any) Digest {
		t.Helper()
		d, err := fp.Func("", v)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}

	// A type alone is its own record; pointers make no difference.
	if got, want := value(&shapes.AuthRT{}), typ(shapes.AuthRT{}); got != want {
		t.Errorf("Value(&AuthRT{}) = %v, want the type's record %v", got, want)
	}
	if value(shapes.AuthRT{}) != value(&shapes.AuthRT{}) {
		t.Error("Value(AuthRT{}) != Value(&AuthRT{})")
	}
	// An embedded stdlib type adds nothing; an embedded mcp-go type neither.
	if got, want := value(&shapes.Transport{}), typ(shapes.Transport{}); got != want {
		t.Errorf("Value(&Transport{}) = %v, want only its own record %v", got, want)
	}
	if got, want := value(&wrappedOAuth{}), typ(wrappedOAuth{}); got != want {
		t.Errorf("Value(&wrappedOAuth{}) = %v, want only its own record %v", got, want)
	}
	// Embedded user types follow, depth first in field order.
	want := combineDigests(ctxValue, []Digest{typ(shapes.Outer{}), typ(shapes.Inner{}), typ(shapes.Counter{})})
	if got := value(shapes.Outer{}); got != want {
		t.Errorf("Value(Outer{}) = %v, want Outer, Inner, Counter: %v", got, want)
	}
	// A user's named func type: the type, then the func.
	want = combineDigests(ctxValue, []Digest{typ(shapes.HandlerFunc(nil)), fn(shapes.Upper)})
	if got := value(shapes.HandlerFunc(shapes.Upper)); got != want {
		t.Errorf("Value(HandlerFunc(Upper)) = %v, want type then func %v", got, want)
	}
	if value(shapes.Upper) != fn(shapes.Upper) {
		t.Error("Value of a plain func differs from Func")
	}
	// A dependency's named func type: its module record, then the func.
	want = combineDigests(ctxValue, []Digest{
		moduleDigest("github.com/santhosh-tekuri/jsonschema/v6", "v6.0.3", "type github.com/santhosh-tekuri/jsonschema/v6.RegexpEngine"),
		fn(regexpEngine),
	})
	if got := value(jsonschema.RegexpEngine(regexpEngine)); got != want {
		t.Errorf("Value(jsonschema.RegexpEngine(fn)) = %v, want the type's module record then the func %v", got, want)
	}
	// A standard library or mcp-go func type adds nothing.
	if value(http.HandlerFunc(serveNothing)) != fn(serveNothing) {
		t.Error("Value(http.HandlerFunc(fn)) differs from Func(fn)")
	}
	// The unexported method is in the type's record: the record is the
	// declaration plus every method, by name.
	x, err := indexFile(mustRead(t, filepath.Join("internal", "shapes", "shapes.go")))
	if err != nil {
		t.Fatal(err)
	}
	var material []byte
	specDigest, _ := x.digest(ctxTypeSpec, x.types["AuthRT"].span)
	material = append(material, specDigest[:]...)
	for _, key := range []string{"(*AuthRT).RoundTrip", "(*AuthRT).token"} {
		d, _ := x.digest(ctxFunc, x.funcs[key].span)
		name := key[strings.LastIndexByte(key, '.')+1:]
		material = appendString(material, name)
		material = append(material, d[:]...)
	}
	if got, want := typ(shapes.AuthRT{}), derive(ctxType, material); got != want {
		t.Errorf("AuthRT record = %v, want declaration + RoundTrip + token = %v", got, want)
	}

	// Third-party code is identified by module, version and location.
	loc, _ := locate(reflect.ValueOf(blake3.New).Pointer())
	rel := loc.file[strings.LastIndex(loc.file, "blake3@v0.2.4/")+len("blake3@v0.2.4/"):]
	if got, want := fn(blake3.New), moduleDigest("github.com/zeebo/blake3", "v0.2.4", fmt.Sprintf("func %s:%d", rel, loc.startLine)); got != want {
		t.Errorf("Func(blake3.New) = %v, want module identity %v", got, want)
	}
	if got, want := value(blake3.New()), moduleDigest("github.com/zeebo/blake3", "v0.2.4", "type github.com/zeebo/blake3.Hasher"); got != want {
		t.Errorf("Value(blake3.New()) = %v, want module identity %v", got, want)
	}
}

// TestLocalTypeShadowing checks a type declared inside a func with the
// name of a package-level type: edits to either change the digest of a
// value of the other's name when the binary cannot tell them apart, and a
// package-level type whose own methods the binary shows is only itself.
func TestLocalTypeShadowing(t *testing.T) {
	loc, ok := locate(reflect.ValueOf(shapes.TopLevel).Pointer())
	if !ok {
		t.Fatal("cannot locate shapes.TopLevel")
	}
	dir := loc.file[:strings.LastIndexByte(loc.file, '/')]
	src := string(mustRead(t, filepath.Join("internal", "shapes", "shapes.go")))
	pkg := "github.com/guardian-agent/guardian-go/fingerprint/internal/shapes"
	digests := func(src string) (shadow, shadowLocal, named, namedLocal Digest) {
		t.Helper()
		fp := New(&Options{Sources: []Source{{fsys: fstest.MapFS{"shapes.go": {Data: []byte(src)}}, dir: dir, pkg: pkg}}})
		var ds [4]Digest
		for i, v := range []any{shapes.Shadow{}, shapes.ShadowLocal(), shapes.Named{}, shapes.NamedLocal()} {
			d, err := fp.Value("/v", v)
			if err != nil || d.IsZero() {
				t.Fatalf("Value(%T #%d) = %v, %v", v, i, d, err)
			}
			ds[i] = d
		}
		return ds[0], ds[1], ds[2], ds[3]
	}
	edit := func(old, new string) string {
		t.Helper()
		if !strings.Contains(src, old) {
			t.Fatalf("%q not in shapes.go", old)
		}
		return strings.Replace(src, old, new, 1)
	}
	s0, sl0, n0, nl0 := digests(src)
	if s0 != sl0 {
		t.Errorf("Shadow and the local Shadow: %v and %v, want one digest covering both", s0, sl0)
	}
	s1, sl1, _, _ := digests(edit("type Shadow struct{ C float64 }", "type Shadow struct{ C int }"))
	if sl1 == sl0 || s1 == s0 {
		t.Errorf("editing the local Shadow left its value's digest as it was: %v", sl1)
	}
	s2, sl2, _, _ := digests(edit("type Shadow struct{ B string }", "type Shadow struct{ B int }"))
	if s2 == s0 || sl2 == sl0 {
		t.Errorf("editing the package-level Shadow left its value's digest as it was: %v", s2)
	}
	_, _, n3, nl3 := digests(edit("type Named struct{ C float64 }", "type Named struct{ C int }"))
	if n3 != n0 {
		t.Errorf("editing the local Named changed the package-level Named, whose method the binary shows: %v, was %v", n3, n0)
	}
	if nl3 == nl0 {
		t.Errorf("editing the local Named left its value's digest as it was: %v", nl3)
	}
}

// regexpEngine is a user's func of a dependency's named func type.
func regexpEngine(s string) (jsonschema.Regexp, error) { return nil, errors.New("no regexp: " + s) }

// serveNothing is a user's func of a standard library func type.
func serveNothing(w http.ResponseWriter, r *http.Request) {}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestConcurrent fingerprints every shape from many goroutines at once,
// with one Fingerprinter: the results are those of a sequential run, and
// each source file is read and parsed once.
func TestConcurrent(t *testing.T) {
	cases := shapeCases()
	want := map[string]Digest{}
	seq := New(nil)
	for _, c := range cases {
		want[c.name], _ = fingerprintCase(seq, c)
	}
	fp := New(nil)
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := range cases {
				c := cases[(i+g)%len(cases)]
				if d, _ := fingerprintCase(fp, c); d != want[c.name] {
					t.Errorf("%s: %v concurrently, %v sequentially", c.name, d, want[c.name])
				}
			}
		}(g)
	}
	wg.Wait()

	// The cases read the files of two packages: this one (wrappedOAuth and
	// userHandler are in its test files) and internal/shapes. Each file is
	// read and parsed once, under one key.
	var wantFiles []string
	for _, pattern := range []string{"*.go", filepath.Join("internal", "shapes", "*.go")} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			abs, err := filepath.Abs(p)
			if err != nil {
				t.Fatal(err)
			}
			wantFiles = append(wantFiles, filepath.ToSlash(abs))
		}
	}
	fp.files.mu.Lock()
	var read []string
	for p := range fp.files.m {
		read = append(read, filepath.ToSlash(filepath.Clean(p.name)))
	}
	fp.files.mu.Unlock()
	slices.Sort(wantFiles)
	slices.Sort(read)
	if n := fp.parses.Load(); n != int64(len(wantFiles)) {
		t.Errorf("%d parses, want %d: each of the %d source files once", n, len(wantFiles), len(wantFiles))
	}
	if !slices.Equal(read, wantFiles) {
		t.Errorf("files read:\n%s\nwant:\n%s", strings.Join(read, "\n"), strings.Join(wantFiles, "\n"))
	}
}

// TestSources checks source supplied as an fs.FS: the same digests as on
// disk, and the refusals when it is missing or does not match the build.
func TestSources(t *testing.T) {
	loc, ok := locate(reflect.ValueOf(shapes.TopLevel).Pointer())
	if !ok {
		t.Fatal("cannot locate shapes.TopLevel")
	}
	dir := loc.file[:strings.LastIndexByte(loc.file, '/')]
	src := mustRead(t, filepath.Join("internal", "shapes", "shapes.go"))
	pkg := "github.com/guardian-agent/guardian-go/fingerprint/internal/shapes"
	withFS := func(files fstest.MapFS) *Fingerprinter {
		return New(&Options{Sources: []Source{{fsys: files, dir: dir, pkg: pkg}}})
	}
	onDisk := New(nil)

	same := withFS(fstest.MapFS{"shapes.go": {Data: src}})
	for _, c := range shapeCases() {
		want, werr := fingerprintCase(onDisk, c)
		got, gerr := fingerprintCase(same, c)
		if got != want || (werr == nil) != (gerr == nil) {
			t.Errorf("%s: %v, %v from an fs.FS; %v, %v from disk", c.name, got, gerr, want, werr)
		}
	}

	missing := withFS(fstest.MapFS{"other.go": {Data: []byte("package shapes\n")}})
	_, err := missing.Func("/f", shapes.TopLevel)
	if !errors.Is(err, refusals.ErrUnreadableSource) {
		t.Errorf("file missing from the FS: %v, want ErrUnreadableSource", err)
	}
	_, err = missing.Value("/v", &shapes.AuthRT{})
	if !errors.Is(err, refusals.ErrStaleSource) {
		t.Errorf("type missing from the FS's package: %v, want ErrStaleSource", err)
	}

	// Moved down a line: the declaration is not where the binary has it.
	shifted := withFS(fstest.MapFS{"shapes.go": {Data: []byte(strings.Replace(string(src), "// TopLevel is", "\n// TopLevel is", 1))}})
	_, err = shifted.Func("/f", shapes.TopLevel)
	var r *refusals.Error
	if !errors.As(err, &r) || !errors.Is(err, refusals.ErrStaleSource) || r.Rule != ruleStale || !strings.Contains(r.Subject, "shapes.TopLevel") {
		t.Errorf("shifted declaration: %v, want a stale-source refusal naming shapes.TopLevel", err)
	}
	// Gone: the func was deleted after the build.
	gone := withFS(fstest.MapFS{"shapes.go": {Data: []byte(strings.Replace(string(src), "func TopLevel(", "func TopLevel2(", 1))}})
	if _, err := gone.Func("/f", shapes.TopLevel); !errors.Is(err, refusals.ErrStaleSource) {
		t.Errorf("deleted declaration: %v, want ErrStaleSource", err)
	}
	// Not Go any more.
	broken := withFS(fstest.MapFS{"shapes.go": {Data: []byte("package shapes\nfunc {")}})
	if _, err := broken.Func("/f", shapes.Closure(1)); !errors.Is(err, refusals.ErrStaleSource) {
		t.Errorf("unparsable file: %v, want ErrStaleSource", err)
	}
	// A test-only method on a production type does not change its digest.
	withTest := withFS(fstest.MapFS{
		"shapes.go":      {Data: src},
		"shapes_test.go": {Data: []byte("package shapes\n\nfunc (a *AuthRT) testOnly() {}\n")},
	})
	d1, err1 := withTest.Value("/v", &shapes.AuthRT{})
	d2, err2 := onDisk.Value("/v", &shapes.AuthRT{})
	if err1 != nil || err2 != nil || d1 != d2 {
		t.Errorf("test-only method changed the digest: %v, %v vs %v, %v", d1, err1, d2, err2)
	}
	// A file the build's constraints exclude is not read for methods.
	withTagged := withFS(fstest.MapFS{
		"shapes.go":                   {Data: src},
		"shapes_other.go":             {Data: []byte("//go:build never\n\npackage shapes\n\nfunc (a *AuthRT) other() {}\n")},
		"shapes_" + otherOS() + ".go": {Data: []byte("package shapes\n\nfunc (a *AuthRT) onOtherOS() {}\n")},
	})
	if d, err := withTagged.Value("/v", &shapes.AuthRT{}); err != nil || d != d2 {
		t.Errorf("excluded files changed the digest: %v, %v vs %v", d, err, d2)
	}
	// A file the build's constraints include is.
	withMore := withFS(fstest.MapFS{
		"shapes.go":                      {Data: src},
		"shapes_" + runtime.GOOS + ".go": {Data: []byte("package shapes\n\nfunc (a *AuthRT) more() {}\n")},
	})
	if d, err := withMore.Value("/v", &shapes.AuthRT{}); err != nil || d == d2 {
		t.Errorf("a method in an included file left the digest as it was: %v, %v", d, err)
	}
	// A production type's fingerprint reads none of its package's test
	// files: one that does not parse refuses nothing, and is not read.
	withBrokenTest := withFS(fstest.MapFS{
		"shapes.go":      {Data: src},
		"shapes_test.go": {Data: []byte("package shapes\n\nfunc {")},
	})
	if d, err := withBrokenTest.Value("/v", &shapes.AuthRT{}); err != nil || d != d2 {
		t.Errorf("with a test file that does not parse: %v, %v; want %v", d, err, d2)
	}
	if n := withBrokenTest.parses.Load(); n != 1 {
		t.Errorf("%d files read, want 1: shapes.go alone", n)
	}
}

func otherOS() string {
	if runtime.GOOS == "windows" {
		return "linux"
	}
	return "windows"
}

// TestEmbeddedSourceAnchor checks that EmbeddedSource anchors at the
// calling file's directory and package.
func TestEmbeddedSourceAnchor(t *testing.T) {
	s := EmbeddedSource(fstest.MapFS{})
	_, file, _, _ := runtime.Caller(0)
	if want := filepath.ToSlash(filepath.Dir(file)); s.dir != want {
		t.Errorf("dir = %q, want %q", s.dir, want)
	}
	if want := "github.com/guardian-agent/guardian-go/fingerprint"; s.pkg != want {
		t.Errorf("pkg = %q, want %q", s.pkg, want)
	}
	if z := EmbeddedSource(nil); z.fsys != nil || z.dir != "" {
		t.Errorf("EmbeddedSource(nil) = %+v, want the zero Source", z)
	}
}

// checkGolden compares got with the golden file, or rewrites it under
// -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			g, w := "", ""
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Errorf("%s line %d:\n got %s\nwant %s", path, i+1, g, w)
			}
		}
	}
}

// TestSkipModules checks that Options.SkipModules skips a module's code as
// mcp-go's is, funcs and types alike, and leaves other code alone.
func TestSkipModules(t *testing.T) {
	fp := New(&Options{SkipModules: []string{"github.com/zeebo/blake3"}})
	if d, err := fp.Func("/f", blake3.New); err != nil || !d.IsZero() {
		t.Errorf("Func(blake3.New) = %v, %v; want skipped", d, err)
	}
	if d, err := fp.Value("/v", blake3.New()); err != nil || !d.IsZero() {
		t.Errorf("Value(blake3.New()) = %v, %v; want skipped", d, err)
	}
	if d, err := fp.Func("/f", shapes.TopLevel); err != nil || d.IsZero() {
		t.Errorf("Func(shapes.TopLevel) = %v, %v; want a digest", d, err)
	}
	// A prefix of a module path is not the module.
	fp = New(&Options{SkipModules: []string{"github.com/zeebo/blake"}})
	if d, err := fp.Func("/f", blake3.New); err != nil || d.IsZero() {
		t.Errorf("Func(blake3.New) with a prefix skipped = %v, %v; want a digest", d, err)
	}
}

// TestMethodValuesWithoutSource fingerprints method values of the standard
// library, mcp-go and a dependency with no source for them on the machine
// (as under -trimpath with no GOROOT, or a binary run away from the module
// cache): a pointer-receiver method value is told by its package alone, a
// value-receiver one cannot be told from a method value through an
// interface and is refused with a fix that says so.
func TestMethodValuesWithoutSource(t *testing.T) {
	withSource := New(nil)
	bare := New(nil)
	e := newEnv(&Options{})
	e.goroot, e.modCache = "", ""
	bare.env = func() *env { return e }

	srv := server.NewMCPServer("s", "1")
	want := moduleDigest("github.com/zeebo/blake3", "v0.2.4", "method github.com/zeebo/blake3.(*Hasher).Sum")
	for _, c := range []struct {
		name string
		fn   any
		want Digest
	}{
		{"stdlib pointer method value", http.DefaultClient.Do, Digest{}},
		{"promoted stdlib pointer method value", (&shapes.Transport{}).CloseIdleConnections, Digest{}},
		{"mcp-go pointer method value", srv.HandleMessage, Digest{}},
		{"dependency pointer method value", blake3.New().Sum, want},
	} {
		d, err := bare.Func("/f", c.fn)
		if err != nil || d != c.want {
			t.Errorf("%s without source: %v, %v; want %v", c.name, d, err, c.want)
		}
		if ds, err := withSource.Func("/f", c.fn); err != nil || ds != d {
			t.Errorf("%s with source: %v, %v; without: %v", c.name, ds, err, d)
		}
	}

	// A value receiver: time.Time.String-fm, which only the source tells
	// from fmt.Stringer.String-fm.
	_, err := bare.Func("/f", time.Now().String)
	var r *refusals.Error
	if !errors.As(err, &r) || r.Rule != ruleInterfaceMethod || r.Fix != fixForeignSource || !strings.Contains(r.Detail, "package time") {
		t.Errorf("value-receiver stdlib method value without source: %v; want an interface-method refusal whose fix is to supply the source", err)
	}
	if withSource.env().goroot != "" {
		if d, err := withSource.Func("/f", time.Now().String); err != nil || !d.IsZero() {
			t.Errorf("value-receiver stdlib method value with source: %v, %v; want skipped", d, err)
		}
	}
}
