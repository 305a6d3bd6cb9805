package adk_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"google.golang.org/adk/v2/agent/llmagent"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

// TestServerErrorIsReadable: a failure the server reports (isError) is an
// answer the model reads, under "error", and the run goes on: the model
// answers after it; it is not a Go error.
func TestServerErrorIsReadable(t *testing.T) {
	docs := startServer(t, "docs", nil, nil)
	var errs toolErrors
	m := newModel(call("fail", nil), answer("the tool said "))
	cfg := researcher(m, adapt(t, docs.tools["fail"]))
	cfg.OnToolErrorCallbacks = []llmagent.OnToolErrorCallback{errs.callback}
	a, _, err := newAgent(cfg)
	if err != nil {
		t.Fatal(err)
	}
	o := converse(t, a).say("go")
	if o.err != nil {
		t.Fatal(o.err)
	}
	if got, want := o.text(), "the tool said [no such page: try search_docs first]"; got != want {
		t.Fatalf("model answered %q, want %q", got, want)
	}
	if e := errs.all(); len(e) != 0 {
		t.Fatalf("a server-reported error reached OnToolErrorCallbacks as a Go error: %v", e)
	}
}

// TestTransportFailureIsAnError: a server that dies mid-call is a Go
// error of the tool (ErrConnectionLost, seen by OnToolErrorCallbacks),
// not an answer from the server.
func TestTransportFailureIsAnError(t *testing.T) {
	docs := startServer(t, "docs", nil, nil)
	var errs toolErrors
	m := newModel(call("crash", nil), answer(""))
	cfg := researcher(m, adapt(t, docs.tools["crash"]))
	cfg.OnToolErrorCallbacks = []llmagent.OnToolErrorCallback{errs.callback}
	a, _, err := newAgent(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if o := converse(t, a).say("go"); o.err != nil {
		t.Fatal(o.err)
	}
	e := errs.all()
	var me *mcpservers.Error
	if len(e) != 1 || !errors.As(e[0], &me) || !errors.Is(e[0], mcpservers.ErrConnectionLost) {
		t.Fatalf("tool errors %v, want one *mcpservers.Error of ErrConnectionLost", e)
	}
}

// TestContentIsKept: a result with text, an image, audio, a binary
// resource and structured content reaches the model whole: the text as
// "output" (naming what text cannot carry), the structured content as
// JSON values, and every block as sent under "content".
func TestContentIsKept(t *testing.T) {
	docs := startServer(t, "docs", nil, nil)
	m := newModel(call("screenshot", nil), say("seen"))
	a, _, err := newAgent(researcher(m, adapt(t, docs.tools["screenshot"])))
	if err != nil {
		t.Fatal(err)
	}
	o := converse(t, a).say("go")
	if o.err != nil {
		t.Fatal(o.err)
	}
	got := lastResponse(m.lastRequest()).Response
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"output":            "a screenshot\n[image (image/png)]\n[audio (audio/wav)]\n[resource file:///doc/3 (application/pdf), binary]",
		"structuredContent": map[string]any{"height": float64(480), "width": float64(640)},
		"content": []any{
			map[string]any{"type": "text", "text": "a screenshot"},
			map[string]any{"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="},
			map[string]any{"type": "audio", "mimeType": "audio/wav", "data": "UklGRg=="},
			map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///doc/3", "mimeType": "application/pdf", "blob": "AAEC"}},
		},
	}
	if !reflect.DeepEqual(v, want) {
		t.Fatalf("the model read\n%s", b)
	}
}
