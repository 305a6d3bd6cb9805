package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// fakePassword is a generated credential of n bytes with the characters
// that encodings change ('&', '/', '+', upper case), built here so that no
// literal one is in the repository.
func fakePassword(seed string, n int) string {
	const chars = "Ab&9/Zq+Kx7Wm_Pr3Tv"
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteByte(chars[(i*7+int(seed[i%len(seed)]))%len(chars)])
	}
	return b.String()
}

// failWithStderr runs guardian record, in text and in --json, on a config
// whose one server is a shell script that writes stderrLines (shell words,
// "$MY_PASSWORD" expanded) to its stderr and exits 3; MY_PASSWORD is
// ${env:PW}, PW is secret. It returns both runs' stderr and the --json
// servers[].stderr and reason.
func failWithStderr(t *testing.T, secret string, stderrLines ...string) (text string, js string) {
	t.Helper()
	var script strings.Builder
	for _, l := range stderrLines {
		fmt.Fprintf(&script, "printf '%%s\\n' %s >&2\n", l)
	}
	script.WriteString("exit 3\n")
	r, js := recordLeaky(t, script.String(), map[string]string{"MY_PASSWORD": "${env:PW}"}, "PW="+secret)
	if r.code != exitBad || !strings.Contains(r.stderr, `server "leaky" failed`) {
		t.Fatalf("exit %d, want %d and a failed server; stderr has %d bytes", r.code, exitBad, len(r.stderr))
	}
	return r.stdout + r.stderr, js
}

// assertNoPiece fails if text holds any piece of secret of n bytes, in any
// ASCII case, without printing it.
func assertNoPiece(t *testing.T, text, secret string, n int) {
	t.Helper()
	low := strings.ToLower(text)
	for j := 0; j+n <= len(secret); j++ {
		if strings.Contains(low, strings.ToLower(secret[j:j+n])) {
			t.Fatalf("output holds a %d-byte piece of the secret, at byte %d", n, j)
		}
	}
}

// A line of the stderr tail is cleaned whole before it is cut to
// tailLineMax: a secret straddling the cut is gone, not kept in part.
func TestStderrTailCutAfterRedaction(t *testing.T) {
	secret := fakePassword("cut", 33)
	text, js := failWithStderr(t, secret, `"cfg `+strings.Repeat("x", 290)+` $MY_PASSWORD"`)
	for _, out := range []string{text, js} {
		assertNoPiece(t, out, secret, 4)
		if !strings.Contains(out, "cfg "+strings.Repeat("x", 290)+" ...") && !strings.Contains(out, "cfg "+strings.Repeat("x", 290)+" <redacted>") {
			t.Errorf("the cut line is not the cleaned line cut (%d bytes of output)", len(out))
		}
	}
}

// Forms of a secret a server may print, other than the secret itself,
// are redacted on stderr and in --json: percent-encoded, JSON-escaped,
// upper-cased, a prefix, halves on two lines.
func TestStderrTransformedSecrets(t *testing.T) {
	secret := fakePassword("forms", 33)
	if !strings.ContainsAny(secret, "&/") {
		t.Fatal("the generated secret has nothing an encoding changes")
	}
	jsonEsc := strings.ReplaceAll(strings.Trim(mustJSON(t, secret), `"`), "/", `\/`)
	forms := []struct{ name, before, printed, after string }{
		{"query-escaped", "bad value ", url.QueryEscape(secret), " rejected"},
		{"path-escaped", "bad value ", url.PathEscape(secret), " rejected"},
		{"json-escaped", `{"error":"bad value `, jsonEsc, `"}`},
		{"upper-cased", "bad value ", strings.ToUpper(secret), " rejected"},
		{"prefix", "using key ", secret[:20], "..."},
		{"halves", "part one ", secret[:17], "\n" + "part two " + secret[17:]},
	}
	for _, f := range forms {
		t.Run(f.name, func(t *testing.T) {
			if strings.Contains(f.printed, secret) {
				t.Fatal("the form holds the secret itself")
			}
			// One shell word, quoted for sh.
			word := "'" + strings.ReplaceAll(f.before+f.printed+f.after, "'", `'\''`) + "'"
			text, js := failWithStderr(t, secret, word)
			for _, out := range []string{text, js} {
				assertNoPiece(t, out, secret, 12)
				assertNoPiece(t, out, f.printed, 12)
				if !strings.Contains(out, f.before+"<redacted>") || strings.Contains(out, withheldLine) {
					t.Errorf("not redacted in place (%d bytes of output)", len(out))
				}
				if strings.Contains(f.after, "part two") && !strings.Contains(out, "part two <redacted>") {
					t.Errorf("second half not redacted in place (%d bytes of output)", len(out))
				}
			}
		})
	}
}

func mustJSON(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestStderrDecodedUserinfo: a server given a URL whose password the URL
// writes percent-encoded prints it on stderr as its URL parser decodes
// it: the password, the user:password pair, the Basic header built from
// the pair, the password query-encoded again. guardian redacts each, in
// text and in --json (issue 19).
func TestStderrDecodedUserinfo(t *testing.T) {
	pw := "%@" + fakePassword("userinfo", 10) + ":/"
	raw := "rediss://" + url.UserPassword("svc", pw).String() + "@cache.internal:6380/0"
	if strings.Contains(raw, pw) {
		t.Fatal("the URL holds the password as it is: the test proves nothing")
	}
	for name, printed := range map[string]string{
		"password": pw,
		"pair":     "svc:" + pw,
		"basic":    "Basic " + base64.StdEncoding.EncodeToString([]byte("svc:"+pw)),
		"query":    "?password=" + url.QueryEscape(pw),
	} {
		t.Run(name, func(t *testing.T) {
			script := "printf '%s\\n' '" + strings.ReplaceAll("login failed with "+printed, "'", `'\''`) + "' >&2\nexit 3\n"
			r, js := recordLeaky(t, script, map[string]string{"CACHE_URL": "${env:URL}"}, "URL="+raw)
			if r.code != exitBad {
				t.Fatalf("exit %d, want %d", r.code, exitBad)
			}
			for _, out := range []string{r.stdout + r.stderr, js} {
				assertNoPiece(t, out, pw, len(pw))
				assertNoPiece(t, out, printed, len(printed))
				if !strings.Contains(out, "login failed with") {
					t.Errorf("the server's line is not printed (%d bytes of output)", len(out))
				}
			}
		})
	}
}
