// Package mcpconfig reads the MCP client config files people already have:
// Claude Desktop, Cursor, Claude Code, Windsurf and Cline
// ({"mcpServers": {name: {...}}}, and Claude Code's per-project
// {"projects": {path: {"mcpServers": ...}}} in ~/.claude.json) and VS Code ({"servers": {name:
// {"type": ...}}, "inputs": [...]}, or a settings.json with {"mcp":
// {"servers": ...}}), comments and trailing commas included.
//
// It is strict: malformed JSON, duplicate keys, invalid UTF-8, a field of
// the wrong type or a server it cannot place on a transport is an *Error
// that names the line, column and JSON pointer and never quotes a value;
// stdio args that are not all strings are a refusals.ErrArgsNotStrings
// refusal at the offending pointer. Either the whole file is read, or
// nothing is; ParseAll also returns the config when the only problems are
// such refusals, so that a scan can check the rest of it.
//
// What a definition may record (name, transport, command, args, url) is
// kept apart from what is only used to connect (env, headers, cwd, ...),
// which lives in Server.Connection.
//
// References (${env:NAME}, ${input:ID}, ${workspaceFolder}, and Claude
// Code's ${NAME}) are kept as written by Parse; Server.Resolve replaces
// them with values the caller supplies, and ReadEnvFile reads a server's
// envFile.
package mcpconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/guardian-agent/guardian-go/internal/names"
	"github.com/guardian-agent/guardian-go/refusals"
)

// Transport is how a client reaches a server, normalised to the names a
// definition uses.
type Transport string

// The transports. Config files also say "http", "streamable-http",
// "streamable" (all StreamableHTTP) and "ws" (WebSocket).
const (
	Stdio          Transport = "stdio"
	SSE            Transport = "sse"
	StreamableHTTP Transport = "streamable_http"
	WebSocket      Transport = "websocket"
)

// Config is a config file's servers, in file order.
type Config struct {
	Servers []Server
}

// Server is one server entry.
type Server struct {
	// Name is the entry's key.
	Name string
	// Pointer is the RFC 6901 pointer of the entry in its file, such as
	// /mcpServers/github or /servers/github or /mcp/servers/github. A key
	// that holds a credential (a server name, a project path) is written
	// "<member N>", its index among its object's members in file order, so
	// that no pointer quotes one; Label is its last token.
	Pointer string
	// Transport is given by "type" or "transport", or inferred: a command
	// means stdio; a ws:// or wss:// URL websocket; a URL whose path ends
	// in /sse, SSE; any other URL, streamable HTTP.
	Transport Transport
	// Command and Args, for stdio.
	Command string
	Args    []string
	// URL, for the other transports.
	URL string
	// Project is, for a server of Claude Code's ~/.claude.json under
	// projects.<path>.mcpServers, the project's path (a key of projects);
	// "" for every other server. It is a path on this machine: it is in
	// Pointer, and must never be recorded.
	Project string
	// Connection holds what is used to connect and never recorded.
	Connection Connection

	urlKey string // the member the URL came from: url, or serverUrl
	// The env and headers keys in file order, for the stand-ins of the
	// pointers Resolve makes.
	envKeys, headerKeys []string
}

// MemberPointer returns the pointer of the member key of the server's
// field "env" or "headers" (key's stand-in when it holds a credential),
// and false when the config has no such member (a variable of the
// envFile, say).
func (s *Server) MemberPointer(field, key string) (string, bool) {
	keys := s.envKeys
	if field == "headers" {
		keys = s.headerKeys
	} else if field != "env" {
		return "", false
	}
	i := slices.Index(keys, key)
	if i < 0 {
		return "", false
	}
	return names.Append(refusals.Append(s.Pointer, field), key, i), true
}

// Label is the server's name as it may be printed: its name, or, when
// the name holds a credential, its stand-in "<member N>" (the last token
// of Pointer).
func (s *Server) Label() string {
	toks, err := refusals.Tokens(s.Pointer)
	if err != nil || len(toks) == 0 {
		return names.Subject(s.Name)
	}
	return toks[len(toks)-1]
}

// URLPointer is the pointer of the URL's member in the file: Pointer +
// "/url", or "/serverUrl" for Windsurf's spelling.
func (s *Server) URLPointer() string {
	if s.urlKey != "" {
		return refusals.Append(s.Pointer, s.urlKey)
	}
	return refusals.Append(s.Pointer, "url")
}

