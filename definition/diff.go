package definition

import (
	"bytes"
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/guardian-agent/guardian-go/internal/canonjson"
	"github.com/guardian-agent/guardian-go/refusals"
)

// Change is one difference between two definitions of an agent, as Diff
// reports it: what changed, where, and a short description of how.
type Change struct {
	// Kind says what changed; see the ChangeKind constants.
	Kind ChangeKind `json:"kind"`
	// Agent is the JSON pointer of the agent the change is in: "" for the
	// top-level agent, "/subAgents/0" for its first sub-agent.
	Agent string `json:"agent,omitempty"`
	// Tool and Server name what changed (the new name, for a rename).
	Tool   string `json:"tool,omitempty"`
	Server string `json:"server,omitempty"`
	// From is the old name of a renamed tool, or of a changed field's
	// owner where that differs.
	From string `json:"from,omitempty"`
	// Detail says how, in a line: the fields or schema locations that
	// changed, a hint's old and new value.
	Detail string `json:"detail,omitempty"`
}

// ChangeKind names a kind of change.
type ChangeKind string

// The kinds of change Diff reports.
const (
	AgentChanged         ChangeKind = "agent-changed" // name, description, model or system prompt
	ToolAdded            ChangeKind = "tool-added"
	ToolRemoved          ChangeKind = "tool-removed"
	ToolRenamed          ChangeKind = "tool-renamed" // same description and schemas under a new name
	ToolDescription      ChangeKind = "tool-description-changed"
	ToolTitle            ChangeKind = "tool-title-changed"
	ToolInputSchema      ChangeKind = "tool-input-schema-changed"
	ToolOutputSchema     ChangeKind = "tool-output-schema-changed"
	ToolAnnotations      ChangeKind = "tool-annotations-changed"
	ToolDestructive      ChangeKind = "tool-destructive-hint-flipped" // called out apart from other annotations
	ToolCode             ChangeKind = "tool-code-changed"             // sourceHash
	ToolServer           ChangeKind = "tool-server-changed"           // calls another server
	ServerAdded          ChangeKind = "server-added"
	ServerRemoved        ChangeKind = "server-removed"
	ServerChanged        ChangeKind = "server-changed" // transport, command, args or url
	SubAgentAdded        ChangeKind = "sub-agent-added"
	SubAgentRemoved      ChangeKind = "sub-agent-removed"
	ExclusionsChanged    ChangeKind = "exclusions-changed"
	FormatVersionChanged ChangeKind = "format-version-changed"
)

// String formats the change on one line.
func (c Change) String() string {
	var b strings.Builder
	if c.Agent != "" {
		b.WriteString(c.Agent)
		b.WriteString(": ")
	}
	b.WriteString(string(c.Kind))
	if c.Tool != "" {
		b.WriteString(" tool ")
		b.WriteString(strconv.Quote(c.Tool))
	}
	if c.From != "" {
		b.WriteString(" (was ")
		b.WriteString(strconv.Quote(c.From))
		b.WriteString(")")
	}
	if c.Server != "" {
		b.WriteString(" server ")
		b.WriteString(strconv.Quote(c.Server))
	}
	if c.Detail != "" {
		b.WriteString(": ")
		b.WriteString(c.Detail)
	}
	return b.String()
}

// Diff reports how new differs from old, tool by tool and server by
// server, in a fixed order: by agent, then servers, then tools, each by
// name. Two definitions with equal digests have no changes. A nil or
// zero Definition counts as an agent with nothing in it.
func Diff(old, new *Definition) []Change {
	if old.Digest() == new.Digest() {
		return nil
	}
	var out []Change
	o, n := old.rec(), new.rec()
	switch {
	case old.zero():
		o = &AgentRecord{FormatVersion: n.FormatVersion, Name: n.Name}
	case new.zero():
		n = &AgentRecord{FormatVersion: o.FormatVersion, Name: o.Name}
	}
	if o.FormatVersion != n.FormatVersion {
		out = append(out, Change{Kind: FormatVersionChanged, Detail: strconv.Itoa(o.FormatVersion) + " → " + strconv.Itoa(n.FormatVersion)})
	}
	if !slices.Equal(o.Extensions.Guardian.Exclude, n.Extensions.Guardian.Exclude) {
		out = append(out, Change{Kind: ExclusionsChanged, Detail: strings.Join(o.Extensions.Guardian.Exclude, ", ") +
			" → " + strings.Join(n.Extensions.Guardian.Exclude, ", ")})
	}
	return diffAgent(out, "", o, n)
}

