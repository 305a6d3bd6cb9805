package eino

import (
	"context"
	"encoding/json"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// Approval gates tool calls on a person's approval, by what each tool's
// server declares about it: a call of an MCP tool that may be destructive
// (MCP's default: a tool with no annotations may be; only readOnlyHint true
// or destructiveHint false says otherwise) pauses the run with an
// ApprovalInterrupt. When, if set, narrows that to the calls it returns
// true for, by their arguments. Tools that are not MCP tools declare
// nothing and are not gated.
type Approval struct {
	When func(ctx context.Context, req *ApprovalInterrupt) bool
}

// ApprovalInterrupt is the Info of the interrupt a run pauses with when a
// call needs approval. Resume the run at the interrupt's ID with an
// ApprovalDecision.
type ApprovalInterrupt struct {
	Tool   string // the name the model called
	Server string // the MCP server the call would go to
	// Arguments are the model's arguments, as it wrote them (JSON).
	Arguments string
	// Annotations are what the server declares about the tool.
	Annotations mcpservers.Annotations
}

// String says which call waits for approval.
func (a *ApprovalInterrupt) String() string {
	return "tool " + a.Tool + " of MCP server " + a.Server + " may be destructive: approve or reject the call"
}

// ApprovalDecision answers an ApprovalInterrupt. Approved runs the call;
// otherwise the model is told the call was rejected, with Reason if given,
// and nothing is sent.
type ApprovalDecision struct {
	Approved bool
	Reason   string
}

type approvalState struct {
	Kind string `json:"kind"`
}

// guard is the tool-call middleware of one agent: it vets each call against
// the definition before anything is sent, binds the definition to the
// call's context, and asks for approval where the agent's Approval says.
type guard struct {
	def       *definition.Definition
	subAgents []string
	tools     map[string]definition.Tool // by the name the model sees
	mcp       map[string]*mcpservers.Tool
	approval  *Approval
	// agentTools names the tools that run a sub-agent (AgentTools).
	agentTools map[string]bool
	// transfers: the agent has sub-agents, and Eino's transfer tool.
	transfers bool
}

func (g *guard) middleware() compose.ToolMiddleware { return guardMiddleware(g.before) }

// guardMiddleware runs before ahead of every kind of tool call.
func guardMiddleware(before func(context.Context, *compose.ToolInput) (context.Context, string, error)) compose.ToolMiddleware {
	return compose.ToolMiddleware{
		Invokable: func(next compose.InvokableToolEndpoint) compose.InvokableToolEndpoint {
			return func(ctx context.Context, in *compose.ToolInput) (*compose.ToolOutput, error) {
				ctx, out, err := before(ctx, in)
				if err != nil {
					return nil, err
				}
				if out != "" {
					return &compose.ToolOutput{Result: out}, nil
				}
				return next(ctx, in)
			}
		},
		Streamable: func(next compose.StreamableToolEndpoint) compose.StreamableToolEndpoint {
			return func(ctx context.Context, in *compose.ToolInput) (*compose.StreamToolOutput, error) {
				ctx, out, err := before(ctx, in)
				if err != nil {
					return nil, err
				}
				if out != "" {
					return &compose.StreamToolOutput{Result: singleString(out)}, nil
				}
				return next(ctx, in)
			}
		},
		EnhancedInvokable: func(next compose.EnhancedInvokableToolEndpoint) compose.EnhancedInvokableToolEndpoint {
			return func(ctx context.Context, in *compose.ToolInput) (*compose.EnhancedInvokableToolOutput, error) {
				ctx, out, err := before(ctx, in)
				if err != nil {
					return nil, err
				}
				if out != "" {
					return &compose.EnhancedInvokableToolOutput{Result: textResult(out)}, nil
				}
				return next(ctx, in)
			}
		},
		EnhancedStreamable: func(next compose.EnhancedStreamableToolEndpoint) compose.EnhancedStreamableToolEndpoint {
			return func(ctx context.Context, in *compose.ToolInput) (*compose.EnhancedStreamableToolOutput, error) {
				ctx, out, err := before(ctx, in)
				if err != nil {
					return nil, err
				}
				if out != "" {
					return &compose.EnhancedStreamableToolOutput{Result: singleResult(out)}, nil
				}
				return next(ctx, in)
			}
		},
	}
}

// before runs ahead of every call: a refusal is an error and nothing is
// sent; a rejection is the answer the model reads; otherwise the call goes
// on with the returned context.
func (g *guard) before(ctx context.Context, in *compose.ToolInput) (context.Context, string, error) {
	t, ok := g.tools[in.Name]
	if !ok && in.Name == adk.TransferToAgentToolName && g.transfers {
		// Eino's own tool for handing over to a sub-agent, which it adds
		// when sub-agents are set: it calls nothing, and the sub-agents
		// are recorded.
		return ctx, "", nil
	}
	if !ok {
		return ctx, "", g.def.Vet(nameOnly(in.Name), g.subAgents...)
	}
	if err := g.def.Vet(t, g.subAgents...); err != nil {
		return ctx, "", err
	}
	if !g.agentTools[in.Name] {
		// Bind the definition for the call: mcpservers.Tool.Call, and
		// FuncTool.Call, vet themselves against it, whoever calls them
		// (this tool, or code it calls). An agent tool's own agent binds
		// its calls to its part of the definition instead: a binding
		// nests, and its tools are not this agent's.
		ctx = g.def.Bind(ctx, g.subAgents...)
	}
	m := g.mcp[in.Name]
	if g.approval == nil || m == nil || !m.Annotations().MayBeDestructive() {
		return ctx, "", nil
	}
	req := &ApprovalInterrupt{Tool: in.Name, Server: m.Server().Name, Arguments: in.Arguments, Annotations: m.Annotations()}
	if g.approval.When != nil && !g.approval.When(ctx, req) {
		return ctx, "", nil
	}
	kind, _, _ := interruptKind(ctx)
	switch kind {
	case kindElicitation:
		// The call was approved and then paused for the server's
		// question: it goes on.
		return ctx, "", nil
	case kindApproval:
		target, has, d := tool.GetResumeContext[ApprovalDecision](ctx)
		if target && has {
			if d.Approved {
				return ctx, "", nil
			}
			msg := "The user rejected this call of tool " + in.Name + "; it was not run."
			if d.Reason != "" {
				msg += " Reason: " + d.Reason
			}
			return ctx, msg, nil
		}
	}
	st, _ := json.Marshal(approvalState{Kind: kindApproval})
	return ctx, "", tool.StatefulInterrupt(ctx, req, string(st))
}
