package fingerprint

import (
	"errors"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/refusals"
)

func TestParseSymbol(t *testing.T) {
	tests := []struct {
		in   string
		want symbol
		ok   bool
	}{
		{"example.com/app.F", symbol{pkg: "example.com/app", name: "F"}, true},
		{"example.com/app.Map[...]", symbol{pkg: "example.com/app", name: "Map"}, true},
		{"example.com/app.(*T).M", symbol{pkg: "example.com/app", recv: "T", ptr: true, name: "M"}, true},
		{"example.com/app.(*Box[...]).Get-fm", symbol{pkg: "example.com/app", recv: "Box", ptr: true, name: "Get", methodValue: true}, true},
		{"example.com/app.T.M-fm", symbol{pkg: "example.com/app", recv: "T", name: "M", methodValue: true}, true},
		{"example.com/app.F.func2.1", symbol{pkg: "example.com/app", closure: true}, true},
		{"main.main.F.(*T).M.func3", symbol{pkg: "main", closure: true}, true},
		{"example.com/app.init.func1", symbol{pkg: "example.com/app", closure: true}, true},
		{"example.com/app.init.0", symbol{pkg: "example.com/app", name: "init"}, true},
		{"example.com/app.init.0.func2", symbol{pkg: "example.com/app", closure: true}, true},
		{"example.com/app.glob..func1", symbol{pkg: "example.com/app", closure: true}, true},
		{"gopkg.in/yaml%2ev3.Marshal", symbol{pkg: "gopkg.in/yaml.v3", name: "Marshal"}, true},
		{"main.main", symbol{pkg: "main", name: "main"}, true},
		{"reflect.makeFuncStub", symbol{pkg: "reflect", name: "makeFuncStub"}, true},
		{"nodot", symbol{}, false},
		{"a/b.", symbol{}, false},
		{"a/b%zz.F", symbol{}, false},
		{"a.(T).M", symbol{}, false},
		{"0.(*).A0", symbol{}, false},
		{"a..M", symbol{}, false},
		{"a.x.y.z", symbol{}, false},
	}
	for _, tt := range tests {
		got, ok := parseSymbol(tt.in)
		if ok != tt.ok || got != tt.want {
			t.Errorf("parseSymbol(%q) = %+v, %v; want %+v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func FuzzParseSymbol(f *testing.F) {
	for _, s := range []string{"example.com/app.(*Box[...]).Get-fm", "main.main.F.func2.1", "gopkg.in/yaml%2ev3.Marshal", "a.T.M"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sym, ok := parseSymbol(s)
		if !ok {
			return
		}
		if sym.pkg == "" || !sym.closure && !isIdent(sym.name) || sym.ptr && sym.recv == "" {
			t.Fatalf("parseSymbol(%q) = %+v: inconsistent", s, sym)
		}
		if !sym.closure && strings.Contains(sym.declKey(), "[") {
			t.Fatalf("declKey %q keeps type arguments", sym.declKey())
		}
	})
}

func TestAssumedName(t *testing.T) {
	for in, want := range map[string]string{
		"strings":                                  "strings",
		"math/rand/v2":                             "rand",
		"gopkg.in/yaml.v3":                         "yaml",
		"github.com/mark3labs/mcp-go/mcp":          "mcp",
		"github.com/foo/go-bar":                    "bar",
		"github.com/santhosh-tekuri/jsonschema/v6": "jsonschema",
		"v2": "v2",
		// goimports' rule is strconv.Atoi's: v1, v0, a sign and leading
		// zeros count, so an unnamed k8s.io/api/core/v1 is assumed "core"
		// (goimports names it v1 explicitly).
		"k8s.io/api/core/v1":  "core",
		"example.com/x/v0":    "x",
		"example.com/x/v+1":   "x",
		"example.com/x/v-2":   "x",
		"example.com/x/v007":  "x",
		"example.com/x/v1_0":  "v1_0",
		"example.com/x/v":     "v",
		"example.com/x/v0x10": "v0x10",
		// Exactly a signed 64-bit integer, on every GOARCH (Atoi's int is
		// 32 bits on 386).
		"example.com/x/v3000000000":          "x",
		"example.com/x/v9223372036854775807": "x",
		"example.com/x/v9223372036854775808": "v9223372036854775808",
	} {
		if got := assumedName(in); got != want {
			t.Errorf("assumedName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestModulePath(t *testing.T) {
	for in, want := range map[string]string{
		"module example.com/app\n\ngo 1.26\n":    "example.com/app",
		"// comment\nmodule \"example.com/q\"\n": "example.com/q",
		"module m // trailing\n":                 "m",
		"modules x\n":                            "",
		"go 1.26\n":                              "",
	} {
		if got := modulePath([]byte(in)); got != want {
			t.Errorf("modulePath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseGoMod(t *testing.T) {
	reqs, reps := parseGoMod([]byte(`module m

require github.com/a/b v1.2.3
require (
	github.com/c/d v0.1.0 // indirect
	"github.com/e/f" v2.0.0
)
replace github.com/a/b => ../b
replace (
	github.com/c/d v0.1.0 => github.com/x/d v0.1.1
)
`))
	wantReqs := []modVersion{{"github.com/a/b", "v1.2.3"}, {"github.com/c/d", "v0.1.0"}, {"github.com/e/f", "v2.0.0"}}
	wantReps := []modReplace{
		{old: modVersion{"github.com/a/b", ""}, new: modVersion{"../b", ""}},
		{old: modVersion{"github.com/c/d", "v0.1.0"}, new: modVersion{"github.com/x/d", "v0.1.1"}},
	}
	if len(reqs) != len(wantReqs) || len(reps) != len(wantReps) {
		t.Fatalf("parseGoMod = %v, %v; want %v, %v", reqs, reps, wantReqs, wantReps)
	}
	for i := range reqs {
		if reqs[i] != wantReqs[i] {
			t.Errorf("require %d = %v, want %v", i, reqs[i], wantReqs[i])
		}
	}
	for i := range reps {
		if reps[i] != wantReps[i] {
			t.Errorf("replace %d = %v, want %v", i, reps[i], wantReps[i])
		}
	}
}

func FuzzParseGoMod(f *testing.F) {
	f.Add([]byte("module m\nrequire (\n a v1\n)\nreplace a v1 => ../a\n"))
	f.Add([]byte("replace => x\nrequire (\nrequire\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		reqs, reps := parseGoMod(data)
		for _, r := range reqs {
			if r.path == "" && r.version == "" {
				t.Fatalf("empty require from %q", data)
			}
		}
		for _, r := range reps {
			if r.old.path == "" || r.new.path == "" || r.old.path == "=>" || r.new.path == "=>" {
				t.Fatalf("bad replace %+v from %q", r, data)
			}
		}
		_ = modulePath(data)
	})
}

func TestEscapeModule(t *testing.T) {
	for _, s := range []string{"github.com/BurntSushi/toml", "v1.0.0-RC1", "plain"} {
		e := escapeModule(s)
		if strings.ContainsAny(e, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			t.Errorf("escapeModule(%q) = %q keeps upper case", s, e)
		}
		if u, ok := unescapeModule(e); !ok || u != s {
			t.Errorf("unescapeModule(%q) = %q, %v; want %q", e, u, ok, s)
		}
	}
	if got := escapeModule("github.com/BurntSushi/toml"); got != "github.com/!burnt!sushi/toml" {
		t.Errorf("escapeModule = %q", got)
	}
	for _, bad := range []string{"A", "x!", "!1"} {
		if _, ok := unescapeModule(bad); ok {
			t.Errorf("unescapeModule(%q) ok, want not", bad)
		}
	}
}

// TestClassifyFile checks classification of recorded paths against a
// build's module list, in absolute and -trimpath forms.
func TestClassifyFile(t *testing.T) {
	e := &env{
		stdRoot: "/usr/local/go/src/",
		skip:    []string{mcpGoModule},
	}
	e.main = &module{path: "example.com/app", srcPath: "example.com/app", main: true}
	e.modules = []*module{
		e.main,
		{path: "golang.org/x/oauth2", srcPath: "golang.org/x/oauth2", version: "v0.38.0"},
		{path: "github.com/BurntSushi/toml", srcPath: "github.com/BurntSushi/toml", version: "v1.3.0"},
		{path: mcpGoModule, srcPath: mcpGoModule, version: "v1.2.1", skip: true},
		{path: "example.com/lib", srcPath: "example.com/lib", req: "v0.0.0", dir: "../lib"},
	}
	tests := []struct {
		path string
		want class
		rel  string
	}{
		{"/usr/local/go/src/net/http/client.go", classStd, ""},
		{"/home/u/go/pkg/mod/golang.org/x/oauth2@v0.38.0/oauth2.go", classDep, "oauth2.go"},
		{"golang.org/x/oauth2@v0.38.0/internal/token.go", classDep, "internal/token.go"},
		{"/home/u/go/pkg/mod/github.com/!burnt!sushi/toml@v1.3.0/decode.go", classDep, "decode.go"},
		{"/home/u/go/pkg/mod/github.com/mark3labs/mcp-go@v1.2.1/server/server.go", classSkip, ""},
		{"github.com/mark3labs/mcp-go@v1.2.1/mcp/tools.go", classSkip, ""},
		{"/src/app/vendor/golang.org/x/oauth2/oauth2.go", classDep, "oauth2.go"},
		{"/src/app/handlers/h.go", classUser, ""},
		{"example.com/app/handlers/h.go", classUser, "handlers/h.go"},
		{"example.com/lib/x.go", classUser, "x.go"},
		{"example.com/lib@v0.0.0/x.go", classUser, "x.go"},
		{"example.com/other@v1.0.0/x.go", classDep, "x.go"},
		{"net/http/client.go", classStd, ""},
		{"./main.go", classUser, ""},
		{"github.com/unlisted/x/y.go", classUnknown, ""},
	}
	for _, tt := range tests {
		got := e.classifyFile(tt.path)
		if got.class != tt.want || got.rel != tt.rel {
			t.Errorf("classifyFile(%q) = %v %q, want %v %q", tt.path, got.class, got.rel, tt.want, tt.rel)
		}
	}
	for p, want := range map[string]class{
		"net/http":                                     classStd,
		"example.com/app/handlers":                     classUser,
		"example.com/app/handlers_test":                classUser,
		"golang.org/x/oauth2/clientcredentials":        classDep,
		"github.com/mark3labs/mcp-go/client/transport": classSkip,
		"main": classUser,
	} {
		if got := e.classifyPackage(p).class; got != want {
			t.Errorf("classifyPackage(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestDigestText(t *testing.T) {
	var d Digest
	for i := range d {
		d[i] = byte(i * 7)
	}
	s := d.String()
	if !strings.HasPrefix(s, "blake3:") || len(s) != 71 || strings.ToLower(s) != s {
		t.Fatalf("String() = %q", s)
	}
	back, err := ParseDigest(s)
	if err != nil || back != d {
		t.Fatalf("ParseDigest(%q) = %v, %v", s, back, err)
	}
	for _, bad := range []string{"", "blake3:", "sha256:" + s[7:], strings.ToUpper(s), s + "0", s[:70], "blake3:" + strings.Repeat("g", 64)} {
		if _, err := ParseDigest(bad); !errors.Is(err, refusals.ErrInvalid) || len(bad) > 10 && strings.Contains(err.Error(), bad) {
			t.Errorf("ParseDigest(%q) = %v, want ErrInvalid not quoting the input", bad, err)
		}
	}
	if !(Digest{}).IsZero() || d.IsZero() {
		t.Error("IsZero wrong")
	}
}

func FuzzParseDigest(f *testing.F) {
	f.Add("blake3:" + strings.Repeat("ab", 32))
	f.Add("blake3:")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDigest(s)
		if err != nil {
			if !errors.Is(err, refusals.ErrInvalid) {
				t.Fatalf("error %v is not ErrInvalid", err)
			}
			return
		}
		if d.String() != s {
			t.Fatalf("ParseDigest(%q).String() = %q", s, d.String())
		}
	})
}

func TestCombine(t *testing.T) {
	a, b := derive(ctxFunc, []byte("a")), derive(ctxFunc, []byte("b"))
	if !Combine().IsZero() || !Combine(Part{"auth", Digest{}}).IsZero() {
		t.Error("Combine of nothing is not zero")
	}
	base := Combine(Part{"interceptor", a}, Part{"auth", b})
	for name, other := range map[string]Digest{
		"roles swapped":  Combine(Part{"auth", a}, Part{"interceptor", b}),
		"parts reversed": Combine(Part{"auth", b}, Part{"interceptor", a}),
		"one part":       Combine(Part{"interceptor", a}),
		"role renamed":   Combine(Part{"interceptors", a}, Part{"auth", b}),
	} {
		if other == base {
			t.Errorf("%s: same digest", name)
		}
	}
	if Combine(Part{"interceptor", a}, Part{"httpClient", Digest{}}, Part{"auth", b}) != base {
		t.Error("a zero part changed the digest")
	}
	if Combine(Part{"interceptor", a}) == a {
		t.Error("one part's combination is the part itself")
	}
}
