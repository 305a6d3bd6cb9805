package fingerprint

import (
	"fmt"
	"reflect"
	"strings"
)

// Value fingerprints any value by the code its type carries.
//
// A func routes to Func; when its type is a named func type, the type's
// record comes first: the user's type's declaration and methods, a
// dependency's module record, nothing for the standard library's or
// mcp-go's. Any other
// value is an implementation value (a struct or a pointer held as an
// interface, such as an http.RoundTripper wrapper or an auth type): its
// type's declaration and every method declared on the type in source,
// unexported ones included, plus the types it embeds that are the user's,
// recursively. Values are not code: fields are not followed, only embedded
// types.
//
// Standard library and mcp-go types are skipped, so Value(http.DefaultClient)
// is the zero Digest; a user's type that embeds or wraps one is still
// fingerprinted, by its own declaration and methods. A third-party type is
// identified by module path, version and type name. A nil value, and a
// value of an unnamed non-struct type (an int, a map), are the zero Digest.
//
// Refusals are as for Func, with Subject the type's qualified name; when
// several parts of one value are refused, they come back together.
func (f *Fingerprinter) Value(pointer string, v any) (Digest, error) {
	if v == nil {
		return Digest{}, nil
	}
	t := reflect.TypeOf(v)
	key := valueKey{t: t}
	if t.Kind() == reflect.Func {
		rv := reflect.ValueOf(v)
		if rv.IsNil() {
			return Digest{}, nil
		}
		key.pc = rv.Pointer()
	}
	f.mu.RLock()
	o, ok := f.values[key]
	f.mu.RUnlock()
	if !ok {
		o = f.computeValue(key)
		f.mu.Lock()
		f.values[key] = o
		f.mu.Unlock()
	}
	return o.result(pointer)
}

func (f *Fingerprinter) computeValue(key valueKey) outcome {
	var acc records
	if key.t.Kind() == reflect.Func {
		if key.t.Name() != "" && key.t.PkgPath() != "" {
			acc.add(f.typeOutcome(key.t))
		}
		acc.add(f.funcOutcome(key.pc))
		return acc.outcome()
	}
	f.typeRecords(key.t, map[reflect.Type]bool{}, &acc)
	return acc.outcome()
}

// records gathers the digests of a value's parts, in order.
type records struct {
	ds   []Digest
	refs []refusal
}

func (r *records) add(o outcome) {
	r.refs = append(r.refs, o.refs...)
	if !o.d.IsZero() {
		r.ds = append(r.ds, o.d)
	}
}

func (r *records) outcome() outcome {
	switch {
	case len(r.refs) > 0:
		return refused(r.refs...)
	case len(r.ds) == 0:
		return outcome{}
	case len(r.ds) == 1:
		return outcome{d: r.ds[0]}
	}
	return outcome{d: combineDigests(ctxValue, r.ds)}
}

// typeRecords adds the records of t: its own, then its embedded user
// types', depth first in field order, each type once.
func (f *Fingerprinter) typeRecords(t reflect.Type, seen map[reflect.Type]bool, acc *records) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if seen[t] {
		return
	}
	seen[t] = true
	if t.Name() == "" || t.PkgPath() == "" {
		// An unnamed type (or a predeclared one) has no declaration; an
		// unnamed struct's code is in the types it embeds.
		if t.Kind() == reflect.Struct {
			f.embeddedRecords(t, seen, acc)
		}
		return
	}
	tr := f.typeResult(t)
	acc.add(tr.outcome)
	if tr.class == classUser && t.Kind() == reflect.Struct {
		f.embeddedRecords(t, seen, acc)
	}
}

func (f *Fingerprinter) embeddedRecords(t reflect.Type, seen map[reflect.Type]bool, acc *records) {
	for i := 0; i < t.NumField(); i++ {
		if fld := t.Field(i); fld.Anonymous {
			f.typeRecords(fld.Type, seen, acc)
		}
	}
}

// typeResult is a named type's own record: its class, and its digest or
// refusals.
type typeResult struct {
	class class
	outcome
}

func (f *Fingerprinter) typeOutcome(t reflect.Type) outcome { return f.typeResult(t).outcome }

func (f *Fingerprinter) typeResult(t reflect.Type) typeResult {
	return f.types.get(t, func() typeResult { return f.computeType(t) })
}

func (f *Fingerprinter) computeType(t reflect.Type) typeResult {
	e := f.env()
	pkgPath := t.PkgPath()
	name := stripTypeArgs(t.Name())
	subject := pkgPath + "." + name
	hints := methodHints(t, pkgPath, name)
	pl := e.classifyPackage(pkgPath)
	if pl.class == classUnknown && len(hints) > 0 {
		// No module the build lists has the package, but one of its
		// methods' files says where it is from.
		pl = e.classifyFile(hints[0].file)
	}
	switch pl.class {
	case classStd, classSkip:
		return typeResult{class: pl.class}
	case classDep:
		if pl.mod == nil {
			break
		}
		return typeResult{class: classDep, outcome: outcome{d: moduleDigest(pl.mod.srcPath, pl.mod.version, "type "+subject)}}
	case classUnknown:
		return typeResult{outcome: refused(opaque(ruleUnknownCode, subject, "package "+pkgPath+" is in no module the build information lists", fixUnknownModule))}
	}
	if pl.class != classUser {
		return typeResult{outcome: refused(opaque(ruleUnknownCode, subject, "package "+pkgPath+" cannot be classified", fixUnknownModule))}
	}

	// Where the package is: best, the file of one of the type's own methods,
	// as the binary recorded it; else the package's import path.
	var p place
	for _, h := range hints {
		if p = e.filePlace(h.file); p.ok() {
			p = dirOf(p)
			break
		}
	}
	if !p.ok() {
		p = e.packagePlace(pkgPath)
	}
	pr := f.pkg(e, p, name, strings.HasSuffix(pkgPath, "_test"))
	if pr.err != nil {
		if pr.notFound {
			return typeResult{outcome: refused(unreadable(subject, "no source for package "+pkgPath+" on this machine or in Options.Sources"))}
		}
		return typeResult{outcome: refused(stale(subject, "a file of package "+pkgPath+" does not parse as Go: it changed after the build"))}
	}
	d, r := typeDigest(pr, name, strings.HasSuffix(pkgPath, "_test"), hints)
	if r != nil {
		r.subject = subject
		return typeResult{outcome: refused(*r)}
	}
	return typeResult{class: classUser, outcome: outcome{d: d}}
}

