package modeltest_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/definition/internal/modeltest/fakemodel"
	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/refusals"
)

// The tools come from a real MCP server over stdio: this test binary,
// re-executed. The model clients are real openai-go and anthropic-sdk-go
// clients, made with a fake key and an unreachable base URL: Build does no
// I/O, and nothing could be sent anywhere if it did.

const serverEnv = "MODELTEST_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) != "" {
		s := server.NewMCPServer("docs", "1.0.0", server.WithToolCapabilities(false))
		s.AddTool(mcp.NewTool("lookup", mcp.WithDescription("Looks a document up."), mcp.WithString("query")),
			func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText("found"), nil
			})
		if err := server.ServeStdio(s); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeKey has the shape of an OpenAI project key; it is built here so that
// no literal token sits in the repository, and it is live nowhere.
func fakeKey() string {
	return "sk-proj-" + strings.Repeat("Ex4mple_Fake-Key9", 4)[:64]
}

const unreachable = "http://127.0.0.1:9/v1/" // the discard port: nothing listens

func newOpenAI() *openai.Client {
	c := openai.NewClient(option.WithAPIKey(fakeKey()), option.WithBaseURL(unreachable), option.WithMaxRetries(0))
	return &c
}

func load(t *testing.T, opts *mcpservers.ClientOptions) *mcpservers.Tool {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(dir, "testserver")); err != nil {
		t.Fatal(err)
	}
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{"docs": mcpservers.Stdio{
		Command: "./testserver", Dir: dir, Env: map[string]string{serverEnv: "1", "GORACE": "atexit_sleep_ms=0"},
	}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ts, err := c.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return ts[0]
}

// auditor is an interceptor that holds a model client to summarise calls.
type auditor struct {
	model *openai.Client
}

func (a auditor) Intercept(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	return next(ctx, req)
}

// byValue holds the client as a value, as openai.NewClient returns it.
type byValue struct {
	model openai.Client
}

func (b byValue) Intercept(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	return next(ctx, req)
}

// sampler is a sampling handler that asks its own model.
type sampler struct {
	claude anthropic.Client
}

func (s *sampler) CreateMessage(ctx context.Context, req *mcpservers.SamplingRequest) (*mcpservers.SamplingResult, error) {
	return nil, errors.New("not used")
}

// wrapper is a tool of the user's around an MCP tool, holding a model.
type wrapper struct {
	*mcpservers.Tool
	helper *openai.ChatCompletionService
}

// prompts holds request data of a model package, not a client.
type prompts struct {
	params openai.ChatCompletionNewParams
}

func (p prompts) Intercept(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	return next(ctx, req)
}

type other struct{ c *fakemodel.Client }

func (o other) Intercept(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	return next(ctx, req)
}

func wantUnrouted(t *testing.T, err error, pointer, path string) {
	t.Helper()
	if !errors.Is(err, refusals.ErrUnroutedModel) || !errors.Is(err, refusals.ErrCannotRecord) {
		t.Fatalf("Build: %v, want ErrUnroutedModel", err)
	}
	var found bool
	for _, r := range refusals.All(err) {
		if r.Kind == refusals.ErrUnroutedModel && r.Pointer == pointer && r.Rule == "unrouted-model" && strings.Contains(r.Detail, path) {
			found = true
		}
	}
	if !found {
		t.Errorf("no unrouted-model refusal at %s naming %q in:\n%v", pointer, path, err)
	}
	if strings.Contains(err.Error(), fakeKey()) || strings.Contains(err.Error(), fakeKey()[8:24]) {
		t.Fatal("the refusal prints the client's key")
	}
}

