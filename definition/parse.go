package definition

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"

	"github.com/guardian-agent/guardian-go/internal/canonjson"
	"github.com/guardian-agent/guardian-go/internal/execargs"
	"github.com/guardian-agent/guardian-go/internal/names"
	"github.com/guardian-agent/guardian-go/refusals"
	"github.com/guardian-agent/guardian-go/secrets"
)

// Parse reads a definition document strictly: valid UTF-8 JSON without
// duplicate keys, no unknown fields, every value of the right type, valid
// against the schema, tools and servers sorted and unique, every server used
// by a tool, no credential in a server's command, URL or arguments, no NUL
// in a command or argument, names (the agent's, sub-agents', tools',
// servers') that keep the rule for names Build applies, and none of the
// credentials secrets.CheckText finds in any other string. Refusals are
// located by JSON pointer and never quote values (a member whose name holds
// a credential is "<member N>"). Parse reads every document Build writes,
// and its Document returns the same bytes.
func Parse(data []byte) (*Definition, error) {
	root, err := canonjson.Parse(data)
	if err != nil {
		return nil, jsonRefusal("", err, "")
	}
	rec, err := decodeRecord(root)
	if err != nil {
		return nil, err
	}
	if err := validate(root); err != nil {
		return nil, err
	}
	if err := checkRecord(rec, "", true); err != nil {
		return nil, err
	}
	if errs := textRefusals(root, ""); len(errs) > 0 {
		return nil, refusals.Join(errs...)
	}
	d := &Definition{record: rec, root: root, index: indexRecord(rec, ""), exclude: recordedExclusions(rec)}
	d.doc = canonjson.Encode(root)
	d.digest = digestOf(d.doc)
	return d, nil
}

// decoder turns a document tree into an AgentRecord, refusing what the Go
// types cannot hold.
type decoder struct{ errs []error }

func (dec *decoder) fail(ptr, rule, detail string) {
	dec.errs = append(dec.errs, &refusals.Error{Kind: refusals.ErrInvalid, Pointer: ptr, Rule: rule, Detail: detail,
		Fix: "see the document format in docs/definition-format.md"})
}

func decodeRecord(root canonjson.Value) (*AgentRecord, error) {
	var dec decoder
	rec := dec.agent(root, "", true)
	if len(dec.errs) > 0 {
		return nil, refusals.Join(dec.errs...)
	}
	return rec, nil
}

// fields checks v is an object with only the given keys, and calls each
// key's reader.
func (dec *decoder) fields(v canonjson.Value, ptr string, readers map[string]func(canonjson.Value, string)) bool {
	if v.Kind != canonjson.Object {
		dec.fail(ptr, "wrong-type", "want object, got "+v.Kind.String())
		return false
	}
	for i, m := range v.Members {
		r, ok := readers[m.Key]
		if !ok {
			// A name that is a secret is pointed at by its stand-in.
			dec.fail(names.Append(ptr, m.Key, i), "unknown-field", "this field is not part of the format")
			continue
		}
		p := refusals.Append(ptr, m.Key)
		r(m.Value, p)
	}
	return true
}

func (dec *decoder) str(dst *string) func(canonjson.Value, string) {
	return func(v canonjson.Value, p string) {
		if v.Kind != canonjson.String {
			dec.fail(p, "wrong-type", "want string, got "+v.Kind.String())
			return
		}
		*dst = v.Text
	}
}

func (dec *decoder) object(dst *json.RawMessage) func(canonjson.Value, string) {
	return func(v canonjson.Value, p string) {
		if v.Kind != canonjson.Object {
			dec.fail(p, "wrong-type", "want object, got "+v.Kind.String())
			return
		}
		*dst = canonjson.EncodeCompact(v)
	}
}

func (dec *decoder) array(v canonjson.Value, p string, item func(canonjson.Value, string)) {
	if v.Kind != canonjson.Array {
		dec.fail(p, "wrong-type", "want array, got "+v.Kind.String())
		return
	}
	for i, x := range v.Items {
		item(x, refusals.Append(p, strconv.Itoa(i)))
	}
}

