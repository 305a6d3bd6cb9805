package mcpconfig

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/refusals"
)

func lookupIn(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

func TestResolve(t *testing.T) {
	token := "ghp_" + strings.Repeat("r", 36)
	vars := Vars{
		Env:             lookupIn(map[string]string{"HOME_DIR": "/home/me", "EMPTY": "", "API_KEY": token}),
		Input:           lookupIn(map[string]string{"github-token": token, "port": "8931"}),
		WorkspaceFolder: "/src/project",
		UserHome:        "/home/me",
	}
	sep := string(os.PathSeparator)
	tests := []struct {
		name    string
		pointer string
		in, out string
	}{
		{"plain", "/servers/a", "npx", "npx"},
		{"env", "/servers/a", "${env:HOME_DIR}/bin", "/home/me/bin"},
		{"empty env", "/servers/a", "x${env:EMPTY}y", "xy"},
		{"input", "/servers/a", "Bearer ${input:github-token}", "Bearer " + token},
		{"two", "/servers/a", "${input:port}:${input:port}", "8931:8931"},
		{"workspace", "/servers/a", "${workspaceFolder}/.env", "/src/project/.env"},
		{"basename", "/servers/a", "${workspaceFolderBasename}", "project"},
		{"home", "/servers/a", "${userHome}/notes", "/home/me/notes"},
		{"separator", "/servers/a", "a${/}b${pathSeparator}c", "a" + sep + "b" + sep + "c"},
		{"unknown kept", "/servers/a", "${config:editor.tabSize} ${command:pick}", "${config:editor.tabSize} ${command:pick}"},
		{"bare name kept in VS Code files", "/servers/a", "${HOME_DIR}", "${HOME_DIR}"},
		{"bare name in mcpServers files", "/mcpServers/a", "${HOME_DIR}/x", "/home/me/x"},
		{"default unused", "/mcpServers/a", "${HOME_DIR:-/tmp}", "/home/me"},
		{"default used", "/mcpServers/a", "${NOPE:-/tmp}", "/tmp"},
		{"empty default", "/mcpServers/a", "[${NOPE:-}]", "[]"},
		{"not a name", "/mcpServers/a", "${1X} ${a b}", "${1X} ${a b}"},
		{"unterminated", "/servers/a", "x${env:HOME_DIR", "x${env:HOME_DIR"},
		{"no recursion", "/mcpServers/a", "${NOPE:-${HOME_DIR}}", "${HOME_DIR}"},
		{"dollar alone", "/servers/a", "$HOME_DIR $ {x}", "$HOME_DIR $ {x}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Server{Name: "a", Pointer: tt.pointer, Command: tt.in}
			got, err := s.Resolve(vars)
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.in, err)
			}
			if got.Command != tt.out {
				t.Errorf("Resolve(%q) = %q, want %q", tt.in, got.Command, tt.out)
			}
		})
	}
}

func TestResolveEveryField(t *testing.T) {
	vars := Vars{Env: lookupIn(map[string]string{"V": "v"}), WorkspaceFolder: "/w"}
	s := Server{
		Name: "a", Pointer: "/servers/a", Transport: Stdio,
		Command: "${env:V}c", Args: []string{"${env:V}1", "2"}, URL: "${env:V}u",
		Connection: Connection{
			Env:     map[string]string{"E": "${env:V}e"},
			Headers: map[string]string{"H": "${env:V}h"},
			Cwd:     "${workspaceFolder}/sub", EnvFile: "${workspaceFolder}/.env",
			Other: map[string]json.RawMessage{"disabled": json.RawMessage("false")},
		},
	}
	got, err := s.Resolve(vars)
	if err != nil {
		t.Fatal(err)
	}
	if got.Command != "vc" || !slices.Equal(got.Args, []string{"v1", "2"}) || got.URL != "vu" ||
		got.Connection.Env["E"] != "ve" || got.Connection.Headers["H"] != "vh" ||
		got.Connection.Cwd != "/w/sub" || got.Connection.EnvFile != "/w/.env" || got.Name != "a" || got.Transport != Stdio {
		t.Errorf("Resolve = %+v", got)
	}
	// The original is untouched.
	if s.Args[0] != "${env:V}1" || s.Connection.Env["E"] != "${env:V}e" || s.Connection.Headers["H"] != "${env:V}h" {
		t.Errorf("Resolve changed its receiver: %+v", s)
	}
	if string(got.Connection.Other["disabled"]) != "false" || len(got.Connection.Other) != 1 {
		t.Errorf("Other = %v", got.Connection.Other)
	}
}

