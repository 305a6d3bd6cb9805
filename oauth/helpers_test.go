package oauth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/guardian-agent/guardian-go/internal/oauthtest"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// The tests run a real authorization server and a real MCP server
// (mcp-go's streamable HTTP server behind a bearer check) on loopback, from
// internal/oauthtest, and connect with package mcpservers, as a user does.

// browserEnv makes the test binary a browser: it loads the URL it is
// given, following every redirect (to the BrowserSignIn's callback).
const browserEnv = "OAUTH_TEST_BROWSER"

func TestMain(m *testing.M) {
	if os.Getenv(browserEnv) == "1" {
		os.Exit(runTestBrowser(os.Args[len(os.Args)-1]))
	}
	os.Exit(m.Run())
}

func runTestBrowser(u string) int {
	resp, err := http.Get(u)
	if err != nil {
		return 1
	}
	_ = resp.Body.Close()
	return 0
}

func testBinary() string {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	return exe
}

// testCtx bounds a test's I/O, so that a hang fails rather than stalls.
func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// fakeSecret is a generated credential, new for every test.
func fakeSecret(t testing.TB, prefix string) string {
	t.Helper()
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return prefix + hex.EncodeToString(b)
}

// protectedClient is a client of srv's MCP server, as "protected", closed
// when the test ends. The server/discover probe is given 20 s (see
// mcpservers' newClient): the default second can lapse on a loaded
// machine.
func protectedClient(t testing.TB, srv *oauthtest.Servers, a mcpservers.Auth) *mcpservers.Client {
	t.Helper()
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{"protected": mcpservers.StreamableHTTP{URL: srv.MCP, Auth: a}},
		&mcpservers.ClientOptions{DiscoverTimeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// loadTools loads every tool of c, failing the test on error.
func loadTools(t testing.TB, c *mcpservers.Client, servers ...string) map[string]*mcpservers.Tool {
	t.Helper()
	tools, err := c.Tools(testCtx(t), servers...)
	if err != nil {
		t.Fatalf("Tools: %v", err)
	}
	m := make(map[string]*mcpservers.Tool, len(tools))
	for _, t := range tools {
		m[t.Name()] = t
	}
	return m
}

// call calls a tool, failing the test on error.
func call(t testing.TB, tool *mcpservers.Tool, args map[string]any) *mcpservers.Result {
	t.Helper()
	r, err := tool.Call(testCtx(t), args)
	if err != nil {
		t.Fatalf("Call(%s): %v", tool.Name(), err)
	}
	return r
}

// wantKind checks that err is an *mcpservers.Error of the given kind
// naming server.
func wantKind(t testing.TB, err error, kind error, server string) *mcpservers.Error {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("err = %v, want kind %v", err, kind)
	}
	var e *mcpservers.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %T %v, want *mcpservers.Error", err, err)
	}
	if e.Server != server || !strings.Contains(err.Error(), `server "`+server+`"`) {
		t.Errorf("err = %q (Server %q), want it to name server %q", err, e.Server, server)
	}
	return e
}

func assertNoSecrets(t *testing.T, text string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if s != "" && strings.Contains(text, s) {
			t.Errorf("text holds a secret of the flow (%d bytes, starting %q)", len(s), s[:min(3, len(s))])
		}
	}
}