func (dec *decoder) agent(v canonjson.Value, ptr string, top bool) *AgentRecord {
	r := &AgentRecord{}
	readers := map[string]func(canonjson.Value, string){
		keyName:         dec.str(&r.Name),
		keyDescription:  dec.str(&r.Description),
		keyModel:        dec.str(&r.Model),
		keySystemPrompt: dec.str(&r.SystemPrompt),
		keyTools: func(v canonjson.Value, p string) {
			r.Tools = []ToolRecord{}
			dec.array(v, p, func(x canonjson.Value, p string) { r.Tools = append(r.Tools, dec.tool(x, p)) })
		},
		keyMCPServers: func(v canonjson.Value, p string) {
			r.MCPServers = []Server{}
			dec.array(v, p, func(x canonjson.Value, p string) { r.MCPServers = append(r.MCPServers, dec.server(x, p)) })
		},
		keySubAgents: func(v canonjson.Value, p string) {
			dec.array(v, p, func(x canonjson.Value, p string) {
				if s := dec.agent(x, p, false); s != nil {
					r.SubAgents = append(r.SubAgents, *s)
				}
			})
		},
		keyExtensions: func(v canonjson.Value, p string) { dec.extensions(v, p, &r.Extensions, top) },
	}
	if top {
		readers[keyFormatVersion] = func(v canonjson.Value, p string) {
			n, err := strconv.Atoi(v.Text)
			if v.Kind != canonjson.Number || err != nil {
				dec.fail(p, "wrong-type", "want integer, got "+v.Kind.String())
				return
			}
			if n != FormatVersion {
				dec.fail(p, "format-version", "this reader reads format version "+strconv.Itoa(FormatVersion))
			}
			r.FormatVersion = n
		}
	}
	if !dec.fields(v, ptr, readers) {
		return nil
	}
	for _, k := range []string{keyName, keyTools, keyMCPServers, keyExtensions} {
		if _, ok := v.Get(k); !ok {
			dec.fail(ptr, "missing-field", "missing required "+k)
		}
	}
	if top {
		if _, ok := v.Get(keyFormatVersion); !ok {
			dec.fail(ptr, "missing-field", "missing required "+keyFormatVersion)
		}
	}
	return r
}

func (dec *decoder) tool(v canonjson.Value, ptr string) ToolRecord {
	var t ToolRecord
	dec.fields(v, ptr, map[string]func(canonjson.Value, string){
		keyName:         dec.str(&t.Name),
		keyTitle:        dec.str(&t.Title),
		keyDescription:  dec.str(&t.Description),
		keyInputSchema:  dec.object(&t.InputSchema),
		keyOutputSchema: dec.object(&t.OutputSchema),
		keyAnnotations:  dec.object(&t.Annotations),
		keySourceHash:   dec.str(&t.SourceHash),
	})
	return t
}

func (dec *decoder) server(v canonjson.Value, ptr string) Server {
	var s Server
	dec.fields(v, ptr, map[string]func(canonjson.Value, string){
		keyName: dec.str(&s.Name),
		keyTransport: func(v canonjson.Value, p string) {
			var t string
			dec.str(&t)(v, p)
			s.Transport = Transport(t)
		},
		keyURL:     dec.str(&s.URL),
		keyCommand: dec.str(&s.Command),
		keyArgs: func(v canonjson.Value, p string) {
			s.Args = []string{}
			dec.array(v, p, func(x canonjson.Value, p string) {
				var a string
				dec.str(&a)(x, p)
				s.Args = append(s.Args, a)
			})
		},
	})
	return s
}

func (dec *decoder) extensions(v canonjson.Value, ptr string, e *Extensions, top bool) {
	dec.fields(v, ptr, map[string]func(canonjson.Value, string){
		keyGuardian: func(v canonjson.Value, p string) {
			readers := map[string]func(canonjson.Value, string){
				keyMCPTools: func(v canonjson.Value, p string) {
					if v.Kind != canonjson.Object {
						dec.fail(p, "wrong-type", "want object, got "+v.Kind.String())
						return
					}
					e.Guardian.MCPTools = map[string]string{}
					for i, m := range v.Members {
						var s string
						dec.str(&s)(m.Value, names.Append(p, m.Key, i))
						e.Guardian.MCPTools[m.Key] = s
					}
				},
			}
			if top {
				readers[keyExclude] = func(v canonjson.Value, p string) {
					dec.array(v, p, func(x canonjson.Value, p string) {
						var s string
						dec.str(&s)(x, p)
						e.Guardian.Exclude = append(e.Guardian.Exclude, s)
					})
				}
			}
			dec.fields(v, p, readers)
		},
	})
}

