package fingerprint

// methodOutcome fingerprints a compiler-generated method wrapper: a method
// value x.M ("-fm"), or a method expression or promoted method the compiler
// wraps. The wrapper has no source; its name says which method of which
// type it calls, and the package's source says what that is. Through an
// interface, the code is whatever the dynamic value's is, which nothing in
// the binary names: refused.
func (f *Fingerprinter) methodOutcome(sym symbol) outcome {
	e := f.env()
	subject := sym.pkg + "." + sym.declKey()
	if sym.methodValue {
		subject += "-fm"
	}

	// A pointer-receiver method value, (*T).M-fm, is always of a method
	// declared on *T, a concrete type: the compiler names a method value
	// after the type that declares the method (a promoted one included),
	// and an interface's method values are I.M-fm. So it is never a method
	// value through an interface, and a package that is not the user's
	// decides it alone, with no source: the standard library's and mcp-go's
	// are skipped, a dependency's is its module record (the key the source
	// would give: M is declared on *T). A pointer-receiver method
	// expression wrapper, (*T).M, takes its receiver as an argument, so its
	// code is the library's own wrapper: skipped for the standard library
	// and mcp-go; a dependency's names the method it binds, from source.
	if sym.ptr {
		switch pl := e.classifyPackage(sym.pkg); {
		case pl.class == classStd, pl.class == classSkip:
			return outcome{}
		case pl.class == classDep && pl.mod != nil && sym.methodValue:
			return outcome{d: moduleDigest(pl.mod.srcPath, pl.mod.version, "method "+sym.pkg+"."+sym.declKey())}
		}
	}

	type step struct {
		pkgPath, typeName string
	}
	queue := []step{{sym.pkg, sym.recv}}
	seen := map[step]bool{}
	for len(queue) > 0 {
		var next []step
		for _, st := range queue {
			if seen[st] {
				continue
			}
			seen[st] = true
			pl := e.classifyPackage(st.pkgPath)
			if pl.class == classUnknown {
				return refused(opaque(ruleUnknownCode, subject, "package "+st.pkgPath+" is in no module the build information lists", fixUnknownModule))
			}
			var p place
			if pl.class == classUser {
				p = e.packagePlace(st.pkgPath)
			} else {
				p = e.foreignPackagePlace(st.pkgPath, pl)
			}
			pr := f.pkg(e, p, st.typeName, isExternalTestPath(st.pkgPath))
			if pr.err != nil {
				if pl.class == classUser {
					if pr.notFound {
						return refused(unreadable(subject, "no source for package "+st.pkgPath+" on this machine or in Options.Sources"))
					}
					return refused(stale(subject, "a file of package "+st.pkgPath+" does not parse as Go: it changed after the build"))
				}
				return refused(opaque(ruleInterfaceMethod, subject,
					"the source of package "+st.pkgPath+" is not on this machine, and without it "+st.pkgPath+"."+st.typeName+" cannot be told from an interface, whose method value runs whatever the value in it is", fixForeignSource))
			}
			spec, sf, ok := pr.lookupType(st.typeName, isExternalTestPath(st.pkgPath))
			if !ok {
				if pl.class == classUser {
					return refused(stale(subject, "no declaration of type "+st.typeName+" in package "+st.pkgPath+" any more"))
				}
				return refused(opaque(ruleUnknownCode, subject, "no declaration of type "+st.typeName+" in package "+st.pkgPath, fixInterface))
			}
			if spec.iface {
				return refused(opaque(ruleInterfaceMethod, subject,
					"a method value through interface "+st.pkgPath+"."+st.typeName+" runs whatever the value in it is", fixInterface))
			}
			for _, m := range pr.methodsOf(st.typeName, sf) {
				if m.name != sym.name {
					continue
				}
				switch pl.class {
				case classStd, classSkip:
					return outcome{}
				case classDep:
					return outcome{d: moduleDigest(pl.mod.srcPath, pl.mod.version, "method "+st.pkgPath+"."+m.key)}
				}
				if !m.hasBody {
					return refused(opaque(ruleNotGo, subject, "method "+m.key+" is declared without a body (assembly)", fixNotGo))
				}
				dg, err := m.file.idx.digest(ctxFunc, m.span)
				if err != nil {
					return refused(stale(subject, "method "+m.key+" does not scan as Go"))
				}
				return outcome{d: dg}
			}
			// Not declared on the type: promoted from an embedded field, one
			// level down. Go picks the shallowest, so search breadth first.
			for _, em := range spec.embedded {
				switch {
				case em.iface:
					return refused(opaque(ruleInterfaceMethod, subject, "a method promoted from an embedded interface runs whatever the value in it is", fixInterface))
				case em.name == "":
					continue
				case em.pkg == "":
					next = append(next, step{st.pkgPath, em.name})
				default:
					if ip, ok := sf.idx.imports[em.pkg]; ok {
						next = append(next, step{ip, em.name})
					}
				}
			}
		}
		queue = next
	}
	detail := "no method " + sym.name + " on " + sym.pkg + "." + sym.recv + " or the types it embeds"
	if e.classifyPackage(sym.pkg).class == classUser {
		return refused(stale(subject, detail))
	}
	return refused(opaque(ruleUnknownCode, subject, detail, fixInterface))
}

func isExternalTestPath(importPath string) bool {
	return len(importPath) > 5 && importPath[len(importPath)-5:] == "_test"
}
