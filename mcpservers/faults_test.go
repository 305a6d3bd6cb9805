package mcpservers

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/guardian-agent/guardian-go/internal/lockedbuffer"
)

func TestServerExitsDuringInitialize(t *testing.T) {
	conn := stdioServer("exit-init", "API_KEY", testToken)
	_, err := newCheckedClient(t, map[string]Connection{"dies": conn}, nil).Tools(testCtx(t))
	wantKind(t, err, ErrConnect, "dies")
	if !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("err = %q, want the exit status", err)
	}
	noSecret(t, err.Error(), testToken)
}

func TestServerNeverAnswers(t *testing.T) {
	c := newCheckedClient(t, map[string]Connection{"mute": stdioServer("silent")}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Tools(ctx)
	wantKind(t, err, ErrConnect, "mute")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the deadline", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Tools took %v past its deadline", d)
	}
}

func TestRepeatedListCursor(t *testing.T) {
	_, err := newCheckedClient(t, map[string]Connection{"loop": stdioServer("raw-repeat-cursor")}, nil).Tools(testCtx(t))
	wantKind(t, err, ErrProtocol, "loop")
	if !strings.Contains(err.Error(), "repeated a list cursor") {
		t.Errorf("err = %v", err)
	}
}

func TestToolWithoutSchemaFailsTheServer(t *testing.T) {
	tools, err := newCheckedClient(t, map[string]Connection{"bad": stdioServer("raw-no-schema")}, nil).Tools(testCtx(t))
	wantKind(t, err, ErrProtocol, "bad")
	if tools != nil {
		t.Errorf("half-loaded tools: %v", names(tools))
	}
}

// pidOf asks the whoami tool for its server's process ID.
func pidOf(t *testing.T, tool *Tool) int {
	t.Helper()
	m := regexp.MustCompile(`pid=(\d+)`).FindStringSubmatch(call(t, tool, nil).Text())
	if m == nil {
		t.Fatal("no pid")
	}
	pid, _ := strconv.Atoi(m[1])
	return pid
}

func TestServerDiesMidCall(t *testing.T) {
	tools := loadTools(t, newCheckedClient(t, map[string]Connection{"docs": stdioServer("docs")}, nil))
	before := pidOf(t, tools["whoami"])
	_, err := tools["exit_now"].Call(testCtx(t), nil)
	e := wantKind(t, err, ErrConnectionLost, "docs")
	if e.Tool != "exit_now" || !strings.Contains(err.Error(), "exit status 7") {
		t.Errorf("err = %v", err)
	}
	// The next call reconnects.
	if after := pidOf(t, tools["whoami"]); after == before {
		t.Errorf("still on the dead process %d", before)
	}
	if !processGone(before) {
		t.Errorf("the dead server %d was not reaped", before)
	}
}

func TestDeadConnectionIsRemadeOnce(t *testing.T) {
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": stdioServer("docs")}, nil))
	before := pidOf(t, tools["whoami"])
	if err := syscall.Kill(before, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return processGone(before) })
	if after := pidOf(t, tools["whoami"]); after == before {
		t.Errorf("not reconnected")
	}
}

func TestReconnectFails(t *testing.T) {
	conn := stdioServer("once", "MCPSERVERS_MARKER", filepath.Join(t.TempDir(), "started"))
	tools := loadTools(t, newClient(t, map[string]Connection{"once": conn}, nil))
	pid := pidOf(t, tools["whoami"])
	_ = syscall.Kill(pid, syscall.SIGKILL)
	waitFor(t, func() bool { return processGone(pid) })
	_, err := tools["whoami"].Call(testCtx(t), nil)
	e := wantKind(t, err, ErrConnect, "once")
	if e.Tool != "whoami" || !strings.Contains(err.Error(), "exit status 4") {
		t.Errorf("err = %v", err)
	}
}

// TestCallDeadline ends calls by their context's deadline, several times
// on each transport: over SSE, mcp-go's own timer for the same deadline
// used to win the race about half the time, and the call was reported as a
// lost connection.
func TestCallDeadline(t *testing.T) {
	transports(t, func(t *testing.T, conn Connection, opts *ClientOptions) {
		tools := loadTools(t, newClient(t, map[string]Connection{"docs": conn}, opts))
		for i := range 5 {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			_, err := tools["block"].Call(ctx, nil)
			cancel()
			if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrConnectionLost) {
				t.Errorf("call %d: %v, want context.DeadlineExceeded", i, err)
			}
			wantKind(t, err, context.DeadlineExceeded, "docs")
		}
		// The connection is fine.
		call(t, tools["echo"], nil)
	})
}

