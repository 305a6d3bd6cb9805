package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/definition"
)

func TestRecordGolden(t *testing.T) {
	dir := workspace(t)
	human := guardian(t, dir, nil, "record", "mcp.json", "--name", "docs-agent")
	if human.code != exitOK {
		t.Fatalf("exit %d\n%s", human.code, human.stderr)
	}
	checkGolden(t, "record.golden", human.transcript())

	js := guardian(t, dir, nil, "record", "mcp.json", "--name", "docs-agent", "--json")
	checkGolden(t, "record.json.golden", js.stdout)
	if js.stderr != "" {
		t.Errorf("--json wrote to stderr (not a terminal): %q", js.stderr)
	}
	var r recordReport
	if err := json.Unmarshal([]byte(js.stdout), &r); err != nil {
		t.Fatal(err)
	}
	// The report's document is the document record prints.
	def, err := definition.Parse(r.Document)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := def.Document()
	if string(doc) != human.stdout || def.Digest() != r.Digest || r.Status != statusOK || r.ExitCode != 0 {
		t.Errorf("--json document differs from the plain one, or the report is wrong: %+v", r.header)
	}
	// The server is recorded as the config writes it.
	rec := def.Record()
	if s := rec.MCPServers[0]; s.Command != "./toolserver" || !slices.Equal(s.Args, []string{"-tools", "tools-v1.json"}) {
		t.Errorf("server = %+v", s)
	}
}

