package main

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/secrets"
)

// The real guardian binary against servers that print what they should
// not (issue 14, leaks 2, 4 and 5): what it prints, in text and --json,
// and what it records.

// refusedBase64 is a generated base64 key of n random bytes (padded with
// '=' or '==') that the secrets checks refuse as a word: a key guardian was
// never given, which only those checks can find.
func refusedBase64(t *testing.T, n int) string {
	t.Helper()
	for range 100 {
		b := make([]byte, n)
		if _, err := rand.Read(b); err != nil {
			t.Fatal(err)
		}
		if k := base64.StdEncoding.EncodeToString(b); secrets.CheckArgs("", []string{k}) != nil {
			return k
		}
	}
	t.Fatal("no generated key is refused by the secrets checks")
	return ""
}

// shortPW is a generated password of n bytes (n <= 10).
func shortPW(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return ("Q7" + hex.EncodeToString(b))[:n]
}

// runServer runs guardian record, in text and in --json, on a config whose
// one stdio server "leaky" is the shell script script, given env (config
// values, ${env:...} references allowed) with extraEnv in guardian's
// environment, and returns both runs' output, the --json report's servers
// (reason and stderr) appended, and the exit status of the text run.
func runServer(t *testing.T, script string, env map[string]string, extraEnv ...string) (text, js string, code int) {
	t.Helper()
	r, js := recordLeaky(t, script, env, extraEnv...)
	return r.stdout + r.stderr, js, r.code
}

// recordLeaky is runServer's two runs: the text run's result, and the
// --json run's output with its report's servers (reason and stderr).
func recordLeaky(t *testing.T, script string, env map[string]string, extraEnv ...string) (result, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "server.sh"), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := map[string]any{"command": "./server.sh"}
	if env != nil {
		srv["env"] = env
	}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"leaky": srv}})
	if err := os.WriteFile(filepath.Join(dir, "mcp.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	r := guardian(t, dir, extraEnv, "record", "mcp.json", "--timeout", "20s")
	rj := guardian(t, dir, extraEnv, "record", "mcp.json", "--timeout", "20s", "--json")
	var rep struct {
		Servers []struct {
			Reason string   `json:"reason"`
			Stderr []string `json:"stderr"`
		} `json:"servers"`
	}
	if err := json.Unmarshal([]byte(rj.stdout), &rep); err != nil || len(rep.Servers) != 1 {
		t.Fatalf("--json: exit %d, %d servers, %v", rj.code, len(rep.Servers), err)
	}
	return r, rj.stdout + rj.stderr + "\n" + rep.Servers[0].Reason + "\n" + strings.Join(rep.Servers[0].Stderr, "\n")
}

// answerErrors is a shell stdio server that answers every request with a
// JSON-RPC error whose message is msg (no quote or backslash in it).
func answerErrors(msg string) string {
	return `while IFS= read -r line; do
  id=$(printf '%s\n' "$line" | sed -n 's/.*"id":\([0-9][0-9]*\).*/\1/p')
  [ -n "$id" ] && printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32000,"message":"` + msg + `"}}\n' "$id"
done
`
}

// TestBase64KeyIsNotSplit: a server prints a base64 key it was never
// given, ending in '=' or '==', on its stderr, or in the message of a
// JSON-RPC error: guardian prints "shared key <redacted>", in text and
// --json, and no piece of the key (issue 14, leak 4). Before, the key was
// read as NAME=value and printed up to its '='.
func TestBase64KeyIsNotSplit(t *testing.T) {
	for _, n := range []int{32, 31} {
		key := refusedBase64(t, n)
		body := strings.TrimRight(key, "=")
		for name, script := range map[string]string{
			"stderr":   "printf '%s\\n' 'shared key " + key + "' >&2\nexit 3\n",
			"json-rpc": answerErrors("shared key " + key),
		} {
			t.Run(name+"/"+strings.Repeat("=", len(key)-len(body)), func(t *testing.T) {
				text, js, code := runServer(t, script, nil)
				if code != exitBad {
					t.Fatalf("exit %d, want %d", code, exitBad)
				}
				for _, out := range []string{text, js} {
					assertNoPiece(t, out, body, 8)
					if !strings.Contains(out, "shared key <redacted>") {
						t.Errorf("the line did not come through, redacted (%d bytes of output)", len(out))
					}
				}
			})
		}
	}
}

// TestShortDSNPasswordOnStderr: a server given a DSN whose password is
// short (10 bytes, 5) prints the password alone, failing to log in:
// guardian prints the line with the password redacted, in text and --json
// (issue 14, leak 5). Before, a given value was found whole or in 12-byte
// runs, so a password shorter than 12 bytes printed alone was kept.
func TestShortDSNPasswordOnStderr(t *testing.T) {
	for _, n := range []int{10, 5} {
		pw := shortPW(t, n)
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			script := "printf '%s\\n' \"password authentication failed for user app with ${DATABASE_URL#*app:}\" | sed 's/@db.*//' >&2\nexit 3\n"
			text, js, code := runServer(t, script, map[string]string{"DATABASE_URL": "${env:DBURL}"}, "DBURL=postgres://app:"+pw+"@db/app")
			if code != exitBad {
				t.Fatalf("exit %d, want %d", code, exitBad)
			}
			for _, out := range []string{text, js} {
				assertNoSecret(t, out, pw)
				if !strings.Contains(out, "password authentication failed for user app with <redacted>") {
					t.Errorf("the line did not come through, redacted (%d bytes of output)", len(out))
				}
			}
		})
	}
}

