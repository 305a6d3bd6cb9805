package adk_test

import (
	"context"
	"testing"

	"google.golang.org/genai"

	guardianadk "github.com/guardian-agent/guardian-go/adk"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// approvalRun starts a conversation whose model calls tool with args, on
// an agent with approval, and returns it with the pause it ended in.
func approvalRun(t *testing.T, docs *testServer, approval *guardianadk.Approval, tool string, args map[string]any) (*conversation, *scripted, outcome) {
	t.Helper()
	m := newModel(call(tool, args), answer("result: "))
	cfg := researcher(m, adapt(t, docs.list...))
	cfg.Approval = approval
	a, _, err := newAgent(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := converse(t, a)
	o := c.say("go")
	if o.err != nil {
		t.Fatal(o.err)
	}
	return c, m, o
}

// TestApprovalPausesAndResumes: a call of a tool that may be destructive
// (delete_page declares no annotations: MCP's default) pauses the run with
// an adk_request_confirmation carrying a guardian-go Request, before the
// server sees anything; approving runs it, rejecting tells the model and
// sends nothing.
func TestApprovalPausesAndResumes(t *testing.T) {
	args := map[string]any{"page": "home"}
	t.Run("approve", func(t *testing.T) {
		docs := startServer(t, "docs", nil, nil)
		c, m, o := approvalRun(t, docs, &guardianadk.Approval{}, "delete_page", args)
		p := o.pending()
		if len(p) != 1 {
			t.Fatalf("pending %v, want one confirmation", p)
		}
		r := p[0].Request
		if r.Kind != guardianadk.KindApproval || r.Tool != "delete_page" || r.Server != "docs" || r.Arguments["page"] != "home" || !r.Annotations.MayBeDestructive() {
			t.Fatalf("request %+v", r)
		}
		if n := len(docs.Calls()); n != 0 {
			t.Fatalf("the server received %d calls before approval", n)
		}
		o = c.send(p[0].Approve())
		if o.err != nil {
			t.Fatal(o.err)
		}
		if got := docs.Calls(); len(got) != 1 || got[0] != "delete_page" {
			t.Fatalf("after approval the server received %v", got)
		}
		if got, want := o.text(), "result: deleted home"; got != want {
			t.Fatalf("model answered %q, want %q", got, want)
		}
		if m.calls() != 2 {
			t.Fatalf("model called %d times", m.calls())
		}
	})
	t.Run("reject", func(t *testing.T) {
		docs := startServer(t, "docs", nil, nil)
		c, _, o := approvalRun(t, docs, &guardianadk.Approval{}, "delete_page", args)
		o = c.send(o.pending()[0].Reject("the home page is protected"))
		if o.err != nil {
			t.Fatal(o.err)
		}
		if n := len(docs.Calls()); n != 0 {
			t.Fatalf("a rejected call reached the server %d times", n)
		}
		want := "result: [The user rejected this call of tool delete_page; it was not run. Reason: the home page is protected]"
		if got := o.text(); got != want {
			t.Fatalf("model answered %q, want %q", got, want)
		}
	})
	t.Run("bare confirmation", func(t *testing.T) {
		// ADK's web UI answers {"confirmed": true} with no payload.
		docs := startServer(t, "docs", nil, nil)
		c, _, o := approvalRun(t, docs, &guardianadk.Approval{}, "delete_page", args)
		fc := o.pending()[0].Call
		o = c.send(&genai.Part{FunctionResponse: &genai.FunctionResponse{ID: fc.ID, Name: fc.Name, Response: map[string]any{"confirmed": true}}})
		if o.err != nil {
			t.Fatal(o.err)
		}
		if got := docs.Calls(); len(got) != 1 {
			t.Fatalf("after a bare approval the server received %v", got)
		}
	})
	t.Run("when narrows", func(t *testing.T) {
		docs := startServer(t, "docs", nil, nil)
		onlyHome := &guardianadk.Approval{When: func(_ context.Context, r *guardianadk.Request) bool { return r.Arguments["page"] == "home" }}
		_, _, o := approvalRun(t, docs, onlyHome, "delete_page", map[string]any{"page": "scratch"})
		if len(o.pending()) != 0 || len(docs.Calls()) != 1 {
			t.Fatalf("a call When declines to gate paused (%v) or did not run (%v)", o.pending(), docs.Calls())
		}
	})
	t.Run("read-only is not gated", func(t *testing.T) {
		docs := startServer(t, "docs", nil, nil)
		_, _, o := approvalRun(t, docs, &guardianadk.Approval{}, "search_docs", map[string]any{"query": "x"})
		if len(o.pending()) != 0 || len(docs.Calls()) != 1 {
			t.Fatalf("a read-only tool paused (%v) or did not run (%v)", o.pending(), docs.Calls())
		}
	})
}

// TestElicitationPausesAndResumes: a server that asks for input mid-call
// pauses the run with an elicitation Request; the answer (accept with the
// form, decline, cancel, or a bare confirmation taking the form's
// defaults) resumes the call, and the server decides how it ends.
func TestElicitationPausesAndResumes(t *testing.T) {
	for name, tc := range map[string]struct {
		answer func(*guardianadk.Confirmation) *genai.Part
		want   string
	}{
		"accept": {func(c *guardianadk.Confirmation) *genai.Part {
			return c.Answer(guardianadk.ElicitationAnswers{c.Request.Requests[0].Key: {Action: mcpservers.ElicitationAccept, Content: map[string]any{"date": "2026-09-14"}}})
		}, `booking for 4: accept {"date":"2026-09-14"}`},
		"decline": {func(c *guardianadk.Confirmation) *genai.Part {
			return c.Answer(guardianadk.ElicitationAnswers{c.Request.Requests[0].Key: {Action: mcpservers.ElicitationDecline}})
		}, "booking for 4: decline null"},
		"cancel": {func(c *guardianadk.Confirmation) *genai.Part {
			return c.Answer(guardianadk.ElicitationAnswers{c.Request.Requests[0].Key: {Action: mcpservers.ElicitationCancel}})
		}, "booking for 4: cancel null"},
		"bare confirmation takes the defaults": {func(c *guardianadk.Confirmation) *genai.Part {
			return &genai.Part{FunctionResponse: &genai.FunctionResponse{ID: c.Call.ID, Name: c.Call.Name, Response: map[string]any{"confirmed": true}}}
		}, `booking for 4: accept {"date":"2026-09-01"}`},
	} {
		t.Run(name, func(t *testing.T) {
			docs := startServer(t, "docs", nil, nil)
			c, _, o := approvalRun(t, docs, nil, "book", map[string]any{"people": 4})
			p := o.pending()
			if len(p) != 1 {
				t.Fatalf("pending %v, want one confirmation", p)
			}
			r := p[0].Request
			if r.Kind != guardianadk.KindElicitation || r.Tool != "book" || r.Server != "docs" || len(r.Requests) != 1 || r.Requests[0].Message != "Which date?" {
				t.Fatalf("request %+v", r)
			}
			o = c.send(tc.answer(p[0]))
			if o.err != nil {
				t.Fatal(o.err)
			}
			if got, want := o.text(), "result: "+tc.want; got != want {
				t.Fatalf("model answered %q, want %q", got, want)
			}
		})
	}
}

// TestApprovalThenElicitationRounds: a call that needs approval, and whose
// server then asks two questions one after the other, pauses three times,
// each as an adk_request_confirmation the application answers; ADK v2.2.0
// surfaces a confirmation asked for only in the model's own step, and New
// surfaces the ones a re-run call asks for. The server sees the call only
// after approval, and the answers of every round.
func TestApprovalThenElicitationRounds(t *testing.T) {
	docs := startServer(t, "docs", nil, nil)
	c, _, o := approvalRun(t, docs, &guardianadk.Approval{}, "erase", map[string]any{"page": "home"})
	p := o.pending()
	if len(p) != 1 || p[0].Request.Kind != guardianadk.KindApproval {
		t.Fatalf("first pause %v, want an approval", p)
	}
	if n := len(docs.Calls()); n != 0 {
		t.Fatalf("the server received %d calls before approval", n)
	}
	o = c.send(p[0].Approve())
	p = o.pending()
	if n := len(docs.Calls()); n != 1 {
		t.Fatalf("the server received %d calls after approval, want 1", n)
	}
	if o.err != nil || len(p) != 1 || p[0].Request.Kind != guardianadk.KindElicitation || p[0].Request.Requests[0].Key != "typed" {
		t.Fatalf("second pause %v (%v), want the server's first question", p, o.err)
	}
	if !p[0].Request.Approved {
		t.Fatal("the elicitation round does not carry the approval")
	}
	o = c.send(p[0].Answer(guardianadk.ElicitationAnswers{"typed": {Action: mcpservers.ElicitationAccept, Content: map[string]any{"answer": "home"}}}))
	p = o.pending()
	if o.err != nil || len(p) != 1 || p[0].Request.Kind != guardianadk.KindElicitation || p[0].Request.Requests[0].Key != "which" {
		t.Fatalf("third pause %v (%v), want the server's second question", p, o.err)
	}
	o = c.send(p[0].Answer(guardianadk.ElicitationAnswers{"which": {Action: mcpservers.ElicitationAccept, Content: map[string]any{"answer": "draft"}}}))
	if o.err != nil {
		t.Fatal(o.err)
	}
	if got, want := o.text(), "result: erased home: accept home, accept draft"; got != want {
		t.Fatalf("model answered %q, want %q", got, want)
	}
	// Each resumption reruns the call from the start, and each round of
	// the 2026-07-28 input loop is a tools/call: 1, then 2, then 3.
	if got := docs.Calls(); len(got) != 6 {
		t.Fatalf("the server received %v, want 6 tools/calls", got)
	}
}