// checkRecord holds a parsed document to what Build would have written:
// sorted, unique tools and servers, an mcpTools map that names only the
// document's tools and servers, every server in use, valid exclusions,
// names that keep the rule for names, no NUL in a command or argument, and
// no credential where a server is recorded.
func checkRecord(r *AgentRecord, ptr string, top bool) error {
	var errs []error
	fail := func(kind error, p, rule, detail string) {
		errs = append(errs, &refusals.Error{Kind: kind, Pointer: p, Rule: rule, Detail: detail})
	}
	errs = append(errs, names.Check(refusals.Append(ptr, keyName), r.Name)...)
	tools := map[string]bool{}
	for i, t := range r.Tools {
		p := refusals.Append(ptr, keyTools, strconv.Itoa(i))
		if i > 0 && r.Tools[i-1].Name >= t.Name {
			fail(refusals.ErrInvalid, p, "tools-order", "tools must be sorted by name and unique")
		}
		errs = append(errs, names.Check(refusals.Append(p, keyName), t.Name)...)
		tools[t.Name] = true
	}
	servers := map[string]bool{}
	for i, s := range r.MCPServers {
		p := refusals.Append(ptr, keyMCPServers, strconv.Itoa(i))
		if i > 0 && r.MCPServers[i-1].Name >= s.Name {
			fail(refusals.ErrInvalid, p, "servers-order", "servers must be sorted by name and unique")
		}
		errs = append(errs, names.Check(refusals.Append(p, keyName), s.Name)...)
		errs = append(errs, execargs.Refusals(p, "", s.Command, s.Args)...)
		servers[s.Name] = true
		if err := secrets.CheckStdio(p, s.Command, s.Args); err != nil {
			errs = append(errs, err)
		}
		if err := secrets.CheckURL(refusals.Append(p, keyURL), s.URL); err != nil {
			errs = append(errs, err)
		}
	}
	used := map[string]bool{}
	mp := refusals.Append(ptr, keyExtensions, keyGuardian, keyMCPTools)
	mcpTools := slices.SortedFunc(maps.Keys(r.Extensions.Guardian.MCPTools), canonjson.CompareKeys) // the document's order
	for i, tool := range mcpTools {
		server := r.Extensions.Guardian.MCPTools[tool]
		if !tools[tool] {
			fail(refusals.ErrInvalid, names.Append(mp, tool, i), "mcp-tool-unknown", "names a tool the document does not have")
		}
		if !servers[server] {
			fail(refusals.ErrInvalid, names.Append(mp, tool, i), "mcp-server-unknown", "names a server the document does not have")
		}
		used[server] = true
	}
	for i, s := range r.MCPServers {
		if !used[s.Name] {
			fail(refusals.ErrInvalid, refusals.Append(ptr, keyMCPServers, strconv.Itoa(i)), "server-unused", "no tool of the agent calls this server")
		}
	}
	if top {
		ex := r.Extensions.Guardian.Exclude
		for i, p := range ex {
			ep := refusals.Append(ptr, keyExtensions, keyGuardian, keyExclude, strconv.Itoa(i))
			toks, err := refusals.Tokens(p)
			if err != nil || !excludable(toks) {
				fail(refusals.ErrInvalid, ep, "exclude-invalid", "not a pointer a document may leave out")
			}
			if i > 0 && refusals.ComparePointers(ex[i-1], p) >= 0 {
				fail(refusals.ErrInvalid, ep, "exclude-order", "exclusions must be sorted and unique")
			}
		}
	}
	for i := range r.SubAgents {
		if err := checkRecord(&r.SubAgents[i], refusals.Append(ptr, keySubAgents, strconv.Itoa(i)), false); err != nil {
			errs = append(errs, err)
		}
	}
	return refusals.Join(errs...)
}

// indexRecord indexes a parsed record's tools for Vet.
func indexRecord(r *AgentRecord, ptr string) *agentIndex {
	idx := &agentIndex{pointer: ptr, tools: map[string]int{}, sub: map[string]*agentIndex{}}
	for i, t := range r.Tools {
		idx.tools[t.Name] = i
	}
	for i := range r.SubAgents {
		s := indexRecord(&r.SubAgents[i], refusals.Append(ptr, keySubAgents, strconv.Itoa(i)))
		idx.subList = append(idx.subList, s)
		idx.sub[r.SubAgents[i].Name] = s
	}
	return idx
}

// recordedExclusions are a parsed document's exclusions, deepest and last
// first, as parseExcludes orders them.
func recordedExclusions(r *AgentRecord) exclusions {
	var ex exclusions
	for i := len(r.Extensions.Guardian.Exclude) - 1; i >= 0; i-- {
		p := r.Extensions.Guardian.Exclude[i]
		if toks, err := refusals.Tokens(p); err == nil {
			ex = append(ex, exclusion{pointer: p, tokens: toks})
		}
	}
	return ex
}
