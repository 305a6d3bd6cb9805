package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/guardian-agent/guardian-go/internal/mcpconfig"
	"github.com/guardian-agent/guardian-go/oauth"
)

func loginUsage() string {
	return `Usage: guardian login CONFIG [SERVER...]

Login signs in to the HTTP and SSE servers of CONFIG that require OAuth
(all of them, or the SERVERs named), so that record and check can use them
off a terminal too: it connects as record does, opens your browser at each
server's sign-in page (and prints the URL, should it not open), receives the
redirect on a loopback port, and caches the tokens in the user's config
directory (guardian/oauth, one file per server URL, readable by you only).
A cached refresh token keeps the sign-in going until the server drops it.
A server given an Authorization header in CONFIG is not signed in to: its
token is used.

Login needs a terminal. Each sign-in may take up to --timeout.

Flags:

  --timeout DURATION
        how long a server's sign-in may take (default 5m)

Exit status: 0 when every server is signed in (or needs no sign-in); 2
otherwise.

Example:

	guardian login testdata/configs/vscode.json github
`
}

func logoutUsage() string {
	return `Usage: guardian logout [CONFIG [SERVER...]]

Logout removes cached OAuth tokens: all of them, or those of CONFIG's
servers (or of the SERVERs named). The server is not told; revoke the
grant in its settings to end it there too.

Example:

	guardian logout testdata/configs/vscode.json github
`
}

func runLogin(ctx context.Context, args []string, e *env) int {
	fl := newFlagSet("login")
	timeout := fl.Duration("timeout", 5*time.Minute, "")
	pos, err := parseArgs(fl, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(e.stdout, loginUsage())
		return exitOK
	}
	if err == nil && len(pos) == 0 {
		err = usagef("missing CONFIG")
	}
	if err == nil && *timeout <= 0 {
		err = usagef("--timeout must be positive")
	}
	if err != nil {
		return usageFailure(e, "login", false, err, loginUsage())
	}
	if !canSignIn(e) {
		printLine(e.stderr, "guardian login: needs a terminal, to open the browser and wait for the sign-in; off a terminal, give the server a token in its headers")
		return exitBad
	}
	config, names := pos[0], pos[1:]
	servers, code := remoteServers(e, "login", config, names)
	if servers == nil {
		return code
	}
	rec := recordConfig(ctx, e, "login", config, &recordOptions{name: "login", servers: servers, prefix: true, timeout: *timeout, keepGoing: true})
	status := exitOK
	for _, s := range rec.servers {
		switch s.Status {
		case serverOK:
			printLine(e.stderr, "guardian login: %q: signed in", s.Name)
		case serverFailed:
			printLine(e.stderr, "guardian login: %q: failed: %s", s.Name, s.Reason)
			status = exitBad
		}
	}
	for _, p := range rec.problems {
		printLine(e.stderr, "guardian login: %s", p)
		status = exitBad
	}
	return status
}

// remoteServers returns the names of CONFIG's HTTP and SSE servers, or of
// those named; nil and an exit status when there are none.
func remoteServers(e *env, cmd, config string, names []string) ([]string, int) {
	cfg, err := mcpconfig.ReadFileAll(config)
	if cfg == nil {
		printLine(e.stderr, "guardian %s: %s: cannot be read: %v", cmd, config, err)
		return nil, exitBad
	}
	var out []string
	for _, s := range cfg.Servers {
		if s.Transport != mcpconfig.StreamableHTTP && s.Transport != mcpconfig.SSE {
			continue
		}
		if len(names) == 0 || slices.Contains(names, s.Name) {
			out = append(out, s.Name)
		}
	}
	for _, n := range names {
		if !slices.Contains(out, n) {
			printLine(e.stderr, "guardian %s: %s has no HTTP or SSE server %q", cmd, config, n)
			return nil, exitBad
		}
	}
	if len(out) == 0 {
		printLine(e.stderr, "guardian %s: %s has no HTTP or SSE server", cmd, config)
		return nil, exitBad
	}
	return out, exitOK
}

func runLogout(ctx context.Context, args []string, e *env) int {
	fl := newFlagSet("logout")
	pos, err := parseArgs(fl, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(e.stdout, logoutUsage())
		return exitOK
	}
	if err != nil {
		return usageFailure(e, "logout", false, err, logoutUsage())
	}
	dir, err := oauthDir()
	if err != nil {
		printLine(e.stderr, "guardian logout: no user config directory: %v", err)
		return exitBad
	}
	store := oauth.FileTokenStore{Dir: dir}
	cached, err := store.Servers()
	if err != nil {
		printLine(e.stderr, "guardian logout: %v", err)
		return exitBad
	}
	var urls []string // the config's servers' URLs; nil: all
	if len(pos) > 0 {
		config := pos[0]
		cfg, err := mcpconfig.ReadFileAll(config)
		if cfg == nil {
			printLine(e.stderr, "guardian logout: %s: cannot be read: %v", config, err)
			return exitBad
		}
		base, _ := filepath.Abs(filepath.Dir(config))
		vars, _ := newVars(e, base)
		for _, s := range cfg.Servers {
			if len(pos) > 1 && !slices.Contains(pos[1:], s.Name) {
				continue
			}
			if r, err := s.Resolve(vars); err == nil && r.URL != "" {
				urls = append(urls, r.URL)
			} else if s.URL != "" {
				urls = append(urls, s.URL) // a header left unresolved
			}
		}
		if urls == nil {
			urls = []string{}
		}
	}
	removed := 0
	for _, srv := range cached {
		if urls != nil && !slices.ContainsFunc(urls, func(u string) bool { return sameServer(u, srv) }) {
			continue
		}
		if err := store.Delete(ctx, srv); err != nil {
			printLine(e.stderr, "guardian logout: %v", err)
			return exitBad
		}
		removed++
	}
	printLine(e.stderr, "guardian logout: removed the cached sign-in of %s", plural(removed, "server"))
	_ = os.Remove(dir) // only if now empty
	return exitOK
}
