package fingerprint

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"go/format"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// declDigest hashes the declaration of F in a file's source, as Func would.
func declDigest(t *testing.T, src string) Digest {
	t.Helper()
	x, err := indexFile([]byte(src))
	if err != nil {
		t.Fatalf("indexFile: %v\n%s", err, src)
	}
	d, ok := x.funcs["F"]
	if !ok {
		t.Fatalf("no F in\n%s", src)
	}
	dg, err := x.digest(ctxFunc, d.span)
	if err != nil {
		t.Fatal(err)
	}
	return dg
}

const baseFile = `package p

import (
	"math/rand"
	"strings"
)

// F is the func under test.
func F(xs []string, n int) string {
	var b strings.Builder
	for i, x := range xs {
		if i > n {
			break
		}
		b.WriteString(x + "\n")
	}
	_ = rand.Intn(3)
	return b.String()
}
`

// TestStabilityEdits edits a file's source and checks which edits change
// F's digest: comments, layout and quoting do not; tokens do.
func TestStabilityEdits(t *testing.T) {
	base := declDigest(t, baseFile)
	edits := []struct {
		name    string
		src     string
		changes bool
	}{
		{"doc comment changed", strings.Replace(baseFile, "// F is the func under test.", "// F does things.\n// More words.", 1), false},
		{"inner comments", strings.Replace(baseFile, "\t\tif i > n {", "\t\t// check /* nested */\n\t\tif /* here */ i > n { // end", 1), false},
		{"blank lines", strings.Replace(baseFile, "\tvar b strings.Builder\n", "\n\n\tvar b strings.Builder\n\n", 1), false},
		{"code above", strings.Replace(baseFile, "// F is", "func G() {}\n\nvar v = 1\n\n// F is", 1), false},
		{"one line, explicit semicolons", strings.Replace(baseFile, "\t\tif i > n {\n\t\t\tbreak\n\t\t}\n", "\t\tif i > n { break };\n", 1), false},
		{"multi-line call with trailing comma", strings.Replace(baseFile, `b.WriteString(x + "\n")`, "b.WriteString(\n\t\t\tx+\"\\n\",\n\t\t)", 1), false},
		{"raw string", strings.Replace(baseFile, `"\n"`, "`\n`", 1), false},
		{"spaces for tabs", strings.ReplaceAll(baseFile, "\t", "    "), false},
		{"import alias renamed", strings.Replace(strings.Replace(baseFile, `"math/rand"`, `rr "math/rand"`, 1), "rand.Intn", "rr.Intn", 1), false},
		{"imports regrouped", strings.Replace(baseFile, "import (\n\t\"math/rand\"\n\t\"strings\"\n)", "import \"strings\"\nimport \"math/rand\"", 1), false},

		{"body changed", strings.Replace(baseFile, "i > n", "i >= n", 1), true},
		{"statements reordered", strings.Replace(baseFile, "\t_ = rand.Intn(3)\n\treturn b.String()", "\treturn b.String()\n\t_ = rand.Intn(3)", 1), true},
		{"signature changed", strings.Replace(baseFile, "n int) string", "n int64) string", 1), true},
		{"renamed", strings.Replace(strings.Replace(baseFile, "func F(", "func F2(", 1), "// F is", "func F() {}\n// F is", 1), true},
		{"string value changed", strings.Replace(baseFile, `"\n"`, `"\r\n"`, 1), true},
		{"same name, other import", strings.Replace(baseFile, `"math/rand"`, `"crypto/rand"`, 1), true},
	}
	for _, e := range edits {
		if e.name == "renamed" {
			// F is now an empty func; F2 is the old one.
			if declDigest(t, e.src) == base {
				t.Errorf("%s: digest unchanged", e.name)
			}
			continue
		}
		got := declDigest(t, e.src)
		if (got != base) != e.changes {
			t.Errorf("%s: digest changed = %v, want %v", e.name, got != base, e.changes)
		}
	}
}

