package eino_test

// Interop: the adapter over MCP servers written by others, the npm
// reference servers (@modelcontextprotocol/server-everything and
// server-memory) that `bash .ci/interop-setup` installs under
// ../mcpservers/testdata/npm. Without them the tests skip, unless
// GUARDIAN_REQUIRE_INTEROP=1 (as in CI), where they fail.

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"

	"github.com/guardian-agent/guardian-go/definition"
	guardianeino "github.com/guardian-agent/guardian-go/eino"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

func npmServer(t testing.TB, name string) string {
	t.Helper()
	missing := func(what string) {
		msg := what + " is not installed; run: bash .ci/interop-setup"
		if os.Getenv("GUARDIAN_REQUIRE_INTEROP") == "1" {
			t.Fatalf("%s (GUARDIAN_REQUIRE_INTEROP=1, so this fails instead of skipping)", msg)
		}
		t.Skip(msg)
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing("node")
	}
	bin, err := filepath.Abs(filepath.Join("..", "mcpservers", "testdata", "npm", "node_modules", ".bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		missing(name)
	}
	return bin
}

// TestInteropReferenceServers: an Eino agent given every tool of
// server-everything and server-memory records what the core's Build
// records, byte for byte, offers the model each tool's schema as sent,
// runs through the adapter, and pauses on server-everything's elicitation
// and resumes with each answer.
func TestInteropReferenceServers(t *testing.T) {
	everything := npmServer(t, "mcp-server-everything")
	memory := npmServer(t, "mcp-server-memory")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{
		"everything": mcpservers.Stdio{Command: everything},
		"memory":     mcpservers.Stdio{Command: memory, Env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(t.TempDir(), "memory.json")}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	mcpTools, err := c.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tools := adapt(t, mcpTools...)
	byName := map[string]*mcpservers.Tool{}
	for i, mt := range mcpTools {
		byName[mt.Name()] = mt
		info, err := tools[i].Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		js, err := info.ParamsOneOf.ToJSONSchema()
		if err != nil {
			t.Fatal(err)
		}
		sent, err := json.Marshal(js)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := canonicalJSON(t, sent), canonicalJSON(t, mt.InputSchema()); got != want {
			t.Errorf("%s: the model would be sent %s, the server sent %s", mt.Name(), got, want)
		}
	}
	for _, need := range []string{"echo", "trigger-elicitation-request", "read_graph"} {
		if byName[need] == nil {
			t.Fatalf("no tool %q among %d", need, len(mcpTools))
		}
	}

	newAgent := func(m *scripted) (adk.ResumableAgent, *definition.Definition) {
		a, def, err := guardianeino.NewChatModelAgent(ctx, agentConfig("researcher", m, tools), nil)
		if err != nil {
			t.Fatal(err)
		}
		return a, def
	}

	_, def := newAgent(&scripted{})
	core := make([]definition.Tool, len(mcpTools))
	for i, mt := range mcpTools {
		core[i] = mt
	}
	want, err := definition.Build(&definition.Agent{Name: "researcher", Description: "Researches questions.", Model: "gpt-4.1",
		SystemPrompt: "You research questions using the internal docs.", Tools: core}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := def.Document()
	wantDoc, _ := want.Document()
	if !bytes.Equal(got, wantDoc) {
		t.Fatalf("adapter record differs from core Build:\n%s\n---\n%s", got, wantDoc)
	}

	t.Run("run", func(t *testing.T) {
		m := &scripted{steps: []func([]*schema.Message) *schema.Message{
			call("echo", `{"message":"hello from eino"}`), call("read_graph", `{}`), answer("graph: "),
		}}
		a, _ := newAgent(m)
		o := drain(t, adk.NewRunner(ctx, adk.RunnerConfig{Agent: a}).Query(ctx, "Echo, then read the graph."))
		if o.err != nil {
			t.Fatal(o.err)
		}
		var echoed string
		for _, msg := range m.lastInput() {
			if msg.Role == schema.Tool && strings.Contains(msg.Content, "hello from eino") {
				echoed = msg.Content
			}
		}
		if echoed == "" || o.last == nil || !strings.Contains(o.last.Content, `"entities"`) {
			t.Fatalf("echo %q, last %+v", echoed, o.last)
		}
	})

	t.Run("elicitation", func(t *testing.T) {
		for _, c := range []struct {
			answer mcpservers.ElicitationResponse
			want   string
		}{
			{mcpservers.ElicitationResponse{Action: mcpservers.ElicitationAccept, Content: map[string]any{"name": "Ada Lovelace", "check": true, "integer": 7}}, "- Name: Ada Lovelace"},
			{mcpservers.ElicitationResponse{Action: mcpservers.ElicitationDecline}, "User declined"},
			{mcpservers.ElicitationResponse{Action: mcpservers.ElicitationCancel}, "User cancelled"},
		} {
			m := &scripted{steps: []func([]*schema.Message) *schema.Message{call("trigger-elicitation-request", `{}`), answer("")}}
			a, _ := newAgent(m)
			runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: a, CheckPointStore: &memStore{}})
			ic := rootCause(t, drain(t, runner.Query(ctx, "Ask me.", adk.WithCheckPointID("ask"))))
			info, ok := ic.Info.(*guardianeino.ElicitationInterrupt)
			if !ok || info.Server != "everything" || len(info.Requests) != 1 {
				t.Fatalf("info = %#v", ic.Info)
			}
			iter, err := runner.ResumeWithParams(ctx, "ask", &adk.ResumeParams{Targets: map[string]any{
				ic.ID: guardianeino.ElicitationAnswers{info.Requests[0].Key: c.answer},
			}})
			if err != nil {
				t.Fatal(err)
			}
			o := drain(t, iter)
			if o.err != nil || o.last == nil || !strings.Contains(o.last.Content, c.want) {
				t.Fatalf("%s: outcome %+v, want %q", c.answer.Action, o, c.want)
			}
		}
	})
}
