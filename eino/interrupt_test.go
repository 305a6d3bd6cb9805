package eino_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"

	guardianeino "github.com/guardian-agent/guardian-go/eino"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// rootCause is the interrupt context the run paused at.
func rootCause(t testing.TB, o outcome) *adk.InterruptCtx {
	t.Helper()
	if o.err != nil {
		t.Fatal(o.err)
	}
	if o.interrupt == nil {
		t.Fatalf("the run did not pause; last = %+v", o.last)
	}
	for _, c := range o.interrupt.InterruptContexts {
		if c.IsRootCause {
			return c
		}
	}
	t.Fatalf("no root cause in %+v", o.interrupt.InterruptContexts)
	return nil
}

// TestElicitationInterruptResumes: a server asking for input mid-call
// pauses the run with an ElicitationInterrupt, checkpointed; the run
// resumes with the user's answer (accept, decline or cancel), which the
// server receives.
func TestElicitationInterruptResumes(t *testing.T) {
	for _, c := range []struct {
		name   string
		answer mcpservers.ElicitationResponse
		want   string
	}{
		{"accept", mcpservers.ElicitationResponse{Action: mcpservers.ElicitationAccept, Content: map[string]any{"date": "2026-09-14"}},
			`booking for 4: accept {"date":"2026-09-14"}`},
		{"decline", mcpservers.ElicitationResponse{Action: mcpservers.ElicitationDecline}, `booking for 4: decline null`},
		{"cancel", mcpservers.ElicitationResponse{Action: mcpservers.ElicitationCancel}, `booking for 4: cancel null`},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := testCtx(t)
			docs := startServer(t, "docs", nil, nil)
			m := &scripted{steps: []func([]*schema.Message) *schema.Message{call("book", `{"people":4}`), answer("Done: ")}}
			agent, _, err := guardianeino.NewChatModelAgent(ctx, agentConfig("booker", m, adapt(t, docs.tools["book"])), nil)
			if err != nil {
				t.Fatal(err)
			}
			runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent, CheckPointStore: &memStore{}})
			ic := rootCause(t, drain(t, runner.Query(ctx, "Book a table for 4.", adk.WithCheckPointID("booking-1"))))
			info, ok := ic.Info.(*guardianeino.ElicitationInterrupt)
			if !ok {
				t.Fatalf("info = %T", ic.Info)
			}
			if info.Tool != "book" || info.Server != "docs" || len(info.Requests) != 1 || info.Requests[0].Message != "Which date?" {
				t.Fatalf("info = %+v", info)
			}
			iter, err := runner.ResumeWithParams(ctx, "booking-1", &adk.ResumeParams{Targets: map[string]any{
				ic.ID: guardianeino.ElicitationAnswers{info.Requests[0].Key: c.answer},
			}})
			if err != nil {
				t.Fatal(err)
			}
			o := drain(t, iter)
			if o.err != nil {
				t.Fatal(o.err)
			}
			if o.last == nil || o.last.Content != "Done: "+c.want {
				t.Fatalf("last = %+v, want %q", o.last, "Done: "+c.want)
			}
			// The first call asked. Resuming reruns it from the start: the
			// server asks again, and the answer goes with a new request, as
			// the 2026-07-28 protocol has it (mcpservers.Tool.Resume).
			if got := docs.Calls(); !slices.Equal(got, []string{"book", "book", "book"}) {
				t.Fatalf("server calls = %v", got)
			}
		})
	}
}

