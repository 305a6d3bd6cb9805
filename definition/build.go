package definition

import (
	"cmp"
	"hash/maphash"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/guardian-agent/guardian-go/fingerprint"
	"github.com/guardian-agent/guardian-go/internal/canonjson"
	"github.com/guardian-agent/guardian-go/internal/names"
	"github.com/guardian-agent/guardian-go/refusals"
)

// Limits that keep every document Build writes one that Parse reads: the
// strict reader bounds nesting (512 levels), and a tool's schema sits
// inside the document's own nesting, which sub-agents deepen.
const (
	// MaxSubAgentDepth is how deep sub-agents may nest.
	MaxSubAgentDepth = 32
	// MaxJSONDepth is how deep a tool's schemas and annotations may nest:
	// what the document's nesting leaves at the deepest sub-agent.
	MaxJSONDepth = canonjson.MaxDepth - 4 - 2*(MaxSubAgentDepth+1)
)

// Build records the agent a and returns its definition, or refuses: every
// problem found, as *refusals.Error values joined by refusals.Join and
// sorted by pointer. It never returns a partial definition.
//
// Build calls each tool's methods (and MCPRecord) once and does no network
// I/O; it reads the source files of the code it fingerprints.
func Build(a *Agent, opts *Options) (*Definition, error) {
	if opts == nil {
		opts = &Options{}
	}
	fp := opts.Fingerprinter
	if fp == nil {
		fp = fingerprint.New(nil)
	}
	if a == nil {
		return nil, &refusals.Error{Kind: refusals.ErrInvalid, Rule: "agent-nil", Fix: "pass the *Agent to record"}
	}
	b := &builder{fp: fp, visiting: map[*Agent]bool{}, walk: newWalker(opts.ChatModelPackages), seed: maphash.MakeSeed(), cache: opts.Cache}
	b.learn(a, 0)
	b.parser.MaxDepth = MaxJSONDepth
	rec, idx := b.agent(a, "")
	rec.FormatVersion = FormatVersion
	d, err := finish(rec, idx, opts.Exclude, fp, b.errs)
	if err != nil {
		return nil, err
	}
	d.cache = opts.Cache
	return d, nil
}

type builder struct {
	fp       *fingerprint.Fingerprinter
	errs     []error
	visiting map[*Agent]bool
	walk     *walker
	// hashes memoises sourceHash by its parts, and codes the analysis of
	// a code list by its values' identity: the tools of one client share
	// their interceptors and handlers.
	hashes map[string]string
	codes  map[uint64][]*codeInfo
	// slices memoises codes by the code list's memory: the tools of one
	// server share one list, whose contents the MCPTool contract keeps
	// fixed during a Build.
	slices map[codeSlice]*codeInfo
	seed   maphash.Seed
	ids    []codeID // scratch
	parser canonjson.Parser
	cache  *Cache // nil: none
	routed routedModels
}

// learn collects, before the walk, the routed models of a and its
// sub-agents, and the types of the MCP tools they are given, whose method
// values the walk follows.
func (b *builder) learn(a *Agent, depth int) {
	if a == nil || depth > MaxSubAgentDepth {
		return
	}
	b.routed.add(a.ChatModel)
	for _, t := range a.Tools {
		b.walk.knowTool(t)
	}
	for _, m := range a.Middleware {
		if !isNil(m) {
			for _, t := range m.Tools() {
				b.walk.knowTool(t)
			}
		}
	}
	for _, sa := range a.SubAgents {
		b.learn(sa, depth+1)
	}
}

// combine returns the sourceHash of parts, "" when there is no code.
func (b *builder) combine(parts []fingerprint.Part) string {
	if len(parts) == 0 {
		return ""
	}
	key := make([]byte, 0, len(parts)*(32+16))
	for _, p := range parts {
		key = append(key, p.Role...)
		key = append(key, 0)
		key = append(key, p.Digest[:]...)
	}
	if h, ok := b.hashes[string(key)]; ok {
		return h
	}
	h := ""
	if d := fingerprint.Combine(parts...); !d.IsZero() {
		h = d.String()
	}
	if b.hashes == nil {
		b.hashes = map[string]string{}
	}
	b.hashes[string(key)] = h
	return h
}

