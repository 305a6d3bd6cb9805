package fingerprint

import (
	"strconv"
	"strings"
)

// symbol is a runtime function name taken apart:
//
//	example.com/app.F                  func F
//	example.com/app.Map[...]           generic func Map
//	example.com/app.(*T).M             method M of *T
//	example.com/app.T.M-fm             method value x.M of a T
//	example.com/app.F.func2.1          a closure in F
//	example.com/app.init.func1         a closure in a package-level var
//
// A closure's name is not its identity: inlining renames it after the
// function it was inlined into (main.main.F.func3), so only the closure
// flag is trusted, never the package or outer name of a closure.
type symbol struct {
	pkg         string // import path, unescaped
	recv        string // receiver base type name; "" for a function
	ptr         bool   // pointer receiver
	name        string // function or method name ("" for a closure)
	closure     bool   // a func literal (or compiler wrapper)
	methodValue bool   // an x.M method value wrapper ("-fm")
}

// parseSymbol parses a runtime function name. ok is false for names it
// cannot read.
func parseSymbol(s string) (sym symbol, ok bool) {
	slash := strings.LastIndexByte(s, '/')
	dot := strings.IndexByte(s[slash+1:], '.')
	if dot < 0 {
		return symbol{}, false
	}
	pkg, rest := s[:slash+1+dot], s[slash+1+dot+1:]
	pkg, ok = unescapeSymbolPath(pkg)
	if !ok || pkg == "" || rest == "" {
		return symbol{}, false
	}
	sym.pkg = pkg
	rest = stripTypeArgs(rest)
	if r, found := strings.CutSuffix(rest, "-fm"); found {
		sym.methodValue = true
		rest = r
	}
	segs := strings.Split(rest, ".")
	if len(segs) == 2 && segs[0] == "init" && allDigits(segs[1]) {
		// init.0, init.1: a package's init funcs, not literals.
		sym.name = "init"
		return sym, true
	}
	if len(segs) > 1 && closureSegment(segs[len(segs)-1]) {
		// A literal, or a compiler wrapper inside a function. What comes
		// before may be a caller it was inlined into, methods included
		// (F.(*T).M.func2): only the flag is kept.
		sym.closure = true
		return sym, true
	}
	switch {
	case len(segs) == 2 && strings.HasPrefix(segs[0], "("):
		recv, ok := strings.CutPrefix(segs[0], "(*")
		recv, ok2 := strings.CutSuffix(recv, ")")
		if !ok || !ok2 {
			return symbol{}, false
		}
		sym.recv, sym.ptr, sym.name = recv, true, segs[1]
	case len(segs) == 2:
		sym.recv, sym.name = segs[0], segs[1]
	case len(segs) == 1:
		sym.name = segs[0]
	default:
		return symbol{}, false
	}
	if !isIdent(sym.name) || len(segs) == 2 && !isIdent(sym.recv) {
		return symbol{}, false
	}
	return sym, true
}

// declKey is the key a declaration has in a file index: "F", "T.M" or
// "(*T).M".
func (s symbol) declKey() string {
	switch {
	case s.recv == "":
		return s.name
	case s.ptr:
		return "(*" + s.recv + ")." + s.name
	default:
		return s.recv + "." + s.name
	}
}

// closureSegment reports whether a name segment is one the compiler gives
// func literals and its own wrappers: func3, 2, gowrap1, deferwrap1.
func closureSegment(seg string) bool {
	for _, p := range []string{"func", "gowrap", "deferwrap", ""} {
		if n, ok := strings.CutPrefix(seg, p); ok && n != "" && allDigits(n) {
			return true
		}
	}
	return seg == ""
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// stripTypeArgs removes bracketed type arguments ("[...]"), nested ones
// included, from a symbol.
func stripTypeArgs(s string) string {
	if strings.IndexByte(s, '[') < 0 {
		return s
	}
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '[':
			depth++
		case c == ']' && depth > 0:
			depth--
		case depth == 0:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// unescapeSymbolPath undoes the linker's escaping of a package path in a
// symbol name: "%2e" for '.' in the last element, and %xx for other bytes.
func unescapeSymbolPath(p string) (string, bool) {
	if strings.IndexByte(p, '%') < 0 {
		return p, true
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] != '%' {
			b.WriteByte(p[i])
			continue
		}
		if i+2 >= len(p) {
			return "", false
		}
		n, err := strconv.ParseUint(p[i+1:i+3], 16, 8)
		if err != nil {
			return "", false
		}
		b.WriteByte(byte(n))
		i += 2
	}
	return b.String(), true
}

// isIdent reports whether s is a Go identifier (ASCII letters, digits and
// '_', or any non-ASCII rune: the runtime's names are what the compiler
// accepted, so only the shape is checked).
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9' {
			continue
		}
		return false
	}
	return true
}
