package fingerprint

import (
	"bytes"
	"go/build"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// mcpGoModule is skipped always: the library a definition's MCP tools come
// from is not the user's code.
const mcpGoModule = "github.com/mark3labs/mcp-go"

// module is the main module or one dependency, as the binary's build
// information lists it.
type module struct {
	path    string // module path: the prefix of its packages' import paths
	srcPath string // the module whose source it is (a replacement's path)
	version string // "" for the main module and a directory replacement
	req     string // the version the build requires (a directory replacement's -trimpath name)
	dir     string // a directory replacement, as go.mod wrote it
	main    bool
	skip    bool
}

// versioned reports whether the module's code is an immutable module
// version, identified without its source.
func (m *module) versioned() bool {
	return !m.main && m.dir == "" && m.version != "" && m.version != "(devel)"
}

// env is what the process tells about how it was built, read once per
// Fingerprinter.
type env struct {
	mainPkg  string // the main package's import path
	trimpath bool
	modules  []*module // the main module first (when known), then dependencies
	main     *module

	stdRoot  string // recorded prefix of standard library files; "" under -trimpath
	goroot   string // standard library source on this machine ("" if none)
	modCache string // this machine's module cache
	sources  []Source
	skip     []string // module paths whose code is skipped
	ctxt     build.Context

	rootOnce sync.Once
	root     string // the main module's directory on this machine, "" if not found
}

func newEnv(opts *Options) *env {
	e := &env{ctxt: build.Default}
	e.ctxt.GOOS, e.ctxt.GOARCH = runtime.GOOS, runtime.GOARCH
	e.ctxt.JoinPath = path.Join
	e.ctxt.ToolTags = append([]string(nil), build.Default.ToolTags...)
	e.ctxt.BuildTags = nil

	skip := []string{mcpGoModule}
	if opts != nil {
		skip = append(skip, opts.SkipModules...)
		for _, s := range opts.Sources {
			if s.fsys != nil {
				e.sources = append(e.sources, s)
			}
		}
	}
	// Longest anchor first, so a nested tree wins over the one around it.
	slices.SortStableFunc(e.sources, func(a, b Source) int { return len(b.dir) - len(a.dir) })
	e.skip = skip
	isSkipped := e.isSkipped

	if bi, ok := debug.ReadBuildInfo(); ok {
		e.mainPkg = bi.Path
		if bi.Main.Path != "" {
			e.main = &module{path: bi.Main.Path, srcPath: bi.Main.Path, main: true, skip: isSkipped(bi.Main.Path)}
			e.modules = append(e.modules, e.main)
		}
		for _, d := range bi.Deps {
			m := &module{path: d.Path, srcPath: d.Path, version: d.Version, req: d.Version, skip: isSkipped(d.Path)}
			if r := d.Replace; r != nil {
				m.srcPath, m.version = r.Path, r.Version
				if isLocalPath(r.Path) {
					m.dir, m.srcPath, m.version = r.Path, d.Path, ""
				}
			}
			e.modules = append(e.modules, m)
		}
		if len(bi.Deps) == 0 && e.main != nil {
			// A test binary lists no dependencies: read them from the main
			// module's go.mod, which names every module the build uses.
			e.modules = append(e.modules, e.goModDeps()...)
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "-trimpath":
				e.trimpath = s.Value == "true"
			case "-tags":
				for _, t := range strings.Split(s.Value, ",") {
					if t != "" {
						e.ctxt.BuildTags = append(e.ctxt.BuildTags, t)
					}
				}
			case "CGO_ENABLED":
				e.ctxt.CgoEnabled = s.Value == "1"
			case "-race", "-msan", "-asan":
				if s.Value == "true" {
					e.ctxt.ToolTags = append(e.ctxt.ToolTags, s.Key[1:])
				}
			}
		}
	}

	// The standard library's recorded prefix, read off a function certain
	// to be compiled from it: whatever GOROOT was on the building machine,
	// and whether or not -trimpath cut it.
	if loc, ok := locate(reflect.ValueOf(reflect.ValueOf).Pointer()); ok {
		if i := strings.LastIndex(loc.file, "/reflect/"); i >= 0 && isAbs(loc.file) {
			e.stdRoot = loc.file[:i+1]
		}
	}
	if e.stdRoot == "" && !e.trimpath {
		e.stdRoot = goroot() // not found above: this machine's, as a fallback
	}
	for _, r := range []string{e.stdRoot, goroot()} {
		if r != "" && isDir(filepath.FromSlash(r)) {
			e.goroot = strings.TrimSuffix(r, "/") + "/"
			break
		}
	}
	e.modCache = modCache()
	return e
}

