package adk_test

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
	"testing"
	"time"

	guardianadk "github.com/guardian-agent/guardian-go/adk"
	"github.com/guardian-agent/guardian-go/definition"
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

// TestInteropReferenceServers: an ADK agent given every tool of
// server-everything and server-memory records what the core's Build
// records, byte for byte, sends the model each tool's schema as the server
// sent it, runs through the adapter, and pauses on server-everything's
// elicitation and resumes with each answer.
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
		raw, ok := tools[i].(*guardianadk.Tool).Declaration().ParametersJsonSchema.(json.RawMessage)
		if !ok || !bytes.Equal(raw, mt.InputSchema()) {
			t.Errorf("%s: the model would be sent %s, the server sent %s", mt.Name(), raw, mt.InputSchema())
		}
	}
	for _, need := range []string{"echo", "trigger-elicitation-request", "read_graph"} {
		if byName[need] == nil {
			t.Fatalf("no tool %q among %d", need, len(mcpTools))
		}
	}

	_, def, err := newAgent(researcher(newModel(), tools))
	if err != nil {
		t.Fatal(err)
	}
	want, err := definition.Build(&definition.Agent{Name: "researcher", Description: "Researches questions using the internal docs.", Model: "scripted-model",
		SystemPrompt: "You research questions using the internal docs.", Tools: coreTools(mcpTools...)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := def.Document()
	wantDoc, _ := want.Document()
	if !bytes.Equal(got, wantDoc) {
		t.Fatalf("adapter record differs from core Build:\n%s\n---\n%s", got, wantDoc)
	}

	t.Run("run", func(t *testing.T) {
		m := newModel(call("echo", map[string]any{"message": "hello from adk"}), call("read_graph", map[string]any{}), answer("graph: "))
		a, _, err := newAgent(researcher(m, tools))
		if err != nil {
			t.Fatal(err)
		}
		o := converse(t, a).say("Echo, then read the graph.")
		if o.err != nil {
			t.Fatal(o.err)
		}
		echo := o.responses()["echo"]
		if echo == nil || !contains(echo["output"].(string), "hello from adk") || !contains(o.text(), `"entities"`) {
			t.Fatalf("echo %v, last %q", echo, o.text())
		}
	})

	t.Run("elicitation", func(t *testing.T) {
		for _, ans := range []struct {
			answer mcpservers.ElicitationResponse
			want   string
		}{
			{mcpservers.ElicitationResponse{Action: mcpservers.ElicitationAccept, Content: map[string]any{"name": "Ada Lovelace", "check": true, "integer": 7}}, "- Name: Ada Lovelace"},
			{mcpservers.ElicitationResponse{Action: mcpservers.ElicitationDecline}, "User declined"},
			{mcpservers.ElicitationResponse{Action: mcpservers.ElicitationCancel}, "User cancelled"},
		} {
			a, _, err := newAgent(researcher(newModel(call("trigger-elicitation-request", map[string]any{}), answer("")), tools))
			if err != nil {
				t.Fatal(err)
			}
			conv := converse(t, a)
			o := conv.say("Ask me.")
			p := o.pending()
			if o.err != nil || len(p) != 1 || p[0].Request.Server != "everything" || len(p[0].Request.Requests) != 1 {
				t.Fatalf("pending %v (%v)", p, o.err)
			}
			o = conv.send(p[0].Answer(guardianadk.ElicitationAnswers{p[0].Request.Requests[0].Key: ans.answer}))
			if o.err != nil || !contains(o.text(), ans.want) {
				t.Fatalf("%s: last %q (%v), want %q", ans.answer.Action, o.text(), o.err, ans.want)
			}
		}
	})
}