func TestTokensNormalise(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"f(a, b,)", []string{"f", "(", "a", ",", "b", ")"}},
		{"x := []int{1,\n2,\n}\n", []string{"x", ":=", "[", "]", "int", "{", "1", ",", "2", "}"}},
		{"a; b;;", []string{"a", ";", "b"}},
		{"{ a\n}", []string{"{", "a", "}"}},
		{"m[k,]", []string{"m", "[", "k", "]"}},
		{"`raw\\n`", []string{`"raw\\n"`}},
		{`"é\x00"`, []string{`"\u00e9\x00"`}},
		{`'\x61' 'a' '\u00e9'`, []string{"'a'", "'a'", `'\u00e9'`}},
		{"x /* c */ + // d\n y", []string{"x", "+", "y"}},
		{"rand.Intn(s.rand.X)", []string{"import:math/rand", ".", "Intn", "(", "s", ".", "rand", ".", "X", ")"}},
		{"0x10 + 1_000", []string{"0x10", "+", "1_000"}},
	}
	for _, tt := range tests {
		m, err := appendTokens(nil, []byte(tt.src), map[string]string{"rand": "math/rand"})
		if err != nil {
			t.Errorf("appendTokens(%q): %v", tt.src, err)
			continue
		}
		if got := decodeTokens(t, m); strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("appendTokens(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
	for _, bad := range []string{"\"unterminated", "a \x00 b", "x := '"} {
		if _, err := appendTokens(nil, []byte(bad), nil); err == nil {
			t.Errorf("appendTokens(%q) = nil error, want a scan error", bad)
		}
	}
}

// decodeTokens splits material back into token texts.
func decodeTokens(t testing.TB, m []byte) []string {
	var out []string
	for len(m) > 0 {
		n, k := binary.Uvarint(m)
		if k <= 0 || uint64(len(m)-k) < n {
			t.Fatalf("bad material %q", m)
		}
		out = append(out, string(m[k:k+int(n)]))
		m = m[k+int(n):]
	}
	return out
}

// FuzzTokens checks the token normaliser on any input: it never panics,
// it is deterministic, and its output is a fixed point: the normalised
// tokens, written out again with comments and spaces between them, give
// the same stream.
func FuzzTokens(f *testing.F) {
	f.Add([]byte(baseFile))
	f.Add([]byte("func() int { return n + 1 }"))
	f.Add([]byte("f(a, b,); x := []int{1,\n2,\n}; `raw` 'a' '\\u00e9' \"s\\x00\""))
	f.Add([]byte("a ;; } , ] ; ) ,"))
	f.Fuzz(func(t *testing.T, src []byte) {
		m1, err := appendTokens(nil, src, nil)
		if err != nil {
			return
		}
		m2, _ := appendTokens(nil, src, nil)
		if !bytes.Equal(m1, m2) {
			t.Fatal("not deterministic")
		}
		// Import substitution only rewrites the names it is given.
		m4, err := appendTokens(nil, src, map[string]string{"rand": "math/rand"})
		if err != nil {
			t.Fatalf("with imports: %v, without: none", err)
		}
		if !bytes.Contains(src, []byte("rand")) && !bytes.Equal(m1, m4) {
			t.Fatal("an import map changed a stream that does not name the import")
		}
		toks := decodeTokens(t, m1)
		rewritten := "/* start */ " + strings.Join(toks, " /* c */ ")
		m3, err := appendTokens(nil, []byte(rewritten), nil)
		if err != nil {
			t.Fatalf("normalised tokens %q do not scan: %v", toks, err)
		}
		if !bytes.Equal(m1, m3) {
			t.Fatalf("not a fixed point:\n%q\n%q", toks, decodeTokens(t, m3))
		}
	})
}

// FuzzIndexFile checks the file indexer on any input: no panic, and every
// span it records lies inside the source.
func FuzzIndexFile(f *testing.F) {
	f.Add([]byte(baseFile))
	f.Add([]byte("package p\ntype T[P any] struct{ *T; x.Y }\nfunc (t *T[P]) M() { _ = func() {} }\nvar v = func() { type l int }\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		x, err := indexFile(src)
		if err != nil {
			return
		}
		check := func(s span) {
			if s.start < 0 || s.end > len(src) || s.start > s.end || s.line < 1 {
				t.Fatalf("span %+v outside source of %d bytes", s, len(src))
			}
		}
		for _, d := range x.funcs {
			check(d.span)
		}
		for _, ls := range x.lits {
			for _, s := range ls {
				check(s)
			}
		}
		for _, ts := range x.types {
			check(ts.span)
		}
		for _, ms := range x.methods {
			for _, m := range ms {
				check(m.span)
			}
		}
	})
}

// deformat rewrites Go source token by token with other layout: each
// token keeps its line (so automatic semicolons stay), indentation becomes
// a varying run of spaces, and tokens on a line are spaced one to three
// apart. Comments and literals are kept as written.
func deformat(t *testing.T, src []byte) []byte {
	t.Helper()
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, func(pos token.Position, msg string) { t.Fatalf("scan: %v: %s", pos, msg) }, scanner.ScanComments)
	var out bytes.Buffer
	line, n := 1, 0
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // automatic: the newline below makes it again
		}
		text := lit
		if text == "" {
			text = tok.String()
		}
		n++
		if l := file.Line(pos); l > line {
			out.WriteString(strings.Repeat("\n", l-line))
			out.WriteString(strings.Repeat(" ", n%5))
			line = l
		} else if out.Len() > 0 {
			out.WriteString(strings.Repeat(" ", 1+n%3))
		}
		out.WriteString(text)
		line += strings.Count(text, "\n") // raw strings, general comments
	}
	out.WriteString("\n")
	return out.Bytes()
}