func TestResolveUnset(t *testing.T) {
	secret := "sk-" + strings.Repeat("u", 40)
	s := Server{
		Name: "gh", Pointer: "/servers/gh",
		URL:  "https://h/mcp?k=" + secret + "&v=${input:vers-9}",
		Args: []string{"${env:MISSING}", "${workspaceFolder}"},
		Connection: Connection{
			Headers: map[string]string{"Authorization": "Bearer ${input:tok-7}", "X-A": "${userHome}"},
		},
	}
	_, err := s.Resolve(Vars{})
	var got []string
	for _, e := range flattenJoin(err) {
		var ue *UnsetError
		if !errors.As(e, &ue) {
			t.Fatalf("%T %v is not an *UnsetError", e, e)
		}
		if ue.Server != "gh" {
			t.Errorf("Server = %q", ue.Server)
		}
		got = append(got, ue.Pointer+" "+ue.Ref+" "+ue.Name)
		if strings.Contains(e.Error(), ue.Name) && ue.Name != "" {
			t.Errorf("message %q names the variable", e)
		}
	}
	want := []string{
		"/servers/gh/args/0 env MISSING",
		"/servers/gh/args/1 workspaceFolder ",
		"/servers/gh/url input vers-9",
		"/servers/gh/headers/Authorization input tok-7",
		"/servers/gh/headers/X-A userHome ",
	}
	if !slices.Equal(got, want) {
		t.Errorf("unset =\n%q\nwant\n%q", got, want)
	}
	if !errors.Is(err, refusals.ErrInvalid) || strings.Contains(err.Error(), secret) {
		t.Errorf("err = %v", err)
	}
	// An mcpServers file's ${NAME} without a default is an env reference.
	_, err = Server{Name: "a", Pointer: "/mcpServers/a", Command: "${NOPE}"}.Resolve(Vars{})
	var ue *UnsetError
	if !errors.As(err, &ue) || ue.Ref != "env" || ue.Name != "NOPE" || ue.Pointer != "/mcpServers/a/command" {
		t.Errorf("bare unset: %v", err)
	}
}

func flattenJoin(err error) []error {
	if m, ok := err.(interface{ Unwrap() []error }); ok {
		return m.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

func FuzzResolve(f *testing.F) {
	for _, s := range []string{"${env:A}", "${input:b}${", "${A:-x}", "${workspaceFolder}${/}", "$${}}", "${:-}"} {
		f.Add(s, true)
	}
	secret := "xoxb-" + strings.Repeat("7", 30)
	f.Fuzz(func(t *testing.T, s string, claude bool) {
		ptr := "/servers/a"
		if claude {
			ptr = "/mcpServers/a"
		}
		vars := Vars{
			Env:             func(n string) (string, bool) { return secret, n == "A" },
			Input:           func(n string) (string, bool) { return "${env:A}", n == "b" },
			WorkspaceFolder: "/w",
		}
		got, err := Server{Name: "a", Pointer: ptr, Command: s, Args: []string{s}}.Resolve(vars)
		if err != nil {
			if strings.Contains(err.Error(), secret) {
				t.Fatalf("error quotes a value")
			}
			for _, e := range flattenJoin(err) {
				var ue *UnsetError
				if !errors.As(e, &ue) {
					t.Fatalf("%T is not an *UnsetError", e)
				}
			}
			return
		}
		if got.Command != got.Args[0] {
			t.Fatalf("command %q and arg %q resolved differently", got.Command, got.Args[0])
		}
		if !strings.Contains(s, "${") && got.Command != s {
			t.Fatalf("Resolve(%q) = %q: nothing to resolve", s, got.Command)
		}
		// A substituted value is never expanded again: resolving an input
		// that reads "${env:A}" never yields the env value.
		if !strings.Contains(s, "A") && strings.Contains(got.Command, secret) {
			t.Fatalf("Resolve(%q) expanded a substituted value", s)
		}
	})
}

// A reference in Windsurf's serverUrl is located there.
func TestResolveServerURL(t *testing.T) {
	cfg, err := Parse([]byte(`{"mcpServers": {"w": {"serverUrl": "https://h/mcp?key=${env:WINDSURF_KEY}"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = cfg.Servers[0].Resolve(Vars{})
	var ue *UnsetError
	if !errors.As(err, &ue) || ue.Pointer != "/mcpServers/w/serverUrl" {
		t.Errorf("Resolve = %v, want an unset reference at /mcpServers/w/serverUrl", err)
	}
	got, err := cfg.Servers[0].Resolve(Vars{Env: lookupIn(map[string]string{"WINDSURF_KEY": "k"})})
	if err != nil || got.URL != "https://h/mcp?key=k" || got.URLPointer() != "/mcpServers/w/serverUrl" {
		t.Errorf("Resolve = %+v, %v", got, err)
	}
}
