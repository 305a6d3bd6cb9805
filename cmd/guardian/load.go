package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/internal/mcpconfig"
	"github.com/guardian-agent/guardian-go/internal/names"
	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/refusals"
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

// load starts the selected servers and loads their tools, reporting each
// server's outcome. ok is false when the recording ends here: a client
// that cannot be made, an interrupt, or a failed server without
// --keep-going.
func (rec *recording) load(ctx context.Context, e *env, cmd, path string, selected []mcpconfig.Server, r *resolved, o *recordOptions) (tools []definition.Tool, ok bool) {
	defer withOAuth(e, path, r.conns)() // OAuth for HTTP servers given no token: oauth.go
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