// refuse adds a refusal; a subject that holds a credential is written as
// a stand-in.
func (b *builder) refuse(kind error, pointer, rule, about, detail, fix string) {
	b.errs = append(b.errs, &refusals.Error{Kind: kind, Pointer: pointer, Rule: rule, Subject: subject(about), Detail: detail, Fix: fix})
}

// pending is a tool on its way into the record.
type pending struct {
	tool   Tool
	mcp    MCPTool // nil for a non-MCP tool
	record MCPRecord
	name   string
	code   *codeInfo // an MCP tool's code, once tool has analysed it
	given  int       // its place among the tools given
}

// agent records one agent (and its sub-agents) at pointer base.
func (b *builder) agent(a *Agent, base string) (*AgentRecord, *agentIndex) {
	rec := &AgentRecord{Name: a.Name, Description: a.Description, Model: a.Model, SystemPrompt: a.SystemPrompt}
	idx := &agentIndex{tools: map[string]int{}}
	if b.visiting[a] {
		b.refuse(refusals.ErrInvalid, base, "sub-agent-cycle", a.Name, "the agent is its own sub-agent", "give each sub-agent once")
		return rec, idx
	}
	if len(b.visiting) > MaxSubAgentDepth {
		b.refuse(refusals.ErrInvalid, base, "sub-agent-too-deep", a.Name,
			"sub-agents nest more than "+strconv.Itoa(MaxSubAgentDepth)+" deep", "flatten the agent's sub-agents")
		return rec, idx
	}
	b.visiting[a] = true
	defer delete(b.visiting, a)

	if a.Name == "" {
		b.refuse(refusals.ErrInvalid, refusals.Append(base, keyName), "agent-name-required", "", "", "give the agent a name")
	}
	b.name(base, keyName, a.Name)
	b.prose(base, keyDescription, a.Description)
	b.prose(base, keyModel, a.Model)
	b.prose(base, keySystemPrompt, a.SystemPrompt)

	tools, given := b.gather(a, base)

	servers := map[string]*serverUse{}
	rec.Tools = make([]ToolRecord, len(tools))
	idx.values = make([]toolValues, len(tools))
	rec.Extensions.Guardian.MCPTools = map[string]string{}
	for i, p := range tools {
		tp := refusals.Append(base, keyTools, strconv.Itoa(i))
		tr, tv := b.tool(p, tp)
		rec.Tools[i], idx.values[i] = tr, tv
		idx.tools[p.name] = i
		if p.mcp != nil && !p.record.SessionBound {
			// A session-bound tool is refused (sessionTool): its server
			// is whatever the session reaches, not one to record.
			useServer(rec.Extensions.Guardian.MCPTools, servers, p)
		}
		b.reach(p, tp, given)
	}
	for i, m := range a.Middleware {
		b.reachMiddleware(m, refusals.Append(base, "middleware", strconv.Itoa(i)), given)
	}
	rec.MCPServers = b.servers(servers, base)

	names := map[string]bool{}
	idx.sub = map[string]*agentIndex{}
	for j, sa := range a.SubAgents {
		sp := refusals.Append(base, keySubAgents, strconv.Itoa(j))
		if sa == nil {
			b.refuse(refusals.ErrInvalid, sp, "sub-agent-nil", "", "", "remove the nil sub-agent")
			continue
		}
		if names[sa.Name] {
			b.refuse(refusals.ErrInvalid, refusals.Append(sp, keyName), "sub-agent-name-duplicate", sa.Name, "", "give each sub-agent its own name")
		}
		names[sa.Name] = true
		sr, si := b.agent(sa, sp)
		rec.SubAgents = append(rec.SubAgents, *sr)
		idx.subList = append(idx.subList, si)
		idx.sub[sa.Name] = si
	}
	return rec, idx
}