// TestRefusesUnroutedModels: a real chat-model client held in an
// interceptor (as a pointer or a value), in a sampling handler, or in a
// wrapper around an MCP tool is refused at the tool, naming the field path,
// unless it is the agent's routed model; the refusal never prints the key.
func TestRefusesUnroutedModels(t *testing.T) {
	routed := newOpenAI()

	t.Run("interceptor", func(t *testing.T) {
		tool := load(t, &mcpservers.ClientOptions{Interceptors: []mcpservers.Interceptor{auditor{model: newOpenAI()}}})
		_, err := definition.Build(&definition.Agent{Name: "a", Model: "gpt-5", ChatModel: routed, Tools: []definition.Tool{tool}}, nil)
		wantUnrouted(t, err, "/tools/0", "interceptor 0.model")

		tool = load(t, &mcpservers.ClientOptions{Interceptors: []mcpservers.Interceptor{auditor{model: routed}}})
		if _, err := definition.Build(&definition.Agent{Name: "a", Model: "gpt-5", ChatModel: routed, Tools: []definition.Tool{tool}}, nil); err != nil {
			t.Fatalf("the routed model: %v", err)
		}
		_, err = definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{tool}}, nil)
		wantUnrouted(t, err, "/tools/0", "interceptor 0.model") // no routed model at all
	})
	t.Run("value", func(t *testing.T) {
		tool := load(t, &mcpservers.ClientOptions{Interceptors: []mcpservers.Interceptor{byValue{model: *routed}}})
		if _, err := definition.Build(&definition.Agent{Name: "a", ChatModel: *routed, Tools: []definition.Tool{tool}}, nil); err != nil {
			t.Fatalf("a copy of the routed model: %v", err)
		}
		if _, err := definition.Build(&definition.Agent{Name: "a", ChatModel: routed, Tools: []definition.Tool{tool}}, nil); err != nil {
			t.Fatalf("the routed model's value, routed as a pointer: %v", err)
		}
		_, err := definition.Build(&definition.Agent{Name: "a", ChatModel: *newOpenAI(), Tools: []definition.Tool{tool}}, nil)
		wantUnrouted(t, err, "/tools/0", "interceptor 0.model")
	})
	t.Run("sampling handler", func(t *testing.T) {
		claude := anthropic.NewClient(anthropicoption.WithAPIKey(fakeKey()), anthropicoption.WithBaseURL(unreachable))
		tool := load(t, &mcpservers.ClientOptions{Sampling: &sampler{claude: claude}})
		_, err := definition.Build(&definition.Agent{Name: "a", ChatModel: routed, Tools: []definition.Tool{tool}}, nil)
		wantUnrouted(t, err, "/tools/0", "sampling.claude")
	})
	t.Run("wrapper", func(t *testing.T) {
		w := wrapper{Tool: load(t, nil), helper: &newOpenAI().Chat.Completions}
		_, err := definition.Build(&definition.Agent{Name: "a", ChatModel: routed, Tools: []definition.Tool{w}}, nil)
		wantUnrouted(t, err, "/tools/0", "the tool.helper")
	})
	t.Run("request data is not a client", func(t *testing.T) {
		tool := load(t, &mcpservers.ClientOptions{Interceptors: []mcpservers.Interceptor{prompts{params: openai.ChatCompletionNewParams{Model: "gpt-5"}}}})
		if _, err := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{tool}}, nil); err != nil {
			t.Fatalf("request parameters held: %v", err)
		}
	})
	t.Run("ChatModelPackages", func(t *testing.T) {
		tool := load(t, &mcpservers.ClientOptions{Interceptors: []mcpservers.Interceptor{other{c: &fakemodel.Client{}}}})
		a := &definition.Agent{Name: "a", Tools: []definition.Tool{tool}}
		if _, err := definition.Build(a, nil); err != nil {
			t.Fatalf("a package Build does not know: %v", err)
		}
		_, err := definition.Build(a, &definition.Options{ChatModelPackages: []string{"github.com/guardian-agent/guardian-go/definition/internal/modeltest/fakemodel"}})
		wantUnrouted(t, err, "/tools/0", "interceptor 0.c")
	})
}