// nodeDigests is every declaration's, type's and literal's digest in a
// file, by a key that does not depend on layout.
func nodeDigests(t *testing.T, src []byte) map[string]Digest {
	t.Helper()
	x, err := indexFile(src)
	if err != nil {
		t.Fatalf("indexFile: %v", err)
	}
	out := map[string]Digest{}
	add := func(key, context string, s span) {
		d, err := x.digest(context, s)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		out[key] = d
	}
	for k, f := range x.funcs {
		add("func "+k, ctxFunc, f.span)
	}
	for k, ty := range x.types {
		add("type "+k, ctxTypeSpec, ty.span)
	}
	for k, ls := range x.local {
		for i, l := range ls {
			add(fmt.Sprintf("local %s #%d", k, i), ctxTypeSpec, l)
		}
	}
	var lits []span
	for _, ls := range x.lits {
		lits = append(lits, ls...)
	}
	slices.SortFunc(lits, func(a, b span) int { return a.start - b.start })
	for i, l := range lits {
		add(fmt.Sprintf("literal #%d", i), ctxFunc, l)
	}
	return out
}

// TestGofmtStability de-formats real source (this package's files and the
// test fixtures), runs go/format.Source on the result, and checks that
// every declaration, type and literal has the same digest in the
// original, the de-formatted and the reformatted file.
func TestGofmtStability(t *testing.T) {
	var files []string
	for _, pattern := range []string{"*.go", "internal/shapes/*.go", "testdata/prog/*.go", "testdata/prog/shapes/*.go"} {
		m, err := filepath.Glob(filepath.FromSlash(pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d files", len(files))
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		ugly := deformat(t, src)
		if bytes.Equal(ugly, src) {
			t.Fatalf("%s: de-formatting changed nothing", name)
		}
		pretty, err := format.Source(ugly)
		if err != nil {
			t.Fatalf("%s: format.Source: %v\n%s", name, err, ugly)
		}
		want := nodeDigests(t, src)
		if len(want) == 0 {
			continue
		}
		for label, got := range map[string]map[string]Digest{"de-formatted": nodeDigests(t, ugly), "reformatted": nodeDigests(t, pretty)} {
			if len(got) != len(want) {
				t.Errorf("%s %s: %d nodes, want %d", name, label, len(got), len(want))
			}
			for k, d := range want {
				if got[k] != d {
					t.Errorf("%s %s: %s digest %v, want %v", name, label, k, got[k], d)
				}
			}
		}
	}
}