// Connection is a server entry's settings that a definition never records:
// they hold secrets (env, headers) or differ between machines (cwd).
type Connection struct {
	// Env is the "env" object. Numbers and booleans are kept as their JSON
	// text; null entries (VS Code's "unset") are left out.
	Env map[string]string
	// EnvFile is VS Code's and Cursor's "envFile".
	EnvFile string
	// Cwd is the working directory.
	Cwd string
	// Headers is the "headers" object.
	Headers map[string]string
	// Other holds every other member of the entry ("disabled", "oauth",
	// "timeout", "autoApprove", ...) as compact JSON.
	Other map[string]json.RawMessage
}

// Error is malformed input: where it is (line and column, 1-based, and
// the JSON pointer of the value when there is one) and what is wrong. It
// never quotes the input. errors.Is(err, refusals.ErrInvalid) holds.
type Error struct {
	Line, Column int
	Pointer      string
	Msg          string
}

// Error formats the problem as "mcpconfig: LINE:COLUMN: POINTER: MSG".
func (e *Error) Error() string {
	if e.Pointer != "" {
		return fmt.Sprintf("mcpconfig: %d:%d: %s: %s", e.Line, e.Column, e.Pointer, e.Msg)
	}
	return fmt.Sprintf("mcpconfig: %d:%d: %s", e.Line, e.Column, e.Msg)
}

// Unwrap returns refusals.ErrInvalid.
func (e *Error) Unwrap() error { return refusals.ErrInvalid }

