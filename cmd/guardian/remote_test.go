package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/guardian-agent/guardian-go/definition"
)

// startRemote starts the toolserver on loopback with flag (-http or -sse),
// answering only requests whose Authorization header is auth, and returns
// its URL. It is stopped when t ends.
func startRemote(t *testing.T, flag, auth string) string {
	t.Helper()
	_, ts := binaries(t)
	cmd := exec.Command(ts, "-tools", "testdata/e2e/tools-v1.json", flag, "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "AUTH_WANT="+auth)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- strings.TrimSpace(line)
	}()
	select {
	case u := <-lines:
		if !strings.HasPrefix(u, "http://127.0.0.1:") {
			t.Fatalf("toolserver %s printed %q", flag, u)
		}
		return u
	case <-time.After(30 * time.Second):
		t.Fatalf("toolserver %s did not start", flag)
	}
	return ""
}

// Streamable HTTP and SSE servers, with a header whose credential comes
// from a VS Code input: used to connect, never recorded or printed.
func TestRecordRemote(t *testing.T) {
	token := fakeToken("h")
	httpURL := startRemote(t, "-http", "Bearer "+token)
	sseURL := startRemote(t, "-sse", "Bearer "+token)
	dir := workspace(t)
	config := `{
  "inputs": [{"type": "promptString", "id": "token", "password": true}],
  "servers": {
    "web": {"type": "http", "url": "` + httpURL + `", "headers": {"Authorization": "Bearer ${input:token}"}},
    "events": {"type": "sse", "url": "` + sseURL + `", "headers": {"Authorization": "Bearer ${input:token}"}}
  }
}`
	if err := os.WriteFile(filepath.Join(dir, "remote.json"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"GUARDIAN_INPUT_TOKEN=" + token}
	r := guardian(t, dir, env, "record", "remote.json", "--prefix-tool-names", "--json")
	assertNoSecret(t, r.stdout+r.stderr, token)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stdout)
	}
	var rep recordReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	def, err := definition.Parse(rep.Document)
	if err != nil {
		t.Fatal(err)
	}
	rec := def.Record()
	want := []definition.Server{
		{Name: "events", Transport: definition.TransportSSE, URL: sseURL},
		{Name: "web", Transport: definition.TransportStreamableHTTP, URL: httpURL},
	}
	if len(rec.MCPServers) != 2 || rec.MCPServers[0].URL != want[0].URL || rec.MCPServers[0].Transport != want[0].Transport ||
		rec.MCPServers[1].URL != want[1].URL || rec.MCPServers[1].Transport != want[1].Transport {
		t.Errorf("servers = %+v, want %+v", rec.MCPServers, want)
	}
	if len(rec.Tools) != 10 || rec.Extensions.Guardian.MCPTools["web_search"] != "web" || rec.Extensions.Guardian.MCPTools["events_search"] != "events" {
		t.Errorf("tools: %v", rec.Extensions.Guardian.MCPTools)
	}

	// A wrong credential: both servers fail, by name, and the one sent is
	// not printed either.
	wrong := fakeToken("x")
	r = guardian(t, dir, []string{"GUARDIAN_INPUT_TOKEN=" + wrong}, "record", "remote.json", "--prefix-tool-names")
	assertNoSecret(t, r.stdout+r.stderr, wrong, token)
	if r.code != exitBad || !strings.Contains(r.stderr, `server "web" failed: connect: `) || !strings.Contains(r.stderr, `server "events" failed: connect: `) ||
		!strings.Contains(r.stderr, "401") {
		t.Errorf("wrong token: %+v", r)
	}
	if strings.Contains(r.stderr, "127.0.0.1") {
		t.Errorf("a failure printed the server's URL, which may hold a credential:\n%s", r.stderr)
	}
}
