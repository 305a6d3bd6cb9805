package definition

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"

	"github.com/guardian-agent/guardian-go/internal/canonjson"
)

// FormatVersion is the version of the definition document format this
// package writes and reads, recorded in every document's "formatVersion".
const FormatVersion = 1

// AgentRecord is an agent as its definition document records it; the Go
// form of the document, field for field (the JSON Schema in
// definition.schema.json describes the same shape, and a test holds the two
// together). A Definition's Record returns it.
type AgentRecord struct {
	// FormatVersion is set on the top-level agent only.
	FormatVersion int    `json:"formatVersion,omitempty"`
	Name          string `json:"name"`
	Description   string `json:"description,omitempty"`
	Model         string `json:"model,omitempty"`
	SystemPrompt  string `json:"systemPrompt,omitempty"`
	// Tools are sorted by name.
	Tools []ToolRecord `json:"tools"`
	// MCPServers are the servers the agent's own tools come from, sorted by
	// name.
	MCPServers []Server `json:"mcpServers"`
	// SubAgents are in the order the Agent gives them; each records the
	// servers of its own tools.
	SubAgents  []AgentRecord `json:"subAgents,omitempty"`
	Extensions Extensions    `json:"extensions"`
}

// ToolRecord is a tool as the model sees it, and the fingerprint of the
// code that shapes its calls.
type ToolRecord struct {
	Name  string `json:"name"`
	Title string `json:"title,omitempty"`
	// Description is recorded even when empty: the model sees "" too.
	Description string `json:"description"`
	// InputSchema, OutputSchema and Annotations are canonical JSON
	// (compact); OutputSchema and Annotations are nil when the server gave
	// none.
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
	// SourceHash is "blake3:<64 hex>", the fingerprint of the code that
	// changes what a call does (see package fingerprint); "" when no code of
	// the user's shapes the tool's calls (an MCP tool with no interceptors
	// or handlers of the user's).
	SourceHash string `json:"sourceHash,omitempty"`
}

// Extensions holds the document's namespaced extensions; "guardian" is
// this library's namespace.
type Extensions struct {
	Guardian GuardianExtension `json:"guardian"`
}

// GuardianExtension is guardian-go's extension of the document.
type GuardianExtension struct {
	// MCPTools maps each MCP tool's name to the name of the server it calls.
	MCPTools map[string]string `json:"mcpTools"`
	// Exclude lists, sorted, the JSON pointers left out of the document
	// (Options.Exclude), so a reader knows what is not recorded. Set on the
	// top-level agent only.
	Exclude []string `json:"exclude,omitempty"`
}

func (r *AgentRecord) clone() *AgentRecord {
	c := *r
	c.Tools = slices.Clone(r.Tools)
	for i := range c.Tools {
		t := &c.Tools[i]
		t.InputSchema = slices.Clone(t.InputSchema)
		t.OutputSchema = slices.Clone(t.OutputSchema)
		t.Annotations = slices.Clone(t.Annotations)
	}
	c.MCPServers = slices.Clone(r.MCPServers)
	for i := range c.MCPServers {
		c.MCPServers[i].Args = slices.Clone(c.MCPServers[i].Args)
	}
	if r.SubAgents != nil {
		c.SubAgents = make([]AgentRecord, len(r.SubAgents))
		for i := range r.SubAgents {
			c.SubAgents[i] = *r.SubAgents[i].clone()
		}
	}
	c.Extensions.Guardian.MCPTools = maps.Clone(r.Extensions.Guardian.MCPTools)
	c.Extensions.Guardian.Exclude = slices.Clone(r.Extensions.Guardian.Exclude)
	return &c
}

// The document's keys. Canonical encoding sorts them; naming them once
// keeps the builder, the strict reader and the schema test in step.
const (
	keyFormatVersion = "formatVersion"
	keyName          = "name"
	keyDescription   = "description"
	keyModel         = "model"
	keySystemPrompt  = "systemPrompt"
	keyTools         = "tools"
	keyMCPServers    = "mcpServers"
	keySubAgents     = "subAgents"
	keyExtensions    = "extensions"
	keyGuardian      = "guardian"
	keyMCPTools      = "mcpTools"
	keyExclude       = "exclude"

	keyTitle        = "title"
	keyInputSchema  = "inputSchema"
	keyOutputSchema = "outputSchema"
	keyAnnotations  = "annotations"
	keySourceHash   = "sourceHash"

	keyTransport = "transport"
	keyURL       = "url"
	keyCommand   = "command"
	keyArgs      = "args"
)

