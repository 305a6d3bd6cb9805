package main

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/internal/mcpconfig"
	"github.com/guardian-agent/guardian-go/internal/names"
	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/refusals"
	"github.com/guardian-agent/guardian-go/secrets"
)

// Resolving the selected servers of a config into connections: references,
// paths, env files, and the record of each server as the config writes it.

// resolved is the selected servers made ready to start: their
// connections and records by name, and the redactor of every value their
// references stood for.
type resolved struct {
	conns   map[string]mcpservers.Connection
	records map[string]definition.Server
	red     *redactor
}

// resolveServers resolves the selected servers' references and paths;
// the problems are what could not be resolved.
func resolveServers(e *env, path, base string, selected []mcpconfig.Server, timeout time.Duration) (*resolved, []problem) {
	vars, used := newVars(e, base)
	r := &resolved{conns: map[string]mcpservers.Connection{}, records: map[string]definition.Server{}}
	var unset []problem
	for _, s := range selected {
		c, ps := connection(s, vars, used, path, base, timeout)
		if len(ps) > 0 {
			unset = append(unset, ps...)
			continue
		}
		r.conns[s.Name] = c
		r.records[s.Name] = recordedServer(s)
	}
	r.red = newRedactor(used.values())
	return r, unset
}

// recordedServer is the server as the definition records it: as the
// config writes it, references and relative paths included, so that the
// document is the same on every machine and never holds a value a
// reference stood for.
func recordedServer(s mcpconfig.Server) definition.Server {
	r := definition.Server{Name: s.Name, Transport: definition.Transport(s.Transport)}
	if s.Transport == mcpconfig.Stdio {
		r.Command, r.Args = s.Command, slices.Clone(s.Args)
	} else {
		r.URL = s.URL
	}
	return r
}

// configTool is a tool of a config's server. It records the server as the
// config writes it (recordedServer), not as it was reached on this run.
type configTool struct {
	*mcpservers.Tool
	server definition.Server
	label  string // the server as the config names it
}

// MCPRecord is the tool's record, with the config's server.
func (t *configTool) MCPRecord() definition.MCPRecord {
	r := t.Tool.MCPRecord()
	r.Server = t.server
	return r
}

// usedValues collects the values references resolved to, and the env and
// header values, so that none of them is ever printed.
type usedValues struct {
	mu   sync.Mutex
	vals []string
}

func (u *usedValues) add(vs ...string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.vals = append(u.vals, vs...)
}

func (u *usedValues) values() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Clone(u.vals)
}

// inputEnvPrefix names the environment variables that answer VS Code
// inputs: ${input:github-token} is GUARDIAN_INPUT_GITHUB_TOKEN.
const inputEnvPrefix = "GUARDIAN_INPUT_"