func diffAgent(out []Change, ptr string, a, b *AgentRecord) []Change {
	var fields []string
	for _, f := range []struct {
		key  string
		x, y string
	}{{keyName, a.Name, b.Name}, {keyDescription, a.Description, b.Description}, {keyModel, a.Model, b.Model}, {keySystemPrompt, a.SystemPrompt, b.SystemPrompt}} {
		if f.x != f.y {
			fields = append(fields, f.key)
		}
	}
	if len(fields) > 0 {
		detail := strings.Join(fields, ", ") + " changed"
		if a.Model != b.Model {
			detail += "; model " + strconv.Quote(a.Model) + " → " + strconv.Quote(b.Model)
		}
		out = append(out, Change{Kind: AgentChanged, Agent: ptr, Detail: detail})
	}
	out = diffServers(out, ptr, a.MCPServers, b.MCPServers)
	out = diffTools(out, ptr, a, b)

	for i := range max(len(a.SubAgents), len(b.SubAgents)) {
		sp := refusals.Append(ptr, keySubAgents, strconv.Itoa(i))
		switch {
		case i >= len(a.SubAgents):
			out = append(out, Change{Kind: SubAgentAdded, Agent: sp, Detail: strconv.Quote(b.SubAgents[i].Name)})
		case i >= len(b.SubAgents):
			out = append(out, Change{Kind: SubAgentRemoved, Agent: sp, Detail: strconv.Quote(a.SubAgents[i].Name)})
		default:
			out = diffAgent(out, sp, &a.SubAgents[i], &b.SubAgents[i])
		}
	}
	return out
}

func diffServers(out []Change, ptr string, a, b []Server) []Change {
	old := map[string]Server{}
	for _, s := range a {
		old[s.Name] = s
	}
	now := map[string]bool{}
	for _, s := range b {
		now[s.Name] = true
		o, ok := old[s.Name]
		if !ok {
			out = append(out, Change{Kind: ServerAdded, Agent: ptr, Server: s.Name, Detail: describeServer(s)})
			continue
		}
		var d []string
		if o.Transport != s.Transport {
			d = append(d, "transport "+string(o.Transport)+" → "+string(s.Transport))
		}
		if o.URL != s.URL {
			d = append(d, "url "+strconv.Quote(o.URL)+" → "+strconv.Quote(s.URL))
		}
		if o.Command != s.Command {
			d = append(d, "command "+strconv.Quote(o.Command)+" → "+strconv.Quote(s.Command))
		}
		if !slices.Equal(o.Args, s.Args) {
			d = append(d, "args "+quoteList(o.Args)+" → "+quoteList(s.Args))
		}
		if len(d) > 0 {
			out = append(out, Change{Kind: ServerChanged, Agent: ptr, Server: s.Name, Detail: strings.Join(d, "; ")})
		}
	}
	for _, s := range a {
		if !now[s.Name] {
			out = append(out, Change{Kind: ServerRemoved, Agent: ptr, Server: s.Name, Detail: describeServer(s)})
		}
	}
	return out
}

func describeServer(s Server) string {
	if s.Transport == TransportStdio {
		return "stdio " + strconv.Quote(s.Command) + " " + quoteList(s.Args)
	}
	return string(s.Transport) + " " + strconv.Quote(s.URL)
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, " ") + "]"
}

func diffTools(out []Change, ptr string, a, b *AgentRecord) []Change {
	old := map[string]*ToolRecord{}
	for i := range a.Tools {
		old[a.Tools[i].Name] = &a.Tools[i]
	}
	now := map[string]*ToolRecord{}
	for i := range b.Tools {
		now[b.Tools[i].Name] = &b.Tools[i]
	}
	// A tool gone and a tool come with the same description and schemas is
	// a rename, which the pinning tools report as a new tool.
	var removed, added []*ToolRecord
	for i := range a.Tools {
		if now[a.Tools[i].Name] == nil {
			removed = append(removed, &a.Tools[i])
		}
	}
	for i := range b.Tools {
		if old[b.Tools[i].Name] == nil {
			added = append(added, &b.Tools[i])
		}
	}
	var changes []Change
	renamedFrom := map[string]*ToolRecord{}
	taken := map[*ToolRecord]bool{}
	for _, n := range added {
		for _, o := range removed {
			if !taken[o] && o.Description == n.Description && bytes.Equal(o.InputSchema, n.InputSchema) && bytes.Equal(o.OutputSchema, n.OutputSchema) {
				renamedFrom[n.Name] = o
				taken[o] = true
				break
			}
		}
	}
	for _, n := range added {
		if o := renamedFrom[n.Name]; o != nil {
			changes = append(changes, Change{Kind: ToolRenamed, Agent: ptr, Tool: n.Name, From: o.Name})
			changes = append(changes, toolChanges(ptr, n.Name, o, n, a, b)...)
			continue
		}
		changes = append(changes, Change{Kind: ToolAdded, Agent: ptr, Tool: n.Name, Server: b.Extensions.Guardian.MCPTools[n.Name]})
	}
	for _, o := range removed {
		if !taken[o] {
			changes = append(changes, Change{Kind: ToolRemoved, Agent: ptr, Tool: o.Name, Server: a.Extensions.Guardian.MCPTools[o.Name]})
		}
	}
	for i := range b.Tools {
		n := &b.Tools[i]
		if o := old[n.Name]; o != nil {
			changes = append(changes, toolChanges(ptr, n.Name, o, n, a, b)...)
		}
	}
	slices.SortStableFunc(changes, func(x, y Change) int { return cmp.Compare(x.Tool, y.Tool) })
	return append(out, changes...)
}

