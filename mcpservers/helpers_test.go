package mcpservers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// testCtx bounds a test's I/O, so that a hang fails rather than stalls.
func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// newClient makes a Client that is closed when the test ends. Unless the
// test sets DiscoverTimeout, the server/discover probe is given 20 s: with
// the default second, a loaded machine (go test runs packages in parallel,
// -race) can let the probe lapse and a modern test server be spoken to as a
// pre-2026 one, which changes what the test sees. The default itself is
// tested with its own client (TestIgnoredDiscoverCostsDiscoverTimeout).
func newClient(t testing.TB, conns map[string]Connection, opts *ClientOptions) *Client {
	t.Helper()
	o := ClientOptions{}
	if opts != nil {
		o = *opts
	}
	if o.DiscoverTimeout == 0 {
		o.DiscoverTimeout = 20 * time.Second
	}
	c, err := NewClient(conns, &o)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// newCheckedClient is newClient for fault tests: when the test ends it
// closes the client, then fails the test if a goroutine of this package or
// mcp-go's client, or a child process, is left. Faults are where cleanup is
// most easily skipped.
func newCheckedClient(t *testing.T, conns map[string]Connection, opts *ClientOptions) *Client {
	t.Helper()
	c, err := NewClient(conns, opts)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	checkedMu.Lock()
	first := checked[t] == nil
	checked[t] = append(checked[t], c)
	checkedMu.Unlock()
	if !first {
		return c
	}
	// One check, once every checked client of the test is closed: a
	// client still open would look like a leak of the other.
	t.Cleanup(func() {
		checkedMu.Lock()
		clients := checked[t]
		delete(checked, t)
		checkedMu.Unlock()
		for _, c := range clients {
			c.Close()
		}
		checkNoLeaks(t)
		deadline := time.Now().Add(5 * time.Second)
		for {
			kids := childProcesses()
			if len(kids) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("child processes left after Close: %v", kids)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	return c
}

var (
	checkedMu sync.Mutex
	checked   = map[*testing.T][]*Client{}
)

// childProcesses lists the pids of the test process's children, zombies
// included (a child not waited for is left as one); none where /proc
// cannot be read.
func childProcesses() []int {
	entries, _ := os.ReadDir("/proc")
	self := os.Getpid()
	var kids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(stat[i+1:]))
		if len(fields) > 1 {
			if ppid, _ := strconv.Atoi(fields[1]); ppid == self {
				kids = append(kids, pid)
			}
		}
	}
	return kids
}

// loadTools loads every tool of c, failing the test on error.
func loadTools(t testing.TB, c *Client, servers ...string) map[string]*Tool {
	t.Helper()
	tools, err := c.Tools(testCtx(t), servers...)
	if err != nil {
		t.Fatalf("Tools: %v", err)
	}
	return byName(tools)
}

func byName(tools []*Tool) map[string]*Tool {
	m := make(map[string]*Tool, len(tools))
	for _, t := range tools {
		m[t.Name()] = t
	}
	return m
}

func names(tools []*Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name()
	}
	return out
}

// wireTools is what newDocsServer sends in tools/list, tool by tool,
// rendered by mcp-go's own server in process.
func wireTools(t testing.TB, s *server.MCPServer) map[string]json.RawMessage {
	t.Helper()
	msg := s.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	b, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	var resp struct {
		Result struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(b, &resp); err != nil {
		t.Fatal(err)
	}
	out := map[string]json.RawMessage{}
	for _, raw := range resp.Result.Tools {
		var n struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(raw, &n)
		out[n.Name] = raw
	}
	return out
}

// compact renders JSON in one canonical form, for comparing what two
// encoders wrote.
func compact(t testing.TB, raw []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("invalid JSON %q: %v", raw, err)
	}
	return b.String()
}

// call calls a tool, failing the test on error.
func call(t testing.TB, tool *Tool, args map[string]any) *Result {
	t.Helper()
	r, err := tool.Call(testCtx(t), args)
	if err != nil {
		t.Fatalf("Call(%s): %v", tool.Name(), err)
	}
	return r
}

// wantKind checks that err is an *Error of the given kind naming server.
func wantKind(t testing.TB, err error, kind error, server string) *Error {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("err = %v, want kind %v", err, kind)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %T %v, want *Error", err, err)
	}
	if e.Server != server {
		t.Errorf("err.Server = %q, want %q", e.Server, server)
	}
	if !strings.Contains(err.Error(), `server "`+server+`"`) {
		t.Errorf("err = %q does not name server %q", err, server)
	}
	return e
}

// liveSession is the session srv holds now, or nil.
func liveSession(srv *remote) *session {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return srv.sess
}

// waitInFlight waits until a call of tool is in flight: tracked by its
// session, so that the session's end ends it.
func waitInFlight(t *testing.T, tool *Tool) {
	t.Helper()
	waitFor(t, func() bool {
		sess := liveSession(tool.srv)
		return sess != nil && sess.soleCall() != nil
	})
}

// noticesDone waits until the notices tool's session sent off a call's
// path (notifications/cancelled) have been answered: after it, the server
// has every notice it will get for the calls made so far. The notice is
// added before the call returns (cancelRemote), so a call that returned
// has its notice, if any, counted.
func noticesDone(tool *Tool) {
	if sess := liveSession(tool.srv); sess != nil {
		sess.bg.Wait()
	}
}

// packageDir is this package's source directory, to tell its goroutines in
// a stack dump.
func packageDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// leakedGoroutines lists the stacks of goroutines running code of this
// package (not its tests) or mcp-go's client, or holding an HTTP client
// connection.
func leakedGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	dir := packageDir() + string(filepath.Separator)
	var leaks []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		leaked := strings.Contains(g, "mark3labs/mcp-go/client") || strings.Contains(g, "net/http.(*persistConn)")
		for _, line := range strings.Split(g, "\n") {
			line = strings.TrimSpace(line)
			if strings.HasPrefix(line, dir) && !strings.Contains(line, "_test.go") {
				leaked = true
			}
		}
		if leaked {
			leaks = append(leaks, g)
		}
	}
	return leaks
}

// checkNoLeaks fails the test if goroutines of this package or of mcp-go's
// client are left once the test's clients are closed. Goroutines end a
// little after Close returns, so it waits a while for them.
func checkNoLeaks(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		leaks := leakedGoroutines()
		if len(leaks) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines left after Close:\n%s", len(leaks), strings.Join(leaks, "\n\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// processGone reports whether pid has exited and been reaped (not even a
// zombie is left).
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// processDead reports whether pid has exited, as a zombie or gone: for a
// grandchild, whose reaping is PID 1's business.
func processDead(pid int) bool {
	if processGone(pid) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && len(stat) > i+2 && stat[i+2] == 'Z'
}

// contextT keeps handler literals in tests short.
type contextT = context.Context