// isSkipped reports whether code of the module or package path p is
// skipped.
func (e *env) isSkipped(p string) bool {
	for _, s := range e.skip {
		if s != "" && (p == s || strings.HasPrefix(p, s+"/")) {
			return true
		}
	}
	return false
}

// goModDeps reads the dependencies from the main module's go.mod.
func (e *env) goModDeps() []*module {
	root := e.mainRoot()
	if root == "" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(filepath.FromSlash(root), "go.mod"))
	if err != nil {
		return nil
	}
	reqs, reps := parseGoMod(data)
	var out []*module
	for _, r := range reqs {
		m := &module{path: r.path, srcPath: r.path, version: r.version, req: r.version, skip: e.isSkipped(r.path)}
		for _, rp := range reps {
			if rp.old.path == r.path && (rp.old.version == "" || rp.old.version == r.version) {
				if isLocalPath(rp.new.path) {
					m.dir, m.srcPath, m.version = rp.new.path, r.path, ""
				} else {
					m.srcPath, m.version = rp.new.path, rp.new.version
				}
			}
		}
		out = append(out, m)
	}
	return out
}

// isLocalPath reports whether a replacement is a directory: go.mod writes
// those as absolute paths or paths beginning ./ or ../.
func isLocalPath(p string) bool {
	p = filepath.ToSlash(p)
	return strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || p == "." || p == ".." || isAbs(p) || filepath.IsAbs(p)
}

// goroot is the standard library's source directory on this machine, from
// the GOROOT variable or the build's recorded GOROOT.
func goroot() string {
	r := os.Getenv("GOROOT")
	if r == "" {
		//lint:ignore SA1019 the build's GOROOT is where its standard library's source was; only read, if still there
		r = runtime.GOROOT()
	}
	if r == "" {
		return ""
	}
	return filepath.ToSlash(filepath.Join(r, "src")) + "/"
}

// modCache is where the go command keeps module source on this machine.
func modCache() string {
	if d := os.Getenv("GOMODCACHE"); d != "" {
		return d
	}
	if gp := filepath.SplitList(os.Getenv("GOPATH")); len(gp) > 0 && gp[0] != "" {
		return filepath.Join(gp[0], "pkg", "mod")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, "go", "pkg", "mod")
	}
	return ""
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// isAbs reports whether a recorded path is absolute, on any OS the binary
// may have been built on: /x, C:/x, //host/x.
func isAbs(p string) bool {
	return strings.HasPrefix(p, "/") || len(p) >= 3 && p[1] == ':' && p[2] == '/'
}

// class is what a piece of code is to a fingerprint.
type class int

const (
	classUser    class = iota // the user's: fingerprinted by its source
	classStd                  // the standard library: skipped
	classSkip                 // mcp-go, or another skipped module: skipped
	classDep                  // a third-party module version: identified, no source needed
	classUnknown              // not the standard library, but no module the build lists: refused
)

// placed is code classified, with the module it belongs to (dep, skip) and
// its path inside that module (dep).
type placed struct {
	class class
	mod   *module
	rel   string
}

// classifyFile classifies a recorded file path. Symbols lie under inlining
// (a closure is renamed after its caller), so files decide.
func (e *env) classifyFile(p string) placed {
	if e.stdRoot != "" && strings.HasPrefix(p, e.stdRoot) {
		return placed{class: classStd}
	}
	if m, rel := e.replacedDirFile(p); m != nil {
		if m.skip {
			return placed{class: classSkip, mod: m}
		}
		return placed{class: classUser, mod: m, rel: rel}
	}
	if m, rel := e.moduleCacheFile(p); m != nil {
		return e.depOrSkip(m, rel)
	}
	if i := strings.LastIndex(p, "/vendor/"); i >= 0 && isAbs(p) {
		if m, rel := e.longestModule(p[i+len("/vendor/"):], true); m != nil {
			return e.depOrSkip(m, rel)
		}
	}
	if e.anchored(p) >= 0 {
		return placed{class: classUser}
	}
	if !isAbs(p) {
		// -trimpath: "<module path>/rel", "./f.go" (go run -trimpath f.go),
		// or a standard library "pkg/file.go".
		if strings.HasPrefix(p, "./") {
			return placed{class: classUser}
		}
		if m, rel := e.longestModule(p, false); m != nil {
			if m.skip {
				return placed{class: classSkip, mod: m}
			}
			if m.versioned() {
				return placed{class: classDep, mod: m, rel: rel}
			}
			return placed{class: classUser, mod: m, rel: rel}
		}
		if e.isSkipped(p) {
			return placed{class: classSkip}
		}
		if !stdLike(p) {
			return placed{class: classUnknown}
		}
		return placed{class: classStd}
	}
	for _, m := range e.modules {
		if m.skip && (m.main || m.dir != "") {
			if root := e.moduleRoot(m); root != "" && strings.HasPrefix(p, root+"/") {
				return placed{class: classSkip, mod: m}
			}
		}
	}
	return placed{class: classUser}
}

