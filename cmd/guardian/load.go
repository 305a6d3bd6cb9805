package main

import (
	"context"
	"errors"
	"fmt"
	"io"
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

// Recording a config, the work record and check share:
//
//  1. read the config strictly (mcpconfig) and pick its servers;
//  2. refuse, before anything starts, what the definition would refuse:
//     a credential in a command, argument or URL (as guardian scan does),
//     a websocket server;
//  3. resolve references (${env:NAME}, ${input:ID}, ...) and read
//     envFiles, for connecting only;
//  4. connect to every server at once, each bounded by --timeout, and
//     load its tools (mcpservers);
//  5. build the definition (definition.Build), recording each server as
//     the config writes it.

// recordOptions say how to record a config.
type recordOptions struct {
	name      string
	servers   []string // nil: all
	exclude   []string
	prefix    bool
	timeout   time.Duration
	keepGoing bool
}

// serverReport is what happened to one server of the config.
type serverReport struct {
	Name      string `json:"name"`
	Transport string `json:"transport"`
	// Status is "ok", "failed" or "skipped".
	Status string `json:"status"`
	// Tools is the number of tools it offered.
	Tools int `json:"tools"`
	// Reason says why it failed or was skipped.
	Reason string `json:"reason,omitempty"`
	// Stderr is the last lines a failed stdio server wrote to its
	// standard error, cleaned of credentials.
	Stderr []string `json:"stderr,omitempty"`
}

const (
	serverOK      = "ok"
	serverFailed  = "failed"
	serverSkipped = "skipped"
)

// recording is the outcome of recording a config.
type recording struct {
	status   string
	servers  []serverReport
	problems []problem
	def      *definition.Definition // nil unless recorded

	ptrs []string // the config pointer of each of servers
}

// fail makes the recording's status at least status, and adds ps.
func (rec *recording) fail(status string, ps ...problem) *recording {
	rec.status = worse(rec.status, status)
	rec.problems = append(rec.problems, ps...)
	return rec
}

// report is the report of the config's server s.
func (rec *recording) report(s mcpconfig.Server) *serverReport {
	return &rec.servers[slices.Index(rec.ptrs, s.Pointer)]
}

// skip marks the servers as not started, and why.
func (rec *recording) skip(servers []mcpconfig.Server, why string) {
	for _, s := range servers {
		r := rec.report(s)
		r.Status, r.Reason = serverSkipped, why
	}
}

// recordConfig records the config at path. It returns a recording whose
// def is set when a definition was built: always when the status is ok,
// and with --keep-going when only some servers failed. Its steps: read
// the config, pick its servers, refuse what cannot be recorded before
// starting anything, resolve the connections, load the servers' tools,
// refuse a tool name two servers offer, build.
func recordConfig(ctx context.Context, e *env, cmd, path string, o *recordOptions) *recording {
	rec := &recording{status: statusOK, servers: []serverReport{}, problems: []problem{}}

	// A config refused for its shape alone (args that are not strings) is
	// read on, so that its other refusals are reported with it; it never
	// gets as far as starting a server.
	cfg, shapeErr := mcpconfig.ReadFileAll(path)
	if cfg == nil {
		ps, refused := problemsOf(path, shapeErr)
		status := statusInvalid
		if refused && !hasKind(ps, kindInvalid, kindUnreadable) {
			status = statusRefused
		}
		return rec.fail(status, ps...)
	}
	base, err := configDirs(path)
	if err != nil {
		return rec.fail(statusInvalid, problem{File: path, Kind: kindUnreadable, Message: "cannot locate the file: " + err.Error()})
	}
	selected, err := selectServers(cfg, o.servers)
	if err != nil {
		return rec.fail(statusUsage, problem{File: path, Kind: kindUsage, Message: err.Error()})
	}
	rec.listServers(cfg, selected, o.servers != nil)

	// Refuse what cannot be recorded before starting anything: a server
	// should not be run with a command line the definition refuses.
	var refused []problem
	for _, r := range configRefusals(cfg, shapeErr, selected, checkServer) {
		refused = append(refused, refusalProblem(path, r))
	}
	if len(refused) > 0 || shapeErr != nil {
		rec.skip(selected, "not started: the config is refused")
		return rec.fail(statusRefused, refused...)
	}

	r, unset := resolveServers(e, path, base, selected, o.timeout)
	if len(unset) > 0 {
		rec.skip(selected, "not started: the config cannot be resolved")
		return rec.fail(statusInvalid, unset...)
	}
	tools, ok := rec.load(ctx, e, cmd, path, selected, r, o)
	if !ok {
		return rec
	}
	return rec.build(path, tools, o)
}

// listServers reports every server of the config: those selected as ok
// until they fail, the others skipped, and why.
func (rec *recording) listServers(cfg *mcpconfig.Config, selected []mcpconfig.Server, bySelection bool) {
	for _, s := range cfg.Servers {
		r := serverReport{Name: s.Label(), Transport: string(s.Transport), Status: serverOK}
		rec.ptrs = append(rec.ptrs, s.Pointer)
		switch {
		case slices.ContainsFunc(selected, func(x mcpconfig.Server) bool { return x.Pointer == s.Pointer }):
		case !bySelection:
			r.Status, r.Reason = serverSkipped, "disabled in the config"
		default:
			r.Status, r.Reason = serverSkipped, "not in --servers"
		}
		rec.servers = append(rec.servers, r)
	}
}

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

// load starts the selected servers and loads their tools, reporting each
// server's outcome. ok is false when the recording ends here: a client
// that cannot be made, an interrupt, or a failed server without
// --keep-going.
func (rec *recording) load(ctx context.Context, e *env, cmd, path string, selected []mcpconfig.Server, r *resolved, o *recordOptions) (tools []definition.Tool, ok bool) {
	serverNames := make([]string, len(selected))
	for i, s := range selected {
		serverNames[i] = s.Name
	}
	tail := newStderrTail(serverNames)
	client, err := mcpservers.NewClient(r.conns, &mcpservers.ClientOptions{PrefixToolNames: o.prefix, Stderr: tail})
	if err != nil {
		var ps []problem
		moved := refusals.Relocate(err, func(p string) string { return configPointer(selected, r.conns, p) })
		for _, re := range refusals.All(errors.Join(moved...)) {
			ps = append(ps, refusalProblem(path, re))
		}
		if len(ps) == 0 {
			ps = append(ps, problem{File: path, Kind: kindInvalid, Message: r.red.Clean(err.Error())})
		}
		rec.fail(statusInvalid, ps...)
		return nil, false
	}
	defer client.Close()

	prog := &progress{cmd: cmd}
	if e.progress {
		prog.w = e.stderr
	}
	loaded := loadTools(ctx, client, selected, o.timeout, prog, r.red)
	for i, s := range selected {
		l, rep := loaded[i], rec.report(s)
		if l.err != nil {
			rep.Status, rep.Reason = serverFailed, l.reason
			if s.Transport == mcpconfig.Stdio {
				rep.Stderr = tail.Tail(s.Name, r.red)
			}
			if l.interrupted {
				rec.status = worse(rec.status, statusInterrupted)
			} else {
				rec.status = worse(rec.status, statusFailed)
			}
			continue
		}
		rep.Tools = len(l.tools)
		for _, t := range l.tools {
			tools = append(tools, &configTool{Tool: t, server: r.records[s.Name], label: s.Label()})
		}
	}
	if rec.status == statusInterrupted || rec.status == statusFailed && !o.keepGoing {
		return nil, false
	}
	return tools, true
}

// clash translates Build's refusal of a tool name two servers offer: it
// says which servers, and how to record them both, rather than a document
// pointer. Build refuses each tool after the first of a name; the servers
// are said once.
type clash struct {
	path      string
	offeredBy map[string][]string // subject of a tool name → its servers, as the config names them
	said      map[string]bool
}

func newClash(path string, tools []definition.Tool) *clash {
	c := &clash{path: path, offeredBy: map[string][]string{}, said: map[string]bool{}}
	for _, t := range tools {
		ct := t.(*configTool)
		subject := names.Subject(ct.Name())
		c.offeredBy[subject] = append(c.offeredBy[subject], ct.label)
	}
	return c
}

// problems are r's problems for the report: none when r repeats a clash
// already said, and ok false when r is not a clash of servers.
func (c *clash) problems(r *refusals.Error) (ps []problem, ok bool) {
	by := c.offeredBy[r.Subject]
	if r.Rule != "tool-name-duplicate" || len(by) < 2 {
		return nil, false
	}
	if c.said[r.Subject] {
		return nil, true
	}
	c.said[r.Subject] = true
	return []problem{{
		File: c.path, Kind: kindInvalid, Rule: r.Rule, Subject: r.Subject,
		Message: "servers " + quoteList(by) + " offer a tool of this name; a model cannot tell them apart",
		Fix:     "record them with --prefix-tool-names, or leave one out with --servers",
	}}, true
}

// build builds the definition of tools and exports its document once.
func (rec *recording) build(path string, tools []definition.Tool, o *recordOptions) *recording {
	def, err := definition.Build(&definition.Agent{Name: o.name, Tools: tools}, &definition.Options{Exclude: o.exclude})
	if err != nil {
		status := statusRefused
		var ps []problem
		clashes := newClash(path, tools)
		for _, r := range refusals.All(err) {
			if cps, ok := clashes.problems(r); ok {
				ps = append(ps, cps...)
				continue
			}
			ps = append(ps, refusalProblem("", r))
			if strings.HasPrefix(r.Rule, "exclude-") {
				status = statusUsage
			}
		}
		return rec.fail(status, ps...)
	}
	// The document is validated on first export: export it here, so that
	// no caller ever writes or compares a definition that has none.
	if _, err := def.Document(); err != nil {
		var ps []problem
		for _, r := range refusals.All(err) {
			ps = append(ps, refusalProblem("", r))
		}
		if len(ps) == 0 {
			ps = append(ps, problem{Kind: kindInvalid, Message: err.Error()})
		}
		return rec.fail(statusRefused, ps...)
	}
	rec.def = def
	return rec
}

func hasKind(ps []problem, kinds ...string) bool {
	return slices.ContainsFunc(ps, func(p problem) bool { return slices.Contains(kinds, p.Kind) })
}

// configDirs returns the config's base directory, which relative commands,
// working directories and env files resolve against and stdio servers run
// in, and which ${workspaceFolder} stands for: the directory the file is
// in, or for a file in a .vscode or .cursor directory the project that
// directory is in, as the editors read it. It is absolute.
func configDirs(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	base := filepath.Dir(abs)
	switch filepath.Base(base) {
	case ".vscode", ".cursor":
		base = filepath.Dir(base)
	}
	return base, nil
}

// selectServers returns the config's servers named in names, in config
// order; when names is nil, all of them but those the config disables
// ("disabled": true, as Cline, Roo Code and Windsurf write it). A name
// starting with "/" is the JSON pointer of one server in the config, to
// pick one of several of a name (Claude Code's ~/.claude.json has a
// project's servers beside the user's). Two selected servers of one name
// are an error: a definition records a server by its name.
func selectServers(cfg *mcpconfig.Config, names []string) ([]mcpconfig.Server, error) {
	picks := func(n string, s mcpconfig.Server) bool {
		if strings.HasPrefix(n, "/") {
			return s.Pointer == n
		}
		return s.Name == n
	}
	var out []mcpconfig.Server
	if names == nil {
		for _, s := range cfg.Servers {
			if !disabled(s) {
				out = append(out, s)
			}
		}
	} else {
		var unknown []string
		for _, n := range names {
			if !slices.ContainsFunc(cfg.Servers, func(s mcpconfig.Server) bool { return picks(n, s) }) {
				unknown = append(unknown, n)
			}
		}
		if len(unknown) > 0 {
			var have []string
			for _, s := range cfg.Servers {
				if !slices.Contains(have, s.Label()) {
					have = append(have, s.Label())
				}
			}
			return nil, fmt.Errorf("--servers: the config has no server %s (it has %s)", quoteList(unknown), orNone(quoteList(have)))
		}
		for _, s := range cfg.Servers {
			if slices.ContainsFunc(names, func(n string) bool { return picks(n, s) }) {
				out = append(out, s)
			}
		}
	}
	var dups []string
	for i, s := range out {
		if slices.ContainsFunc(out[:i], func(x mcpconfig.Server) bool { return x.Name == s.Name }) {
			continue
		}
		var at []string
		for _, x := range out[i:] {
			if x.Name == s.Name {
				at = append(at, x.Pointer)
			}
		}
		if len(at) > 1 {
			dups = append(dups, strconv.Quote(s.Label())+" is at "+strings.Join(at, " and "))
		}
	}
	if len(dups) > 0 {
		return nil, fmt.Errorf("more than one server of a name would be recorded (%s): pick one of each with --servers POINTER", strings.Join(dups, "; "))
	}
	return out, nil
}

func disabled(s mcpconfig.Server) bool {
	return string(s.Connection.Other["disabled"]) == "true"
}

// checkServer refuses, at pointers into the config, what the definition
// would refuse of the server as written: what scan refuses (credentials),
// a name that breaks the rule for names, a websocket server.
func checkServer(s *mcpconfig.Server) error {
	errs := append([]error{credentials(s)}, names.Check(s.Pointer, s.Name)...)
	// The definition's rule, at the server, named as the config names it,
	// with the way out the CLI has.
	for _, r := range refusals.All(definition.CheckTransport(s.Pointer, s.Name, definition.Transport(s.Transport))) {
		c := *r
		c.Subject = s.Label()
		if c.Fix != "" {
			c.Fix += ", or leave it out with --servers"
		}
		errs = append(errs, &c)
	}
	return refusals.Join(errs...)
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

// loaded is one server's tools, or why there are none.
type loaded struct {
	tools       []*mcpservers.Tool
	err         error
	reason      string // why, for people, cleaned
	interrupted bool   // guardian was interrupted while it loaded
}

// loadTools loads every server's tools at once, each bounded by timeout,
// and returns them in the order of servers.
func loadTools(ctx context.Context, client *mcpservers.Client, servers []mcpconfig.Server, timeout time.Duration, prog *progress, red *redactor) []loaded {
	out := make([]loaded, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		wg.Go(func() {
			prog.printf("%s: connecting", strconv.Quote(s.Label()))
			sctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			tools, err := client.Tools(sctx, s.Name)
			if err != nil {
				// Judged now: a server that failed before an interrupt
				// failed for its own reason.
				l := loaded{err: err, interrupted: ctx.Err() != nil, reason: failureReason(ctx, err, timeout, red)}
				out[i] = l
				prog.printf("%s: failed: %s", strconv.Quote(s.Label()), l.reason)
				return
			}
			out[i] = loaded{tools: tools}
			prog.printf("%s: %s", strconv.Quote(s.Label()), plural(len(tools), "tool"))
		})
	}
	wg.Wait()
	return out
}

// failureReason says why a server's tools could not be loaded, in a line
// that never holds a value it was given: for each of mcpservers' errors,
// what failed, its kind and its detail (the report names the server).
func failureReason(ctx context.Context, err error, timeout time.Duration, red *redactor) string {
	switch {
	case ctx.Err() != nil:
		return "interrupted"
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out after " + timeout.String() + " (--timeout)"
	}
	var reasons []string
	for _, me := range mcpErrors(err) {
		reasons = append(reasons, opReason(me))
	}
	if len(reasons) == 0 {
		return red.Clean(err.Error())
	}
	return red.Clean(strings.Join(reasons, "; "))
}

// mcpErrors are the *mcpservers.Error in err's tree, not looking into
// their causes.
func mcpErrors(err error) []*mcpservers.Error {
	switch x := err.(type) {
	case nil:
		return nil
	case *mcpservers.Error:
		return []*mcpservers.Error{x}
	case interface{ Unwrap() []error }:
		var out []*mcpservers.Error
		for _, e := range x.Unwrap() {
			out = append(out, mcpErrors(e)...)
		}
		return out
	case interface{ Unwrap() error }:
		return mcpErrors(x.Unwrap())
	}
	return nil
}

// opReason is an error of one server without the server: "connect: cannot
// connect: server exited: exit status 3".
func opReason(e *mcpservers.Error) string {
	var b strings.Builder
	if e.Op != "" {
		b.WriteString(e.Op)
		if e.Tool != "" {
			b.WriteString(" " + strconv.Quote(e.Tool))
		}
		b.WriteString(": ")
	}
	if e.Kind != nil {
		b.WriteString(e.Kind.Error())
	} else {
		b.WriteString("failed")
	}
	if d := e.Detail(); d != "" {
		b.WriteString(": " + d)
	}
	return b.String()
}

// progress prints servers' progress while they connect, when stderr is a
// terminal (w is nil otherwise).
type progress struct {
	mu  sync.Mutex
	w   io.Writer
	cmd string
}

func (p *progress) printf(format string, args ...any) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	printLine(p.w, "guardian %s: %s", p.cmd, fmt.Sprintf(format, args...))
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	switch len(q) {
	case 0:
		return ""
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// errorText is an error's reason without the path it names: a
// *fs.PathError's Err, which quotes nothing of the config.
func errorText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
