package mcpconfig

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeKeyToken is a GitHub-shaped token with a varied body, built here so
// that no literal one is in the repository.
func fakeKeyToken() string { return "ghp_" + strings.Repeat("Zq8Lm3Vx4Rb7", 3) }

// assertNoPieceOf fails if s holds a 10-byte piece of secret.
func assertNoPieceOf(t *testing.T, s, secret string) {
	t.Helper()
	for j := 0; j+10 <= len(secret); j++ {
		if strings.Contains(s, secret[j:j+10]) {
			t.Fatalf("the text holds a piece of the secret at byte %d", j)
		}
	}
}

// A key that holds a credential never reaches a pointer: a header pasted
// whole as a key, a server named by a token, a duplicate key, a project
// path; each is "<member N>", its index in file order, and a server's
// Label is its stand-in while Name keeps the key.
func TestKeysHoldingCredentialsAreStandIns(t *testing.T) {
	tok := fakeKeyToken()
	tests := []struct {
		name, config, pointer string
	}{
		{"header pasted as key", `{"mcpServers": {"gh": {"url": "https://h/mcp", "headers": {"X-A": "1", "Authorization: Bearer ` + tok + `": true}}}}`,
			"/mcpServers/gh/headers/<member 1>"},
		{"duplicate key", `{"mcpServers": {"gh": {"command": "x", "env": {"` + tok + `": "1", "` + tok + `": "2"}}}}`,
			"/mcpServers/gh/env/<member 1>"},
		{"bad value under a token key", `{"mcpServers": {"a": {"command": "x"}, "` + tok + `": {"command": 1}}}`,
			"/mcpServers/<member 1>/command"},
		{"syntax error under a token key", `{"mcpServers": {"` + tok + `": {"command": tru}}}`,
			"/mcpServers/<member 0>/command"},
		{"project path", `{"projects": {"/home/` + tok + `": {"mcpServers": {"a": {"command": 1}}}}}`,
			"/projects/<member 0>/mcpServers/a/command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.config))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse = %v, want an *Error", err)
			}
			if e.Pointer != tt.pointer {
				t.Errorf("pointer %q, want %q", e.Pointer, tt.pointer)
			}
			assertNoPieceOf(t, err.Error(), tok)
		})
	}

	cfg, err := Parse([]byte(`{"mcpServers": {"docs": {"command": "x"}, "` + tok + `": {"command": "y", "headers": {"` + tok + `": "${env:UNSET_X}"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Servers[1]
	if s.Name != tok || s.Pointer != "/mcpServers/<member 1>" || s.Label() != "<member 1>" || cfg.Servers[0].Label() != "docs" {
		t.Errorf("server 1: pointer %q, label %q", s.Pointer, s.Label())
	}
	_, err = s.Resolve(Vars{Env: func(string) (string, bool) { return "", false }})
	var ue *UnsetError
	if !errors.As(err, &ue) || ue.Pointer != "/mcpServers/<member 1>/headers/<member 0>" || ue.Server != "<member 1>" {
		t.Errorf("Resolve = %v", err)
	}
	assertNoPieceOf(t, err.Error(), tok)
}

// /proc/self/environ is a regular file of size 0 that reads as the
// process's whole environment: it is not a file of the user's, and
// ReadBounded refuses it (and any file whose contents are not the size
// the system reports) rather than hand it on as an envFile.
func TestReadBoundedRefusesProcFiles(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc on this system")
	}
	for _, name := range []string{"/proc/self/environ", "/proc/self/status"} {
		_, err := ReadEnvFile(name)
		var pe *fs.PathError
		if !errors.As(err, &pe) || !strings.Contains(pe.Err.Error(), "not the size the system reports") {
			t.Errorf("ReadEnvFile(%s) = %v, want it refused", name, err)
		}
	}
	empty := filepath.Join(t.TempDir(), "empty.env")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if m, err := ReadEnvFile(empty); err != nil || len(m) != 0 {
		t.Errorf("an empty env file: %v, %v", m, err)
	}
}

// An environment cannot hold a NUL byte: an env file with one is refused
// where it is, not handed to the server to be refused at a variable the
// config does not have.
func TestParseEnvFileRefusesNUL(t *testing.T) {
	_, err := ParseEnvFile([]byte("A=1\nSHELL=/bin/sh\x00HOME=/root\n"))
	var e *Error
	if !errors.As(err, &e) || e.Line != 2 || e.Column != 14 || !strings.Contains(e.Msg, "NUL") {
		t.Errorf("ParseEnvFile = %v, want a NUL refused at 2:14", err)
	}
}
