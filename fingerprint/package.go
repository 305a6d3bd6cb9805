package fingerprint

import (
	"bytes"
	"io"
	"sort"
)

// pkgResult is a package directory's Go files that the binary's build
// would compile (its GOOS, GOARCH, tags and cgo setting), indexed.
type pkgResult struct {
	files    []pkgFile
	err      error
	notFound bool
}

type pkgFile struct {
	name string
	test bool
	idx  *fileIndex
}

// pkgKey names a package directory's files: its non-test files, or all
// of them.
type pkgKey struct {
	place
	tests bool
}

// pkg reads and indexes the package directory at p, once: only its
// non-test files, which hold every type a non-test file declares and all
// of its methods that count (a test-only method does not change a
// production type's digest), unless the type name is declared in none of
// them or the package is an external test package: then its _test.go files
// too. Test files are read only for a type declared in one.
func (f *Fingerprinter) pkg(e *env, p place, typeName string, externalTest bool) pkgResult {
	if !externalTest {
		pr := f.pkgFiles(e, p, false)
		if pr.err != nil {
			return pr
		}
		if _, _, ok := pr.lookupType(typeName, false); ok {
			return pr
		}
	}
	return f.pkgFiles(e, p, true)
}

// pkgFiles reads and indexes the package directory at p, once for each
// kind: its non-test files, or all of them (tests).
func (f *Fingerprinter) pkgFiles(e *env, p place, tests bool) pkgResult {
	if !p.ok() {
		return pkgResult{err: errNotFound, notFound: true}
	}
	return f.pkgs.get(pkgKey{p, tests}, func() pkgResult {
		names, err := e.readDir(p)
		if err != nil {
			return pkgResult{err: err, notFound: true}
		}
		sort.Strings(names)
		var out pkgResult
		for _, n := range names {
			if isTestFile(n) && !tests {
				continue
			}
			fp := p.join(n)
			fr := f.file(e, fp)
			if fr.notFound {
				continue // vanished since the listing
			}
			ctxt := e.ctxt
			src := fr.src
			ctxt.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(src)), nil }
			if ok, err := ctxt.MatchFile(".", n); err != nil || !ok {
				continue
			}
			if fr.err != nil {
				return pkgResult{err: fr.err}
			}
			out.files = append(out.files, pkgFile{name: n, test: isTestFile(n), idx: fr.idx})
		}
		return out
	})
}

// lookupType finds a package-level type declaration. Types in non-test
// files come first; a type declared in a _test.go file is found too (a
// test's own types), and for an external test package (import path ending
// "_test") only its files are searched.
func (r pkgResult) lookupType(name string, externalTest bool) (typeSpan, *pkgFile, bool) {
	for pass := 0; pass < 2; pass++ {
		for i := range r.files {
			pf := &r.files[i]
			if pf.test != (pass == 1) {
				continue
			}
			if externalTest != isExternalTest(pf.idx.pkgName) {
				continue
			}
			if t, ok := pf.idx.types[name]; ok {
				return t, pf, true
			}
		}
	}
	return typeSpan{}, nil, false
}

func isExternalTest(pkgName string) bool {
	return len(pkgName) > 5 && pkgName[len(pkgName)-5:] == "_test"
}

// methodsOf collects the methods declared on the type name in the files of
// the package spec is declared in: test files only when spec is itself in
// one, so a test-only method does not change a production type's digest.
func (r pkgResult) methodsOf(name string, spec *pkgFile) []methodIn {
	var out []methodIn
	for i := range r.files {
		pf := &r.files[i]
		if pf.idx.pkgName != spec.idx.pkgName || pf.test && !spec.test {
			continue
		}
		for _, m := range pf.idx.methods[name] {
			out = append(out, methodIn{method: m, file: pf})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

type methodIn struct {
	method
	file *pkgFile
}
