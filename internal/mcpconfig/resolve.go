package mcpconfig

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/guardian-agent/guardian-go/internal/names"
	"github.com/guardian-agent/guardian-go/refusals"
)

// Vars are the values a config's references stand for. A nil lookup, or
// an empty folder, leaves its references without a value.
type Vars struct {
	// Env looks up an environment variable: ${env:NAME}, and in
	// mcpServers files (Claude Code) ${NAME} and ${NAME:-default}.
	Env func(name string) (string, bool)
	// Input looks up the answer to a VS Code input: ${input:ID}.
	Input func(id string) (string, bool)
	// WorkspaceFolder is what ${workspaceFolder} and
	// ${workspaceFolderBasename} stand for.
	WorkspaceFolder string
	// UserHome is what ${userHome} stands for.
	UserHome string
}

// UnsetError is a reference that has no value. Its message names the
// kind of reference, never the variable: callers that judge a name safe
// to print read it from Name.
type UnsetError struct {
	// Pointer is the JSON pointer of the value that holds the reference,
	// such as /servers/github/headers/Authorization.
	Pointer string
	// Server is the server's name as it may be printed (Server.Label): a
	// name holding a credential is its stand-in.
	Server string
	// Ref is the kind of reference: "env", "input", "workspaceFolder" or
	// "userHome".
	Ref string
	// Name is the variable's name or the input's id; empty for
	// workspaceFolder and userHome.
	Name string
}

func (e *UnsetError) Error() string {
	what := "${" + e.Ref + "}"
	if e.Name != "" {
		what = "${" + e.Ref + ":...}"
	}
	return "mcpconfig: " + e.Pointer + ": a " + what + " reference has no value"
}

// Unwrap returns refusals.ErrInvalid.
func (e *UnsetError) Unwrap() error { return refusals.ErrInvalid }

// Resolve returns a copy of s with the references in its command, args,
// url, env and header values, cwd and envFile replaced by their values:
//
//	${env:NAME}                    the environment variable NAME
//	${input:ID}                    the answer to VS Code input ID
//	${workspaceFolder}             v.WorkspaceFolder
//	${workspaceFolderBasename}     its last element
//	${userHome}                    v.UserHome
//	${pathSeparator}, ${/}         the OS's path separator
//	${NAME}, ${NAME:-default}      in mcpServers files only, as Claude Code
//	                               expands them: NAME, or default if unset
//
// Any other ${...} is left as written, as the clients leave variables they
// do not know. A value is substituted once: references in it are not
// expanded again. Every reference without a value is reported, as an
// *UnsetError, in the order of the fields above (env and headers by key);
// then Resolve returns the zero Server.
func (s Server) Resolve(v Vars) (Server, error) {
	r := resolver{vars: v, server: s.Label(), claude: strings.HasPrefix(s.Pointer, "/mcpServers/")}
	out := s
	out.Command = r.expand(refusals.Append(s.Pointer, "command"), s.Command)
	if s.Args != nil {
		out.Args = make([]string, len(s.Args))
		for i, a := range s.Args {
			out.Args[i] = r.expand(refusals.Append(s.Pointer, "args", strconv.Itoa(i)), a)
		}
	}
	out.URL = r.expand(s.URLPointer(), s.URL)
	out.Connection.Env = r.expandMap(refusals.Append(s.Pointer, "env"), s.Connection.Env, s.envKeys)
	out.Connection.Headers = r.expandMap(refusals.Append(s.Pointer, "headers"), s.Connection.Headers, s.headerKeys)
	out.Connection.Cwd = r.expand(refusals.Append(s.Pointer, "cwd"), s.Connection.Cwd)
	out.Connection.EnvFile = r.expand(refusals.Append(s.Pointer, "envFile"), s.Connection.EnvFile)
	out.Connection.Other = maps.Clone(s.Connection.Other)
	switch len(r.errs) {
	case 0:
		return out, nil
	case 1:
		return Server{}, r.errs[0]
	}
	return Server{}, errors.Join(r.errs...)
}

type resolver struct {
	vars   Vars
	server string
	claude bool // an mcpServers file: ${NAME} is an environment variable
	errs   []error
}

// expandMap expands m's values; order is m's keys in file order (nil for
// a Server made in code: sorted order), for the stand-in of a key that
// holds a credential.
func (r *resolver) expandMap(ptr string, m map[string]string, order []string) map[string]string {
	if m == nil {
		return nil
	}
	if order == nil {
		order = slices.Sorted(maps.Keys(m))
	}
	out := make(map[string]string, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out[k] = r.expand(names.Append(ptr, k, slices.Index(order, k)), m[k])
	}
	return out
}

// expand replaces the references in one value.
func (r *resolver) expand(ptr, s string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+2:], '}')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		ref := s[i+2 : i+2+j]
		if val, ok := r.lookup(ptr, ref); ok {
			b.WriteString(val)
		} else {
			b.WriteString(s[i : i+3+j])
		}
		s = s[i+3+j:]
	}
	b.WriteString(s)
	return b.String()
}

// lookup returns the value of the reference ${ref}, and whether it is a
// reference Resolve knows. A known reference without a value is recorded
// in r.errs.
func (r *resolver) lookup(ptr, ref string) (string, bool) {
	unset := func(kind, name string) (string, bool) {
		r.errs = append(r.errs, &UnsetError{Pointer: ptr, Server: r.server, Ref: kind, Name: name})
		return "", true
	}
	get := func(f func(string) (string, bool), name string) (string, bool) {
		if f == nil {
			return "", false
		}
		return f(name)
	}
	switch {
	case strings.HasPrefix(ref, "env:"):
		name := ref[len("env:"):]
		if val, ok := get(r.vars.Env, name); ok {
			return val, true
		}
		return unset("env", name)
	case strings.HasPrefix(ref, "input:"):
		id := ref[len("input:"):]
		if val, ok := get(r.vars.Input, id); ok {
			return val, true
		}
		return unset("input", id)
	case ref == "workspaceFolder" || ref == "workspaceFolderBasename":
		if r.vars.WorkspaceFolder == "" {
			return unset("workspaceFolder", "")
		}
		if ref == "workspaceFolderBasename" {
			return filepath.Base(r.vars.WorkspaceFolder), true
		}
		return r.vars.WorkspaceFolder, true
	case ref == "userHome":
		if r.vars.UserHome == "" {
			return unset("userHome", "")
		}
		return r.vars.UserHome, true
	case ref == "pathSeparator" || ref == "/":
		return string(os.PathSeparator), true
	}
	if !r.claude {
		return "", false
	}
	name, def, hasDefault := strings.Cut(ref, ":-")
	if !isEnvName(name) {
		return "", false
	}
	if val, ok := get(r.vars.Env, name); ok {
		return val, true
	}
	if hasDefault {
		return def, true
	}
	return unset("env", name)
}

// isEnvName: a POSIX shell variable name.
func isEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_', 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
