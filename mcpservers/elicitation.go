package mcpservers

import (
	"context"
	"strconv"
	"strings"
)

// ElicitationRequired is the error a call returns when its server asks the
// user for input and the Client has no [ElicitationHandler]: the call is
// interrupted, and Requests say what the server asked. Answer them and call
// Resume, or [Tool.Resume] with the same arguments.
//
// Resuming reruns the tool from the start: the server sees a new call, with
// the answers given as the server asks for them again. Whatever the tool did
// before it asked, it does again.
type ElicitationRequired struct {
	Server string // connection name
	Tool   string // MCP name of the tool
	// Requests are the unanswered requests, sorted by Key.
	Requests []*ElicitationRequest

	tool    *Tool
	args    map[string]any
	answers map[string]ElicitationResponse
}

// Error says which server and tool need input, and the keys.
func (e *ElicitationRequired) Error() string {
	if e == nil {
		return "mcpservers: elicitation required: <nil>"
	}
	var b strings.Builder
	b.WriteString("mcpservers: server ")
	b.WriteString(strconv.Quote(e.Server))
	b.WriteString(": call ")
	b.WriteString(strconv.Quote(e.Tool))
	b.WriteString(": elicitation required:")
	for _, r := range e.Requests {
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(r.Key))
	}
	return b.String()
}

// Is reports whether target is ErrElicitationRequired.
func (e *ElicitationRequired) Is(target error) bool { return target == ErrElicitationRequired }

// Resume reruns the interrupted call with the same arguments, answering the
// server from answers and from the answers the interrupted call was given.
// Answers are keyed by [ElicitationRequest.Key]. If the server asks for
// something still unanswered, Resume returns another *ElicitationRequired.
func (e *ElicitationRequired) Resume(ctx context.Context, answers map[string]ElicitationResponse) (*Result, error) {
	if e == nil || !e.tool.loaded() {
		return nil, invalidUse("", "", "call", "the *ElicitationRequired did not come from a call: resume with Tool.Resume")
	}
	all := make(map[string]ElicitationResponse, len(e.answers)+len(answers))
	for k, v := range e.answers {
		all[k] = v
	}
	for k, v := range answers {
		all[k] = v
	}
	return e.tool.Resume(ctx, e.args, all)
}
