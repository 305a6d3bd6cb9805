package adk

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"

	"google.golang.org/adk/v2/agent"
	"google.golang.org/adk/v2/model"
	"google.golang.org/adk/v2/session"
	"google.golang.org/adk/v2/tool"
	"google.golang.org/adk/v2/tool/toolconfirmation"
	"google.golang.org/genai"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

// Approval and elicitation pause a run with ADK's tool confirmation: the
// call asks for confirmation (agent.Context.RequestConfirmation) with a
// Request as its payload, ADK ends the run with an
// adk_request_confirmation function call, and the application answers
// with that call's function response; the next run re-runs the original
// call with the answer (agent.Context.ToolConfirmation).
//
// Why confirmation and not a long-running tool: ADK v2.2.0 re-runs a
// confirmed call itself, inside the agent, with the confirmation in the
// call's context, so the resumed call is vetted and bound like the first.
// A long-running tool's result is the application's to produce: the
// resumed MCP call would run outside the agent.

// Approval gates tool calls on a person's approval, by what each tool's
// server declares about it: a call of an MCP tool that may be destructive
// (MCP's default: a tool with no annotations may be; only readOnlyHint true
// or destructiveHint false says otherwise) pauses the run with a
// confirmation request (a Request of Kind "approval") before anything is
// sent. When, if set, narrows that to the calls it returns true for, by
// their arguments. Tools that are not MCP tools declare nothing and are
// not gated (ADK's functiontool has its own RequireConfirmation).
type Approval struct {
	When func(ctx context.Context, req *Request) bool
}

// The kinds of Request.
const (
	KindApproval    = "approval"
	KindElicitation = "elicitation"
)

// Request is the payload of the confirmation a call pauses with, in the
// adk_request_confirmation call ADK ends the run with (its
// "toolConfirmation" argument's payload). Pending finds it in an event.
type Request struct {
	// Kind is KindApproval (a person must approve the call) or
	// KindElicitation (the server asks the user for input mid-call).
	Kind   string `json:"kind"`
	Tool   string `json:"tool"`   // the name the model called
	Server string `json:"server"` // the MCP server the call goes to
	// Arguments are the model's arguments.
	Arguments map[string]any `json:"arguments,omitempty"`
	// Annotations are what the server declares about the tool.
	Annotations mcpservers.Annotations `json:"annotations"`
	// Requests are the server's unanswered requests for input, sorted by
	// Key (KindElicitation).
	Requests []*mcpservers.ElicitationRequest `json:"requests,omitempty"`
	// Answers are the answers given in earlier rounds of this call.
	Answers map[string]mcpservers.ElicitationResponse `json:"answers,omitempty"`
	// Approved is set when a person approved the call in an earlier round.
	Approved bool `json:"approved,omitempty"`
}

// String says what the call waits for.
func (r *Request) String() string {
	if r.Kind == KindElicitation {
		return "MCP server " + r.Server + " asks for input to run tool " + r.Tool
	}
	return "tool " + r.Tool + " of MCP server " + r.Server + " may be destructive: approve or reject the call"
}

// Decision is the payload of the application's answer to a Request, in
// the adk_request_confirmation function response (with "confirmed").
// Confirmation's methods make one. A bare {"confirmed": true} (ADK's web
// UI sends one) approves, or accepts every form with its defaults; a bare
// {"confirmed": false} rejects, or declines every request.
type Decision struct {
	// Reason says why a call was rejected; the model reads it.
	Reason string `json:"reason,omitempty"`
	// Answers answer a KindElicitation request's Requests, keyed by
	// ElicitationRequest.Key: accept (with Content for a form), decline or
	// cancel. The server decides how the call ends.
	Answers map[string]mcpservers.ElicitationResponse `json:"answers,omitempty"`
}

// ElicitationAnswers answer an elicitation Request's Requests, keyed by
// ElicitationRequest.Key.
type ElicitationAnswers = map[string]mcpservers.ElicitationResponse

// Confirmation is a call paused for a person: the adk_request_confirmation
// function call ADK ended the run with, and the guardian-go Request it
// carries.
type Confirmation struct {
	Call    *genai.FunctionCall // the adk_request_confirmation call
	Request *Request
}