func (e *env) depOrSkip(m *module, rel string) placed {
	if m.skip {
		return placed{class: classSkip, mod: m}
	}
	return placed{class: classDep, mod: m, rel: rel}
}

// replacedDirFile matches -trimpath's form of a directory replacement's
// files, "<module>@<required version>/rel".
func (e *env) replacedDirFile(p string) (*module, string) {
	if isAbs(p) {
		return nil, ""
	}
	for _, m := range e.modules {
		if m.dir == "" || m.req == "" {
			continue
		}
		if rel, ok := strings.CutPrefix(p, m.path+"@"+m.req+"/"); ok {
			return m, rel
		}
	}
	return nil, ""
}

// moduleCacheFile matches a path in a module cache, "<cache>/<escaped
// module>@<version>/rel", or its -trimpath form, "<module>@<version>/rel",
// against the build's versioned dependencies.
func (e *env) moduleCacheFile(p string) (*module, string) {
	if strings.IndexByte(p, '@') < 0 {
		return nil, ""
	}
	var best *module
	var bestRel string
	bestLen := -1
	for _, m := range e.modules {
		if !m.versioned() {
			continue
		}
		key := escapeModule(m.srcPath) + "@" + escapeModule(m.version) + "/"
		var rel string
		switch {
		case strings.HasPrefix(p, key):
			rel = p[len(key):]
		case strings.Contains(p, "/"+key):
			rel = p[strings.Index(p, "/"+key)+1+len(key):]
		default:
			continue
		}
		if len(key) > bestLen {
			best, bestRel, bestLen = m, rel, len(key)
		}
	}
	if best == nil {
		return e.unlistedModuleFile(p)
	}
	return best, bestRel
}

// unlistedModuleFile reads module, version and path off a module cache
// path that no listed dependency matches: in this machine's module cache,
// or in -trimpath's "module@version/rel" form.
func (e *env) unlistedModuleFile(p string) (*module, string) {
	rest := ""
	if c := filepath.ToSlash(e.modCache); c != "" && strings.HasPrefix(p, c+"/") {
		rest = p[len(c)+1:]
	} else if !isAbs(p) {
		rest = p
	} else {
		return nil, ""
	}
	at := strings.IndexByte(rest, '@')
	if at <= 0 {
		return nil, ""
	}
	slash := strings.IndexByte(rest[at:], '/')
	if slash < 0 {
		return nil, ""
	}
	modPath, ok1 := unescapeModule(rest[:at])
	version, ok2 := unescapeModule(rest[at+1 : at+slash])
	if !ok1 || !ok2 || version == "" || strings.HasPrefix(modPath, "cache/") {
		return nil, ""
	}
	m := &module{path: modPath, srcPath: modPath, version: version, skip: e.isSkipped(modPath)}
	return m, rest[at+slash+1:]
}

// longestModule finds the module whose path is the longest prefix of an
// import-path-like p, and the rest of p. versionedOnly limits it to
// dependencies identified by version (for vendor directories).
func (e *env) longestModule(p string, versionedOnly bool) (*module, string) {
	var best *module
	rel := ""
	for _, m := range e.modules {
		if versionedOnly && !m.versioned() {
			continue
		}
		if best != nil && len(m.path) <= len(best.path) {
			continue
		}
		switch {
		case p == m.path:
			best, rel = m, ""
		case strings.HasPrefix(p, m.path+"/"):
			best, rel = m, p[len(m.path)+1:]
		}
	}
	return best, rel
}

// classifyPackage classifies code by its package's import path, for types
// (reflect gives their package, not their file).
func (e *env) classifyPackage(importPath string) placed {
	if e.sourceForPackage(importPath) >= 0 || importPath == "main" {
		return placed{class: classUser}
	}
	if e.isSkipped(importPath) {
		m, rel := e.longestModule(importPath, false)
		return placed{class: classSkip, mod: m, rel: rel}
	}
	m, rel := e.longestModule(strings.TrimSuffix(importPath, "_test"), false)
	switch {
	case m == nil && !stdLike(importPath):
		return placed{class: classUnknown}
	case m == nil:
		return placed{class: classStd}
	case m.skip:
		return placed{class: classSkip, mod: m, rel: rel}
	case m.versioned():
		return placed{class: classDep, mod: m, rel: rel}
	}
	return placed{class: classUser, mod: m, rel: rel}
}

// stdLike reports whether an import path (or a path beginning with one)
// can be the standard library's: no dot in its first element. Only a last
// resort, after every module the build lists: "main" and module paths
// without a dot ("module m") are matched before it.
func stdLike(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".")
}