func TestRecordOutputFile(t *testing.T) {
	dir := workspace(t)
	plain := guardian(t, dir, nil, "record", "mcp.json")
	r := guardian(t, dir, nil, "record", "mcp.json", "-o", "agent.json")
	if r.code != exitOK || r.stdout != "" || !strings.Contains(r.stderr, "wrote agent.json") {
		t.Fatalf("record -o: %+v", r)
	}
	got, err := os.ReadFile(filepath.Join(dir, "agent.json"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != plain.stdout {
		t.Errorf("-o wrote other bytes than stdout gets")
	}
	// Flags may come before the config too; the name defaults to the
	// config's file name.
	if v := guardian(t, dir, nil, "validate", "agent.json"); v.code != exitOK || !strings.Contains(v.stderr, `agent "mcp"`) {
		t.Errorf("validate: %+v", v)
	}
	// A file that cannot be written is exit 2, and nothing is left behind.
	r = guardian(t, dir, nil, "record", "-o", "missing/agent.json", "mcp.json")
	if r.code != exitBad || !strings.Contains(r.stderr, "missing/agent.json: cannot write") {
		t.Errorf("unwritable -o: %+v", r)
	}
	if entries, _ := os.ReadDir(dir); slices.ContainsFunc(entries, func(e os.DirEntry) bool { return strings.HasSuffix(e.Name(), ".tmp") }) {
		t.Errorf("a temporary file was left behind")
	}
}

func TestRecordServers(t *testing.T) {
	dir := workspace(t)
	r := guardian(t, dir, []string{"GUARDIAN_TEST_TOKEN=x"}, "record", "failing.json", "--servers", "docs", "--json")
	if r.code != exitOK {
		t.Fatalf("--servers docs: exit %d\n%s", r.code, r.stdout)
	}
	var rep recordReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range rep.Servers {
		got = append(got, s.Name+" "+s.Status+" "+s.Reason)
	}
	want := []string{"docs ok ", "broken skipped not in --servers", "slow skipped not in --servers"}
	if !slices.Equal(got, want) {
		t.Errorf("servers = %q, want %q", got, want)
	}

	r = guardian(t, dir, nil, "record", "failing.json", "--servers", "docs,nope,other")
	if r.code != exitBad || !strings.Contains(r.stderr, `--servers: the config has no server "nope" and "other" (it has "docs", "broken" and "slow")`) {
		t.Errorf("unknown server: %+v", r)
	}
}

// A credential where the document would record it is refused before any
// server starts, at its pointer in the config, without the value.
func TestRecordRefusesBeforeStarting(t *testing.T) {
	dir := workspace(t)
	r := guardian(t, dir, nil, "record", "refused.json")
	checkGolden(t, "record-refused.golden", r.transcript(), "EXAMPLEapiKEY0123456789")
	if r.code != exitRefused {
		t.Errorf("exit %d, want %d", r.code, exitRefused)
	}
	if _, err := os.Stat(filepath.Join(dir, "refused.pid")); err == nil {
		t.Errorf("the server was started")
	}
	js := guardian(t, dir, nil, "record", "refused.json", "--json")
	checkGolden(t, "record-refused.json.golden", js.stdout, "EXAMPLEapiKEY0123456789")
}

// A server that fails is reported by name with its reason and its stderr
// tail, which never holds a secret it was given.
func TestRecordFailures(t *testing.T) {
	dir := workspace(t)
	token := fakeToken("t")
	env := []string{"GUARDIAN_TEST_TOKEN=" + token}

	r := guardian(t, dir, env, "record", "failing.json", "--timeout", "1s")
	checkGolden(t, "record-failing.golden", r.transcript(), token)
	if r.code != exitBad || r.stdout != "" {
		t.Errorf("exit %d, stdout %q: want 2 and no document", r.code, r.stdout)
	}

	// --keep-going records the others, and still says the rest failed.
	r = guardian(t, dir, env, "record", "failing.json", "--timeout", "1s", "--keep-going", "--json")
	checkGolden(t, "record-failing.json.golden", r.stdout, token)
	var rep recordReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if r.code != exitBad || rep.Status != statusFailed || rep.Document == nil {
		t.Errorf("--keep-going: exit %d, status %q, document %v", r.code, rep.Status, rep.Document != nil)
	}
	def, err := definition.Parse(rep.Document)
	if err != nil {
		t.Fatal(err)
	}
	if s := def.Record().MCPServers; len(s) != 1 || s[0].Name != "docs" {
		t.Errorf("--keep-going recorded %+v", s)
	}
}

// VS Code's ${input:...}, ${workspaceFolder}, envFile and cwd: resolved to
// connect, recorded as written.
func TestRecordVSCodeWorkspace(t *testing.T) {
	dir := workspace(t)
	token := fakeToken("v")
	project := filepath.Join(dir, "project")
	env := []string{"GUARDIAN_INPUT_TOOLS_FILE=../tools-v1.json", "GUARDIAN_INPUT_API_TOKEN=" + token}
	r := guardian(t, project, env, "record", ".vscode/mcp.json", "--name", "workspace")
	checkGolden(t, "record-vscode.golden", r.transcript(), token)
	if strings.Contains(r.transcript(), dir) {
		t.Errorf("output holds the workspace's absolute path")
	}
	if r.code != exitOK {
		t.Fatalf("exit %d", r.code)
	}
	def, err := definition.Parse([]byte(r.stdout))
	if err != nil {
		t.Fatal(err)
	}
	servers := def.Record().MCPServers
	if len(servers) != 2 || servers[0].Command != "${workspaceFolder}/../toolserver" ||
		!slices.Equal(servers[0].Args, []string{"-tools", "${input:tools-file}"}) || servers[1].Command != "../toolserver" {
		t.Errorf("servers = %+v", servers)
	}

	// Run from elsewhere: the same document.
	other := guardian(t, dir, env, "record", "project/.vscode/mcp.json", "--name", "workspace")
	if other.code != exitOK || other.stdout != r.stdout {
		t.Errorf("recorded from the parent directory: exit %d, same document %v\n%s", other.code, other.stdout == r.stdout, other.stderr)
	}

	// Unanswered inputs: exit 2, saying which variable answers each.
	r = guardian(t, project, nil, "record", ".vscode/mcp.json")
	if r.code != exitBad ||
		!strings.Contains(r.stderr, ".vscode/mcp.json: /servers/docs/args/1: ${input:tools-file} has no value; set GUARDIAN_INPUT_TOOLS_FILE in guardian's environment") ||
		!strings.Contains(r.stderr, "/servers/docs/env/API_TOKEN: ${input:api-token} has no value; set GUARDIAN_INPUT_API_TOKEN") {
		t.Errorf("unset inputs: %+v", r)
	}
}

func TestRecordNameClash(t *testing.T) {
	dir := workspace(t)
	r := guardian(t, dir, nil, "record", "clash.json")
	if r.code != exitRefused || !strings.Contains(r.stderr, `clash.json: tool-name-duplicate ("fetch"): servers "docs" and "mirror" offer a tool of this name`) ||
		!strings.Contains(r.stderr, "--prefix-tool-names") {
		t.Errorf("clash: %+v", r)
	}
	r = guardian(t, dir, nil, "record", "clash.json", "--prefix-tool-names")
	if r.code != exitOK || !strings.Contains(r.stdout, `"mirror_fetch": "mirror"`) || !strings.Contains(r.stderr, "10 tools from 2 servers") {
		t.Errorf("--prefix-tool-names: %+v", r)
	}
}

func TestRecordExclude(t *testing.T) {
	dir := workspace(t)
	r := guardian(t, dir, nil, "record", "mcp.json", "--exclude", "/mcpServers/0/args")
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	def, err := definition.Parse([]byte(r.stdout))
	if err != nil {
		t.Fatal(err)
	}
	rec := def.Record()
	if len(rec.MCPServers[0].Args) != 0 || !slices.Equal(rec.Extensions.Guardian.Exclude, []string{"/mcpServers/0/args"}) {
		t.Errorf("excluded: %+v %v", rec.MCPServers, rec.Extensions.Guardian.Exclude)
	}
	r = guardian(t, dir, nil, "record", "mcp.json", "--exclude", "/mcpServers/3/url")
	if r.code != exitBad || !strings.Contains(r.stderr, "exclude-not-found") {
		t.Errorf("bad --exclude: %+v", r)
	}
}

// A server the config disables is not recorded, unless --servers names it.
func TestRecordDisabled(t *testing.T) {
	dir := workspace(t)
	config := `{"mcpServers": {
  "docs": {"command": "./toolserver", "args": ["-tools", "tools-v1.json"]},
  "off": {"command": "./toolserver", "args": ["-fail", "1"], "disabled": true}
}}`
	if err := os.WriteFile(filepath.Join(dir, "disabled.json"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	r := guardian(t, dir, nil, "record", "disabled.json", "--json")
	var rep recordReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if r.code != exitOK || rep.Servers[1].Status != serverSkipped || rep.Servers[1].Reason != "disabled in the config" {
		t.Errorf("disabled: exit %d, %+v", r.code, rep.Servers)
	}
	if r = guardian(t, dir, nil, "record", "disabled.json", "--servers", "docs,off"); r.code != exitBad || !strings.Contains(r.stderr, `server "off" failed`) {
		t.Errorf("--servers off: %+v", r)
	}
}

// Configs that cannot be resolved or cannot work: exit 2, located in the
// file that is wrong, nothing started.
func TestRecordConfigProblems(t *testing.T) {
	dir := workspace(t)
	secret := fakeToken("e")
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("bad.env", "OK=1\nTOKEN "+secret+"\n")
	write("envfiles.json", `{"mcpServers": {
  "missing": {"command": "./toolserver", "envFile": "nowhere.env"},
  "broken": {"command": "./toolserver", "envFile": "bad.env"}
}}`)
	write("scheme.json", `{"servers": {"ftp": {"type": "http", "url": "ftp://files.example.com/mcp"}}}`)
	write("notjson.json", `{"mcpServers": {"a": {"command": "x" "args": []}}}`)
	tests := []struct {
		config string
		want   []string
	}{
		{"envfiles.json", []string{
			"envfiles.json: /mcpServers/missing/envFile: cannot read the env file: no such file or directory",
			`bad.env:2:7: want '=' after the key (the envFile of server "broken")`,
		}},
		{"scheme.json", []string{"scheme.json: /servers/ftp/url: url-scheme"}},
		{"notjson.json", []string{"notjson.json:1:38: /mcpServers/a: want ',' or '}'"}},
		{"missing.json", []string{"missing.json: cannot read: no such file or directory"}},
	}
	for _, tt := range tests {
		r := guardian(t, dir, nil, "record", tt.config)
		assertNoSecret(t, r.stdout+r.stderr, secret)
		if r.code != exitBad || r.stdout != "" {
			t.Errorf("%s: exit %d, stdout %q", tt.config, r.code, r.stdout)
		}
		for _, w := range tt.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", tt.config, w, r.stderr)
			}
		}
	}
}

// A tool name two servers offer is Build's refusal, translated: it comes
// with Build's other refusals, all at once, instead of hiding them until
// the clash is fixed.
func TestRecordNameClashComesWithBuildsRefusals(t *testing.T) {
	dir := workspace(t)
	tok := variedToken()
	writeJSONFile(t, dir, "leaky.tools.json", []map[string]any{{"name": "search", "description": "Search with key " + tok, "inputSchema": map[string]any{"type": "object"}}})
	writeJSONFile(t, dir, "both.json", map[string]any{"mcpServers": map[string]any{
		"a": map[string]any{"command": "./toolserver", "args": []string{"-tools", "leaky.tools.json"}},
		"b": map[string]any{"command": "./toolserver", "args": []string{"-tools", "leaky.tools.json"}},
	}})
	r := guardian(t, dir, nil, "record", "both.json")
	assertNoSecret(t, r.stdout+r.stderr, tok)
	if r.code != exitRefused ||
		strings.Count(r.stderr, `tool-name-duplicate ("search"): servers "a" and "b" offer a tool of this name`) != 1 ||
		!strings.Contains(r.stderr, "/tools/0/description") {
		t.Errorf("want the clash once and the description's refusal: %+v", r)
	}
}