// Pending returns the confirmations ev asks for whose payload is a
// guardian-go Request, in the order of its parts.
func Pending(ev *session.Event) []*Confirmation {
	if ev == nil || ev.Content == nil {
		return nil
	}
	var out []*Confirmation
	for _, p := range ev.Content.Parts {
		if p == nil || p.FunctionCall == nil || p.FunctionCall.Name != toolconfirmation.FunctionCallName {
			continue
		}
		if r, ok := requestIn(p.FunctionCall.Args["toolConfirmation"]); ok {
			out = append(out, &Confirmation{Call: p.FunctionCall, Request: r})
		}
	}
	return out
}

// Approve answers an approval: the call runs.
func (c *Confirmation) Approve() *genai.Part { return c.answer(true, Decision{}) }

// Reject answers an approval: the call is not run, and the model reads
// that it was rejected, with reason if given.
func (c *Confirmation) Reject(reason string) *genai.Part {
	return c.answer(false, Decision{Reason: reason})
}

// Answer answers an elicitation's requests; the call runs again with them.
func (c *Confirmation) Answer(answers ElicitationAnswers) *genai.Part {
	return c.answer(true, Decision{Answers: answers})
}

func (c *Confirmation) answer(confirmed bool, d Decision) *genai.Part {
	payload := map[string]any{}
	if d.Reason != "" {
		payload["reason"] = d.Reason
	}
	if len(d.Answers) > 0 {
		payload["answers"] = d.Answers
	}
	return &genai.Part{FunctionResponse: &genai.FunctionResponse{
		ID:       c.Call.ID,
		Name:     toolconfirmation.FunctionCallName,
		Response: map[string]any{"confirmed": confirmed, "payload": payload},
	}}
}

// requestIn reads a guardian-go Request from a toolConfirmation argument:
// a toolconfirmation.ToolConfirmation as ADK made it, or the JSON values a
// session that stores events as JSON gives back.
func requestIn(v any) (*Request, bool) {
	var payload any
	switch tc := v.(type) {
	case toolconfirmation.ToolConfirmation:
		payload = tc.Payload
	case *toolconfirmation.ToolConfirmation:
		if tc == nil {
			return nil, false
		}
		payload = tc.Payload
	case map[string]any:
		payload = tc["payload"]
	default:
		return nil, false
	}
	if r, ok := payload.(*Request); ok {
		return r, r != nil && (r.Kind == KindApproval || r.Kind == KindElicitation)
	}
	var r Request
	if !decodeJSON(payload, &r) || (r.Kind != KindApproval && r.Kind != KindElicitation) {
		return nil, false
	}
	return &r, true
}

// decodeJSON decodes v, JSON values or a struct, into out through JSON.
func decodeJSON(v, out any) bool {
	if v == nil {
		return false
	}
	b, err := json.Marshal(v)
	if err != nil {
		return false
	}
	return json.Unmarshal(b, out) == nil
}

// resumed is what a call re-run after a confirmation knows: the Request it
// paused with (from the session, where ADK keeps the confirmation call),
// and the application's answer.
type resumed struct {
	req       *Request
	confirmed bool
	decision  Decision
}

// resumption reads the confirmation ctx's call was re-run with, if any.
func resumption(ctx agent.Context) (*resumed, bool) {
	tc := ctx.ToolConfirmation()
	if tc == nil {
		return nil, false
	}
	r := &resumed{confirmed: tc.Confirmed, req: askedFor(ctx)}
	decodeJSON(tc.Payload, &r.decision)
	return r, true
}

// askedFor is the Request this call paused with. pause keeps it in the
// session's state, keyed by the call's ID (which ADK keeps when it re-runs
// a confirmed call): a tool's context in ADK v2.2.0 cannot read the
// session's events, where the confirmation call is, but reads its state.
func askedFor(ctx agent.Context) *Request {
	st := ctx.State()
	if st == nil {
		return nil
	}
	v, err := st.Get(stateKey(ctx.FunctionCallID()))
	if err != nil || v == nil {
		return nil
	}
	var r Request
	if !decodeJSON(v, &r) || (r.Kind != KindApproval && r.Kind != KindElicitation) {
		return nil
	}
	return &r
}

// stateKey is the session state key of the Request call id paused with.
// ADK's agenttool copies the state into an agent tool's session, but for
// keys starting "_adk"; this one is guardian-go's.
func stateKey(id string) string { return "_guardian_confirmation:" + id }