// anchored returns the index of the Source whose tree holds the recorded
// path p, or -1.
func (e *env) anchored(p string) int {
	for i, s := range e.sources {
		if strings.HasPrefix(p, s.prefix()) {
			return i
		}
	}
	return -1
}

// sourceForPackage returns the index of the Source that holds the package
// with this import path, or -1.
func (e *env) sourceForPackage(importPath string) int {
	for i, s := range e.sources {
		if s.pkg == "main" && importPath == "main" {
			return i
		}
		if p := e.sourcePackage(s); p != "" && (importPath == p || strings.HasPrefix(importPath, p+"/")) {
			return i
		}
	}
	return -1
}

// sourcePackage is the import path of the package at a Source's root: a
// command's is the build's main package path.
func (e *env) sourcePackage(s Source) string {
	if s.pkg != "main" {
		return s.pkg
	}
	if e.mainPkg == "command-line-arguments" {
		return ""
	}
	return e.mainPkg
}

// moduleRoot is a main or directory-replaced module's directory on this
// machine, slash-separated, or "".
func (e *env) moduleRoot(m *module) string {
	if m.main {
		return e.mainRoot()
	}
	if m.dir == "" {
		return ""
	}
	d := filepath.FromSlash(m.dir)
	if !filepath.IsAbs(d) {
		root := e.mainRoot()
		if root == "" {
			return ""
		}
		d = filepath.Join(filepath.FromSlash(root), d)
	}
	return filepath.ToSlash(filepath.Clean(d))
}

// mainRoot finds the main module's directory: the nearest go.mod above the
// working directory, the executable, or the caller's own source files
// whose module line is the build's main module.
func (e *env) mainRoot() string {
	e.rootOnce.Do(func() {
		if e.main == nil {
			return
		}
		var starts []string
		if wd, err := os.Getwd(); err == nil {
			starts = append(starts, wd)
		}
		if exe, err := os.Executable(); err == nil {
			starts = append(starts, filepath.Dir(exe))
		}
		pcs := make([]uintptr, 64)
		frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
		for {
			fr, more := frames.Next()
			if isAbs(filepath.ToSlash(fr.File)) && (e.stdRoot == "" || !strings.HasPrefix(filepath.ToSlash(fr.File), e.stdRoot)) {
				starts = append(starts, filepath.Dir(fr.File))
			}
			if !more {
				break
			}
		}
		for _, s := range starts {
			if r := findModuleRoot(s, e.main.path); r != "" {
				e.root = filepath.ToSlash(r)
				return
			}
		}
	})
	return e.root
}

// findModuleRoot walks up from dir to the directory whose go.mod declares
// module modPath.
func findModuleRoot(dir, modPath string) string {
	for d := filepath.Clean(dir); ; {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && modulePath(data) == modPath {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// modulePath returns the module path a go.mod file declares, or "".
func modulePath(gomod []byte) string {
	for len(gomod) > 0 {
		line := gomod
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line, gomod = line[:i], gomod[i+1:]
		} else {
			gomod = nil
		}
		if i := bytes.Index(line, []byte("//")); i >= 0 {
			line = line[:i]
		}
		line = bytes.TrimSpace(line)
		rest, ok := bytes.CutPrefix(line, []byte("module"))
		if !ok || len(rest) == 0 || (rest[0] != ' ' && rest[0] != '\t' && rest[0] != '"' && rest[0] != '`') {
			continue
		}
		p := string(bytes.TrimSpace(rest))
		if n := len(p); n >= 2 && (p[0] == '"' && p[n-1] == '"' || p[0] == '`' && p[n-1] == '`') {
			p = p[1 : n-1]
		}
		if p == "" || !utf8.ValidString(p) || strings.ContainsAny(p, " \t\"`") {
			return ""
		}
		return p
	}
	return ""
}

// unescapeModule undoes escapeModule; ok is false for a string escapeModule
// could not have made.
func unescapeModule(s string) (string, bool) {
	if strings.IndexByte(s, '!') < 0 {
		return s, strings.IndexFunc(s, func(r rune) bool { return 'A' <= r && r <= 'Z' }) < 0
	}
	var b strings.Builder
	bang := false
	for _, r := range s {
		switch {
		case bang:
			if r < 'a' || r > 'z' {
				return "", false
			}
			b.WriteRune(r - ('a' - 'A'))
			bang = false
		case r == '!':
			bang = true
		case 'A' <= r && r <= 'Z':
			return "", false
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), !bang
}

// escapeModule escapes a module path or version as the module cache does:
// each upper-case letter becomes '!' and its lower case.
func escapeModule(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return 'A' <= r && r <= 'Z' }) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