// TestApprovalInterrupt: a call of a tool that may be destructive (no
// annotations: MCP's default) pauses for approval; approve runs it, reject
// tells the model and sends nothing; a read-only tool and a call the
// predicate lets through do not pause.
func TestApprovalInterrupt(t *testing.T) {
	run := func(t *testing.T, approval *guardianeino.Approval, toolName, args string, decide *guardianeino.ApprovalDecision) (outcome, *testServer, *guardianeino.ApprovalInterrupt) {
		ctx := testCtx(t)
		docs := startServer(t, "docs", nil, nil)
		m := &scripted{steps: []func([]*schema.Message) *schema.Message{call(toolName, args), answer("Model read: ")}}
		cfg := agentConfig("editor", m, adapt(t, docs.tools["delete_page"], docs.tools["search_docs"]))
		cfg.Approval = approval
		agent, _, err := guardianeino.NewChatModelAgent(ctx, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent, CheckPointStore: &memStore{}})
		o := drain(t, runner.Query(ctx, "Tidy the docs.", adk.WithCheckPointID("edit-1")))
		if decide == nil {
			return o, docs, nil
		}
		ic := rootCause(t, o)
		info, ok := ic.Info.(*guardianeino.ApprovalInterrupt)
		if !ok {
			t.Fatalf("info = %T", ic.Info)
		}
		if got := docs.Calls(); len(got) != 0 {
			t.Fatalf("sent before approval: %v", got)
		}
		iter, err := runner.ResumeWithParams(ctx, "edit-1", &adk.ResumeParams{Targets: map[string]any{ic.ID: *decide}})
		if err != nil {
			t.Fatal(err)
		}
		return drain(t, iter), docs, info
	}

	t.Run("approve", func(t *testing.T) {
		o, docs, info := run(t, &guardianeino.Approval{}, "delete_page", `{"page":"old"}`, &guardianeino.ApprovalDecision{Approved: true})
		if info.Tool != "delete_page" || info.Server != "docs" || info.Arguments != `{"page":"old"}` || !info.Annotations.MayBeDestructive() {
			t.Fatalf("info = %+v", info)
		}
		if o.err != nil || o.last == nil || o.last.Content != "Model read: deleted old" {
			t.Fatalf("outcome = %+v", o)
		}
		if got := docs.Calls(); !slices.Equal(got, []string{"delete_page"}) {
			t.Fatalf("server calls = %v", got)
		}
	})
	t.Run("reject", func(t *testing.T) {
		o, docs, _ := run(t, &guardianeino.Approval{}, "delete_page", `{"page":"old"}`, &guardianeino.ApprovalDecision{Reason: "keep it"})
		want := "Model read: The user rejected this call of tool delete_page; it was not run. Reason: keep it"
		if o.err != nil || o.last == nil || o.last.Content != want {
			t.Fatalf("outcome = %+v", o)
		}
		if got := docs.Calls(); len(got) != 0 {
			t.Fatalf("server calls = %v", got)
		}
	})
	t.Run("read-only runs", func(t *testing.T) {
		o, docs, _ := run(t, &guardianeino.Approval{}, "search_docs", `{"query":"x"}`, nil)
		if o.err != nil || o.interrupt != nil || len(docs.Calls()) != 1 {
			t.Fatalf("outcome = %+v, calls %v", o, docs.Calls())
		}
	})
	t.Run("predicate lets a call through", func(t *testing.T) {
		protected := &guardianeino.Approval{When: func(_ context.Context, req *guardianeino.ApprovalInterrupt) bool {
			return req.Arguments != `{"page":"scratch"}`
		}}
		o, docs, _ := run(t, protected, "delete_page", `{"page":"scratch"}`, nil)
		if o.err != nil || o.interrupt != nil || o.last == nil || o.last.Content != "Model read: deleted scratch" || len(docs.Calls()) != 1 {
			t.Fatalf("outcome = %+v, calls %v", o, docs.Calls())
		}
		o, _, _ = run(t, protected, "delete_page", `{"page":"home"}`, &guardianeino.ApprovalDecision{Approved: true})
		if o.err != nil || o.last == nil || o.last.Content != "Model read: deleted home" {
			t.Fatalf("outcome = %+v", o)
		}
	})
}

// TestTwoElicitationsResumeOneAtATime: two calls paused at once; resuming
// one leaves the other paused (it interrupts again with its requests),
// and resuming that one finishes the run.
func TestTwoElicitationsResumeOneAtATime(t *testing.T) {
	ctx := testCtx(t)
	docs := startServer(t, "docs", nil, nil)
	two := func(in []*schema.Message) *schema.Message {
		return schema.AssistantMessage("", []schema.ToolCall{
			{ID: "a", Type: "function", Function: schema.FunctionCall{Name: "book", Arguments: `{"people":2}`}},
			{ID: "b", Type: "function", Function: schema.FunctionCall{Name: "book", Arguments: `{"people":3}`}},
		})
	}
	both := func(in []*schema.Message) *schema.Message {
		var got []string
		for _, m := range in {
			if m.Role == schema.Tool {
				got = append(got, m.Content)
			}
		}
		return schema.AssistantMessage(strings.Join(got, " | "), nil)
	}
	m := &scripted{steps: []func([]*schema.Message) *schema.Message{two, both}}
	agent, _, err := guardianeino.NewChatModelAgent(ctx, agentConfig("booker", m, adapt(t, docs.tools["book"])), nil)
	if err != nil {
		t.Fatal(err)
	}
	runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent, CheckPointStore: &memStore{}})
	roots := func(o outcome) []*adk.InterruptCtx {
		t.Helper()
		if o.err != nil || o.interrupt == nil {
			t.Fatalf("outcome = %+v", o)
		}
		var out []*adk.InterruptCtx
		for _, c := range o.interrupt.InterruptContexts {
			if _, ok := c.Info.(*guardianeino.ElicitationInterrupt); ok && c.IsRootCause {
				out = append(out, c)
			}
		}
		return out
	}
	first := roots(drain(t, runner.Query(ctx, "Book two tables.", adk.WithCheckPointID("two"))))
	if len(first) != 2 {
		t.Fatalf("%d interrupts, want 2", len(first))
	}
	accept := func(ic *adk.InterruptCtx, date string) map[string]any {
		info := ic.Info.(*guardianeino.ElicitationInterrupt)
		return map[string]any{ic.ID: guardianeino.ElicitationAnswers{info.Requests[0].Key: {
			Action: mcpservers.ElicitationAccept, Content: map[string]any{"date": date}}}}
	}
	iter, err := runner.ResumeWithParams(ctx, "two", &adk.ResumeParams{Targets: accept(first[0], "2026-09-14")})
	if err != nil {
		t.Fatal(err)
	}
	second := roots(drain(t, iter))
	// The one not resumed pauses again, at its own address (a new ID).
	if len(second) != 1 || second[0].Address.String() != first[1].Address.String() {
		t.Fatalf("still paused: %d, want only the call at %s", len(second), first[1].Address)
	}
	iter, err = runner.ResumeWithParams(ctx, "two", &adk.ResumeParams{Targets: accept(second[0], "2026-09-15")})
	if err != nil {
		t.Fatal(err)
	}
	o := drain(t, iter)
	if o.err != nil || o.last == nil || !strings.Contains(o.last.Content, `"2026-09-14"`) || !strings.Contains(o.last.Content, `"2026-09-15"`) {
		t.Fatalf("outcome = %+v", o)
	}
}