// forget drops the Request this call paused with, once the call is done
// with it.
func forget(ctx agent.Context) {
	if st := ctx.State(); st != nil {
		_ = st.Set(stateKey(ctx.FunctionCallID()), nil)
	}
}

// pause asks for confirmation with req as the payload and ends the run
// after this call.
func pause(ctx agent.Context, req *Request) (map[string]any, error) {
	// Kept as JSON values, so that a session service that stores state as
	// JSON gives back what it was given.
	var kept map[string]any
	if !decodeJSON(req, &kept) {
		return nil, errors.New("guardian-go adk: a confirmation request that is not JSON")
	}
	if st := ctx.State(); st != nil {
		if err := st.Set(stateKey(ctx.FunctionCallID()), kept); err != nil {
			return nil, err
		}
	}
	if err := ctx.RequestConfirmation(req.String(), req); err != nil {
		return nil, err
	}
	if a := ctx.Actions(); a != nil {
		a.SkipSummarization = true
	}
	if ctx.ToolConfirmation() != nil {
		// A call re-run after a confirmation: ADK v2.2.0 makes the
		// adk_request_confirmation call for a confirmation asked for in
		// the model's own step only. The agent's first
		// BeforeModelCallback makes this one (resurface).
		if err := resurfaceLater(ctx, req); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%s: %w", req, tool.ErrConfirmationRequired)
}

// resurfacePrefix starts the session state keys of the confirmations
// re-run calls asked for, one per call (parallel calls write their own),
// which the agent's next model step makes.
const resurfacePrefix = "_guardian_resurface:"

// unsurfaced is a confirmation a re-run call asked for.
type unsurfaced struct {
	CallID string         `json:"callId"`
	Name   string         `json:"name"`
	Args   map[string]any `json:"args,omitempty"`
	Hint   string         `json:"hint"`
	Req    Request        `json:"request"`
}

func resurfaceLater(ctx agent.Context, req *Request) error {
	st := ctx.State()
	if st == nil {
		return errors.New("guardian-go adk: no session state to keep a confirmation in")
	}
	var kept map[string]any
	u := unsurfaced{CallID: ctx.FunctionCallID(), Name: req.Tool, Args: req.Arguments, Hint: req.String(), Req: *req}
	if !decodeJSON(u, &kept) {
		return errors.New("guardian-go adk: a confirmation request that is not JSON")
	}
	return st.Set(resurfacePrefix+u.CallID, kept)
}

// resurface is the BeforeModelCallback New puts first in an LLM agent's:
// when calls re-run after a confirmation asked for another (ADK v2.2.0
// does not make those adk_request_confirmation calls), it answers the
// step in the model's place with them, as ADK makes its own: the run ends
// there, and the application answers them as it answers any.
func resurface(ctx agent.Context, req *model.LLMRequest) (*model.LLMResponse, error) {
	st := ctx.State()
	if st == nil {
		return nil, nil
	}
	var (
		list []unsurfaced
		keys []string
	)
	for k, v := range st.All() {
		if !strings.HasPrefix(k, resurfacePrefix) || v == nil {
			continue
		}
		var u unsurfaced
		if decodeJSON(v, &u) && u.CallID != "" {
			list = append(list, u)
			keys = append(keys, k)
		}
	}
	if len(list) == 0 {
		return nil, nil
	}
	// Sorted by call ID: the state's order is a map's, and the event is
	// to be the same on every run.
	sort.Slice(list, func(i, j int) bool { return list[i].CallID < list[j].CallID })
	for _, k := range keys {
		if err := st.Set(k, nil); err != nil {
			return nil, err
		}
	}
	parts := make([]*genai.Part, 0, len(list))
	for _, u := range list {
		r := u.Req
		parts = append(parts, &genai.Part{FunctionCall: &genai.FunctionCall{
			ID:   confirmationID(),
			Name: toolconfirmation.FunctionCallName,
			Args: map[string]any{
				"originalFunctionCall": &genai.FunctionCall{ID: u.CallID, Name: u.Name, Args: u.Args},
				"toolConfirmation":     toolconfirmation.ToolConfirmation{Hint: u.Hint, Payload: &r},
			},
		}})
	}
	// ADK marks a call long-running, and ends the run after the step,
	// when the request's tools hold a long-running tool of its name; the
	// stand-in has no declaration, so the model is never sent it.
	if req.Tools == nil {
		req.Tools = map[string]any{}
	}
	req.Tools[toolconfirmation.FunctionCallName] = standIn{}
	return &model.LLMResponse{Content: &genai.Content{Role: genai.RoleModel, Parts: parts}, TurnComplete: true}, nil
}

// confirmationID is a new function call ID.
func confirmationID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "guardian-confirmation-" + hex.EncodeToString(b[:])
}