// inputEnvName is the environment variable that answers input id: its
// letters upper-cased, anything but letters and digits made '_'.
func inputEnvName(id string) string {
	var b strings.Builder
	b.WriteString(inputEnvPrefix)
	for _, r := range id {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(unicode.ToUpper(r))
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

func newVars(e *env, workspace string) (mcpconfig.Vars, *usedValues) {
	used := &usedValues{}
	lookup := func(name string) (string, bool) {
		v, ok := e.lookupEnv(name)
		if ok {
			used.add(v)
		}
		return v, ok
	}
	home, _ := os.UserHomeDir()
	return mcpconfig.Vars{
		Env:             lookup,
		Input:           func(id string) (string, bool) { return lookup(inputEnvName(id)) },
		WorkspaceFolder: workspace,
		UserHome:        home,
	}, used
}

// connection resolves s and returns how to reach it, or the problems that
// keep it from being reached. Every value used to connect is added to used.
func connection(s mcpconfig.Server, vars mcpconfig.Vars, used *usedValues, path, base string, timeout time.Duration) (mcpservers.Connection, []problem) {
	r, err := s.Resolve(vars)
	if err != nil {
		var ps []problem
		for _, e := range flatten(err) {
			var ue *mcpconfig.UnsetError
			if errors.As(e, &ue) {
				ps = append(ps, unsetProblem(path, ue))
			} else {
				ps = append(ps, problem{File: path, Pointer: s.Pointer, Kind: kindInvalid, Message: e.Error()})
			}
		}
		return nil, ps
	}
	c := r.Connection
	for _, v := range c.Env {
		used.add(v)
	}
	for _, v := range c.Headers {
		used.add(v)
	}
	switch r.Transport {
	case mcpconfig.Stdio:
		env := map[string]string{}
		if c.EnvFile != "" {
			ef := resolvePath(base, c.EnvFile)
			vals, err := mcpconfig.ReadEnvFile(ef)
			if err != nil {
				return nil, envFileProblems(path, s, ef, err)
			}
			for k, v := range vals {
				env[k] = v
				used.add(v)
			}
		}
		// The config's env wins over its envFile, as in VS Code.
		for k, v := range c.Env {
			env[k] = v
		}
		cmd := r.Command
		if strings.ContainsRune(cmd, '/') || strings.ContainsRune(cmd, filepath.Separator) {
			cmd = resolvePath(base, cmd)
		}
		dir := base
		if c.Cwd != "" {
			dir = resolvePath(base, c.Cwd)
			// Said here, at the cwd: the OS would report the command
			// missing instead.
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				msg := "the working directory does not exist"
				if err == nil {
					msg = "the working directory is a file, not a directory"
				} else if !errors.Is(err, fs.ErrNotExist) {
					msg = "the working directory cannot be used: " + errorText(err)
				}
				return nil, []problem{{File: path, Pointer: refusals.Append(s.Pointer, "cwd"), Kind: kindUnreadable, Subject: s.Label(), Message: msg}}
			}
		}
		return mcpservers.Stdio{Command: cmd, Args: r.Args, Env: env, Dir: dir}, nil
	case mcpconfig.SSE:
		return mcpservers.SSE{URL: r.URL, Headers: c.Headers, Timeout: timeout}, nil
	case mcpconfig.StreamableHTTP:
		return mcpservers.StreamableHTTP{URL: r.URL, Headers: c.Headers, Timeout: timeout}, nil
	}
	return mcpservers.WebSocket{URL: r.URL, Headers: c.Headers}, nil
}

// resolvePath makes p absolute against base.
func resolvePath(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// unsetProblem reports a reference without a value, and how to give it one.
func unsetProblem(path string, ue *mcpconfig.UnsetError) problem {
	p := problem{File: path, Pointer: ue.Pointer, Kind: kindUnset, Subject: ue.Server}
	name := ue.Name
	if !printableName(name) {
		name = "..." // a name that looks like a credential is not printed
	}
	switch ue.Ref {
	case "input":
		p.Message = "${input:" + name + "} has no value"
		p.Fix = "set " + inputEnvName(name) + " in guardian's environment to the input's answer"
		if name == "..." {
			p.Fix = "set " + inputEnvPrefix + "<ID> in guardian's environment to the input's answer"
		}
	case "env":
		p.Message = "${env:" + name + "} is not set"
		p.Fix = "set " + name + " in guardian's environment"
	default:
		p.Message = "${" + ue.Ref + "} has no value"
		p.Fix = "set HOME in guardian's environment"
	}
	return p
}

// printableName reports whether a variable name or input id may be
// printed: a short identifier the credential checks do not refuse.
func printableName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return secrets.CheckArgs("", []string{s}) == nil
}

func envFileProblems(path string, s mcpconfig.Server, file string, err error) []problem {
	ptr := refusals.Append(s.Pointer, "envFile")
	var pe *os.PathError
	if errors.As(err, &pe) {
		return []problem{{File: path, Pointer: ptr, Kind: kindUnreadable, Subject: s.Label(), Message: "cannot read the env file: " + pe.Err.Error()}}
	}
	var me *mcpconfig.Error
	if errors.As(err, &me) {
		return []problem{{File: displayPath(file), Line: me.Line, Column: me.Column, Kind: kindInvalid, Subject: s.Label(),
			Message: me.Msg + " (the envFile of server " + strconv.Quote(s.Label()) + ")"}}
	}
	return []problem{{File: path, Pointer: ptr, Kind: kindInvalid, Subject: s.Label(), Message: "the env file cannot be read"}}
}

// displayPath is path as people would write it from here: relative to the
// working directory when it is below it.
func displayPath(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return rel
}

// configPointer turns a pointer mcpservers gives (/mcpServers/<name>/...)
// into the pointer of the same value in the config. An env or header name
// mcpservers writes as its stand-in (<member N>, N in sorted order) is
// found in conns and written as the config's stand-in (N in file order);
// an env variable the config does not have came from its envFile, which
// is pointed at instead.
func configPointer(selected []mcpconfig.Server, conns map[string]mcpservers.Connection, p string) string {
	toks, err := refusals.Tokens(p)
	if err != nil || len(toks) < 2 || toks[0] != "mcpServers" {
		return p
	}
	for i := range selected {
		s := &selected[i]
		if s.Name != toks[1] {
			continue
		}
		if len(toks) == 3 && toks[2] == "url" {
			return s.URLPointer() // Windsurf's serverUrl
		}
		if len(toks) >= 4 && (toks[2] == "env" || toks[2] == "headers") {
			key := toks[3]
			if n, ok := names.MemberIndex(key); ok {
				sorted := slices.Sorted(maps.Keys(connectionMap(conns[s.Name], toks[2])))
				if n >= len(sorted) {
					return refusals.Append(s.Pointer, toks[2])
				}
				key = sorted[n]
			}
			if mp, ok := s.MemberPointer(toks[2], key); ok {
				return refusals.Append(mp, toks[4:]...)
			}
			if toks[2] == "env" && s.Connection.EnvFile != "" {
				return refusals.Append(s.Pointer, "envFile")
			}
			return refusals.Append(s.Pointer, toks[2])
		}
		return refusals.Append(s.Pointer, toks[2:]...)
	}
	return p
}

// connectionMap is a connection's env or headers.
func connectionMap(c mcpservers.Connection, field string) map[string]string {
	switch c := c.(type) {
	case mcpservers.Stdio:
		if field == "env" {
			return c.Env
		}
	case mcpservers.SSE:
		if field == "headers" {
			return c.Headers
		}
	case mcpservers.StreamableHTTP:
		if field == "headers" {
			return c.Headers
		}
	case mcpservers.WebSocket:
		if field == "headers" {
			return c.Headers
		}
	}
	return nil
}
