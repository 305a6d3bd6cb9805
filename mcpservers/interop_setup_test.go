package mcpservers_test

// Finding and starting the npm MCP servers the interop tests run against.
// They are pinned in testdata/npm/package.json and installed with
//
//	npm ci --prefix mcpservers/testdata/npm
//
// (.ci/interop-setup does it). When they are not installed the tests skip,
// unless GUARDIAN_REQUIRE_INTEROP=1, as in CI, where they fail instead.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/guardian-agent/guardian-go/internal/lockedbuffer"
)

// requireInteropEnv names the variable that turns a missing interop install
// from a skip into a failure.
const requireInteropEnv = "GUARDIAN_REQUIRE_INTEROP"

const npmDir = "testdata/npm"

// interopMissing skips or fails t because something the interop tests need
// is not installed.
func interopMissing(t testing.TB, what string) {
	t.Helper()
	msg := what + " is not installed; run: npm ci --prefix mcpservers/testdata/npm (or .ci/interop-setup)"
	if os.Getenv(requireInteropEnv) == "1" {
		t.Fatalf("%s (%s=1, so this fails instead of skipping)", msg, requireInteropEnv)
	}
	t.Skip(msg)
}

// npmServer returns the absolute path of an installed server's executable
// (node_modules/.bin/NAME), and checks that node can run it.
func npmServer(t testing.TB, name string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		interopMissing(t, "node")
	}
	bin, err := filepath.Abs(filepath.Join(npmDir, "node_modules", ".bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		interopMissing(t, name)
	}
	return bin
}