// standIn stands for ADK's adk_request_confirmation in a request's tools:
// a long-running tool that returns nothing, so that ADK leaves the call
// for the application to answer.
type standIn struct{}

func (standIn) Name() string                            { return toolconfirmation.FunctionCallName }
func (standIn) Description() string                     { return "Asks the user to confirm a tool call." }
func (standIn) IsLongRunning() bool                     { return true }
func (standIn) Declaration() *genai.FunctionDeclaration { return nil }
func (standIn) Run(agent.Context, any) (map[string]any, error) {
	return nil, nil
}

// rejected is the error of a call a person rejected: the model reads its
// text; errors.Is(err, tool.ErrConfirmationRejected) holds.
type rejected struct{ msg string }

func (r *rejected) Error() string { return r.msg }
func (r *rejected) Unwrap() error { return tool.ErrConfirmationRejected }

// approve decides, before a call of e is sent, whether it waits for a
// person: decided is true when the call does not run now, with what the
// model is to read.
func (g *guard) approve(ctx agent.Context, e *entry, args any) (res map[string]any, err error, decided bool) {
	if g.approval == nil || e.mcp == nil || !e.mcp.Annotations().MayBeDestructive() {
		return nil, nil, false
	}
	a, _ := arguments(args)
	req := &Request{Kind: KindApproval, Tool: e.mcp.Name(), Server: e.mcp.Server().Name, Arguments: a, Annotations: e.mcp.Annotations()}
	if g.approval.When != nil && !g.approval.When(ctx, req) {
		return nil, nil, false
	}
	r, ok := resumption(ctx)
	if !ok {
		res, err = pause(ctx, req)
		return res, err, true
	}
	if r.req != nil && (r.req.Approved || r.req.Kind == KindElicitation) {
		return nil, nil, false // approved in an earlier round
	}
	if r.confirmed {
		return nil, nil, false
	}
	forget(ctx)
	msg := "The user rejected this call of tool " + e.mcp.Name() + "; it was not run."
	if r.decision.Reason != "" {
		msg += " Reason: " + r.decision.Reason
	}
	return nil, &rejected{msg}, true
}

// call runs the MCP tool, pausing for the server's requests for input and
// re-running it with the answers when the run resumes.
func (t *Tool) call(ctx agent.Context, args map[string]any) (*mcpservers.Result, error) {
	answers := map[string]mcpservers.ElicitationResponse{}
	approved := false
	r, resumed := resumption(ctx)
	if resumed && r.req != nil {
		approved = r.req.Approved || r.req.Kind == KindApproval
		if r.req.Kind == KindElicitation {
			maps.Copy(answers, r.req.Answers)
			given := r.decision.Answers
			if len(given) == 0 {
				given = bare(r.req.Requests, r.confirmed)
			}
			maps.Copy(answers, given)
		}
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
		_, perr := pause(ctx, &Request{Kind: KindElicitation, Tool: t.name, Server: t.mcp.Server().Name,
			Arguments: args, Annotations: t.mcp.Annotations(), Requests: need.Requests, Answers: answers, Approved: approved})
		return nil, perr
	}
	if resumed {
		forget(ctx)
	}
	return res, err
}

// bare answers requests the way a bare confirmation does: accept with
// each form's defaults when confirmed, decline when not.
func bare(reqs []*mcpservers.ElicitationRequest, confirmed bool) map[string]mcpservers.ElicitationResponse {
	out := map[string]mcpservers.ElicitationResponse{}
	for _, r := range reqs {
		if confirmed {
			out[r.Key] = mcpservers.ElicitationResponse{Action: mcpservers.ElicitationAccept, Content: r.Defaults()}
		} else {
			out[r.Key] = mcpservers.ElicitationResponse{Action: mcpservers.ElicitationDecline}
		}
	}
	return out
}