func TestCloseEndsEverything(t *testing.T) {
	hs := startHTTP(t)
	stderr := &lockedbuffer.Buffer{}
	c, err := NewClient(map[string]Connection{
		"docs":       stdioServer("docs"),
		"grand":      stdioServer("grandchild"),
		"streamable": StreamableHTTP{URL: hs.streamable},
		"sse":        SSE{URL: hs.sse},
	}, &ClientOptions{PrefixToolNames: true, Stderr: stderr, OnLog: func(LogMessage) {}, OnProgress: func(Progress) {}})
	if err != nil {
		t.Fatal(err)
	}
	tools := loadTools(t, c)
	pid := pidOf(t, tools["docs_whoami"])
	grandPID := pidOf(t, tools["grand_whoami"])
	var grandchild int
	waitFor(t, func() bool {
		m := regexp.MustCompile(`\[grand\] grandchild=(\d+)`).FindStringSubmatch(stderr.String())
		if m != nil {
			grandchild, _ = strconv.Atoi(m[1])
		}
		return m != nil
	})
	for _, name := range []string{"docs_slow_task", "streamable_echo", "sse_echo"} {
		call(t, tools[name], nil)
	}

	inFlight := make(chan error, 1)
	go func() {
		_, err := tools["docs_block"].Call(context.Background(), nil)
		inFlight <- err
	}()
	waitInFlight(t, tools["docs_block"])

	start := time.Now()
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	t.Logf("Close took %v", time.Since(start))
	select {
	case err := <-inFlight:
		wantKind(t, err, ErrClosed, "docs")
	case <-time.After(5 * time.Second):
		t.Fatal("the call in flight did not end")
	}
	for _, p := range []int{pid, grandPID} {
		if !processGone(p) {
			t.Errorf("server process %d left after Close", p)
		}
	}
	waitFor(t, func() bool { return processDead(grandchild) })
	checkNoLeaks(t)

	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := c.Tools(testCtx(t)); !errors.Is(err, ErrClosed) {
		t.Errorf("Tools after Close: %v", err)
	}
	_, err = tools["docs_echo"].Call(testCtx(t), nil)
	wantKind(t, err, ErrClosed, "docs")
}

func TestCloseAbortsAConnect(t *testing.T) {
	c, err := NewClient(map[string]Connection{"mute": stdioServer("silent")}, &ClientOptions{DiscoverTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := c.Tools(context.Background())
		done <- err
	}()
	// Close while the connect is under way.
	waitFor(t, func() bool {
		srv := c.servers["mute"]
		srv.mu.Lock()
		defer srv.mu.Unlock()
		return srv.connecting != nil
	})
	c.Close()
	select {
	case err := <-done:
		if !errors.Is(err, ErrClosed) {
			t.Errorf("Tools during Close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not abort the connect")
	}
	checkNoLeaks(t)
}

func TestHTTPFaultsKeepSecrets(t *testing.T) {
	// A port nothing listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().String()
	l.Close()

	password := "pw-" + strings.Repeat("b", 20)
	echoing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		// A server that quotes what it was sent in its error.
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":"mcpservers-1","error":{"code":-32000,"message":"bad key %s"}}`, r.Header.Get("X-Api-Key"))
	}))
	defer echoing.Close()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "upstream said: "+r.Header.Get("X-Api-Key"), http.StatusBadGateway)
	}))
	defer failing.Close()

	for name, conn := range map[string]Connection{
		"refused":   StreamableHTTP{URL: "http://user:" + password + "@" + dead + "/mcp?token=" + testToken, Headers: map[string]string{"X-Api-Key": testToken}},
		"refusedSS": SSE{URL: "http://" + dead + "/sse?key=" + testToken},
		"echoing":   StreamableHTTP{URL: echoing.URL, Headers: map[string]string{"X-Api-Key": testToken}},
		"failing":   StreamableHTTP{URL: failing.URL + "/mcp?token=" + testToken, Headers: map[string]string{"X-Api-Key": testToken}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := newClient(t, map[string]Connection{name: conn}, &ClientOptions{ProtocolVersion: "2025-11-25"}).Tools(testCtx(t))
			wantKind(t, err, ErrConnect, name)
			noSecret(t, err.Error(), testToken, password)
			t.Logf("%v", err)
		})
	}
}

func noSecret(t *testing.T, s string, secrets ...string) {
	t.Helper()
	for _, secret := range secrets {
		if strings.Contains(s, secret) {
			// Say where, without printing the secret itself.
			t.Errorf("a secret leaked into %q", strings.ReplaceAll(s, secret, "<SECRET>"))
		}
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestListingError(t *testing.T) {
	_, err := newClient(t, map[string]Connection{"broken": stdioServer("raw-list-error")}, nil).Tools(testCtx(t))
	wantKind(t, err, ErrServer, "broken")
	var rpc *RPCError
	if !errors.As(err, &rpc) || rpc.Code != -32603 || rpc.Message != "listing broke" {
		t.Errorf("err = %v", err)
	}
}
