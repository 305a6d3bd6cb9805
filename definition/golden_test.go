package definition_test

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/definition/definitiontest"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

var _ = flag.Bool("update", false, "rewrite golden files")

// Golden documents for the shapes of agent the definition records. Each is
// rewritten only by go test -update, and checked for leaks either way.
func TestGoldenDocuments(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		agent func(t *testing.T) (*definition.Agent, *definition.Options)
	}{
		{"one_server", func(t *testing.T) (*definition.Agent, *definition.Options) {
			ts := load(t, map[string]mcpservers.Connection{
				"docs": stdio(t, docsSpec("docs", "search_docs", "get_page"), "--read-only"),
			}, nil)
			return &definition.Agent{Name: "researcher", Model: "gpt-4.1",
				SystemPrompt: "You research questions using the internal docs.",
				Tools:        tools(ts["search_docs"], ts["get_page"])}, nil
		}},
		{"servers_in_use", func(t *testing.T) (*definition.Agent, *definition.Options) {
			// The client knows three servers; the agent uses two.
			ts := load(t, map[string]mcpservers.Connection{
				"docs":  stdio(t, docsSpec("docs", "search_docs")),
				"jira":  stdio(t, docsSpec("jira", "create_issue")),
				"slack": stdio(t, docsSpec("slack", "post_message", "read_channel")),
			}, nil)
			return &definition.Agent{Name: "notifier", Description: "Posts what it finds.",
				Tools: tools(ts["post_message"], ts["search_docs"])}, nil
		}},
		{"sub_agents", func(t *testing.T) (*definition.Agent, *definition.Options) {
			ts := load(t, map[string]mcpservers.Connection{
				"docs":   stdio(t, docsSpec("docs", "search_docs")),
				"drafts": stdio(t, docsSpec("drafts", "save_draft")),
			}, nil)
			return &definition.Agent{Name: "editor", Tools: tools(ts["search_docs"]),
				SubAgents: []*definition.Agent{
					{Name: "writer", SystemPrompt: "Write drafts.", Tools: tools(ts["save_draft"], ts["search_docs"])},
					{Name: "counter", Tools: []definition.Tool{wordCount}},
				}}, nil
		}},
		{"excluded", func(t *testing.T) (*definition.Agent, *definition.Options) {
			ts := load(t, map[string]mcpservers.Connection{
				"files": stdio(t, docsSpec("files", "read_file"), "--root", "/home/someone/projects"),
			}, nil)
			return &definition.Agent{Name: "reader", SystemPrompt: "Read what you are asked.", Tools: tools(ts["read_file"])},
				&definition.Options{Exclude: []string{"/mcpServers/0/args", "/systemPrompt"}}
		}},
		{"transports", func(t *testing.T) (*definition.Agent, *definition.Options) {
			ts := load(t, map[string]mcpservers.Connection{
				"local":  stdio(t, docsSpec("local", "list_files")),
				"remote": httpServer(t, docsSpec("remote", "search_web"), false, 9101),
				"legacy": httpServer(t, docsSpec("legacy", "lookup"), true, 9102),
			}, &mcpservers.ClientOptions{Interceptors: []mcpservers.Interceptor{auditInterceptor{}}})
			return &definition.Agent{Name: "browser", Tools: tools(ts["list_files"], ts["search_web"], ts["lookup"])}, nil
		}},
		{"annotations", func(t *testing.T) (*definition.Agent, *definition.Options) {
			spec := serverSpec{Name: "files", Tools: []toolSpec{
				{Name: "delete_file", Title: "Delete a file", Description: "Deletes a file.",
					Annotations: &annotations{Title: "Delete", Destructive: ptr(true), Idempotent: ptr(true)}},
				{Name: "read_file", Description: "Reads a file.", Annotations: &annotations{ReadOnly: ptr(true), OpenWorld: ptr(false)},
					OutputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)},
				{Name: "stat", Description: "Describes a file.",
					Schema: json.RawMessage(`{"type":"object","description":"top-level description","properties":{"a":{"type":"string"},"b":{"type":"integer","maximum":1e3}},"anyOf":[{"required":["a"]},{"required":["b"]}]}`)},
			}}
			ts := load(t, map[string]mcpservers.Connection{"files": stdio(t, spec)}, nil)
			return &definition.Agent{Name: "librarian", Tools: tools(ts["delete_file"], ts["read_file"], ts["stat"])}, nil
		}},
		{"native_tools", func(t *testing.T) (*definition.Agent, *definition.Options) {
			return &definition.Agent{Name: "calculator", Model: "claude-sonnet-5",
				Tools: []definition.Tool{wordCount, clock{}}}, nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, opts := tt.agent(t)
			d, err := definition.Build(a, opts)
			if err != nil {
				t.Fatal(err)
			}
			definitiontest.Golden(t, d, "testdata/golden/"+tt.name+".json")
			// What Build writes, Parse reads back byte for byte.
			doc, _ := d.Document()
			p, err := definition.Parse(doc)
			if err != nil {
				t.Fatalf("Parse(Document()) = %v", err)
			}
			if again, _ := p.Document(); string(again) != string(doc) || p.Digest() != d.Digest() {
				t.Error("Parse(Document()).Document() differs")
			}
			if !reflect.DeepEqual(p.Record(), d.Record()) {
				t.Errorf("Record() of the parsed document differs:\n%+v\n%+v", p.Record(), d.Record())
			}
			// Every tool the agent is given passes Vet, on both.
			for _, tool := range a.Tools {
				if err := d.Vet(tool); err != nil {
					t.Errorf("Vet(%s) = %v", tool.Name(), err)
				}
				if err := p.Vet(tool); err != nil {
					t.Errorf("parsed Vet(%s) = %v", tool.Name(), err)
				}
			}
		})
	}
}

// wordCount is a native Go tool.
var wordCount = definition.NewFuncTool("word_count", "Counts the words of a text.",
	json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
	func(ctx context.Context, args map[string]any) (any, error) {
		s, _ := args["text"].(string)
		return len(strings.Fields(s)), nil
	})

// clock is a tool implemented as a type of its own; its fingerprint covers
// its type and methods.
type clock struct{}

func (clock) Name() string                 { return "now" }
func (clock) Description() string          { return "Tells the time." }
func (clock) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }

// auditInterceptor is an interceptor of the user's, a struct type.
type auditInterceptor struct{ header string }

func (a auditInterceptor) Intercept(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("X-Audit", "definition-test")
	return next(ctx, req)
}