// TestEchoedDSNIsNotRecorded: the toolserver serves a tool whose
// description and schema default quote the DATABASE_URL it is given;
// guardian record writes no document, reports the echoed credential, and
// prints the password nowhere (issue 14, leak 2). Before, DATABASE_URL
// was no credential (its name says nothing, and a URL is not random), and
// the password was recorded.
func TestEchoedDSNIsNotRecorded(t *testing.T) {
	dir := workspace(t)
	pw := shortPW(t, 10)
	dsn := "mysql://root:" + pw + "@db/app"
	tools, _ := json.Marshal([]map[string]any{
		{"name": "query", "description": "Runs SQL on " + dsn + ".",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"dsn": map[string]any{"type": "string", "default": dsn}}}},
		{"name": "fine", "description": "Says nothing of its configuration."},
	})
	if err := os.WriteFile(filepath.Join(dir, "db-tools.json"), tools, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := `{"mcpServers": {"db": {"command": "./toolserver", "args": ["-tools", "db-tools.json"], "env": {"DB_URL": "${env:GUARDIAN_DSN}"}}}}`
	if err := os.WriteFile(filepath.Join(dir, "db.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"GUARDIAN_DSN=" + dsn}
	r := guardian(t, dir, env, "record", "db.json", "-o", "agent.json", "--timeout", "20s")
	rj := guardian(t, dir, env, "record", "db.json", "--timeout", "20s", "--json")
	for _, out := range []string{r.stdout + r.stderr, rj.stdout + rj.stderr} {
		assertNoSecret(t, out, pw)
		if !strings.Contains(out, "credential") || !strings.Contains(out, "query") {
			t.Errorf("the echoed credential is not reported (%d bytes of output)", len(out))
		}
	}
	if r.code != exitBad {
		t.Errorf("exit %d, want %d", r.code, exitBad)
	}
	if _, err := os.Stat(filepath.Join(dir, "agent.json")); !os.IsNotExist(err) {
		t.Errorf("a document was written (%v)", err)
	}
}

// TestCutWordIsDropped: a server writes a line longer than guardian keeps
// (rawLineMax) whose cut falls inside a token it was never given, after a
// value it was given repeated (which cleaning shrinks to one mark, so the
// end of the line is shown): the token's first bytes are not printed
// (issue 14, leak 4's class: a split that exposes part of a secret). A
// token cut short is no longer one the checks know.
func TestCutWordIsDropped(t *testing.T) {
	given := "given-" + shortPW(t, 10) + strings.Repeat("g", 16) // 32 bytes
	tok := "ghp_" + hex.EncodeToString([]byte(shortPW(t, 10)+shortPW(t, 8)))
	const kept = 20 // bytes of the token before the cut
	if secrets.CheckArgs("", []string{tok[:kept]}) != nil {
		t.Fatal("the checks refuse the token's first bytes: the test proves nothing")
	}
	n := (rawLineMax - kept - len(" tok ")) / len(given)
	pad := strings.Repeat("y", rawLineMax-kept-len(" tok ")-n*len(given))
	script := "printf '%s\\n' \"" + strings.Repeat("${G}", n) + pad + " tok " + tok + "\" >&2\nexit 3\n"
	text, js, code := runServer(t, script, map[string]string{"G": "${env:GIVEN}"}, "GIVEN="+given)
	if code != exitBad {
		t.Fatalf("exit %d, want %d", code, exitBad)
	}
	for _, out := range []string{text, js} {
		assertNoPiece(t, out, tok, 6)
		if !strings.Contains(out, "<redacted>"+pad+" tok ...") {
			t.Errorf("the cut line is not the line without its cut word (%d bytes of output)", len(out))
		}
	}
}