// teeScript is the node program that records a stdio server's traffic.
func teeScript(t testing.TB) string {
	t.Helper()
	p, err := filepath.Abs("testdata/interop/tee.mjs")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// everythingHTTP is a server-everything process serving streamable HTTP
// (or the legacy SSE transport) on loopback.
type everythingHTTP struct {
	URL  string // http://127.0.0.1:PORT/mcp, or /sse
	port int
	bin  string
	mode string // the package's argument: streamableHttp or sse
	stop func() // stops the current process
}

// startEverythingHTTP starts `mcp-server-everything streamableHttp` on a free
// port (the package reads it from $PORT, default 3001) and waits until it
// answers. The process is stopped when t ends.
func startEverythingHTTP(t testing.TB) *everythingHTTP {
	t.Helper()
	return startEverythingServer(t, "streamableHttp")
}

// startEverythingSSE starts `mcp-server-everything sse` likewise: the
// event stream is at /sse.
func startEverythingSSE(t testing.TB) *everythingHTTP {
	t.Helper()
	return startEverythingServer(t, "sse")
}

func startEverythingServer(t testing.TB, mode string) *everythingHTTP {
	t.Helper()
	bin := npmServer(t, "mcp-server-everything")
	path := "/mcp"
	if mode == "sse" {
		path = "/sse"
	}
	var lastErr error
	for range 3 { // the free port can be taken between freePort and listen
		port := freePort(t)
		stop, err := runEverythingHTTP(bin, mode, port)
		if err == nil {
			s := &everythingHTTP{URL: fmt.Sprintf("http://127.0.0.1:%d%s", port, path), port: port, bin: bin, mode: mode, stop: stop}
			t.Cleanup(func() { s.stop() })
			return s
		}
		lastErr = err
	}
	t.Fatalf("server-everything over streamable HTTP did not start: %v", lastErr)
	return nil
}

// restart stops the server and starts a new one on the same port: every
// session the old one had is gone.
func (s *everythingHTTP) restart(t testing.TB) {
	t.Helper()
	s.stop()
	stop, err := runEverythingHTTP(s.bin, s.mode, s.port)
	if err != nil {
		t.Fatalf("restarting server-everything: %v", err)
	}
	s.stop = stop
}

// runEverythingHTTP starts the server on port and waits until it listens;
// stop ends it (SIGINT, on which it shuts down cleanly, then SIGKILL) and
// waits for it.
func runEverythingHTTP(bin, mode string, port int) (stop func(), err error) {
	out := &lockedbuffer.Buffer{}
	cmd := exec.Command(bin, mode)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	cmd.Stdout = out
	cmd.Stderr = out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			_ = cmd.Process.Signal(syscall.SIGINT)
			select {
			case <-exited:
			case <-time.After(5 * time.Second):
				_ = cmd.Process.Kill()
				<-exited
			}
		})
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		select {
		case err := <-exited:
			return nil, fmt.Errorf("exited (%v): %s", err, out.String())
		default:
		}
		if o := out.String(); strings.Contains(o, "listening on port") || strings.Contains(o, "running on port") {
			c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
			if err == nil {
				c.Close()
				return stop, nil
			}
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			<-exited
			return nil, fmt.Errorf("not listening after 20s: %s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// lineWriter sends each line written to it to t.Log, for servers' stderr.
type lineWriter struct {
	t      testing.TB
	prefix string
	mu     sync.Mutex
	buf    []byte
	done   bool
}

func newLineWriter(t testing.TB, prefix string) *lineWriter {
	w := &lineWriter{t: t, prefix: prefix}
	t.Cleanup(func() {
		w.mu.Lock()
		w.done = true
		w.mu.Unlock()
	})
	return w
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return len(p), nil
	}
	w.buf = append(w.buf, p...)
	for {
		i := strings.IndexByte(string(w.buf), '\n')
		if i < 0 {
			break
		}
		w.t.Logf("%s%s", w.prefix, w.buf[:i])
		w.buf = w.buf[i+1:]
	}
	return len(p), nil
}

// waitFor polls cond until it holds or d passes.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// testContext is a context that ends with the test, and after d at most.
func testContext(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// readAllLines returns the lines of a file, without their newlines.
func readAllLines(path string) ([][]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines [][]byte
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			line = []byte(strings.TrimRight(string(line), "\r\n"))
			if len(line) > 0 {
				lines = append(lines, line)
			}
		}
		if errors.Is(err, io.EOF) {
			return lines, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// markerEnv names the variable that marks the server processes a test
// starts through a Client, so that it can tell they are gone after Close.
const markerEnv = "GUARDIAN_INTEROP_MARKER"

// checkClean returns a value for markerEnv, and makes t fail if, once the
// test and its cleanups are done (so call it first), a process holding
// that value in its environment still runs, or a goroutine of mcpservers,
// of mcp-go or of an HTTP connection is left. Both end a little after
// Close returns, so it waits up to 5 seconds for them.
func checkClean(t *testing.T) string {
	t.Helper()
	marker := fmt.Sprintf("%s-%d-%d", t.Name(), os.Getpid(), time.Now().UnixNano())
	t.Cleanup(func() {
		var procs []string
		var goroutines []string
		waitFor(5*time.Second, func() bool {
			procs, goroutines = markedProcesses(markerEnv+"="+marker), clientGoroutines()
			return len(procs) == 0 && len(goroutines) == 0
		})
		for _, p := range procs {
			t.Errorf("a server process outlived its Client's Close: %s", p)
		}
		if len(goroutines) > 0 {
			t.Errorf("%d goroutines of the client outlived Close:\n%s", len(goroutines), strings.Join(goroutines, "\n\n"))
		}
	})
	return marker
}

// markedProcesses lists the live (not zombie) processes whose environment
// holds the entry, as "pid cmdline".
func markedProcesses(entry string) []string {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", d.Name(), "environ"))
		if err != nil || !containsEntry(env, entry) {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && strings.HasPrefix(strings.TrimSpace(string(stat[i+1:])), "Z") {
			continue // exited, waiting to be reaped by whoever inherited it
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		out = append(out, fmt.Sprintf("%d %s", pid, strings.ReplaceAll(string(cmdline), "\x00", " ")))
	}
	return out
}

func containsEntry(environ []byte, entry string) bool {
	for _, e := range strings.Split(string(environ), "\x00") {
		if e == entry {
			return true
		}
	}
	return false
}

// clientGoroutines returns the stacks of goroutines that run code of
// package mcpservers (not its tests), of mcp-go's client, or an HTTP
// connection.
func clientGoroutines() []string {
	buf := make([]byte, 4<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if clientStack(g) {
			out = append(out, g)
		}
	}
	return out
}

// clientStack reports whether a goroutine's stack has a frame of the
// client: each function line is followed by its file line.
func clientStack(stack string) bool {
	lines := strings.Split(stack, "\n")
	for i := 0; i+1 < len(lines); i++ {
		fn := strings.TrimPrefix(lines[i], "created by ")
		file := strings.TrimSpace(lines[i+1])
		if j := strings.LastIndexByte(file, ':'); j >= 0 {
			file = file[:j]
		}
		switch {
		case strings.HasPrefix(fn, "github.com/guardian-agent/guardian-go/mcpservers.") && !strings.HasSuffix(file, "_test.go"),
			strings.HasPrefix(fn, "github.com/mark3labs/mcp-go/client"),
			strings.HasPrefix(fn, "net/http.(*persistConn)"):
			return true
		}
	}
	return false
}
