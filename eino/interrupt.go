package eino

import (
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"maps"

	"github.com/cloudwego/eino/components/tool"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

// ElicitationInterrupt is the Info of the interrupt a run pauses with when
// an MCP server asks the user for input in the middle of a tool call
// (elicitation). Show the requests, then resume the run at the interrupt's
// ID with ElicitationAnswers:
//
//	iter, err := runner.ResumeWithParams(ctx, checkpointID, &adk.ResumeParams{
//		Targets: map[string]any{interruptID: eino.ElicitationAnswers{
//			req.Key: {Action: mcpservers.ElicitationAccept, Content: map[string]any{"date": "2026-09-14"}},
//		}},
//	})
//
// The run needs a checkpoint store (adk.RunnerConfig.CheckPointStore) and
// a checkpoint ID (adk.WithCheckPointID). Resuming reruns the tool call
// from the start, with the answers given as the server asks again: work
// the tool did before it asked is done again.
type ElicitationInterrupt struct {
	Tool   string // the name the model called
	Server string // the server asking
	// Requests are the server's unanswered requests, sorted by Key.
	Requests []*mcpservers.ElicitationRequest
}

// String says which tool needs input.
func (e *ElicitationInterrupt) String() string {
	return "MCP server " + e.Server + " asks for input to run tool " + e.Tool
}

// ElicitationAnswers answer an ElicitationInterrupt's requests, keyed by
// ElicitationRequest.Key; each is accept (with Content for a form),
// decline or cancel. The server decides how the call ends.
type ElicitationAnswers map[string]mcpservers.ElicitationResponse

// elicitationState is what an elicitation interrupt persists: the answers
// given so far and the requests pending. It is saved as a JSON string,
// which the checkpoint's gob encoding carries without registering a type.
type elicitationState struct {
	Kind     string                                    `json:"kind"`
	Answers  map[string]mcpservers.ElicitationResponse `json:"answers,omitempty"`
	Requests []*mcpservers.ElicitationRequest          `json:"requests"`
}

const (
	kindElicitation = "elicitation"
	kindApproval    = "approval"
)

// interruptKind reads which of ours an interrupt at ctx's address was, if
// any.
func interruptKind(ctx context.Context) (kind string, raw string, was bool) {
	was, has, state := tool.GetInterruptState[string](ctx)
	if !was || !has {
		return "", "", was
	}
	var k struct {
		Kind string `json:"kind"`
	}
	if json.Unmarshal([]byte(state), &k) != nil {
		return "", "", true
	}
	return k.Kind, state, true
}

// call runs the MCP tool, turning a server's request for input into an
// interrupt and a resume's answers into the rerun's.
func (t *Tool) call(ctx context.Context, args map[string]any) (*mcpservers.Result, error) {
	answers := map[string]mcpservers.ElicitationResponse{}
	kind, raw, _ := interruptKind(ctx)
	if kind == kindElicitation {
		var st elicitationState
		if err := json.Unmarshal([]byte(raw), &st); err != nil {
			return nil, err
		}
		maps.Copy(answers, st.Answers)
		target, has, given := tool.GetResumeContext[ElicitationAnswers](ctx)
		if !target || !has {
			// Another interrupt was resumed, not this one: pause again.
			return nil, t.interrupt(ctx, answers, st.Requests)
		}
		maps.Copy(answers, given)
	}
	var (
		res *mcpservers.Result
		err error
	)
	if len(answers) > 0 {
		res, err = t.mcp.Resume(ctx, args, answers)
	} else {
		res, err = t.mcp.Call(ctx, args)
	}
	var need *mcpservers.ElicitationRequired
	if errors.As(err, &need) {
		return nil, t.interrupt(ctx, answers, need.Requests)
	}
	return res, err
}

func (t *Tool) interrupt(ctx context.Context, answers map[string]mcpservers.ElicitationResponse, reqs []*mcpservers.ElicitationRequest) error {
	st, err := json.Marshal(elicitationState{Kind: kindElicitation, Answers: answers, Requests: reqs})
	if err != nil {
		return err
	}
	return tool.StatefulInterrupt(ctx, &ElicitationInterrupt{
		Tool: t.mcp.Name(), Server: t.mcp.Server().Name, Requests: reqs,
	}, string(st))
}

// registerInterrupts names the interrupt Infos for gob, with which Eino's
// Runner saves a checkpoint holding them. gob.RegisterName is idempotent
// for a name and type, so every constructor calls it rather than an init
// function.
func registerInterrupts() {
	gob.RegisterName("github.com/guardian-agent/guardian-go/eino.ElicitationInterrupt", &ElicitationInterrupt{})
	gob.RegisterName("github.com/guardian-agent/guardian-go/eino.ApprovalInterrupt", &ApprovalInterrupt{})
}
