package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/guardian-agent/guardian-go/refusals"
)

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, C:\\dir\\file 日本": "plain text, C:\\dir\\file 日本",
		"a\nb\rc\td":                   `a\nb\rc\td`,
		"\x1b[2J\x07\x7f":              `\x1b[2J\a\x7f`,
		"x\u202ey\u2066z\u200b\ufeff":  `x\u202ey\u2066z\u200b\ufeff`,
		"\u0085\u2028\xff":             `\u0085\u2028\xff`,
		`"quoted\n"`:                   `"quoted\n"`,
	} {
		if got := escape(in); got != want {
			t.Errorf("escape(%q) = %q, want %q", in, got, want)
		}
		if again := escape(escape(in)); again != escape(in) {
			t.Errorf("escape is not idempotent on %q", in)
		}
	}
	raw := `{"a": "x` + "\u202e\u0085\x7f\U000e0001" + `y"}` + "\n"
	got := jsonSafe([]byte(raw))
	if string(got) != `{"a": "x\u202e\u0085\u007f\udb40\udc01y"}`+"\n" {
		t.Errorf("jsonSafe = %s", got)
	}
	var a, b map[string]string
	if json.Unmarshal([]byte(raw), &a) != nil || json.Unmarshal(got, &b) != nil || a["a"] != b["a"] {
		t.Error("jsonSafe changed the value")
	}
}

// assertTerminalSafe fails if out holds a character a terminal would act
// on (anything but a graphic character, a space or the newline that ends
// a line).
func assertTerminalSafe(t *testing.T, what, out string) {
	t.Helper()
	for i, r := range out {
		if r != '\n' && !unicode.IsPrint(r) {
			t.Errorf("%s: %U at byte %d is written raw", what, r, i)
			return
		}
	}
}

