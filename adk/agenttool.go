package adk

import (
	"encoding/json"
	"errors"
	"fmt"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/agent/llmagent"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/agenttool"
	"google.golang.org/genai"
)

// AgentTool is an agent the model calls as a tool, ADK's agenttool, given
// in an LLMAgent's Tools. New records its agent as a sub-agent of the
// agent given the tool (with the servers of its own tools), and the tool
// as one of that agent's tools, with the declaration agenttool gives the
// model; then it makes the agent and agenttool.New(agent, cfg). A tool
// made with agenttool.New around an agent made elsewhere is refused: its
// agent cannot be recorded.
//
// An AgentTool is a tool.Tool only so that it can stand in Tools; it runs
// nothing until New makes it.
type AgentTool struct {
	agent             Agent
	cfg               *agenttool.Config
	name, description string
}

// NewAgentTool returns the agent a as a tool, with agenttool's cfg (nil
// for its defaults).
func NewAgentTool(a Agent, cfg *agenttool.Config) *AgentTool {
	t := &AgentTool{agent: a, cfg: cfg}
	if !isNil(a) {
		t.name, t.description = nameOf(a), descriptionOf(a)
	}
	return t
}

// Name is the agent's name, which the model calls.
func (t *AgentTool) Name() string { return t.name }

// Description is the agent's description.
func (t *AgentTool) Description() string { return t.description }

// IsLongRunning is false, as agenttool's.
func (t *AgentTool) IsLongRunning() bool { return false }

// make is ADK's agent tool around the agent made from t's.
func (t *AgentTool) make(a agent.Agent) tool.Tool { return agenttool.New(a, t.cfg) }

// record is the tool as the model is sent it: agenttool's declaration for
// an agent of t's name, description and input schema (ADK reads the
// schema of the first LLM agent down the first sub-agents).
func (t *AgentTool) record() (*agentToolRecord, error) {
	stand, err := llmagent.New(llmagent.Config{Name: t.name, Description: t.description, InputSchema: inputSchema(t.agent)})
	if err != nil {
		return nil, fmt.Errorf("guardian-go adk: an agent tool: %w", err)
	}
	at, ok := agenttool.New(stand, t.cfg).(interface {
		Declaration() *genai.FunctionDeclaration
	})
	if !ok {
		return nil, errors.New("guardian-go adk: ADK's agent tool has no declaration")
	}
	d := at.Declaration()
	s, err := declSchema(d)
	if err != nil {
		return nil, fmt.Errorf("guardian-go adk: an agent tool's input schema: %w", err)
	}
	desc := t.description
	if d != nil {
		desc = d.Description
	}
	return &agentToolRecord{name: t.name, description: desc, schema: s}, nil
}

// inputSchema is the input schema ADK gives an agent tool of a: an LLM
// agent's InputSchema, or a workflow agent's first sub-agent's.
func inputSchema(a Agent) *genai.Schema {
	for depth := 0; depth <= 64; depth++ {
		var subs []Agent
		switch x := a.(type) {
		case *LLMAgent:
			if x == nil {
				return nil
			}
			return x.InputSchema
		case *SequentialAgent:
			if x != nil {
				subs = x.SubAgents
			}
		case *ParallelAgent:
			if x != nil {
				subs = x.SubAgents
			}
		case *LoopAgent:
			if x != nil {
				subs = x.SubAgents
			}
		case *WorkflowAgent:
			if x != nil {
				subs = x.SubAgents
			}
		}
		if len(subs) == 0 {
			return nil
		}
		a = subs[0]
	}
	return nil
}

// agentToolRecord is an agent tool as a definition records it.
type agentToolRecord struct {
	name, description string
	schema            json.RawMessage
}

func (r *agentToolRecord) Name() string        { return r.name }
func (r *agentToolRecord) Description() string { return r.description }
func (r *agentToolRecord) InputSchema() json.RawMessage {
	return append(json.RawMessage(nil), r.schema...)
}