// gather returns the agent's tools and its middleware's, sorted by name,
// the same tool given twice counted once, and the set of them.
func (b *builder) gather(a *Agent, base string) ([]*pending, *toolSet) {
	out := make([]*pending, 0, len(a.Tools))
	seen := newToolSet()
	add := func(t Tool, where string) {
		if isNil(t) {
			b.refuse(refusals.ErrInvalid, refusals.Append(base, keyTools), "tool-nil", "", where+" holds a nil tool", "remove the nil tool")
			return
		}
		m, _ := t.(MCPTool)
		var r MCPRecord
		if m != nil {
			r = m.MCPRecord()
		}
		if seen.has(t, m, r) {
			return
		}
		seen.add(t, m, r)
		out = append(out, &pending{tool: t, mcp: m, record: r, name: t.Name(), given: len(out)})
	}
	for _, t := range a.Tools {
		add(t, "Agent.Tools")
	}
	for i, m := range a.Middleware {
		if isNil(m) {
			b.refuse(refusals.ErrInvalid, refusals.Append(base, "middleware", strconv.Itoa(i)), "middleware-nil", "", "", "remove the nil middleware")
			continue
		}
		for _, t := range m.Tools() {
			add(t, "a middleware")
		}
	}
	// By name, tools of one name in the order given.
	slices.SortFunc(out, func(x, y *pending) int {
		if c := strings.Compare(x.name, y.name); c != 0 {
			return c
		}
		return cmp.Compare(x.given, y.given)
	})
	for i := 1; i < len(out); i++ {
		if out[i].name == out[i-1].name {
			b.refuse(refusals.ErrInvalid, refusals.Append(base, keyTools, strconv.Itoa(i)), "tool-name-duplicate", out[i].name,
				"two different tools have this name", "give each tool its own name, e.g. with mcpservers' server-name prefix")
		}
	}
	return out, seen
}

// tool records one tool at pointer tp.
func (b *builder) tool(p *pending, tp string) (ToolRecord, toolValues) {
	t := p.tool
	tr := ToolRecord{Name: p.name, Description: t.Description()}
	var tv toolValues
	if p.name == "" {
		b.refuse(refusals.ErrInvalid, refusals.Append(tp, keyName), "tool-name-required", "", "", "give the tool a name")
	}
	b.name(tp, keyName, tr.Name)
	b.prose(tp, keyDescription, tr.Description)
	tv.input, _ = b.schema(tp, keyInputSchema, p.name, t.InputSchema(), true)

	var parts []fingerprint.Part
	if p.mcp != nil {
		r := p.record
		b.sessionTool(p, tp)
		tr.Title = r.Title
		b.prose(tp, keyTitle, r.Title)
		tv.output, tv.hasOutput = b.schema(tp, keyOutputSchema, p.name, r.OutputSchema, false)
		tv.annotations, tv.hasAnnotations = b.object(tp, keyAnnotations, p.name, r.Annotations)
		p.code = b.code(tp, p.name, r.Code)
		tr.SourceHash = p.code.hash
	} else {
		var d fingerprint.Digest
		var err error
		hp := refusals.Append(tp, keySourceHash)
		if ft, ok := t.(*FuncTool); ok {
			d, err = b.fp.Func(hp, ft.fn)
		} else if a, ok := t.(Adapter); ok {
			d, err = b.fp.Value(hp, a.Adapted())
		} else {
			d, err = b.fp.Value(hp, t)
		}
		if err != nil {
			b.errs = append(b.errs, err)
		} else if !d.IsZero() {
			parts = append(parts, fingerprint.Part{Role: string(RoleFunc), Digest: d})
		}
	}
	if p.mcp == nil {
		tr.SourceHash = b.combine(parts)
	}
	return tr, tv
}

// roleRank is a role's place in the combining order, -1 for an unknown
// role.
func roleRank(r Role) int {
	switch r {
	case RoleFunc:
		return 0
	case RoleInterceptor:
		return 1
	case RoleHTTPClient:
		return 2
	case RoleAuth:
		return 3
	case RoleSampling:
		return 4
	case RoleElicitation:
		return 5
	case RoleRoots:
		return 6
	}
	return -1
}

// codeParts fingerprints an MCP tool's code, in role order.
func (b *builder) codeParts(hp, tool string, code []Code) []fingerprint.Part {
	for _, c := range code {
		if roleRank(c.Role) < 0 {
			b.refuse(refusals.ErrInvalid, hp, "code-role-unknown", tool, "the tool reports code in role "+strconv.Quote(subject(string(c.Role))), "report code only in the roles definition.Role names")
			return nil
		}
	}
	// The MCPTool contract promises role order; sorting (stably, so the
	// interceptor chain keeps its order) makes the hash not depend on it.
	byRole := func(x, y Code) int { return cmp.Compare(roleRank(x.Role), roleRank(y.Role)) }
	if !slices.IsSortedFunc(code, byRole) {
		code = slices.Clone(code)
		slices.SortStableFunc(code, byRole)
	}
	parts := make([]fingerprint.Part, 0, len(code))
	for _, c := range code {
		if isNil(c.Value) {
			continue
		}
		d, err := b.fp.Value(hp, c.Value)
		if err != nil {
			b.errs = append(b.errs, annotate(err, tool, c.Role))
			continue
		}
		if d.IsZero() {
			continue // standard library or mcp-go code: not recorded
		}
		parts = append(parts, fingerprint.Part{Role: string(c.Role), Digest: d})
	}
	return parts
}

