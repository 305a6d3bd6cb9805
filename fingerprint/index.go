package fingerprint

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
)

// errParse reports a file that does not parse as Go: not what the compiler
// built, so stale.
var errParse = errors.New("fingerprint: source does not parse as Go")

// span is a node's byte range in its file, and the line of its first token
// (for funcs, the func keyword, which the runtime's start line names).
type span struct {
	start, end int
	line       int
}

// fileIndex is what fingerprinting needs of one parsed file. The AST is not
// kept: spans into src are enough to hash any node again, and a parsed
// file's AST is many times the size of its source.
type fileIndex struct {
	src     []byte
	hashers *nodeHashers // nil: hash without pooling
	pkgName string
	imports map[string]string // import name → path

	funcs   map[string]funcSpan // "F", "T.M", "(*T).M" → declaration
	lits    map[int][]span      // func literals by the line of their func keyword
	types   map[string]typeSpan // package-level type declarations by name
	local   map[string][]span   // types declared inside funcs, by name
	methods map[string][]method // receiver base type name → its methods here
}

type funcSpan struct {
	span
	hasBody bool
}

type method struct {
	name string
	key  string // declaration key, "T.M" or "(*T).M"
	funcSpan
}

// typeSpan is a type declaration: the TypeSpec's range (name to end, the
// "type" keyword and comments outside it).
type typeSpan struct {
	span
	iface    bool       // an interface type
	embedded []embedded // a struct's embedded fields, in order
}

// embedded is an embedded field as written: pkg is the import name
// qualifying it ("" for the same package).
type embedded struct {
	pkg, name string
	iface     bool // written as an interface type literal (rare)
}

// indexFile parses src and indexes its declarations.
func indexFile(src []byte) (*fileIndex, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, errParse
	}
	tf := fset.File(f.Pos())
	if tf == nil || tf.Size() != len(src) {
		return nil, errParse
	}
	line := func(p token.Pos) int { return tf.PositionFor(p, false).Line }
	mkspan := func(n ast.Node, first token.Pos) span {
		return span{start: tf.Offset(n.Pos()), end: tf.Offset(n.End()), line: line(first)}
	}

	idx := &fileIndex{
		src:     src,
		pkgName: f.Name.Name,
		funcs:   map[string]funcSpan{},
		lits:    map[int][]span{},
		types:   map[string]typeSpan{},
		methods: map[string][]method{},
	}
	var specs [][2]string
	for _, is := range f.Imports {
		p, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			return nil, errParse
		}
		name := ""
		if is.Name != nil {
			name = is.Name.Name
		}
		specs = append(specs, [2]string{name, p})
	}
	idx.imports = importNames(specs)

	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			fs := funcSpan{span: mkspan(d, d.Type.Func), hasBody: d.Body != nil}
			if d.Recv == nil || len(d.Recv.List) == 0 {
				if d.Name.Name != "_" && d.Name.Name != "init" {
					idx.funcs[d.Name.Name] = fs
				}
				break
			}
			base, ptr := receiverBase(d.Recv.List[0].Type)
			if base == "" {
				break
			}
			key := base + "." + d.Name.Name
			if ptr {
				key = "(*" + base + ")." + d.Name.Name
			}
			idx.funcs[key] = fs
			if d.Name.Name != "_" {
				idx.methods[base] = append(idx.methods[base], method{name: d.Name.Name, key: key, funcSpan: fs})
			}
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				break
			}
			for _, s := range d.Specs {
				ts := s.(*ast.TypeSpec)
				if ts.Name.Name == "_" {
					continue
				}
				idx.types[ts.Name.Name] = typeSpanOf(ts, mkspan(ts, ts.Pos()))
			}
		}
	}

	// Func literals anywhere, and types declared inside funcs or literals:
	// every TypeSpec but a top-level type declaration's own.
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
			continue
		}
		ast.Inspect(d, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				s := mkspan(n, n.Type.Func)
				idx.lits[s.line] = append(idx.lits[s.line], s)
			case *ast.TypeSpec:
				if idx.local == nil {
					idx.local = map[string][]span{}
				}
				idx.local[n.Name.Name] = append(idx.local[n.Name.Name], mkspan(n, n.Pos()))
			}
			return true
		})
	}
	return idx, nil
}

func typeSpanOf(ts *ast.TypeSpec, s span) typeSpan {
	t := typeSpan{span: s}
	switch x := ts.Type.(type) {
	case *ast.InterfaceType:
		t.iface = true
	case *ast.StructType:
		for _, fld := range x.Fields.List {
			if len(fld.Names) != 0 {
				continue
			}
			t.embedded = append(t.embedded, embeddedOf(fld.Type))
		}
	}
	return t
}

func embeddedOf(e ast.Expr) embedded {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return embedded{name: x.Name}
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok {
				return embedded{pkg: id.Name, name: x.Sel.Name}
			}
			return embedded{}
		case *ast.InterfaceType:
			return embedded{iface: true}
		default:
			return embedded{}
		}
	}
}

// receiverBase returns a receiver's base type name, and whether it is a
// pointer: T, *T, T[P], *T[P, Q], (T).
func receiverBase(e ast.Expr) (name string, ptr bool) {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			if ptr {
				return "", false
			}
			ptr = true
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name, ptr
		default:
			return "", false
		}
	}
}

// isTestFile reports whether a file name is a _test.go file.
func isTestFile(name string) bool { return strings.HasSuffix(name, "_test.go") }
