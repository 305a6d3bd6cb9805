package main

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/oauth"
)

// testBrowserEnv, for tests only, names a command that plays the user's
// browser (the authorization URL is appended to it) and makes guardian
// sign in as on a terminal. The tests point it at a program that loads the
// URL and follows its redirects, as a browser would.
const testBrowserEnv = "GUARDIAN_TEST_BROWSER"

// oauthDir is where sign-ins are cached: guardian/oauth in the user's
// config directory (os.UserConfigDir: $XDG_CONFIG_HOME or ~/.config on
// Linux, ~/Library/Application Support on macOS, %AppData% on Windows),
// one 0600 file per server URL.
func oauthDir() (string, error) {
	d, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "guardian", "oauth"), nil
}

// canSignIn reports whether guardian may send the user to sign in: on a
// terminal (stdin and stderr), or when a test plays the browser.
func canSignIn(e *env) bool {
	if cmd, ok := e.lookupEnv(testBrowserEnv); ok && cmd != "" {
		return true
	}
	return e.progress && isTerminal(os.Stdin)
}

// withOAuth gives every HTTP server in conns that is not given an
// Authorization header an OAuth: it uses tokens cached in oauthDir, and on
// a terminal signs the user in with the browser when a server asks; off a
// terminal it never prompts, and a server that needs a sign-in fails
// saying how to sign in. It returns what to call when done.
func withOAuth(e *env, config string, conns map[string]mcpservers.Connection) func() {
	dir, err := oauthDir()
	if err != nil {
		return func() {}
	}
	needs := false
	for _, c := range conns {
		switch c := c.(type) {
		case mcpservers.StreamableHTTP:
			needs = needs || (c.Auth == nil && !hasAuthorization(c.Headers))
		case mcpservers.SSE:
			needs = needs || (c.Auth == nil && !hasAuthorization(c.Headers))
		}
	}
	if !needs {
		return func() {}
	}
	cfg := oauth.Config{
		Store:      oauth.FileTokenStore{Dir: dir},
		ClientName: "guardian",
		SignInHint: "run `guardian login " + config + "` on a terminal, or give the server a token in its headers",
	}
	done := func() {}
	if canSignIn(e) {
		opts := oauth.BrowserOptions{Out: e.stderr}
		if cmd, ok := e.lookupEnv(testBrowserEnv); ok && cmd != "" {
			opts.Command = strings.Fields(cmd)
		}
		b, err := oauth.NewBrowserSignIn(opts)
		if err == nil {
			cfg.Browser = b
			done = func() { _ = b.Close() }
		}
	}
	auth, err := oauth.New(cfg)
	if err != nil {
		done()
		return func() {}
	}
	for name, c := range conns {
		switch c := c.(type) {
		case mcpservers.StreamableHTTP:
			if c.Auth == nil && !hasAuthorization(c.Headers) {
				c.Auth = auth
				conns[name] = c
			}
		case mcpservers.SSE:
			if c.Auth == nil && !hasAuthorization(c.Headers) {
				c.Auth = auth
				conns[name] = c
			}
		}
	}
	return done
}

// hasAuthorization reports whether the config gives the server an
// Authorization header: its token is used, and OAuth stays out.
func hasAuthorization(h map[string]string) bool {
	for k := range h {
		if strings.EqualFold(k, "Authorization") {
			return true
		}
	}
	return false
}

// sameServer reports whether two server URLs are one: scheme and host
// without regard to case, the rest exactly.
func sameServer(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	if err1 != nil || err2 != nil {
		return a == b
	}
	return strings.EqualFold(ua.Scheme, ub.Scheme) && strings.EqualFold(ua.Host, ub.Host) &&
		ua.EscapedPath() == ub.EscapedPath() && ua.RawQuery == ub.RawQuery
}