// annotate adds which tool and role a fingerprint refusal concerns.
func annotate(err error, tool string, role Role) error {
	rs := refusals.All(err)
	if len(rs) == 0 {
		return err
	}
	out := make([]error, len(rs))
	for i, r := range rs {
		c := *r
		note := string(role) + " code of tool " + strconv.Quote(subject(tool))
		if c.Detail == "" {
			c.Detail = note
		} else {
			c.Detail = note + ": " + c.Detail
		}
		out[i] = &c
	}
	return refusals.Join(out...)
}

// schema parses a JSON Schema the tool gave; it must be an object.
// Required schemas that are missing are refused; optional ones report
// absence.
func (b *builder) schema(base, key, tool string, raw []byte, required bool) (canonjson.Value, bool) {
	if len(raw) == 0 {
		if required {
			b.refuse(refusals.ErrInvalid, refusals.Append(base, key), "input-schema-required", tool, "", "give the tool a JSON Schema object for its arguments")
		}
		return canonjson.Value{}, false
	}
	return b.object(base, key, tool, raw)
}

// object parses raw JSON, given at base/key, that must be an object.
func (b *builder) object(base, key, tool string, raw []byte) (canonjson.Value, bool) {
	if len(raw) == 0 {
		return canonjson.Value{}, false
	}
	if b.cache != nil {
		if v, ok := b.cache.get(raw); ok {
			return v, true // only objects are cached
		}
	}
	v, err := b.parser.Parse(raw)
	if err != nil {
		b.errs = append(b.errs, jsonRefusal(refusals.Append(base, key), err, tool))
		return canonjson.Value{}, false
	}
	if v.Kind != canonjson.Object {
		b.refuse(refusals.ErrInvalid, refusals.Append(base, key), "not-an-object", tool, "it is a JSON "+v.Kind.String(), "give a JSON object")
		return canonjson.Value{}, false
	}
	if errs := textRefusals(v, refusals.Append(base, key)); len(errs) > 0 {
		for _, err := range errs {
			b.errs = append(b.errs, withSubjectTool(err, tool))
		}
		return canonjson.Value{}, false
	}
	if b.cache != nil {
		b.cache.put(raw, v)
	}
	return v, true
}

// jsonRefusal turns a canonjson error into a refusal located at base plus
// the pointer within the parsed value. A key of that pointer that holds a
// credential is withheld: the value did not parse, so its place among its
// object's members is not known.
func jsonRefusal(base string, err error, about string) error {
	if se, ok := err.(*canonjson.SyntaxError); ok {
		return &refusals.Error{Kind: refusals.ErrInvalid, Pointer: base + names.Pointer(se.Pointer), Rule: "json-invalid", Subject: subject(about),
			Detail: se.Msg + " at byte " + strconv.Itoa(se.Offset), Fix: "give valid, duplicate-free UTF-8 JSON"}
	}
	return &refusals.Error{Kind: refusals.ErrInvalid, Pointer: base, Rule: "json-invalid", Subject: subject(about)}
}

// withSubjectTool names the tool in a refusal that names nothing.
func withSubjectTool(err error, tool string) error {
	if r, ok := err.(*refusals.Error); ok && r.Subject == "" {
		c := *r
		c.Subject = subject(tool)
		return &c
	}
	return err
}

// checkText refuses text that is not valid UTF-8, at base/key.
func (b *builder) checkText(base, key, s string) {
	if !utf8.ValidString(s) {
		b.refuse(refusals.ErrInvalid, refusals.Append(base, key), "text-invalid-utf8", "", "", "give valid UTF-8 text")
	}
}

// isNil reports whether v is nil or an interface holding a nil pointer,
// map, slice or func, which would panic when called.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Interface, reflect.Chan:
		return rv.IsNil()
	}
	return false
}
