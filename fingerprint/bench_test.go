package fingerprint

import (
	"testing"

	"github.com/guardian-agent/guardian-go/fingerprint/internal/benchfuncs"
	"github.com/guardian-agent/guardian-go/fingerprint/internal/shapes"
)

// BenchmarkFuncMemo: a func already fingerprinted (per-PC memo hit).
func BenchmarkFuncMemo(b *testing.B) {
	fp := New(nil)
	fn := benchfuncs.Funcs()[0]
	if _, err := fp.Func("/x", fn); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fp.Func("/x", fn); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFuncParsedFile: a func not yet fingerprinted, in a file already
// parsed (the memo is cleared each time; the file cache is kept).
func BenchmarkFuncParsedFile(b *testing.B) {
	for _, bc := range []struct {
		name string
		fn   any
	}{{"decl", benchfuncs.Funcs()[50]}, {"closure", benchfuncs.Funcs()[150]}} {
		b.Run(bc.name, func(b *testing.B) {
			fp := New(nil)
			if _, err := fp.Func("/x", bc.fn); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				fp.mu.Lock()
				clear(fp.funcs)
				fp.mu.Unlock()
				if _, err := fp.Func("/x", bc.fn); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFuncColdFile: the first func of a 26 KB file: read and parse it
// (the build information is read once, outside the loop).
func BenchmarkFuncColdFile(b *testing.B) {
	shared := New(nil).env()
	fn := benchfuncs.Funcs()[0]
	b.ReportAllocs()
	b.SetBytes(26623)
	for b.Loop() {
		fp := New(nil)
		fp.env = func() *env { return shared }
		if _, err := fp.Func("/x", fn); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStartup100: a new Fingerprinter (build information included)
// and 100 interceptors and handlers, half funcs and half closures, from
// one file: the start-up cost a definition's Build adds.
func BenchmarkStartup100(b *testing.B) {
	all := benchfuncs.Funcs()
	fns := append(append([]any{}, all[:50]...), all[100:150]...)
	b.ReportAllocs()
	for b.Loop() {
		fp := New(nil)
		for _, fn := range fns {
			if _, err := fp.Func("/x", fn); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkValue: an implementation value with an unexported method,
// memoised and from a new Fingerprinter (package parse included).
func BenchmarkValue(b *testing.B) {
	v := &shapes.AuthRT{}
	b.Run("memo", func(b *testing.B) {
		fp := New(nil)
		if _, err := fp.Value("/x", v); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := fp.Value("/x", v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cold", func(b *testing.B) {
		shared := New(nil).env()
		b.ReportAllocs()
		for b.Loop() {
			fp := New(nil)
			fp.env = func() *env { return shared }
			if _, err := fp.Value("/x", v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
