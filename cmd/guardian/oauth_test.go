package main

import (
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/internal/oauthtest"
)

// The tests here run the guardian binary against a loopback authorization
// server and MCP server of internal/oauthtest, run by the test process.
// The user's browser is played by this test binary: GUARDIAN_TEST_BROWSER
// (a test-only variable) names the command guardian opens the sign-in URL
// with, and the test binary, run so, loads the URL and follows every
// redirect, through the authorization server to guardian's loopback
// listener, as a browser does once the user approves.

// asBrowserEnv makes the test binary the browser (see TestMain).
const asBrowserEnv = "GUARDIAN_TEST_AS_BROWSER"

func followURL(u string) int {
	resp, err := http.Get(u)
	if err != nil {
		return 1
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 1
	}
	return 0
}

// oauthWorkspace writes a VS Code config with the protected server, and
// returns the directory, the config dir guardian caches tokens under, and
// the environment that plays the browser.
func oauthWorkspace(t *testing.T, srv *oauthtest.Servers, headers string) (dir string, configHome string, browser []string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the cache directory is set with XDG_CONFIG_HOME, and the browser run through env(1)")
	}
	dir = t.TempDir()
	config := `{"servers": {"tracker": {"type": "http", "url": "` + srv.MCP + `"` + headers + `}}}`
	if err := os.WriteFile(filepath.Join(dir, "mcp.json"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	configHome = t.TempDir()
	self, err := os.Executable()
	if err != nil || strings.ContainsAny(self, " \t") {
		t.Fatalf("the test binary's path %q cannot be a command line", self)
	}
	return dir, configHome, []string{"XDG_CONFIG_HOME=" + configHome, testBrowserEnv + "=env " + asBrowserEnv + "=1 " + self}
}

// TestRecordOAuth: record signs in with the browser and caches the tokens
// (0600); the next run, off a terminal, uses them; after logout, a run off
// a terminal fails that server saying how to sign in; login signs in
// again; check works on the cache.
func TestRecordOAuth(t *testing.T) {
	srv := oauthtest.Start(t, oauthtest.Options{ChallengeScope: "mcp:read"})
	dir, home, browser := oauthWorkspace(t, srv, "")

	r := guardian(t, dir, browser, "record", "mcp.json", "-o", "agent.json")
	if r.code != 0 {
		t.Fatalf("record with a sign-in: %s", r.transcript())
	}
	if !strings.Contains(r.stderr, "If it does not open, visit:") || !strings.Contains(r.stderr, "Signed in to") {
		t.Errorf("record did not say where to sign in:\n%s", r.stderr)
	}
	doc, err := os.ReadFile(filepath.Join(dir, "agent.json"))
	if err != nil || !strings.Contains(string(doc), `"whoami"`) {
		t.Fatalf("agent.json: %v\n%s", err, doc)
	}
	// guardian's OAuth is not the user's code: nothing is fingerprinted.
	if strings.Contains(string(doc), "sourceHash") {
		t.Errorf("the document has a sourceHash for guardian's own OAuth code:\n%s", doc)
	}
	files, _ := filepath.Glob(filepath.Join(home, "guardian", "oauth", "*.json"))
	if len(files) != 1 {
		t.Fatalf("cached token files = %q, want one", files)
	}
	if fi, err := os.Stat(files[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("token file mode: %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	secrets := srv.Seen()
	for _, out := range []string{r.stdout, r.stderr, string(doc)} {
		assertNoSecret(t, out, secrets...)
	}

	// Off a terminal, no browser: the cache serves.
	offTerminal := browser[:1]
	r = guardian(t, dir, offTerminal, "check", "mcp.json", "--golden", "agent.json")
	if r.code != 0 {
		t.Fatalf("check on cached tokens: %s", r.transcript())
	}
	if _, auths, _, _ := srv.Snapshot(); len(auths) != 1 {
		t.Errorf("authorization requests = %d, want 1: the second run must not sign in", len(auths))
	}

	// Logged out, off a terminal: the server fails, saying how to sign in.
	if r = guardian(t, dir, offTerminal, "logout"); r.code != 0 || !strings.Contains(r.stderr, "1 server") {
		t.Fatalf("logout: %s", r.transcript())
	}
	r = guardian(t, dir, offTerminal, "record", "mcp.json")
	if r.code != 2 || !strings.Contains(r.stderr, "sign-in required") || !strings.Contains(r.stderr, "guardian login mcp.json") {
		t.Fatalf("record off a terminal, signed out: %s", r.transcript())
	}
	assertNoSecret(t, r.stderr, srv.Seen()...)

	// login off a terminal refuses; with the browser, signs in.
	if r = guardian(t, dir, offTerminal, "login", "mcp.json"); r.code != 2 || !strings.Contains(r.stderr, "needs a terminal") {
		t.Fatalf("login off a terminal: %s", r.transcript())
	}
	if r = guardian(t, dir, browser, "login", "mcp.json", "tracker"); r.code != 0 || !strings.Contains(r.stderr, `"tracker": signed in`) {
		t.Fatalf("login: %s", r.transcript())
	}
	if r = guardian(t, dir, offTerminal, "check", "mcp.json", "--golden", "agent.json"); r.code != 0 {
		t.Fatalf("check after login: %s", r.transcript())
	}
	assertNoSecret(t, r.stderr+r.stdout, srv.Seen()...)

	// logout of the config's server only.
	if r = guardian(t, dir, offTerminal, "logout", "mcp.json", "tracker"); r.code != 0 || !strings.Contains(r.stderr, "1 server") {
		t.Fatalf("logout CONFIG SERVER: %s", r.transcript())
	}
}

// TestRecordOAuthHeaderToken: a server given an Authorization header gets
// that token, and no OAuth: nothing is discovered, and its 401 is the
// server's answer.
func TestRecordOAuthHeaderToken(t *testing.T) {
	srv := oauthtest.Start(t, oauthtest.Options{})
	dir, _, browser := oauthWorkspace(t, srv, `, "headers": {"Authorization": "Bearer ${env:TRACKER_TOKEN}"}`)
	token := fakeToken("o")
	r := guardian(t, dir, append(browser, "TRACKER_TOKEN="+token), "record", "mcp.json")
	if r.code != 2 || !strings.Contains(r.stderr, "401") || strings.Contains(r.stderr, "visit:") {
		t.Fatalf("record with a header token: %s", r.transcript())
	}
	paths, auths, _, _ := srv.Snapshot()
	for _, p := range paths {
		if strings.Contains(p, "well-known") {
			t.Errorf("discovery with a header token: %q", paths)
			break
		}
	}
	if len(auths) != 0 {
		t.Errorf("a sign-in with a header token")
	}
	assertNoSecret(t, r.stderr, token)
}
