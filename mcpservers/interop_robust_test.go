package mcpservers_test

// server-everything under the conditions of real use: credentials in
// headers and auth, per-call headers, cancelled and concurrent calls, and
// servers that die or restart under a live Client.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// bearerAuth authenticates every request with a token.
type bearerAuth struct{ token string }

func (a bearerAuth) RoundTrip(req *http.Request, next http.RoundTripper) (*http.Response, error) {
	req.Header.Set("Authorization", "Bearer "+a.token)
	return next.RoundTrip(req)
}

// callHeader sets an HTTP header on the calls of one tool only.
type callHeader struct{ Tool, Key, Value string }

func (h callHeader) Intercept(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	if req.Name == h.Tool {
		if req.Header == nil {
			req.Header = http.Header{}
		}
		req.Header.Set(h.Key, h.Value)
	}
	return next(ctx, req)
}

// TestInteropEverythingHTTPHeaders checks, on the wire to server-everything,
// that the connection's headers and auth go on every request the client
// makes (the session's POSTs, the GET stream and the DELETE on Close), that
// a call's own headers go on that call only, and that none of them reaches
// a tool's record.
func TestInteropEverythingHTTPHeaders(t *testing.T) {
	for _, transport := range []string{"streamable_http", "sse"} {
		t.Run(transport, func(t *testing.T) { testHTTPHeaders(t, transport) })
	}
}