// agentValue is the document tree of an agent whose schemas are already
// parsed (tv holds them, index for index with r.Tools).
func agentValue(r *AgentRecord, tv []toolValues, sub []canonjson.Value) canonjson.Value {
	m := make([]canonjson.Member, 0, 10)
	if r.FormatVersion != 0 {
		m = append(m, canonjson.Member{Key: keyFormatVersion, Value: canonjson.Value{Kind: canonjson.Number, Text: itoa(r.FormatVersion)}})
	}
	m = append(m, canonjson.Member{Key: keyName, Value: canonjson.Str(r.Name)})
	m = appendOptional(m, keyDescription, r.Description)
	m = appendOptional(m, keyModel, r.Model)
	m = appendOptional(m, keySystemPrompt, r.SystemPrompt)
	// One array holds every tool's members: Build makes this tree on every
	// call, and one allocation in place of one per tool halves its cost.
	tools := make([]canonjson.Value, len(r.Tools))
	members := make([]canonjson.Member, 0, toolKeys*len(r.Tools))
	for i := range r.Tools {
		start := len(members)
		members = appendToolMembers(members, &r.Tools[i], tv[i])
		tools[i] = canonjson.Value{Kind: canonjson.Object, Members: slices.Clip(members[start:])}
	}
	m = append(m, canonjson.Member{Key: keyTools, Value: canonjson.Arr(tools...)})
	servers := make([]canonjson.Value, len(r.MCPServers))
	for i := range r.MCPServers {
		servers[i] = serverValue(&r.MCPServers[i])
	}
	m = append(m, canonjson.Member{Key: keyMCPServers, Value: canonjson.Arr(servers...)})
	if len(sub) > 0 {
		m = append(m, canonjson.Member{Key: keySubAgents, Value: canonjson.Arr(sub...)})
	}
	names := slices.Sorted(maps.Keys(r.Extensions.Guardian.MCPTools))
	mt := make([]canonjson.Member, len(names))
	for i, n := range names {
		mt[i] = canonjson.Member{Key: n, Value: canonjson.Str(r.Extensions.Guardian.MCPTools[n])}
	}
	g := []canonjson.Member{{Key: keyMCPTools, Value: canonjson.Obj(mt...)}}
	if len(r.Extensions.Guardian.Exclude) > 0 {
		ex := make([]canonjson.Value, len(r.Extensions.Guardian.Exclude))
		for i, p := range r.Extensions.Guardian.Exclude {
			ex[i] = canonjson.Str(p)
		}
		g = append(g, canonjson.Member{Key: keyExclude, Value: canonjson.Arr(ex...)})
	}
	m = append(m, canonjson.Member{Key: keyExtensions, Value: canonjson.Obj(
		canonjson.Member{Key: keyGuardian, Value: canonjson.Obj(g...)})})
	return canonjson.Obj(m...)
}

// toolValues are a tool's parsed JSON parts.
type toolValues struct {
	input, output, annotations canonjson.Value
	hasOutput, hasAnnotations  bool
}

// toolValue is a tool's document tree. Its members are written in sorted
// order (the keys are ASCII, so byte order is RFC 8785's order), which
// saves sorting them for every tool.
func toolValue(t *ToolRecord, v toolValues) canonjson.Value {
	return canonjson.Value{Kind: canonjson.Object, Members: appendToolMembers(make([]canonjson.Member, 0, toolKeys), t, v)}
}

// toolKeys is the most members a tool has.
const toolKeys = 7

// appendToolMembers appends a tool's members to m, in sorted order.
func appendToolMembers(m []canonjson.Member, t *ToolRecord, v toolValues) []canonjson.Member {
	if v.hasAnnotations {
		m = append(m, canonjson.Member{Key: keyAnnotations, Value: v.annotations})
	}
	m = append(m,
		canonjson.Member{Key: keyDescription, Value: canonjson.Str(t.Description)},
		canonjson.Member{Key: keyInputSchema, Value: v.input},
		canonjson.Member{Key: keyName, Value: canonjson.Str(t.Name)},
	)
	if v.hasOutput {
		m = append(m, canonjson.Member{Key: keyOutputSchema, Value: v.output})
	}
	m = appendOptional(m, keySourceHash, t.SourceHash)
	return appendOptional(m, keyTitle, t.Title)
}

// serverValue is a server's document tree, its members in sorted order.
func serverValue(s *Server) canonjson.Value {
	m := make([]canonjson.Member, 0, 5)
	if s.Transport == TransportStdio {
		args := make([]canonjson.Value, len(s.Args))
		for i, a := range s.Args {
			args[i] = canonjson.Str(a)
		}
		m = append(m,
			canonjson.Member{Key: keyArgs, Value: canonjson.Arr(args...)},
			canonjson.Member{Key: keyCommand, Value: canonjson.Str(s.Command)})
	}
	m = append(m,
		canonjson.Member{Key: keyName, Value: canonjson.Str(s.Name)},
		canonjson.Member{Key: keyTransport, Value: canonjson.Str(string(s.Transport))})
	if s.Transport != TransportStdio {
		m = append(m, canonjson.Member{Key: keyURL, Value: canonjson.Str(s.URL)})
	}
	return canonjson.Value{Kind: canonjson.Object, Members: m}
}

func appendOptional(m []canonjson.Member, key, s string) []canonjson.Member {
	if s == "" {
		return m
	}
	return append(m, canonjson.Member{Key: key, Value: canonjson.Str(s)})
}

func itoa(n int) string { return strconv.Itoa(n) }
