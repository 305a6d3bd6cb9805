package definition_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/refusals"
)

// assertNotQuoted fails if err's message, or any refusal's subject or
// pointer, holds a piece of secret.
func assertNotQuoted(t *testing.T, err error, secret string) {
	t.Helper()
	for j := 0; j+10 <= len(secret); j++ {
		piece := secret[j : j+10]
		if strings.Contains(err.Error(), piece) {
			t.Fatalf("the error quotes a piece of the secret, at byte %d", j)
		}
		for _, r := range refusals.All(err) {
			if strings.Contains(r.Subject+r.Pointer+r.Detail, piece) {
				t.Fatalf("refusal %s %s quotes a piece of the secret", r.Pointer, r.Rule)
			}
		}
	}
}

// A server's name is recorded (mcpServers[].name and every mcpTools
// value), so a credential in it is refused, at the name, as one in its
// args is; and the refusals that name the server say <withheld>.
func TestRefusesCredentialInServerName(t *testing.T) {
	t.Parallel()
	tok := fakeToken("ghp_", 36)
	ts := load(t, map[string]mcpservers.Connection{tok: stdio(t, docsSpec("docs", "search_docs"), "--password", "p4ss-w0rd-v4lue")}, nil)
	_, err := definition.Build(&definition.Agent{Name: "a", Tools: tools(ts["search_docs"])}, nil)
	wantRefusal(t, err, refusals.ErrContainsSecret, "/mcpServers/0/name", "token/github")
	wantRefusal(t, err, refusals.ErrContainsSecret, "/mcpServers/0/args/1", "credential-flag")
	assertNotQuoted(t, err, tok)
	for _, r := range refusals.All(err) {
		if r.Pointer == "/mcpServers/0/args/1" && r.Subject != "<withheld>" {
			t.Errorf("the args refusal's subject is %q, want <withheld>", r.Subject)
		}
	}
}

// Tool names, agent names and sub-agent names are held to the same rule.
func TestRefusesCredentialInNames(t *testing.T) {
	t.Parallel()
	tok := fakeToken("ghp_", 36)
	assign := "API_KEY=" + fakeToken("", 24) // a lone word CheckArgs refuses
	a := &definition.Agent{Name: tok, Tools: []definition.Tool{definition.NewFuncTool(assign, "d", nil, nil)},
		SubAgents: []*definition.Agent{{Name: "sub " + tok}}}
	_, err := definition.Build(a, nil)
	wantRefusal(t, err, refusals.ErrContainsSecret, "/name", "token/github")
	wantRefusal(t, err, refusals.ErrContainsSecret, "/tools/0/name", "credential-assignment")
	wantRefusal(t, err, refusals.ErrContainsSecret, "/subAgents/0/name", "token/github")
	assertNotQuoted(t, err, tok)
	assertNotQuoted(t, err, assign)
}

// Other refusals that name a tool, a server or a key never quote one that
// holds a credential: json-invalid and tool-name-duplicate name it
// <withheld>, a duplicate schema key that is the secret is <withheld> in
// the pointer, and so is an Exclude pointer holding one; Vet's refusal of a
// tool named by a token too.
func TestRefusalsWithholdCredentialNames(t *testing.T) {
	t.Parallel()
	tok := fakeToken("ghp_", 36)
	dup := json.RawMessage(`{"type":"object","properties":{"` + tok + `":{},"` + tok + `":{}}}`)
	a := &definition.Agent{Name: "a", Tools: []definition.Tool{
		definition.NewFuncTool(tok, "one", nil, nil),
		definition.NewFuncTool(tok, "two", nil, nil),
		definition.NewFuncTool("search", "d", dup, nil),
	}}
	_, err := definition.Build(a, &definition.Options{Exclude: []string{"/tools/9/title/" + tok, "no pointer " + tok}})
	wantRefusal(t, err, refusals.ErrInvalid, "/tools/2/inputSchema/properties/<withheld>", "json-invalid")
	wantRefusal(t, err, refusals.ErrInvalid, "/tools/1", "tool-name-duplicate")
	wantRefusal(t, err, refusals.ErrInvalid, "", "exclude-malformed")
	assertNotQuoted(t, err, tok)
	var subjects []string
	for _, r := range refusals.All(err) {
		subjects = append(subjects, r.Subject)
	}
	if !slices.Contains(subjects, "<withheld>") {
		t.Errorf("no refusal says <withheld>: %q", subjects)
	}

	d, err := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{definition.NewFuncTool("search", "d", nil, nil)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = d.Vet(definition.NewFuncTool(tok, "d", nil, nil))
	wantRefusal(t, err, refusals.ErrUndescribed, "/tools", "tool-unknown")
	assertNotQuoted(t, err, tok)
	_, err = definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{definition.NewFuncTool("search", "d", nil, nil)}},
		&definition.Options{Exclude: []string{"/tools/0/title/" + tok}})
	wantRefusal(t, err, refusals.ErrInvalid, "/tools/0/title/<withheld>", "exclude-not-found")
	assertNotQuoted(t, err, tok)
}

