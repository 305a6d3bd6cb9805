package fingerprint

import (
	"bytes"
	"strconv"
	"strings"
)

// modVersion is a module path and version in a go.mod file.
type modVersion struct{ path, version string }

type modReplace struct{ old, new modVersion }

// parseGoMod reads the require and replace directives of a go.mod file,
// for test binaries, whose build information lists no dependencies. It is
// lenient: a line it cannot read is skipped, never an error, since the
// build that made the binary has already accepted the file.
func parseGoMod(data []byte) (reqs []modVersion, reps []modReplace) {
	block := ""
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line, data = line[:i], data[i+1:]
		} else {
			data = nil
		}
		if i := bytes.Index(line, []byte("//")); i >= 0 {
			line = line[:i]
		}
		f := fields(string(line))
		if len(f) == 0 {
			continue
		}
		if block != "" {
			if f[0] == ")" {
				block = ""
				continue
			}
			f = append([]string{block}, f...)
		} else if len(f) == 2 && f[1] == "(" {
			block = f[0]
			continue
		}
		switch f[0] {
		case "require":
			if len(f) == 3 {
				reqs = append(reqs, modVersion{f[1], f[2]})
			}
		case "replace":
			// A replace line has exactly one arrow; with none or several
			// ("replace => => 0") it cannot be read, and is skipped.
			arrow, arrows := -1, 0
			for i, x := range f {
				if x == "=>" {
					arrow, arrows = i, arrows+1
				}
			}
			if arrows != 1 {
				continue
			}
			old, new := f[1:arrow], f[arrow+1:]
			if len(old) < 1 || len(old) > 2 || len(new) < 1 || len(new) > 2 {
				continue
			}
			r := modReplace{old: modVersion{path: old[0]}, new: modVersion{path: new[0]}}
			if len(old) == 2 {
				r.old.version = old[1]
			}
			if len(new) == 2 {
				r.new.version = new[1]
			}
			reps = append(reps, r)
		}
	}
	return reqs, reps
}

// fields splits a go.mod line into tokens, unquoting quoted ones.
func fields(line string) []string {
	var out []string
	for _, f := range strings.Fields(line) {
		if len(f) >= 2 && (f[0] == '"' || f[0] == '`') {
			if u, err := strconv.Unquote(f); err == nil {
				f = u
			}
		}
		out = append(out, f)
	}
	return out
}