// ReadFile reads and parses the config file name, a regular file of at
// most MaxFileSize bytes (ReadBounded). A file that cannot be read gives an
// *fs.PathError.
func ReadFile(name string) (*Config, error) {
	data, err := ReadBounded(name, MaxFileSize)
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

// Parse parses a config file's bytes. It returns the whole config, or an
// error: a *Error for malformed input (the first syntax error, or every
// structural one), refusals for stdio args that are not strings, joined
// with refusals.Join.
func Parse(data []byte) (*Config, error) {
	cfg, err := ParseAll(data)
	if err != nil {
		return nil, err
	}
	return cfg, nil
}

// ReadFileAll reads and parses the config file name as ParseAll does.
func ReadFileAll(name string) (*Config, error) {
	data, err := ReadBounded(name, MaxFileSize)
	if err != nil {
		return nil, err
	}
	return ParseAll(data)
}

// ParseAll is Parse, but when the only problems are refusals (stdio args
// that are not strings) it returns the config with them: every server,
// each refused argument an empty string at its index, so that the others
// keep their pointers. Such a config is for checking, never for starting
// or recording a server. A *Error still gives no config.
func ParseAll(data []byte) (*Config, error) {
	root, err := parseJSONC(data)
	if err != nil {
		return nil, err
	}
	r := reader{data: data}
	if root.kind != kindObject {
		return nil, r.errorAt(root.off, "", "the file is "+root.kind.String()+", want an object with mcpServers or servers")
	}
	projects, hasProjects := r.projects(root)
	servers, path := r.serversObject(root, hasProjects)
	if servers == nil && !hasProjects || r.invalid > 0 {
		return nil, refusals.Join(r.errs...)
	}
	cfg := &Config{}
	if servers != nil {
		for i, name := range servers.keys {
			ptr := names.Append(refusals.Pointer(path...), name, i)
			if s, ok := r.server(name, ptr, servers.vals[i]); ok {
				cfg.Servers = append(cfg.Servers, s)
			}
		}
	}
	// Claude Code's per-project servers, after the user's, in file order.
	for _, p := range projects {
		for i, name := range p.servers.keys {
			ptr := names.Append(refusals.Append(p.pointer, "mcpServers"), name, i)
			if s, ok := r.server(name, ptr, p.servers.vals[i]); ok {
				s.Project = p.path
				cfg.Servers = append(cfg.Servers, s)
			}
		}
	}
	switch {
	case r.invalid > 0:
		return nil, refusals.Join(r.errs...)
	case len(r.errs) > 0:
		return cfg, refusals.Join(r.errs...)
	}
	return cfg, nil
}

type reader struct {
	data    []byte
	errs    []error
	invalid int // how many of errs are *Error
}

func (r *reader) errorAt(off int, pointer, msg string) *Error {
	line, col := position(r.data, off)
	return &Error{Line: line, Column: col, Pointer: pointer, Msg: msg}
}

func (r *reader) fail(off int, pointer, msg string) {
	r.errs = append(r.errs, r.errorAt(off, pointer, msg))
	r.invalid++
}

// project is one project of Claude Code's ~/.claude.json with servers.
type project struct {
	path    string
	pointer string // /projects/<path>, the path's stand-in if it holds a credential
	servers *node
}

// projects reads Claude Code's {"projects": {"<path>": {"mcpServers":
// {...}, ...}}}: the projects with an mcpServers object, and whether
// there is a projects object at all. Every other member of a project is
// Claude Code's own and ignored.
func (r *reader) projects(root *node) ([]project, bool) {
	n, _, ok := root.member("projects")
	if !ok {
		return nil, false
	}
	if n.kind != kindObject {
		r.fail(n.off, "/projects", "is "+n.kind.String()+", want an object of projects by path")
		return nil, true
	}
	var out []project
	for i, path := range n.keys {
		v := n.vals[i]
		at := names.Append("/projects", path, i)
		if v.kind != kindObject {
			r.fail(v.off, at, "project is "+v.kind.String()+", want an object")
			continue
		}
		ms, _, ok := v.member("mcpServers")
		if !ok {
			continue
		}
		if ms.kind != kindObject {
			r.fail(ms.off, refusals.Append(at, "mcpServers"), "is "+ms.kind.String()+", want an object of servers by name")
			continue
		}
		out = append(out, project{path: path, pointer: at, servers: ms})
	}
	return out, true
}

// serversObject finds the servers: mcpServers, servers, or mcp.servers.
// With Claude Code's projects (orProjects), there may be none.
func (r *reader) serversObject(root *node, orProjects bool) (*node, []string) {
	type place struct {
		n    *node
		koff int
		path []string
	}
	var found []place
	if n, off, ok := root.member("mcpServers"); ok {
		found = append(found, place{n, off, []string{"mcpServers"}})
	}
	if n, off, ok := root.member("servers"); ok {
		found = append(found, place{n, off, []string{"servers"}})
	}
	if mcp, _, ok := root.member("mcp"); ok && mcp.kind == kindObject {
		if n, off, ok := mcp.member("servers"); ok {
			found = append(found, place{n, off, []string{"mcp", "servers"}})
		}
	}
	switch len(found) {
	case 0:
		if !orProjects {
			r.fail(root.off, "", "no mcpServers or servers object")
		}
		return nil, nil
	case 1:
	default:
		r.fail(found[1].koff, refusals.Pointer(found[1].path...), "more than one servers object (mcpServers, servers, mcp.servers): keep one")
		return nil, nil
	}
	p := found[0]
	if p.n.kind != kindObject {
		r.fail(p.n.off, refusals.Pointer(p.path...), "is "+p.n.kind.String()+", want an object of servers by name")
		return nil, nil
	}
	return p.n, p.path
}

// server reads one entry; problems go to r.errs.
func (r *reader) server(name, ptr string, n *node) (Server, bool) {
	s := Server{Name: name, Pointer: ptr}
	if n.kind != kindObject {
		r.fail(n.off, ptr, "server is "+n.kind.String()+", want an object")
		return s, false
	}
	before := r.invalid // refused args do not stop the entry being read
	var typ, transport *node
	urlKey := "" // the member that gave the URL
	for i, key := range n.keys {
		v, at := n.vals[i], names.Append(ptr, key, i)
		switch key {
		case "type":
			typ = v
		case "transport", "transportType": // Cline writes transportType
			if transport != nil {
				r.fail(n.koffs[i], at, "both transport and transportType")
			}
			transport = v
		case "command":
			s.Command = r.str(v, at)
		case "url", "serverUrl": // Windsurf writes serverUrl
			if urlKey != "" {
				r.fail(n.koffs[i], at, "both url and serverUrl")
			}
			urlKey = key
			s.URL = r.str(v, at)
		case "args":
			s.Args = r.args(v, at)
		case "env":
			s.Connection.Env, s.envKeys = r.strMap(v, at, true)
		case "headers":
			s.Connection.Headers, s.headerKeys = r.strMap(v, at, false)
		case "envFile":
			s.Connection.EnvFile = r.str(v, at)
		case "cwd":
			s.Connection.Cwd = r.str(v, at)
		default:
			if s.Connection.Other == nil {
				s.Connection.Other = map[string]json.RawMessage{}
			}
			var b bytes.Buffer
			v.marshal(&b)
			s.Connection.Other[key] = b.Bytes()
		}
	}
	var given Transport
	for _, t := range []struct {
		n   *node
		key string
	}{{typ, "type"}, {transport, transportKey(n)}} {
		if t.n == nil {
			continue
		}
		at := refusals.Append(ptr, t.key)
		if t.n.kind != kindString {
			r.fail(t.n.off, at, "is "+t.n.kind.String()+", want a string")
			continue
		}
		tr, ok := normalise(t.n.str)
		if !ok {
			r.fail(t.n.off, at, "unknown transport: want stdio, sse, http, streamable_http or websocket")
			continue
		}
		if given != "" && given != tr {
			r.fail(t.n.off, at, "type and transport disagree")
			continue
		}
		given = tr
	}
	if r.invalid > before {
		return s, false
	}
	s.urlKey = urlKey
	hasCmd, hasURL := memberPresent(n, "command"), urlKey != ""
	switch {
	case hasCmd && hasURL:
		r.fail(n.off, ptr, "has both command and url: a server is stdio (command) or remote (url)")
	case given == "" && hasCmd:
		s.Transport = Stdio
	case given == "" && hasURL:
		s.Transport = inferRemote(s.URL)
	case given == "":
		r.fail(n.off, ptr, "has neither command nor url")
	case given == Stdio && !hasCmd:
		r.fail(n.off, ptr, "is a stdio server without a command")
	case given != Stdio && !hasURL:
		r.fail(n.off, ptr, "is a remote server without a url")
	case given != Stdio && hasCmd:
		r.fail(n.off, ptr, "is a remote server with a command")
	default:
		s.Transport = given
	}
	if !hasCmd && s.Args != nil {
		r.fail(n.off, refusals.Append(ptr, "args"), "args without a command")
	}
	return s, r.invalid == before
}

// transportKey: the member naming the transport, for pointers.
func transportKey(n *node) string {
	if memberPresent(n, "transportType") {
		return "transportType"
	}
	return "transport"
}

func memberPresent(n *node, key string) bool {
	_, _, ok := n.member(key)
	return ok
}

// normalise maps the transport names config files use.
func normalise(t string) (Transport, bool) {
	switch strings.ToLower(t) {
	case "stdio":
		return Stdio, true
	case "sse":
		return SSE, true
	case "http", "streamable_http", "streamable-http", "streamable", "streamablehttp":
		return StreamableHTTP, true
	case "ws", "websocket":
		return WebSocket, true
	}
	return "", false
}

// inferRemote: a URL with no type.
func inferRemote(u string) Transport {
	lower := strings.ToLower(u)
	if strings.HasPrefix(lower, "ws://") || strings.HasPrefix(lower, "wss://") {
		return WebSocket
	}
	path := lower
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	if strings.HasSuffix(strings.TrimSuffix(path, "/"), "/sse") {
		return SSE
	}
	return StreamableHTTP
}

func (r *reader) str(n *node, at string) string {
	if n.kind != kindString {
		r.fail(n.off, at, "is "+n.kind.String()+", want a string")
		return ""
	}
	return n.str
}

// args: a list of strings, or ErrArgsNotStrings at the offending
// pointer; a value that is not a string is "" in the list (see ParseAll).
func (r *reader) args(n *node, at string) []string {
	if n.kind != kindArray {
		r.errs = append(r.errs, notStrings(r.data, n.off, at))
		return nil
	}
	out := make([]string, 0, len(n.vals))
	for i, v := range n.vals {
		if v.kind != kindString {
			r.errs = append(r.errs, notStrings(r.data, v.off, refusals.Append(at, fmt.Sprint(i))))
			out = append(out, "")
			continue
		}
		out = append(out, v.str)
	}
	return out
}

func notStrings(data []byte, off int, at string) *refusals.Error {
	line, col := position(data, off)
	return &refusals.Error{
		Kind:    refusals.ErrArgsNotStrings,
		Pointer: at,
		Rule:    "args-not-strings",
		Detail:  fmt.Sprintf("line %d, column %d", line, col),
		Fix:     "give args as a list of strings, quoting numbers and booleans",
	}
}

// strMap: an object of strings (env also takes numbers, booleans and
// null), and its keys in file order. A key is pointed at by its stand-in
// when it holds a credential (a header pasted whole as the key).
func (r *reader) strMap(n *node, at string, env bool) (map[string]string, []string) {
	if n.kind != kindObject {
		r.fail(n.off, at, "is "+n.kind.String()+", want an object")
		return nil, nil
	}
	out := make(map[string]string, len(n.keys))
	for i, k := range n.keys {
		v := n.vals[i]
		switch {
		case v.kind == kindString:
			out[k] = v.str
		case env && (v.kind == kindNumber || v.kind == kindBool):
			out[k] = v.str
		case env && v.kind == kindNull:
		default:
			r.fail(v.off, names.Append(at, k, i), "is "+v.kind.String()+", want a string")
		}
	}
	return out, n.keys
}