// typeDigest hashes a type's declaration and its methods:
// derive(type, typespec digest ‖ (name, method digest) for each method by
// name). A type declared inside a func has no methods; when several such
// types share the name, their declarations are candidates. When the
// package declares the name both at package level and inside a func, and
// the binary shows none of the type's own methods, the two records are
// candidates.
func typeDigest(pr pkgResult, name string, externalTest bool, hints []methodHint) (Digest, *refusal) {
	spec, sf, ok := pr.lookupType(name, externalTest)
	if !ok {
		var ds []Digest
		for _, pf := range pr.files {
			for _, s := range pf.idx.local[name] {
				dg, err := pf.idx.digest(ctxTypeSpec, s)
				if err != nil {
					r := stale("", "a declaration of "+name+" does not scan as Go")
					return Digest{}, &r
				}
				ds = append(ds, dg)
			}
		}
		if len(ds) == 0 {
			r := stale("", "no declaration of type "+name+" in its package any more")
			return Digest{}, &r
		}
		c := candidates(ds)
		return derive(ctxType, c[:]), nil
	}
	specDigest, err := sf.idx.digest(ctxTypeSpec, spec.span)
	if err != nil {
		r := stale("", "the declaration of "+name+" does not scan as Go")
		return Digest{}, &r
	}
	material := append([]byte(nil), specDigest[:]...)
	methods := pr.methodsOf(name, sf)
	for i, m := range methods {
		if i > 0 && methods[i-1].name == m.name {
			r := stale("", "method "+m.name+" of "+name+" is declared twice in its package's source")
			return Digest{}, &r
		}
		if !m.hasBody {
			r := opaque(ruleNotGo, "", "method "+m.key+" is declared without a body (assembly)", fixNotGo)
			return Digest{}, &r
		}
		dg, err := m.file.idx.digest(ctxFunc, m.span)
		if err != nil {
			r := stale("", "method "+m.key+" does not scan as Go")
			return Digest{}, &r
		}
		material = appendString(material, m.name)
		material = append(material, dg[:]...)
	}
	// The binary knows where the exported methods start: source that no
	// longer has them there is not what was built.
	for _, h := range hints {
		found := false
		for _, m := range methods {
			if m.key == h.key {
				found = true
				if m.line != h.line {
					r := stale("", fmt.Sprintf("method %s is at line %d of %s, the binary has it at line %d", h.key, m.line, m.file.name, h.line))
					return Digest{}, &r
				}
			}
		}
		if !found {
			r := stale("", "no method "+h.key+" in the source any more")
			return Digest{}, &r
		}
	}
	d := derive(ctxType, material)
	if len(hints) > 0 {
		// Types declared in funcs have no methods: this is the package's.
		return d, nil
	}
	// A type of this name declared inside a func of the package is a
	// value of the same name and package to reflect: both are candidates.
	var locals []Digest
	for _, pf := range pr.files {
		if pf.idx.pkgName != sf.idx.pkgName || pf.test && !sf.test {
			continue
		}
		for _, s := range pf.idx.local[name] {
			dg, err := pf.idx.digest(ctxTypeSpec, s)
			if err != nil {
				r := stale("", "a declaration of "+name+" does not scan as Go")
				return Digest{}, &r
			}
			locals = append(locals, dg)
		}
	}
	if len(locals) == 0 {
		return d, nil
	}
	c := candidates(locals)
	return candidates([]Digest{d, derive(ctxType, c[:])}), nil
}

// methodHint is one of a type's own methods as the binary knows it.
type methodHint struct {
	key  string // "T.M" or "(*T).M"
	file string // recorded
	line int
}

// methodHints lists the type's exported methods that reflect can see and
// whose code is the type's own (not a wrapper, not promoted).
func methodHints(t reflect.Type, pkgPath, name string) []methodHint {
	var out []methodHint
	for _, mt := range []reflect.Type{t, reflect.PointerTo(t)} {
		if mt.Kind() == reflect.Interface {
			continue
		}
		for i := 0; i < mt.NumMethod(); i++ {
			fn := mt.Method(i).Func
			if !fn.IsValid() {
				continue
			}
			loc, ok := locate(fn.Pointer())
			if !ok || loc.file == "<autogenerated>" {
				continue
			}
			sym, ok := parseSymbol(loc.symbol)
			if !ok || sym.closure || sym.methodValue || sym.pkg != pkgPath || sym.recv != name {
				continue
			}
			out = append(out, methodHint{key: sym.declKey(), file: loc.file, line: loc.startLine})
		}
	}
	return out
}

// dirOf is the directory place of a file place.
func dirOf(p place) place {
	if p.src >= 0 {
		i := strings.LastIndexByte(p.name, '/')
		if i < 0 {
			return place{src: p.src, name: "."}
		}
		return place{src: p.src, name: p.name[:i]}
	}
	i := strings.LastIndexAny(p.name, `/\`)
	if i <= 0 {
		return place{}
	}
	return place{src: -1, name: p.name[:i]}
}