// toolChanges compares one tool's two records (old name in o.Name).
func toolChanges(ptr, name string, o, n *ToolRecord, a, b *AgentRecord) []Change {
	var out []Change
	c := func(k ChangeKind, detail string) {
		out = append(out, Change{Kind: k, Agent: ptr, Tool: name, Detail: detail})
	}
	if o.Title != n.Title {
		c(ToolTitle, strconv.Quote(o.Title)+" → "+strconv.Quote(n.Title))
	}
	if o.Description != n.Description {
		c(ToolDescription, strconv.Quote(o.Description)+" → "+strconv.Quote(n.Description))
	}
	if !bytes.Equal(o.InputSchema, n.InputSchema) {
		c(ToolInputSchema, "changed at "+schemaChanges(o.InputSchema, n.InputSchema))
	}
	if !bytes.Equal(o.OutputSchema, n.OutputSchema) {
		c(ToolOutputSchema, "changed at "+schemaChanges(o.OutputSchema, n.OutputSchema))
	}
	if !bytes.Equal(o.Annotations, n.Annotations) {
		flipped, rest := annotationChanges(o.Annotations, n.Annotations)
		if flipped != "" {
			c(ToolDestructive, flipped)
		}
		if rest != "" {
			c(ToolAnnotations, rest)
		}
	}
	if os, ns := a.Extensions.Guardian.MCPTools[o.Name], b.Extensions.Guardian.MCPTools[n.Name]; os != ns {
		c(ToolServer, strconv.Quote(os)+" → "+strconv.Quote(ns))
	}
	if o.SourceHash != n.SourceHash {
		c(ToolCode, "sourceHash "+o.SourceHash+" → "+n.SourceHash)
	}
	return out
}

// schemaChanges lists the JSON pointers within two schemas whose values
// differ, at most a few.
func schemaChanges(a, b []byte) string {
	va, _ := canonjson.Parse(orEmpty(a))
	vb, _ := canonjson.Parse(orEmpty(b))
	var ps []string
	var walk func(p string, x, y canonjson.Value)
	walk = func(p string, x, y canonjson.Value) {
		if x.Equal(y) {
			return
		}
		if x.Kind == canonjson.Object && y.Kind == canonjson.Object {
			keys := map[string]bool{}
			for _, m := range x.Members {
				keys[m.Key] = true
			}
			for _, m := range y.Members {
				keys[m.Key] = true
			}
			for _, k := range slices.Sorted(maps.Keys(keys)) {
				cx, _ := x.Get(k)
				cy, _ := y.Get(k)
				walk(refusals.Append(p, k), cx, cy)
			}
			return
		}
		ps = append(ps, orRoot(p))
	}
	walk("", va, vb)
	const most = 5
	if len(ps) > most {
		return strings.Join(ps[:most], ", ") + " and " + strconv.Itoa(len(ps)-most) + " more"
	}
	return strings.Join(ps, ", ")
}

func orEmpty(b []byte) []byte {
	if len(b) == 0 {
		return []byte("null")
	}
	return b
}

func orRoot(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// annotationChanges describes changed hints; a flip of destructiveHint
// comes back on its own.
func annotationChanges(a, b []byte) (destructive, rest string) {
	va, _ := canonjson.Parse(orEmpty(a))
	vb, _ := canonjson.Parse(orEmpty(b))
	keys := map[string]bool{}
	for _, m := range va.Members {
		keys[m.Key] = true
	}
	for _, m := range vb.Members {
		keys[m.Key] = true
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		x, okx := va.Get(k)
		y, oky := vb.Get(k)
		if okx == oky && x.Equal(y) {
			continue
		}
		d := k + " " + annotationText(x, okx) + " → " + annotationText(y, oky)
		if k == "destructiveHint" {
			destructive = d
			continue
		}
		parts = append(parts, d)
	}
	return destructive, strings.Join(parts, "; ")
}

func annotationText(v canonjson.Value, ok bool) string {
	if !ok {
		return "(unset)"
	}
	return string(canonjson.EncodeCompact(v))
}
