package redact

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
)

// A connection value's credential as a server decodes it (issue 19): a
// URL's password is given percent-encoded (rediss://user:p%2Fw@host),
// and the server quotes it decoded, as the user:password pair it parsed,
// as the Basic header it built from the pair, or query-encoded again.
// Passwords and names are generated for every run, of the characters a
// URL's userinfo must escape.

// echoForms are what a server may quote of a URL's userinfo it was
// given, from the decoded user and password.
var echoForms = []struct {
	name string
	of   func(user, pw string) string
}{
	{"decoded password", func(_, pw string) string { return pw }},
	{"decoded user:password", func(user, pw string) string { return user + ":" + pw }},
	{"Basic of the decoded pair", func(user, pw string) string {
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pw))
	}},
	{"unpadded base64 of the pair", func(user, pw string) string {
		return base64.RawURLEncoding.EncodeToString([]byte(user + ":" + pw))
	}},
	{"query-encoded password", func(_, pw string) string { return "?password=" + url.QueryEscape(pw) }},
	{"path-encoded password", func(_, pw string) string { return "/" + url.PathEscape(pw) + "/" }},
}

// genUserinfo returns a user, a password of n bytes with characters a
// userinfo escapes, and a connection URL holding them escaped.
func genUserinfo(r *rand.Rand, n int) (user, pw, raw string) {
	const plain = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	const reserved = "/@:%+&=?# !$,;"
	pick := func(set string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = set[r.IntN(len(set))]
		}
		return string(b)
	}
	user = pick("abcdefghijklmnopqrstuvwxyz", 3+r.IntN(6))
	for {
		b := []byte(pick(plain, n))
		for k := 0; k < 1+n/4; k++ {
			b[r.IntN(n)] = reserved[r.IntN(len(reserved))]
		}
		pw = string(b)
		if url.PathEscape(pw) != pw && strings.TrimSpace(pw) == pw {
			break
		}
	}
	scheme := []string{"postgres", "rediss", "mysql", "amqps", "mongodb+srv", "https"}[r.IntN(6)]
	host := pick("abcdefghijklmnopqrstuvwxyz", 6) + ".internal"
	return user, pw, scheme + "://" + url.UserPassword(user, pw).String() + "@" + host + ":5432/app"
}

// TestDecodedEchoes: every form of every generated password is an echo
// in a tool's definition, and is gone from an error and a stderr line,
// when the connection was given the URL in env under a plain name, as a
// header, as the connection's URL, or as a resolved reference.
func TestDecodedEchoes(t *testing.T) {
	seed := rand.Uint64()
	if s, err := strconv.ParseUint(os.Getenv("GUARDIAN_FRESH_SEED"), 10, 64); err == nil {
		seed = s
	}
	t.Logf("seed %d (GUARDIAN_FRESH_SEED=%d reruns it)", seed, seed)
	r := rand.New(rand.NewPCG(seed, seed))
	learners := []struct {
		name  string
		learn func(red *Redactor, raw string)
	}{
		{"env", func(red *Redactor, raw string) { red.LearnEnv("DB_URL", raw) }},
		{"header", func(red *Redactor, raw string) { red.LearnHeader("X-Upstream", raw) }},
		{"url", func(red *Redactor, raw string) { red.LearnURL(raw) }},
		{"given", func(red *Redactor, raw string) { red.LearnGiven(raw) }},
	}
	for _, l := range learners {
		for _, f := range echoForms {
			caught, total := 0, 0
			var missed []string
			for range 60 {
				user, pw, raw := genUserinfo(r, 4+r.IntN(20))
				red := New()
				l.learn(red, raw)
				echo := f.of(user, pw)
				tool, _ := json.Marshal(map[string]any{"name": "q", "description": "Connects with " + echo + " to the database."})
				msg := "authentication failed: " + echo + " rejected"
				total++
				ok := red.EchoedIn(tool) && red.HoldsCredential(msg)
				for _, out := range []string{red.Redact(msg), red.Clean(msg)} {
					if strings.Contains(out, pw) || strings.Contains(out, echo) {
						ok = false
					}
				}
				if ok {
					caught++
				} else if len(missed) < 3 {
					missed = append(missed, fmt.Sprintf("%d-byte password", len(pw)))
				}
			}
			t.Logf("%-8s %-30s caught %3d of %d", l.name, f.name, caught, total)
			if caught != total {
				t.Errorf("%s, %s: %d of %d missed (%s)", l.name, f.name, total-caught, total, strings.Join(missed, ", "))
			}
		}
	}
}

// TestDecodedFormsStayQuiet: learning the decoded forms does not make
// text that holds none of them an echo: a tool naming the host, the
// user, the scheme or the database is not one.
func TestDecodedFormsStayQuiet(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 19))
	for range 50 {
		user, _, raw := genUserinfo(r, 10)
		red := New()
		red.LearnEnv("DB_URL", raw)
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		tool, _ := json.Marshal(map[string]any{"name": "q", "description": "Queries " + u.Scheme + "://" + user + "@" + u.Host + u.Path + " as " + user + "."})
		if red.EchoedIn(tool) {
			t.Errorf("a tool naming the database and the user (%d bytes) is taken for an echo", len(user))
		}
	}
}
