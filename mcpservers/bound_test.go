package mcpservers

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// small is client options whose servers' message bound is 64 KiB.
func small() *ClientOptions { return &ClientOptions{messageBound: 64 << 10} }

func wantTooLong(t *testing.T, err error, what string) {
	t.Helper()
	if !strings.Contains(err.Error(), "the server sent "+what+" of more than") {
		t.Errorf("err = %q, want it to say the server sent %s over the bound", err, what)
	}
	if strings.Contains(err.Error(), "aaaa") {
		t.Errorf("err = %q quotes the server's output", err)
	}
}

func TestStdioEndlessLineAtConnect(t *testing.T) {
	c := newCheckedClient(t, map[string]Connection{"endless-init": stdioServer("endless-line")}, small())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	_, err := c.Tools(ctx)
	wantKind(t, err, ErrConnect, "endless-init")
	wantTooLong(t, err, "a line")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Tools took %v", d)
	}
}

func TestStdioEndlessLineInCall(t *testing.T) {
	c := newCheckedClient(t, map[string]Connection{"endless-call": stdioServer("raw-endless-call")}, small())
	tools := loadTools(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	_, err := tools["odd"].Call(ctx, nil)
	if err == nil {
		t.Fatal("Call succeeded")
	}
	var e *Error
	if !errors.As(err, &e) || e.Server != "endless-call" {
		t.Fatalf("err = %T %v, want an *Error naming the server", err, err)
	}
	if !errors.Is(err, ErrConnectionLost) && !errors.Is(err, ErrProtocol) {
		t.Errorf("err = %v, want ErrConnectionLost or ErrProtocol", err)
	}
	wantTooLong(t, err, "a line")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Call took %v", d)
	}
}

// endlessHTTP answers every POST with body, written without end.
func endlessHTTP(t *testing.T, contentType, head string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(head))
		chunk := []byte(strings.Repeat("a", 32<<10))
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

func TestHTTPEndlessResponses(t *testing.T) {
	// mcp-go's streamable transport drops the error an event stream's
	// read ends with ("unexpected nil response"), so only the JSON body's
	// error can say why.
	for _, tc := range []struct {
		name, contentType, head, what string
		says                          bool
	}{
		{"sse-line", "text/event-stream", "data: ", "a line", false},
		{"sse-event", "text/event-stream", "", "an event", false},
		{"json", "application/json", `{"jsonrpc":"2.0","id":0,"result":"`, "a response body", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := "endless-" + tc.name
			// Small: mcp-go joins an event's data lines in quadratic time.
			head, contentType := tc.head, tc.contentType
			url := endlessHTTP(t, contentType, head)
			if tc.what == "an event" {
				// Short lines, one event without end.
				url = endlessEvent(t)
			}
			c := newCheckedClient(t, map[string]Connection{name: StreamableHTTP{URL: url}}, small())
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			start := time.Now()
			_, err := c.Tools(ctx)
			wantKind(t, err, ErrConnect, name)
			if errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("err = %v, the deadline", err)
			}
			if tc.says {
				wantTooLong(t, err, tc.what)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("Tools took %v", d)
			}
		})
	}
}

func endlessEvent(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		chunk := []byte(strings.Repeat("data: aaaa\n", 3000))
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

func TestLineCounter(t *testing.T) {
	c := &lineCounter{bound: 6, events: true} // '\r's count
	for _, in := range []string{"abcd\n", "\n", "ab", "cd\n", "\r\n", "ab\n\nabcd\r\n\r\n", "a\nb\ncd\n\n"} {
		if n, err := c.feed([]byte(in)); err != nil || n != len(in) {
			t.Fatalf("feed(%q) = %d, %v", in, n, err)
		}
	}
	if n, err := c.feed([]byte("ab\n\nabcdefg")); err == nil || n != 4 || !strings.Contains(err.Error(), "a line") {
		t.Fatalf("a line past the bound: %d, %v", n, err)
	}
	c = &lineCounter{bound: 4, events: true}
	if n, err := c.feed([]byte("ab\ncd\ne\n")); err == nil || n != 6 || !strings.Contains(err.Error(), "an event") {
		t.Fatalf("an event past the bound: %d, %v", n, err)
	}
	c = &lineCounter{bound: 4}
	if n, err := c.feed([]byte("ab\ncd\ne\nabcd\nabcde")); err == nil || n != 13 {
		t.Fatalf("lines only: %d, %v", n, err)
	}
}

// A legacy SSE server whose event stream is one endless line. The stream
// is cut off at the bound, and the load fails then, as the stream is lost
// (mcp-go's SSE transport would wait for the endpoint event until the
// context ends, whatever became of the stream).
func TestSSEEndlessLine(t *testing.T) {
	cut := make(chan time.Time, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("event: endpoint\ndata: "))
		chunk := []byte(strings.Repeat("a", 32<<10))
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				break
			}
		}
		select {
		case cut <- time.Now():
		default:
		}
	}))
	t.Cleanup(srv.Close)
	c := newCheckedClient(t, map[string]Connection{"endless-legacy": SSE{URL: srv.URL + "/sse"}}, small())
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	start := time.Now()
	_, err := c.Tools(ctx)
	wantKind(t, err, ErrConnect, "endless-legacy")
	if ctx.Err() != nil {
		t.Errorf("the load failed at the deadline, not when the stream was lost: %v", err)
	}
	select {
	case at := <-cut:
		if d := at.Sub(start); d > time.Second {
			t.Errorf("the stream was cut off after %v", d)
		}
	case <-ctx.Done():
		t.Errorf("the stream was not cut off before the deadline")
	}
}
