package definition

import (
	"hash/maphash"
	"slices"
	"strconv"

	"github.com/guardian-agent/guardian-go/internal/canonjson"
	"github.com/guardian-agent/guardian-go/refusals"
)

// Vet checks, before a call is sent, that tool t is one the definition
// describes: a tool of that name, as the model saw it (description,
// schemas, annotations), calling the same server, shaped by the same code
// (the same sourceHash). Anything else is refused with an error for which
// errors.Is(err, refusals.ErrUndescribed) holds, located at the recorded
// tool or server. subAgents names the sub-agent, and its sub-agents, whose
// tools to vet against; none means the top-level agent.
//
// An agent loop vets every tool it is about to call, whoever asks for the
// call (the model, or middleware calling a tool directly):
//
//	if err := def.Vet(tool); err != nil {
//		return err // nothing was sent
//	}
//	result, err := tool.Call(ctx, args)
//
// Binding the definition to the run's context (Bind) makes every call
// vet itself so, whoever makes it.
//
// The first Vet of a tool records it anew, which costs about what recording
// one tool does; a tool that passed is remembered, and vetted again by
// comparing what it presents (a fraction of a microsecond).
func (d *Definition) Vet(t Tool, subAgents ...string) error {
	return d.vet(t, subAgents, memoPath(subAgents))
}

// vet is Vet, with path the sub-agent path as the vet memo keys it. A tool
// that presents exactly what it presented when it last passed is passed
// again without recording it anew (see vetmemo.go).
func (d *Definition) vet(t Tool, subAgents []string, path string) error {
	if d.zero() {
		return errNilDefinition
	}
	if isNil(t) {
		return d.vetFull(t, subAgents)
	}
	key, seen := d.memo.lookup(t, path)
	if seen {
		return nil
	}
	if err := d.vetFull(t, subAgents); err != nil {
		return err
	}
	d.memo.remember(key, t)
	return nil
}

// vetFull records t anew and compares it with the recorded tool.
func (d *Definition) vetFull(t Tool, subAgents []string) error {
	idx := d.index
	for _, name := range subAgents {
		s, ok := idx.sub[name]
		if !ok {
			return undescribed(refusals.Append(idx.pointer, keySubAgents), "sub-agent-unknown", name, "the definition has no sub-agent of this name")
		}
		idx = s
	}
	if isNil(t) {
		return undescribed(refusals.Append(idx.pointer, keyTools), "tool-nil", "", "a nil tool")
	}
	name := t.Name()
	i, ok := idx.tools[name]
	if !ok {
		return undescribed(refusals.Append(idx.pointer, keyTools), "tool-unknown", name, "the definition describes no tool of this name")
	}
	base, _ := refusals.Tokens(idx.pointer)
	agent, _ := at(d.root, base)
	tools, _ := agent.Get(keyTools)
	tp := refusals.Append(idx.pointer, keyTools, strconv.Itoa(i))
	recorded := tools.Items[i]

	b := &builder{fp: d.fingerprinter(), walk: newWalker(nil), seed: maphash.MakeSeed(), cache: d.cache}
	m, _ := t.(MCPTool)
	var r MCPRecord
	if m != nil {
		r = m.MCPRecord()
	}
	p := &pending{tool: t, mcp: m, record: r, name: name}
	tr, tv := b.tool(p, tp)
	if len(b.errs) > 0 {
		return refusals.Join(append([]error{&refusals.Error{Kind: refusals.ErrUndescribed, Pointer: tp, Rule: "tool-unrecordable", Subject: subject(name),
			Detail: "the tool as it is now could not be recorded", Fix: "build the definition again with the tools the agent runs"}}, b.errs...)...)
	}
	ext, _ := agent.Get(keyExtensions)
	g, _ := ext.Get(keyGuardian)
	mt, _ := g.Get(keyMCPTools)
	serverName, isMCP := mt.Get(name)
	if isMCP != (m != nil) {
		return undescribed(tp, "tool-server-changed", name, "the tool is recorded as calling another kind of server")
	}
	ex := d.exclude
	presented := excludeUnder(toolValue(&tr, tv), ex, slices.Concat(base, []string{keyTools, strconv.Itoa(i)}))
	if !presented.Equal(recorded) {
		key := firstDifference(presented, recorded)
		return undescribed(refusals.Append(tp, key), changeRule(key), name, "the tool differs from the one recorded")
	}
	if m == nil {
		return nil
	}
	servers, _ := agent.Get(keyMCPServers)
	for n, sv := range servers.Items {
		sn, _ := sv.Get(keyName)
		if sn.Text != serverName.Text {
			continue
		}
		s := r.Server
		got := excludeUnder(serverValue(&s), ex, slices.Concat(base, []string{keyMCPServers, strconv.Itoa(n)}))
		if s.Name != serverName.Text || !got.Equal(sv) {
			return undescribed(refusals.Append(idx.pointer, keyMCPServers, strconv.Itoa(n)), "tool-server-changed", name,
				"the tool calls a server other than the one recorded")
		}
		return nil
	}
	return undescribed(tp, "tool-server-changed", name, "the tool's recorded server is missing")
}

func undescribed(ptr, rule, about, detail string) error {
	return &refusals.Error{Kind: refusals.ErrUndescribed, Pointer: ptr, Rule: rule, Subject: subject(about), Detail: detail,
		Fix: "call only the tools the definition describes, or record the agent again"}
}

func changeRule(key string) string {
	switch key {
	case keySourceHash:
		return "tool-code-changed"
	case keyDescription:
		return "tool-description-changed"
	case keyInputSchema, keyOutputSchema:
		return "tool-schema-changed"
	case keyAnnotations:
		return "tool-annotations-changed"
	}
	return "tool-changed"
}

// firstDifference names the first member of two tool objects that differs.
func firstDifference(a, b canonjson.Value) string {
	for _, k := range []string{keySourceHash, keyName, keyTitle, keyDescription, keyInputSchema, keyOutputSchema, keyAnnotations} {
		x, okx := a.Get(k)
		y, oky := b.Get(k)
		if okx != oky || !x.Equal(y) {
			return k
		}
	}
	return ""
}

// excludeUnder removes from v, which stands at prefix in the document, the
// exclusions below prefix.
func excludeUnder(v canonjson.Value, ex exclusions, prefix []string) canonjson.Value {
	for _, rel := range ex.under(prefix) {
		if c, ok := remove(v, rel); ok {
			v = c
		}
	}
	return v
}

// at returns the value at tokens below v.
func at(v canonjson.Value, tokens []string) (canonjson.Value, bool) {
	for _, t := range tokens {
		switch v.Kind {
		case canonjson.Object:
			c, ok := v.Get(t)
			if !ok {
				return canonjson.Value{}, false
			}
			v = c
		case canonjson.Array:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(v.Items) {
				return canonjson.Value{}, false
			}
			v = v.Items[i]
		default:
			return canonjson.Value{}, false
		}
	}
	return v, true
}