// What a name may hold: a real server's tool named with a bidi override, a
// zero-width space or a control character is refused at Build, without
// the name in the refusal; the names real servers use (dots, slashes,
// spaces, other scripts) are recorded.
func TestRefusesInvisibleCharactersInNames(t *testing.T) {
	t.Parallel()
	bad := []string{"read\u202eelif", "delete\u200bfiles", "list\u2066x\u2069", "run\x1b[2K", "ok\nforged"}
	good := []string{"admin.tools.list", "user-profile/update", "search docs", "检索文档"}
	ts := load(t, map[string]mcpservers.Connection{"docs": stdio(t, docsSpec("docs", append(slices.Clone(bad), good...)...))}, nil)
	var all []definition.Tool
	for _, tool := range ts {
		all = append(all, tool)
	}
	_, err := definition.Build(&definition.Agent{Name: "a", Tools: all}, nil)
	if err == nil {
		t.Fatal("Build recorded tools with invisible characters in their names")
	}
	rs := refusals.All(err)
	if len(rs) != len(bad) {
		t.Errorf("%d refusals, want %d:\n%v", len(rs), len(bad), err)
	}
	for _, r := range rs {
		if r.Rule != "name-character" || !errors.Is(r, refusals.ErrInvalid) || !strings.HasSuffix(r.Pointer, "/name") {
			t.Errorf("refusal %s %s, want name-character at a tool's name", r.Pointer, r.Rule)
		}
	}
	for _, b := range bad {
		if strings.Contains(err.Error(), b) {
			t.Errorf("the error quotes the name %q raw", b)
		}
	}
	var fine []definition.Tool
	for _, g := range good {
		fine = append(fine, ts[g])
	}
	d, err := definition.Build(&definition.Agent{Name: "a", Tools: fine}, nil)
	if err != nil {
		t.Fatalf("names real servers use are refused: %v", err)
	}
	doc, _ := d.Document()
	if _, err := definition.Parse(doc); err != nil {
		t.Fatal(err)
	}
	// Parse holds a document to the same rule.
	edited := strings.Replace(string(doc), `"admin.tools.list"`, `"admin.tools\u202elist"`, -1)
	_, err = definition.Parse([]byte(edited))
	wantRefusal(t, err, refusals.ErrInvalid, "/tools/0/name", "name-character")
}

// A NUL byte in a stdio command or argument cannot be given to a program:
// mcpservers.NewClient refuses it, and Build refuses what it would record
// the same way (the same rule IDs, kind and pointers), as Parse does.
func TestRefusesNULInStdioLikeNewClient(t *testing.T) {
	t.Parallel()
	s := definition.Server{Name: "docs", Transport: definition.TransportStdio, Command: "node\x00x", Args: []string{"ok", "a\x00b"}}
	_, err := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{otherLibraryTool{name: "t", server: s}}}, nil)
	var built []string
	for _, r := range refusals.All(err) {
		built = append(built, strings.TrimPrefix(r.Pointer, "/mcpServers/0")+" "+r.Rule)
		if !errors.Is(r, refusals.ErrInvalid) {
			t.Errorf("%s %s is not ErrInvalid", r.Pointer, r.Rule)
		}
	}
	_, err = mcpservers.NewClient(map[string]mcpservers.Connection{"docs": mcpservers.Stdio{Command: s.Command, Args: s.Args}}, nil)
	var client []string
	for _, r := range refusals.All(err) {
		client = append(client, strings.TrimPrefix(r.Pointer, "/mcpServers/docs")+" "+r.Rule)
	}
	want := []string{"/args/1 arg-invalid", "/command command-invalid"}
	if !slices.Equal(built, want) || !slices.Equal(client, want) {
		t.Errorf("Build refuses %q, NewClient %q; want both %q", built, client, want)
	}
}