// A config key holding a newline forged a line of scan's (a file
// "scanned clean"), and ESC and \r sequences rewrote the terminal; every
// line guardian prints now writes such characters as escapes, in text,
// and --json stays valid JSON with the same values and no such byte raw.
func TestConfigKeysCannotForgeOutput(t *testing.T) {
	dir := workspace(t)
	forged := "guardian scan: forged.json: 1 server, no credentials found"
	keys := []string{"a\n" + forged, "b\x1b[2K\x1b]0;title\x07\rclean", "c\u202edesrever"}
	servers := map[string]any{}
	for _, k := range keys {
		servers[k] = map[string]any{"command": "x", "args": []string{"--password", "hunter2-hunter2"}}
	}
	writeJSONFile(t, dir, "inject.json", map[string]any{"mcpServers": servers})

	r := guardian(t, dir, nil, "scan", "inject.json")
	if r.code != exitRefused {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	assertTerminalSafe(t, "scan stdout", r.stdout)
	assertTerminalSafe(t, "scan stderr", r.stderr)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != len(keys) {
		t.Errorf("%d lines on stdout, want one per refusal:\n%s", len(lines), r.stdout)
	}
	for _, l := range append(lines, strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")...) {
		if strings.HasPrefix(l, forged) || !strings.HasPrefix(l, "inject.json: ") && !strings.HasPrefix(l, "guardian scan: inject.json: ") {
			t.Errorf("a line guardian did not write: %q", l)
		}
	}
	if !strings.Contains(r.stdout, `/mcpServers/a\nguardian scan: forged.json`) || !strings.Contains(r.stdout, `b\x1b[2K\x1b]0;title\a\rclean`) {
		t.Errorf("the keys are not shown escaped:\n%s", r.stdout)
	}

	for _, args := range [][]string{{"scan", "inject.json", "--json"}, {"record", "inject.json", "--json"}} {
		rj := guardian(t, dir, nil, args...)
		assertTerminalSafe(t, strings.Join(args, " "), rj.stdout)
		var rep struct {
			Problems []problem `json:"problems"`
		}
		if err := json.Unmarshal([]byte(rj.stdout), &rep); err != nil {
			t.Fatalf("%q: not JSON: %v", args, err)
		}
		var got []string
		for _, p := range rep.Problems {
			got = append(got, p.Pointer)
		}
		for _, k := range keys {
			want := refusals.Pointer("mcpServers", k, "args", "1")
			if !strings.Contains(strings.Join(got, "\x00"), want) {
				t.Errorf("%q: no problem at the key's own pointer %q (the values are kept): %q", args, want, got)
			}
		}
	}
}

// A server's stderr lines are its own words: escape sequences, carriage
// returns and bidi overrides in them are shown escaped, in text and
// --json.
func TestServerStderrCannotRewriteTheTerminal(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\nprintf 'boom \\033[2J\\033[1;1H all clear\\r\\n' >&2\nprintf 'name: \\342\\200\\256txt.exe\\n' >&2\nexit 3\n"
	if err := os.WriteFile(filepath.Join(dir, "server.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	writeJSONFile(t, dir, "mcp.json", map[string]any{"mcpServers": map[string]any{"bad": map[string]any{"command": "./server.sh"}}})
	r := guardian(t, dir, nil, "record", "mcp.json", "--timeout", "20s")
	if r.code != exitBad {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	assertTerminalSafe(t, "record stderr", r.stderr)
	for _, want := range []string{`boom \x1b[2J\x1b[1;1H all clear`, `name: \u202etxt.exe`, `server "bad" failed`} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	rj := guardian(t, dir, nil, "record", "mcp.json", "--timeout", "20s", "--json")
	assertTerminalSafe(t, "record --json", rj.stdout)
	var rep struct {
		Servers []serverReport `json:"servers"`
	}
	if err := json.Unmarshal([]byte(rj.stdout), &rep); err != nil || len(rep.Servers) != 1 {
		t.Fatalf("--json: %v\n%s", err, rj.stdout)
	}
	if got := strings.Join(rep.Servers[0].Stderr, "\n"); !strings.Contains(got, "\x1b[2J") || !strings.Contains(got, "\u202etxt.exe") {
		t.Errorf("--json changed the lines' values: %q", got)
	}
}

// A tool whose name holds a bidi override or a zero-width character was
// recorded as if ordinary: record refuses it (name-character, exit 1),
// without printing the name raw.
func TestToolNamesWithInvisibleCharactersRefused(t *testing.T) {
	dir := workspace(t)
	for i, name := range []string{"read\u202efdp.exe", "delete\u200bfiles", "run\x1b[8m"} {
		cfg := toolsConfig(t, dir, fmt.Sprintf("tool%d.json", i), "docs", name)
		for _, args := range [][]string{{"record", cfg, "-o", "out.json"}, {"record", cfg, "--json"}} {
			r := guardian(t, dir, nil, args...)
			assertTerminalSafe(t, strings.Join(args, " "), r.stdout+r.stderr)
			if r.code != exitRefused || !strings.Contains(r.stdout+r.stderr, "name-character") || !strings.Contains(r.stdout+r.stderr, "/tools/0/name") {
				t.Errorf("tool name #%d %q: exit %d, want 1 with name-character at /tools/0/name:\n%s%s", i, args, r.code, r.stdout, r.stderr)
			}
		}
	}
}

// FuzzEscape: whatever the text, escape leaves nothing a terminal acts on
// and is idempotent, and jsonSafe keeps a JSON report the same value with
// no such character raw.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"plain", "a\nb", "\x1b[2J\r", "x\u202ey\u200b", "\xff\xfe", "\U000e0001tag", "C:\\path"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := escape(s)
		for _, r := range e {
			if !unicode.IsPrint(r) {
				t.Fatalf("escape(%q) holds %U", s, r)
			}
		}
		if escape(e) != e {
			t.Fatalf("escape is not idempotent on %q", s)
		}
		data, err := json.Marshal(map[string]string{"v": s})
		if err != nil {
			t.Fatal(err)
		}
		safe := jsonSafe(data)
		var a, b map[string]string
		if json.Unmarshal(data, &a) != nil || json.Unmarshal(safe, &b) != nil || a["v"] != b["v"] {
			t.Fatalf("jsonSafe changed the value of %q: %s", s, safe)
		}
		for _, r := range string(safe) {
			if !unicode.IsPrint(r) {
				t.Fatalf("jsonSafe left %U raw", r)
			}
		}
	})
}
