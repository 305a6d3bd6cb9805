package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/refusals"
)

// claudeJSON is a fake ~/.claude.json, shaped as Claude Code writes it:
// its own settings, the user's servers, and projects by absolute path,
// each with its settings and servers. Its servers run the toolserver.
func claudeJSON(user string, app, site claudeProject) string {
	return `{
  "numStartups": 42,
  "theme": "dark",
  "autoUpdates": false,
  "tipsHistory": {"new-user-warmup": 7},
  "mcpServers": {` + user + `},
  "projects": {
    "` + app.path + `": {
      "allowedTools": [],
      "history": [{"display": "fix the build", "pastedContents": {}}],
      "mcpContextUris": [],
      "mcpServers": {` + app.servers + `},
      "enabledMcpjsonServers": [],
      "disabledMcpjsonServers": [],
      "hasTrustDialogAccepted": true,
      "projectOnboardingSeenCount": 1
    },
    "/nowhere/empty": {"allowedTools": [], "mcpServers": {}, "history": []},
    "/nowhere/none": {"allowedTools": []},
    "` + site.path + `": {"mcpServers": {` + site.servers + `}}
  }
}
`
}

type claudeProject struct{ path, servers string }

const docsServer = `"docs": {"type": "stdio", "command": "./toolserver", "args": ["-tools", "tools-v1.json"], "env": {}}`

func TestClaudeJSONProjects(t *testing.T) {
	dir := workspace(t)
	app := filepath.Join(dir, "work", "app")    // a local absolute path
	site := filepath.Join(dir, "work", "~site") // with a character pointers escape
	ta, tb := fakeToken("P"), fakeToken("Q")
	secrets := []string{ta, tb}
	at := func(project, rest string) string {
		return refusals.Pointer("projects", project, "mcpServers") + rest
	}

	dirty := writeConfig(t, dir, "claude.json", claudeJSON(docsServer,
		claudeProject{app, docsServer + `, "tracker": {"type": "stdio", "command": "./toolserver", "args": ["--token", "` + ta + `"]}`},
		claudeProject{site, `"search": {"type": "http", "url": "https://u:` + tb + `@h/mcp", "headers": {"X": "y"}}`}))

	// scan: the project's servers are checked, at pointers naming them.
	r := guardian(t, dir, nil, "scan", dirty)
	assertNoSecret(t, r.stdout+r.stderr, secrets...)
	for _, want := range []string{
		dirty + ": " + at(app, "/tracker/args/1") + ": token/github: ",
		dirty + ": " + at(site, "/search/url") + ": token/github: ",
		dirty + ": " + at(site, "/search/url") + ": url-password: ",
	} {
		if !strings.Contains(r.stdout, want+"") {
			t.Errorf("scan stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if r.code != exitRefused || !strings.Contains(r.stderr, "4 servers, 3 values refused") || !strings.Contains(r.stdout, "~0site") {
		t.Errorf("scan: exit %d, stderr %q", r.code, r.stderr)
	}

	// A file with projects alone is a config.
	only := writeConfig(t, dir, "only.json", `{"projects": {"`+app+`": {"mcpServers": {`+docsServer+`}}}}`)
	if r := guardian(t, dir, nil, "scan", only); r.code != exitOK || !strings.Contains(r.stderr, "only.json: 1 server, no credentials found") {
		t.Errorf("projects alone: exit %d, stderr %q", r.code, r.stderr)
	}

	// record: a server name in two places is ambiguous, and said so
	// before anything starts; --servers POINTER picks one.
	clean := writeConfig(t, dir, "claude-clean.json", claudeJSON(docsServer, claudeProject{app, docsServer}, claudeProject{site, ""}))
	r = guardian(t, dir, nil, "record", clean)
	if r.code != exitBad || r.stdout != "" ||
		!strings.Contains(r.stderr, `"docs" is at /mcpServers/docs and `+at(app, "/docs")+`): pick one of each with --servers POINTER`) {
		t.Errorf("ambiguous record: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if r := guardian(t, dir, nil, "record", clean, "--servers", "docs"); r.code != exitBad || !strings.Contains(r.stderr, `"docs" is at`) {
		t.Errorf("--servers docs: exit %d, stderr %q: want it ambiguous", r.code, r.stderr)
	}

	// The project's server is recorded by its name alone: the document is
	// the one of a config with that server, on every machine.
	want := guardian(t, dir, nil, "record", "mcp.json", "--name", "claude")
	for _, pick := range []string{at(app, "/docs"), "/mcpServers/docs"} {
		r = guardian(t, dir, nil, "record", clean, "--servers", pick, "--name", "claude")
		if r.code != exitOK || r.stdout != want.stdout {
			t.Errorf("--servers %s: exit %d, stderr %q; document:\n%s\nwant:\n%s", pick, r.code, r.stderr, r.stdout, want.stdout)
		}
		if strings.Contains(r.stdout, dir) || strings.Contains(r.stdout, "work") {
			t.Errorf("the document holds the project's path")
		}
	}
	// check picks the same way.
	if err := os.WriteFile(filepath.Join(dir, "agent.json"), []byte(want.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := guardian(t, dir, nil, "check", clean, "--golden", "agent.json", "--servers", at(app, "/docs")); r.code != exitOK {
		t.Errorf("check --servers POINTER: exit %d, stderr %q", r.code, r.stderr)
	}
}