// The zero values of the exported types make no method panic: a zero
// Definition is a nil one (no document, Vet refuses), a zero Cache is
// ready to use, a nil *FuncTool has nothing to run.
func TestZeroValuesAreSafe(t *testing.T) {
	t.Parallel()
	var d definition.Definition
	tool := definition.NewFuncTool("a", "d", nil, nil)
	if err := d.Vet(tool); !errors.Is(err, refusals.ErrInvalid) {
		t.Errorf("zero Vet = %v, want ErrInvalid", err)
	}
	if doc, err := d.Document(); doc != nil || !errors.Is(err, refusals.ErrInvalid) || refusals.All(err)[0].Rule != "definition-nil" {
		t.Errorf("zero Document = %q, %v", doc, err)
	}
	if d.Digest() != "" || d.Record() == nil {
		t.Error("zero Digest or Record")
	}
	real, err := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{tool}}, &definition.Options{Cache: &definition.Cache{}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := definition.Diff(&d, real), definition.Diff(nil, real); !slices.Equal(got, want) {
		t.Errorf("Diff(zero, d) = %v, want Diff(nil, d) = %v", got, want)
	}
	if definition.Diff(&d, nil) != nil {
		t.Error("Diff(zero, nil) has changes")
	}
	var ft *definition.FuncTool
	if _, err := ft.Call(context.Background(), nil); !errors.Is(err, definition.ErrNoFunc) || ft.Name() != "" || ft.Description() != "" || ft.InputSchema() != nil {
		t.Error("nil *FuncTool")
	}
	if _, err := (&definition.FuncTool{}).Call(context.Background(), nil); !errors.Is(err, definition.ErrNoFunc) {
		t.Error("zero FuncTool.Call")
	}
	// Build with them: refused, never a panic.
	if _, err := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{&definition.FuncTool{}}}, &definition.Options{Cache: &definition.Cache{}}); err == nil {
		t.Error("a zero FuncTool (no name, no schema) was recorded")
	}
}

// FuzzBuildNamesParse holds Build to what Parse reads, for names: whatever
// the agent's, a sub-agent's, a tool's and a server's names hold, a
// definition Build makes has a document Parse reads back, to the same
// bytes. (The tool is another client library's MCPTool, so that the fuzzer
// runs without servers; TestRefusesCredentialInServerName has a real one.)
func FuzzBuildNamesParse(f *testing.F) {
	tok := fakeToken("ghp_", 36)
	for _, seed := range [][4]string{
		{"a", "search", "docs", "sub"},
		{tok, "search", "docs", "sub"},
		{"a", tok, "docs", "sub"},
		{"a", "search", tok, "sub"},
		{"a", "search", "docs", "sub " + tok},
		{"a", "API_KEY=" + fakeToken("", 24), "docs", "s"},
		{"a", "read\u202eelif", "do\u200bcs", "s\x1b"},
		{"a", "tool", "https://u:" + fakeToken("", 12) + "@h", "s"},
		{"a\xff", "t", "s", "x"},
	} {
		f.Add(seed[0], seed[1], seed[2], seed[3])
	}
	f.Fuzz(func(t *testing.T, agent, tool, server, sub string) {
		srv := definition.Server{Name: server, Transport: definition.TransportStdio, Command: "node", Args: []string{"server.js"}}
		a := &definition.Agent{Name: agent, Tools: []definition.Tool{otherLibraryTool{name: tool, server: srv}},
			SubAgents: []*definition.Agent{{Name: sub, Tools: []definition.Tool{otherLibraryTool{name: tool, server: srv}}}}}
		d, err := definition.Build(a, nil)
		if err != nil {
			return
		}
		doc, err := d.Document()
		if err != nil {
			t.Fatalf("Build's definition has no document: %v", err)
		}
		p, err := definition.Parse(doc)
		if err != nil {
			t.Fatalf("Parse refuses the document Build wrote: %v", err)
		}
		if p.Digest() != d.Digest() {
			t.Fatal("Parse's digest differs from Build's")
		}
	})
}
