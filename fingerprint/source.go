package fingerprint

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
)

// Source is a tree of Go source supplied to a Fingerprinter, for a binary
// that runs where its source is not on disk. Make one with EmbeddedSource.
type Source struct {
	fsys fs.FS
	dir  string // the tree root as this binary records file paths
	pkg  string // import path of the package at the root ("main" for a command)
}

// EmbeddedSource returns fsys as the source tree rooted at the directory
// of the file that calls EmbeddedSource: the directory a //go:embed
// directive in that file embeds from. Call it in the package that declares
// the embedded files:
//
//	//go:embed *.go handlers
//	var source embed.FS
//
//	fp := fingerprint.New(&fingerprint.Options{
//		Sources: []fingerprint.Source{fingerprint.EmbeddedSource(source)},
//	})
//
// The anchor is the calling file's path as the binary recorded it when it
// was built (absolute, or cut by -trimpath), so the tree is found the same
// way in every build mode, wherever the binary runs. Code in files the tree
// holds is read from fsys, never from disk; embedded source is what was
// compiled, so it cannot be stale. Code outside the tree is looked for as
// usual. A nil fsys gives a Source that supplies nothing.
func EmbeddedSource(fsys fs.FS) Source {
	return sourceAt(fsys, 2)
}

// prefix is the recorded path prefix of the files in the tree.
func (s Source) prefix() string {
	if strings.HasSuffix(s.dir, "/") {
		return s.dir
	}
	return s.dir + "/"
}

// sourceAt anchors fsys at the file of the caller skip frames up.
func sourceAt(fsys fs.FS, skip int) Source {
	if fsys == nil {
		return Source{}
	}
	pcs := make([]uintptr, 1)
	if runtime.Callers(skip+1, pcs) == 0 {
		return Source{}
	}
	fr, _ := runtime.CallersFrames(pcs).Next()
	file := filepath.ToSlash(fr.File)
	if file == "" {
		return Source{}
	}
	s := Source{fsys: fsys, dir: path.Dir(file)}
	// The package comes from the caller's name, which is trustworthy for a
	// declared func or a package initializer; a closure's name may not be
	// (inlining renames it), so its package is not used.
	if sym, ok := parseSymbol(fr.Function); ok && !sym.closure {
		s.pkg = sym.pkg
	}
	return s
}

// place is where source is read from: a Source's tree (src >= 0, name a
// slash path in it) or the local disk (src < 0, name an OS path). Places
// are comparable, so they key the caches.
type place struct {
	src  int
	name string
}

func (p place) ok() bool { return p.name != "" }

// filePlace is where a recorded user file's source is on this machine, or
// the zero place.
func (e *env) filePlace(recorded string) place {
	if i := e.anchored(recorded); i >= 0 {
		return place{src: i, name: strings.TrimPrefix(recorded, e.sources[i].prefix())}
	}
	if isAbs(recorded) {
		return place{src: -1, name: filepath.FromSlash(recorded)}
	}
	if m, rel := e.replacedDirFile(recorded); m != nil {
		if root := e.moduleRoot(m); root != "" {
			return place{src: -1, name: filepath.FromSlash(path.Join(root, rel))}
		}
		return place{}
	}
	if m, rel := e.longestModule(recorded, false); m != nil && !m.versioned() {
		if root := e.moduleRoot(m); root != "" {
			return place{src: -1, name: filepath.FromSlash(path.Join(root, rel))}
		}
	}
	return place{}
}

// packagePlace is where a user package's directory is, found by its import
// path: in a Source, or under its module's directory on this machine.
func (e *env) packagePlace(importPath string) place {
	if i := e.sourceForPackage(importPath); i >= 0 {
		rel := "."
		if importPath != "main" {
			rel = strings.TrimPrefix(strings.TrimPrefix(importPath, e.sourcePackage(e.sources[i])), "/")
			if rel == "" {
				rel = "."
			}
		}
		return place{src: i, name: rel}
	}
	p := strings.TrimSuffix(importPath, "_test")
	if p == "main" {
		p = e.mainPkg
	}
	m, rel := e.longestModule(p, false)
	if m == nil || m.versioned() {
		return place{}
	}
	if e.trimpath {
		// The recorded form of a module's files is its import path; a Source
		// anchored on that form may hold it.
		if i := e.anchored(p + "/"); i >= 0 {
			name := strings.TrimPrefix(strings.TrimPrefix(p, e.sources[i].dir), "/")
			if name == "" {
				name = "."
			}
			return place{src: i, name: name}
		}
	}
	if root := e.moduleRoot(m); root != "" {
		return place{src: -1, name: filepath.FromSlash(path.Join(root, rel))}
	}
	return place{}
}

// foreignPackagePlace is where a standard library or module-cache
// package's source is on this machine, if it is: only needed to tell an
// interface from a concrete type.
func (e *env) foreignPackagePlace(importPath string, pl placed) place {
	switch pl.class {
	case classStd:
		if e.goroot != "" {
			return place{src: -1, name: filepath.FromSlash(e.goroot + importPath)}
		}
	case classDep, classSkip:
		m := pl.mod
		if m == nil {
			return place{}
		}
		if !m.versioned() {
			if root := e.moduleRoot(m); root != "" {
				return place{src: -1, name: filepath.FromSlash(path.Join(root, pl.rel))}
			}
			return place{}
		}
		if e.modCache != "" {
			d := filepath.Join(e.modCache, filepath.FromSlash(escapeModule(m.srcPath)+"@"+escapeModule(m.version)), filepath.FromSlash(pl.rel))
			if isDir(d) {
				return place{src: -1, name: d}
			}
		}
		if root := e.mainRoot(); root != "" {
			d := filepath.Join(filepath.FromSlash(root), "vendor", filepath.FromSlash(importPath))
			if isDir(d) {
				return place{src: -1, name: d}
			}
		}
	}
	return place{}
}

func (e *env) readFile(p place) ([]byte, error) {
	if p.src >= 0 {
		return fs.ReadFile(e.sources[p.src].fsys, p.name)
	}
	return os.ReadFile(p.name)
}

// readDir lists the .go files of a package directory.
func (e *env) readDir(p place) ([]string, error) {
	var ents []fs.DirEntry
	var err error
	if p.src >= 0 {
		ents, err = fs.ReadDir(e.sources[p.src].fsys, p.name)
	} else {
		ents, err = os.ReadDir(p.name)
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, d := range ents {
		n := d.Name()
		if d.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
			continue
		}
		names = append(names, n)
	}
	return names, nil
}

// join names a file in a package directory place.
func (p place) join(name string) place {
	if p.src >= 0 {
		return place{src: p.src, name: path.Join(p.name, name)}
	}
	return place{src: -1, name: filepath.Join(p.name, name)}
}