func testHTTPHeaders(t *testing.T, transport string) {
	checkClean(t)
	token := "ghp_" + strings.Repeat("a", 36) // a fake token, built here: never a literal in the repo
	headers := map[string]string{"X-Interop-Conn": "conn-value"}
	var (
		rec  *httpRecorder
		conn mcpservers.Connection
		want definition.Server
	)
	if transport == "sse" {
		rec = newHTTPRecorder(t, startEverythingSSE(t).URL)
		conn = mcpservers.SSE{URL: rec.URL, Headers: headers, Auth: bearerAuth{token: token}}
		want = definition.Server{Name: "everything", Transport: definition.TransportSSE, URL: rec.URL}
	} else {
		rec = newHTTPRecorder(t, startEverythingHTTP(t).URL)
		conn = mcpservers.StreamableHTTP{URL: rec.URL, Headers: headers, Auth: bearerAuth{token: token}}
		want = definition.Server{Name: "everything", Transport: definition.TransportStreamableHTTP, URL: rec.URL}
	}
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{"everything": conn}, &mcpservers.ClientOptions{
		Interceptors: []mcpservers.Interceptor{callHeader{Tool: "echo", Key: "X-Interop-Call", Value: "call-value"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	tools := toolsByName(t, c)
	ctx := testContext(t, 30*time.Second)
	for _, name := range []string{"echo", "get-sum"} {
		args := map[string]any{"message": "x"}
		if name == "get-sum" {
			args = map[string]any{"a": 1, "b": 2}
		}
		if r, err := tools[name].Call(ctx, args); err != nil || r.IsError {
			t.Fatalf("%s: %+v, %v", name, r, err)
		}
	}
	rec0 := tools["echo"].MCPRecord()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}

	methods := map[string]int{}
	for _, req := range rec.requests(t) {
		what := req.Method
		var call string
		if len(req.RPC) > 0 {
			what += " " + req.RPC[0].Method
			if req.RPC[0].Method == "tools/call" {
				call = string(req.RPC[0].Params)
			}
		}
		methods[req.Method]++
		if got := req.Header.Get("X-Interop-Conn"); got != "conn-value" {
			t.Errorf("%s: X-Interop-Conn = %q, want the connection's header", what, got)
		}
		if got := req.Header.Get("Authorization"); got != "Bearer "+token {
			t.Errorf("%s: Authorization is not the auth's bearer token", what)
		}
		wantCall := ""
		if strings.Contains(call, `"name":"echo"`) {
			wantCall = "call-value"
		}
		if got := req.Header.Get("X-Interop-Call"); got != wantCall {
			t.Errorf("%s %s: X-Interop-Call = %q, want %q", what, call, got, wantCall)
		}
	}
	// A 2025-11-25 streamable HTTP session has a GET stream for the
	// server's own requests and a DELETE to end it; SSE has its stream.
	if methods[http.MethodGet] == 0 || (transport == "streamable_http" && methods[http.MethodDelete] == 0) {
		t.Errorf("requests by method = %v, want the GET stream (and for streamable HTTP the DELETE on Close) too", methods)
	}

	if fmt.Sprint(rec0.Server) != fmt.Sprint(want) {
		t.Errorf("record server = %+v, want %+v", rec0.Server, want)
	}
	// The record holds the auth value itself (its code is what a
	// definition fingerprints), but no header, and the token nowhere else.
	if printed := fmt.Sprintf("%+v %q %s %s", rec0.Server, rec0.Title, rec0.OutputSchema, rec0.Annotations); strings.Contains(printed, token) || strings.Contains(printed, "conn-value") {
		t.Error("the tool's record holds a header or the token")
	}
	var auth bool
	for _, code := range rec0.Code {
		if code.Role == definition.RoleAuth {
			auth = code.Value == mcpservers.Auth(bearerAuth{token: token})
		}
	}
	if !auth {
		t.Errorf("record code = %+v, want the auth value in the auth role", rec0.Code)
	}
}

// TestInteropEverythingCancel ends long calls by their context: each
// returns the context's error, the server is told (notifications/cancelled,
// on every transport: server-everything speaks 2025-11-25, where a dropped
// HTTP stream is no cancellation), and the connection goes on. Several
// calls, since on SSE the error was a race with mcp-go's own timer.
func TestInteropEverythingCancel(t *testing.T) {
	const name = "trigger-long-running-operation"
	for _, transport := range everythingTransports {
		t.Run(transport, func(t *testing.T) {
			s := openEverything(t, transport, nil)
			tools := toolsByName(t, s.client)
			for i := range 6 {
				ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
				_, err := tools[name].Call(ctx, map[string]any{"duration": 30, "steps": 2})
				cancel()
				var e *mcpservers.Error
				if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &e) || e.Server != "everything" || e.Tool != name {
					t.Errorf("call %d: error = %v, want an *Error naming everything's %q that is context.DeadlineExceeded", i, err, name)
				}
			}
			call := s.log().lastCall(t, name)
			if !waitFor(5*time.Second, func() bool { return cancelledOnWire(s.log(), string(call.Req.ID)) }) {
				t.Errorf("no notifications/cancelled for request %s on the wire", call.Req.ID)
			}
			r, err := tools["echo"].Call(testContext(t, 30*time.Second), map[string]any{"message": "still here"})
			if err != nil || r.Text() != "Echo: still here" {
				t.Errorf("call after the cancelled ones: %+v, %v", r, err)
			}
		})
	}
}

// cancelledOnWire reports whether the client sent a notifications/cancelled
// for the request id, saying it timed out.
func cancelledOnWire(log *wireLog, id string) bool {
	for _, m := range log.fromClient {
		if m.Method == "notifications/cancelled" && strings.Contains(string(m.Params), `"requestId":`+id) && strings.Contains(string(m.Params), `"reason":"timed out"`) {
			return true
		}
	}
	return false
}

// TestInteropEverythingConcurrentCalls makes many calls at once on one
// connection: each gets its own answer.
func TestInteropEverythingConcurrentCalls(t *testing.T) {
	for _, transport := range everythingTransports {
		t.Run(transport, func(t *testing.T) {
			s := openEverything(t, transport, nil)
			sum := toolsByName(t, s.client)["get-sum"]
			ctx := testContext(t, 60*time.Second)
			const n = 40
			var wg sync.WaitGroup
			errs := make(chan error, n)
			for i := range n {
				wg.Go(func() {
					r, err := sum.Call(ctx, map[string]any{"a": i, "b": 1000})
					if err != nil {
						errs <- err
						return
					}
					if want := fmt.Sprintf("The sum of %d and 1000 is %d.", i, i+1000); r.Text() != want {
						errs <- fmt.Errorf("call %d: %q, want %q", i, r.Text(), want)
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

// TestInteropEverythingStdioServerDies kills a stdio server between calls:
// the next call starts it again.
func TestInteropEverythingStdioServerDies(t *testing.T) {
	bin := npmServer(t, "mcp-server-everything")
	marker := checkClean(t)
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{
		"everything": mcpservers.Stdio{Command: bin, Env: map[string]string{markerEnv: marker}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	echo := toolsByName(t, c)["echo"]
	ctx := testContext(t, 30*time.Second)
	if _, err := echo.Call(ctx, map[string]any{"message": "one"}); err != nil {
		t.Fatal(err)
	}
	procs := markedProcesses(markerEnv + "=" + marker)
	if len(procs) != 1 {
		t.Fatalf("server processes = %q, want one", procs)
	}
	var pid int
	fmt.Sscan(procs[0], &pid)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Wait until the client has reaped it, so that it has seen it die.
	if !waitFor(5*time.Second, func() bool { _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); return err != nil }) {
		t.Fatal("the killed server was not reaped")
	}
	r, err := echo.Call(ctx, map[string]any{"message": "two"})
	if err != nil || r.Text() != "Echo: two" {
		t.Fatalf("call after the server died: %+v, %v; want it restarted", r, err)
	}
	if procs := markedProcesses(markerEnv + "=" + marker); len(procs) != 1 || strings.HasPrefix(procs[0], fmt.Sprint(pid)+" ") {
		t.Errorf("server processes after the call = %q, want one new one", procs)
	}
}

// TestInteropEverythingHTTPServerRestarts restarts server-everything under
// a live Client: the server has forgotten the session, so the client must
// start a new one. (server-everything answers a request for a session it
// does not know with HTTP 400, "No valid session ID provided", where the
// specification says 404.) The server refused the call without running it,
// so the client sends it again on the new session: the first call after the
// restart works.
func TestInteropEverythingHTTPServerRestarts(t *testing.T) {
	checkClean(t)
	srv := startEverythingHTTP(t)
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{"everything": mcpservers.StreamableHTTP{URL: srv.URL}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	echo := toolsByName(t, c)["echo"]
	ctx := testContext(t, 30*time.Second)
	if _, err := echo.Call(ctx, map[string]any{"message": "one"}); err != nil {
		t.Fatal(err)
	}
	srv.restart(t)
	if r, err := echo.Call(ctx, map[string]any{"message": "two"}); err != nil || r.Text() != "Echo: two" {
		t.Errorf("first call after the restart: %+v, %v; want it sent again on a new session", r, err)
	}
	r, err := echo.Call(ctx, map[string]any{"message": "three"})
	if err != nil || r.Text() != "Echo: three" {
		t.Fatalf("second call after the restart: %+v, %v; want the client on a new session", r, err)
	}
}
