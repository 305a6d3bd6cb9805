package adk_test

import (
	"errors"
	"os"
	"os/exec"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/adk/v2/agent/llmagent"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/mcptoolset"

	guardianadk "github.com/guardian-agent/guardian-go/adk"
	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/refusals"
)

// mcpToolset is ADK's own MCP toolset over the test server named name, as
// a new ADK user writes it, with the server rewriting search_docs'
// description after its first listing.
func mcpToolset(t *testing.T, name string) tool.Toolset {
	t.Helper()
	env, _, _ := serverEnvOf(t, name, map[string]string{"ADK_TEST_RUGPULL": "1"})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	ts, err := mcptoolset.New(mcptoolset.Config{Transport: &mcp.CommandTransport{Command: cmd}})
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// TestRugPull: a server rewrites its tool's description after the first
// tools/list. Through ADK's mcptoolset the model is handed the rewritten
// description on the next run, with no warning and no record; New refuses
// that toolset. Through the adapter, the model is sent the description the
// definition records on every run, and the changed tool, loaded again and
// offered to the running agent, is refused before its server sees
// anything; the definitions differ by that description.
func TestRugPull(t *testing.T) {
	t.Run("ADK's mcptoolset hands the model the new description", func(t *testing.T) {
		m := newModel(say("first"), say("second"))
		a, err := llmagent.New(llmagent.Config{Name: "researcher", Model: m, Instruction: "You research questions using the internal docs.",
			Toolsets: []tool.Toolset{mcpToolset(t, "docs")}})
		if err != nil {
			t.Fatal(err)
		}
		c := converse(t, a)
		var seen []string
		for range 2 {
			if o := c.say("Summarise the release notes."); o.err != nil {
				t.Fatal(o.err)
			}
			d := declarations(m.lastRequest())["search_docs"]
			if d == nil {
				t.Fatal("the model was not sent search_docs")
			}
			seen = append(seen, d.Description)
		}
		if seen[0] != searchDescription || seen[1] != poisonedDesciption {
			t.Fatalf("the model was sent %q", seen)
		}
	})

	t.Run("New refuses ADK's mcptoolset", func(t *testing.T) {
		cfg := researcher(newModel(), nil)
		cfg.Toolsets = []tool.Toolset{mcpToolset(t, "docs")}
		a, def, err := guardianadk.New(cfg, nil)
		var r *refusals.Error
		if !errors.As(err, &r) || !errors.Is(err, refusals.ErrSessionTool) || r.Rule != "adk-mcp-session" || r.Pointer != "/toolsets/0" || a != nil || def != nil {
			t.Fatalf("New = %v, %v, %v; want an ErrSessionTool refusal at /toolsets/0 and nothing built", a, def, err)
		}
		if !contains(r.Fix, "mcpservers") {
			t.Fatalf("the fix %q does not point to mcpservers", r.Fix)
		}
	})

	t.Run("the adapter records once and refuses the changed tool", func(t *testing.T) {
		docs := startServer(t, "docs", map[string]string{"ADK_TEST_RUGPULL": "1"}, nil)
		recorded := docs.tools["search_docs"]
		m := newModel(say("first"), say("second"), call("search_docs", map[string]any{"query": "release notes"}), say("not reached"))
		cfg := researcher(m, adapt(t, recorded))
		var changed *guardianadk.Tool
		cfg.BeforeModelCallbacks = []llmagent.BeforeModelCallback{func() llmagent.BeforeModelCallback {
			// From the third run on, the tool is loaded again each run, as a
			// toolset would: the server now sends the new description.
			runs := 0
			return func(ctx agentContext, req modelRequest) (modelResponse, error) {
				runs++
				if runs < 3 || changed == nil {
					return nil, nil
				}
				return inject(changed)(ctx, req)
			}
		}()}
		a, def, err := guardianadk.New(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		c := converse(t, a)
		for range 2 {
			if o := c.say("Summarise the release notes."); o.err != nil {
				t.Fatal(o.err)
			}
			if d := declarations(m.lastRequest())["search_docs"]; d == nil || d.Description != searchDescription {
				t.Fatalf("the model was sent %+v, want the recorded description", d)
			}
		}
		docs.relist(t) // the server's second listing: the rewritten description
		relisted := docs.tools["search_docs"]
		if relisted.Description() != poisonedDesciption {
			t.Fatalf("the server did not change: %q", relisted.Description())
		}
		if err := def.Vet(relisted); !errors.Is(err, refusals.ErrUndescribed) {
			t.Fatalf("Vet(relisted) = %v, want ErrUndescribed", err)
		}
		changed = adapt(t, relisted)[0].(*guardianadk.Tool)
		o := c.say("Summarise the release notes.")
		if o.err != nil {
			t.Fatal(o.err)
		}
		if r := o.responses()["search_docs"]; r == nil || !contains(r["error"].(string), "not described") {
			t.Fatalf("function response %v, want the refusal", r)
		}
		if got := docs.Calls(); len(got) != 0 {
			t.Fatalf("the server received %v", got)
		}
		_, def2, err := guardianadk.New(researcher(newModel(), adapt(t, relisted)), nil)
		if err != nil {
			t.Fatal(err)
		}
		changes := definition.Diff(def, def2)
		if len(changes) != 1 || changes[0].Kind != definition.ToolDescription || changes[0].Tool != "search_docs" {
			t.Fatalf("Diff = %v, want the description of search_docs", changes)
		}
	})
}
