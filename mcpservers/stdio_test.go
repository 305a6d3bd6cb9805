package mcpservers

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/guardian-agent/guardian-go/internal/lockedbuffer"
)

func TestStdioEnvironment(t *testing.T) {
	t.Setenv("MCPSERVERS_PARENT_ONLY", testToken)
	conn := stdioServer("docs", "GIVEN", "given-value")
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": conn}, nil))
	got := call(t, tools["whoami"], map[string]any{"var": "GIVEN"}).Text()
	if !strings.Contains(got, "var=given-value") || !strings.Contains(got, "path=true") {
		t.Errorf("whoami = %q, want Env and the inherited PATH", got)
	}
	if !strings.Contains(got, "parentOnly=false") {
		t.Errorf("whoami = %q: the server inherited a variable it was not given", got)
	}
}

func TestStdioWorkingDirectoryAndRelativeCommand(t *testing.T) {
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	if err := os.Mkdir(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A relative command resolves against Dir.
	if err := os.Symlink(testBinary(), filepath.Join(dir, "bin", "server")); err != nil {
		t.Fatal(err)
	}
	conn := stdioServer("docs")
	conn.Command, conn.Dir = "./bin/server", dir
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": conn}, nil))
	got := call(t, tools["whoami"], nil).Text()
	if !strings.Contains(got, "wd="+dir+" ") {
		t.Errorf("whoami = %q, want wd=%s", got, dir)
	}
	if rec := tools["whoami"].MCPRecord(); rec.Server.Command != "./bin/server" {
		t.Errorf("recorded command %q, want it as given", rec.Server.Command)
	}
}

func TestStdioCommandLookup(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(testBinary(), filepath.Join(dir, "my-mcp-server")); err != nil {
		t.Fatal(err)
	}
	// A bare name is looked up in the child's PATH.
	conn := stdioServer("docs", "PATH", dir)
	conn.Command = "my-mcp-server"
	loadTools(t, newClient(t, map[string]Connection{"docs": conn}, nil))

	for name, command := range map[string]string{"bare": "no-such-mcp-server", "relative": "./no/such/server", "absolute": "/no/such/server"} {
		conn := stdioServer("docs")
		conn.Command = command
		_, err := newClient(t, map[string]Connection{name: conn}, nil).Tools(testCtx(t))
		wantKind(t, err, ErrConnect, name)
		if !strings.Contains(err.Error(), "command not found") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

func TestStdioStderr(t *testing.T) {
	stderr := &lockedbuffer.Buffer{}
	c := newClient(t, map[string]Connection{"dies": stdioServer("exit-init")}, &ClientOptions{Stderr: stderr})
	_, _ = c.Tools(testCtx(t))
	c.Close()
	// (A coverage build's child adds a line of its own.)
	got := stderr.String()
	if !strings.HasPrefix(got, "[dies] exit-init: giving up\n") {
		t.Errorf("stderr = %q", got)
	}
	for _, line := range strings.SplitAfter(got, "\n") {
		if line != "" && !strings.HasPrefix(line, "[dies] ") {
			t.Errorf("line %q has no prefix", line)
		}
	}
}

func TestStderrLinesStayWhole(t *testing.T) {
	var b lockedbuffer.Buffer
	w := &lineWriter{w: &b}
	w.writeLine("a", []byte("one "), false)
	w.writeLine("a", []byte("line\n"), true)
	w.writeLine("b", []byte("two\n"), true)
	if got := b.String(); got != "[a] one line\n[b] two\n" {
		t.Errorf("lines = %q", got)
	}
	if !regexp.MustCompile(`^\[a\]`).MatchString(b.String()) {
		t.Error("no prefix")
	}
}

func TestChildEnvironment(t *testing.T) {
	t.Setenv("HOME", "/home/test")
	t.Setenv("MCPSERVERS_PARENT_ONLY", "x")
	env := childEnv(map[string]string{"B": "2", "A": "1", "HOME": "/override"})
	joined := strings.Join(env, "\n")
	if strings.Contains(joined, "MCPSERVERS_PARENT_ONLY") {
		t.Errorf("env = %v, inherited a variable outside the safe set", env)
	}
	if !strings.Contains(joined, "HOME=/override") || strings.Contains(joined, "HOME=/home/test") {
		t.Errorf("env = %v, want Env to win over the inherited value", env)
	}
	if i, j := strings.Index(joined, "A=1"), strings.Index(joined, "B=2"); i < 0 || j < i {
		t.Errorf("env = %v, want Env in key order", env)
	}
}

// TestLoadContextDoesNotBoundTheProcess loads a stdio server's tools with a
// context whose deadline then passes: the process must live on until
// Close, so a later call is answered by the same one. (mcp-go kills the
// child with the context given to Start.)
func TestLoadContextDoesNotBoundTheProcess(t *testing.T) {
	c := newCheckedClient(t, map[string]Connection{"docs": stdioServer("docs")}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	// A control process bound to ctx the way exec.CommandContext binds
	// one: once it has been killed and reaped, a server bound to ctx
	// would have been killed too.
	control := exec.CommandContext(ctx, "sleep", "60")
	if err := control.Start(); err != nil {
		t.Fatalf("control process: %v", err)
	}
	tools, err := c.Tools(ctx)
	if err != nil {
		t.Fatalf("Tools: %v", err)
	}
	whoami := byName(tools)["whoami"]
	before := pidOf(t, whoami)
	if err := control.Wait(); ctx.Err() == nil {
		t.Fatalf("the control process ended before the context: %v", err)
	}
	if processGone(before) {
		t.Fatalf("the server %d ended with the load's context", before)
	}
	if after := pidOf(t, whoami); after != before {
		t.Errorf("the call went to process %d, not %d: the first ended with the load's context", after, before)
	}
}

// mcp-go's stdio transport logs to slog.Default: a server that floods the
// client with requests and goes made `guardian record --json` print 1,796
// "ERROR Error writing response" lines. A library prints nothing: a client
// process, re-executed, writes nothing on its standard error.
func TestStdioTransportLogsNothing(t *testing.T) {
	cmd := exec.CommandContext(testCtx(t), testBinary(), "-test.run=^$")
	cmd.Env = append(os.Environ(), clientEnv+"=raw-flood")
	var stderr, stdout strings.Builder
	cmd.Stderr, cmd.Stdout = &stderr, &stdout
	if err := cmd.Run(); err != nil {
		t.Fatalf("client: %v\n%s", err, stderr.String())
	}
	if stderr.Len() > 0 || stdout.Len() > 0 {
		lines := strings.Count(stderr.String(), "\n")
		first, _, _ := strings.Cut(stderr.String(), "\n")
		t.Errorf("the client printed %d lines on stderr, the first %q; stdout %q", lines, first, stdout.String())
	}
}

// What stops a stdio server from starting is said as it is: a working
// directory that is missing or no directory (exec reports a chdir failure
// as the program missing), a command that is a directory or not
// executable, a script whose interpreter is missing. The paths are
// machine-dependent and not quoted: the message names what is wrong.
func TestStdioStartFailuresSayWhat(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	if err := os.WriteFile(file, []byte("not a program\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(tmp, "script")
	if err := os.WriteFile(script, []byte("#!"+filepath.Join(tmp, "no-such-interpreter")+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(tmp, "garbage")
	if err := os.WriteFile(garbage, []byte{0x7f, 'E', 'L', 'F', 0, 0, 0, 0}, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, command, dir, want string
	}{
		{"dir-missing", testBinary(), filepath.Join(tmp, "no-such-dir"), "the working directory (cwd) does not exist"},
		{"dir-missing-bare-command", "sh", filepath.Join(tmp, "no-such-dir"), "the working directory (cwd) does not exist"},
		{"dir-missing-relative-command", "./bin/server", filepath.Join(tmp, "no-such-dir"), "the working directory (cwd) does not exist"},
		{"dir-is-a-file", testBinary(), file, "the working directory (cwd) is not a directory"},
		{"command-is-a-directory", tmp, "", "the command is a directory"},
		{"command-not-executable", file, "", "the command is not executable"},
		{"interpreter-missing", script, "", "its interpreter (the #! line) or dynamic loader was not found"},
		{"not-a-program", garbage, "", "not a program this system can run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn := stdioServer("docs")
			conn.Command, conn.Dir = tc.command, tc.dir
			_, err := newCheckedClient(t, map[string]Connection{"srv": conn}, nil).Tools(testCtx(t))
			wantKind(t, err, ErrConnect, "srv")
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %q, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), tmp) {
				t.Errorf("err = %q quotes a machine's path", err)
			}
		})
	}
}

// slowWriter is a Stderr writer slower than the server writing: each
// line costs it at least 50µs, so a server that writes 250 lines and
// exits is gone long before its lines are all taken.
type slowWriter struct{ lockedbuffer.Buffer }

func (w *slowWriter) Write(p []byte) (int, error) {
	time.Sleep(50 * time.Microsecond)
	return w.Buffer.Write(p)
}

// A server's last words on stderr, often why it failed, are read to the
// end before the session is done: closing our end of the pipe first
// dropped those the reader had not reached (the CLI's stderr tail lost
// them on a loaded machine).
func TestStderrReadToTheEndOnExit(t *testing.T) {
	// 25 KB: more than the reader buffers (16 KiB), less than a pipe
	// holds (64 KiB).
	const lines = 250
	pad := strings.Repeat("x", 90)
	w := &slowWriter{}
	script := `i=1; while [ $i -le ` + strconv.Itoa(lines) + ` ]; do echo "line $i ` + pad + `" >&2; i=$((i+1)); done; echo "last words" >&2; exit 3`
	_, err := newClient(t, map[string]Connection{"dies": Stdio{Command: "sh", Args: []string{"-c", script}}}, &ClientOptions{Stderr: w}).Tools(testCtx(t))
	wantKind(t, err, ErrConnect, "dies")
	got := w.String()
	if n := strings.Count(got, "[dies] line "); n != lines || !strings.HasSuffix(got, "[dies] last words\n") {
		t.Errorf("got %d of %d lines; the last: %q", n, lines, got[strings.LastIndex(strings.TrimSuffix(got, "\n"), "\n")+1:])
	}
}

// A process that left the server's group holds its stderr open, silent:
// the session still ends, the pipe read for stderrIdleBound, with what
// the server wrote before it went.
func TestStderrHeldByAnEscapedProcess(t *testing.T) {
	stderr := &lockedbuffer.Buffer{}
	c := newClient(t, map[string]Connection{"held": stdioServer("escaped-holder")}, &ClientOptions{Stderr: stderr})
	start := time.Now()
	_, err := c.Tools(testCtx(t))
	took := time.Since(start)
	m := regexp.MustCompile(`holder=(\d+)`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no holder on stderr: %v", err)
	}
	holder, _ := strconv.Atoi(m[1])
	_ = syscall.Kill(holder, syscall.SIGKILL)
	wantKind(t, err, ErrConnect, "held")
	if !strings.Contains(stderr.String(), "[held] last words\n") {
		t.Errorf("the server's last words are lost: %q", stderr.String())
	}
	// The holder lives 300 s; the session waits only for its silence.
	if took > 30*time.Second {
		t.Errorf("the failed connect took %v: it waited for the holder", took)
	}
}
