package redact

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// Test credentials are built here, never written literally.

// fakeSecret is a generated credential, new for every test.
func fakeSecret(t testing.TB, prefix string) string {
	t.Helper()
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return prefix + hex.EncodeToString(b)
}

// fakeToken is a GitHub-shaped token of one repeated letter.
func fakeToken(letter string) string {
	return "ghp_" + strings.Repeat(letter, 36)
}

// fakePassword is a generated credential of n bytes with the characters
// that encodings change ('&', '/', '+', upper case).
func fakePassword(seed string, n int) string {
	const chars = "Ab&9/Zq+Kx7Wm_Pr3Tv"
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteByte(chars[(i*7+int(seed[i%len(seed)]))%len(chars)])
	}
	return b.String()
}

func mustJSON(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRedactorLearnsConcurrently: values learnt while text is being
// redacted are safe to add (run with -race), and redacted once learnt;
// an auth scheme alone is never taken for a secret.
func TestRedactorLearnsConcurrently(t *testing.T) {
	r := New()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 100 {
			r.LearnHeader("Authorization", fmt.Sprintf("Bearer token-%06d", i))
		}
	}()
	for range 100 {
		_ = r.Redact("Bearer token-000050 application/json")
		_ = r.Clean("Bearer token-000050 application/json")
	}
	<-done
	for in, want := range map[string]string{
		"got Bearer token-000050 as application/json": "got [redacted] as application/json",
		// The credential secrets finds in the header's value, not the
		// value's scheme: "Bearer" stays.
		"Bearer other, token-000099 alone": "Bearer other, [redacted] alone",
	} {
		if got := r.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNilAndZeroRedactNothing: a nil or zero Redactor is safe and keeps
// text as it is.
func TestNilAndZeroRedactNothing(t *testing.T) {
	for _, r := range []*Redactor{nil, {}} {
		if r == nil {
			r.Learn("secret-value") // a nil Redactor learns nothing, and says so by not panicking
		}
		if got := r.Redact("a b"); got != "a b" {
			t.Errorf("Redact = %q", got)
		}
		if got := r.Clean("a b"); got != "a b" {
			t.Errorf("Clean = %q", got)
		}
		if r.HoldsCredential("a") || r.EchoedIn([]byte(`{"a":"b"}`)) {
			t.Error("an empty redactor holds a credential")
		}
		if got := r.Describe(errors.New("e")); got != "e" {
			t.Errorf("Describe = %q", got)
		}
		if got := r.TrimCut("abc"); got != "abc" {
			t.Errorf("TrimCut = %q", got)
		}
	}
}

// TestRedactIsLinear: redacting a megabyte of text that matches the
// redactor's secrets and windows over and over costs about 16 times what
// 64 KiB does, not 256 times (quadratic).
func TestRedactIsLinear(t *testing.T) {
	r := New()
	for i := range 20 {
		r.Learn(strings.Repeat("a", 16+i), fakeSecret(t, "k"))
	}
	timeOf := func(n int) time.Duration {
		text := strings.Repeat("a", n)
		best := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			if got := r.Redact(text); got != "[redacted]" {
				t.Fatalf("redact of %d bytes = %d bytes, want [redacted]", n, len(got))
			}
			best = min(best, time.Since(start))
		}
		return best
	}
	small, large := timeOf(64<<10), timeOf(1<<20)
	if large > 64*small+50*time.Millisecond {
		t.Errorf("redacting 1 MiB took %v, 64 KiB %v: not linear", large, small)
	}
}

// TestCleanIsLinear: a megabyte of text, every position a near miss of a
// window, is cleaned in time linear in its length.
func TestCleanIsLinear(t *testing.T) {
	secret := fakePassword("lin", 64)
	r := New()
	r.LearnGiven(secret)
	s := strings.Repeat(secret[:11]+"~", (1<<20)/12)
	start := time.Now()
	_, _ = r.load().replace(s, LineMark)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a megabyte took %v", d)
	}
}

// TestEchoNeedsACredential: every configured value is redacted from error
// text, but only a credential (secrets refuses it under its name, or
// alone) in a tool's definition makes the tool an echo: NODE_ENV=production
// must not cost a tool that says "production".
func TestEchoNeedsACredential(t *testing.T) {
	key := "ghp_" + strings.Repeat("Ab1", 12)
	r := New()
	for k, v := range map[string]string{"NODE_ENV": "production", "ROOT_DIR": "/srv/docs/archive-2024", "API_KEY": "hunter2hunter2", "SEED": key} {
		r.LearnEnv(k, v)
	}
	for k, v := range map[string]string{"X-Region": "eu-west-1", "X-Custom": "plainvalue"} {
		r.LearnHeader(k, v)
	}
	for _, clean := range []string{
		`{"name":"deploy","description":"Deploys to production in eu-west-1, from /srv/docs/archive-2024."}`,
		`{"name":"plainvalue"}`,
	} {
		if r.EchoedIn([]byte(clean)) {
			t.Errorf("EchoedIn(%s) = true, want false: no credential in it", clean)
		}
	}
	for _, dirty := range []string{
		`{"name":"t","description":"uses hunter2hunter2"}`,
		`{"name":"t","inputSchema":{"default":"` + key + `"}}`,
	} {
		if !r.EchoedIn([]byte(dirty)) {
			t.Error("EchoedIn missed a credential")
		}
	}
	if got := r.Redact("running in production"); got != "running in [redacted]" {
		t.Errorf("error text keeps a configured value: %q", got)
	}
}

// FuzzRedact: whatever the text, Describe never returns a header's value
// (of 6 bytes or more) or the connection's URL.
func FuzzRedact(f *testing.F) {
	f.Add("ghp_aaaaaaaaaaaaaaaa", "auth failed for ghp_aaaaaaaaaaaaaaaa at", "https://h/mcp?k=v")
	f.Add("[redacted]", "x[redacted]y", "")
	f.Add("a+b c/d", "Post \"https://h/?t=a%2Bb+c%2Fd\": refused", "https://h/?t=a%2Bb+c%2Fd")
	f.Fuzz(func(t *testing.T, secret, text, rawURL string) {
		if len(secret) < minSecret {
			return
		}
		r := New()
		r.LearnHeader("X-Key", secret)
		r.LearnURL(rawURL)
		got := r.Describe(errors.New(text))
		if strings.Contains(got, secret) {
			t.Fatalf("Describe(%q) = %q holds the secret %q", text, got, secret)
		}
		if len(rawURL) >= minSecret && strings.Contains(got, rawURL) {
			t.Fatalf("Describe(%q) = %q holds the URL", text, got)
		}
	})
}

func TestClean(t *testing.T) {
	token := fakeToken("c")
	given := "given-" + strings.Repeat("9", 20)
	r := New()
	r.LearnGiven(given, "short", "", given)
	tests := []struct{ in, want string }{
		{"listening on stdio", "listening on stdio"},
		{"bad key " + given + " rejected", "bad key <redacted> rejected"},
		{"token " + token + " is not valid", "token <redacted> is not valid"},
		{"dsn postgres://app:s3cr3t-passw0rd@db/x unreachable", "dsn <redacted> unreachable"},
		{"flags: --api-key sk12345678901234567890abcdef", "flags: --api-key <redacted>"},
		{"Authorization: Bearer abcdefghijklmnop1234567890", WithheldLine},
		{"set api_key=Zq8x7Yv6Wu5Ts4Rq3Po2 from env", "set api_key=<redacted> from env"},
		{"bad DATABASE_URL=postgres://u:pw0rd-s3cret@h/db", "bad DATABASE_URL=<redacted>"},
		{"short values like short stay", "short values like short stay"},
		{"  spaced   out  ", "  spaced   out  "},
	}
	for _, tt := range tests {
		if got := r.Clean(tt.in); got != tt.want {
			t.Errorf("Clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzRedactorClean: whatever a server writes around a value it was given
// (as given, upper-cased or percent-encoded), or around a token standing
// as a word of its own, the cleaned line holds neither, and cleaning never
// panics. (A token glued to letters or digits, "xghp_...", is another
// word, which the token rules rightly do not match.)
func FuzzRedactorClean(f *testing.F) {
	for _, s := range []string{"error: %s", "%s", "key=%s", "Bearer %s", "--token %s x", "[%s]", "%s%s", "a\x00%s\n"} {
		f.Add(s, "env-value-123456")
	}
	token := fakeToken("f")
	f.Fuzz(func(t *testing.T, format, given string) {
		r := New()
		r.LearnGiven(given)
		for _, secret := range []string{given, strings.ToUpper(given), url.QueryEscape(given), token} {
			line := strings.ReplaceAll(format, "%s", secret)
			if secret == token && gluedToWord(format) {
				continue
			}
			got := r.Clean(line)
			known := secret == token || len(given) >= minSecret && len(secret) >= minSecret
			if known && strings.Contains(format, "%s") && strings.Contains(got, secret) {
				t.Fatalf("Clean(%q) = %q kept the secret", line, got)
			}
		}
	})
}

// gluedToWord reports whether a %s in format has a letter or digit
// right before or after it.
func gluedToWord(format string) bool {
	alnum := func(c byte) bool {
		return c < utf8.RuneSelf && (unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))) || c >= utf8.RuneSelf
	}
	for i := strings.Index(format, "%s"); i >= 0; {
		if i > 0 && alnum(format[i-1]) || i+2 < len(format) && alnum(format[i+2]) {
			return true
		}
		j := strings.Index(format[i+2:], "%s")
		if j < 0 {
			break
		}
		i += 2 + j
	}
	return false
}

// Each form of a value the redactor knows is found: escaped, in another
// case, in part. Short values are found whole in any case, not in part.
func TestCleanForms(t *testing.T) {
	secret := fakePassword("unit", 33)
	short := "Pin&" + strings.Repeat("Q", 6)
	r := New()
	r.LearnGiven(secret, short)
	for i, in := range []string{
		"x " + url.QueryEscape(secret) + " y",
		"x " + strings.ToLower(url.QueryEscape(secret)) + " y",
		"x " + url.PathEscape(secret) + " y",
		"x " + strings.Trim(mustJSON(t, secret), `"`) + " y",
		"x " + strings.ReplaceAll(strings.Trim(mustJSON(t, secret), `"`), "/", `\/`) + " y",
		"x " + strings.ToUpper(secret) + " y",
		"x " + secret[:12] + " y",
		"x " + secret[21:] + " y",
		"x " + strings.ToLower(short) + " y",
		"x " + url.QueryEscape(short) + " y",
	} {
		if got := r.Clean(in); got != "x <redacted> y" {
			t.Errorf("form #%d not redacted (%d bytes left)", i, len(got))
		}
	}
	if got := r.Clean("x " + secret[:11] + " y"); got != "x "+secret[:11]+" y" {
		t.Errorf("an 11-byte piece was changed")
	}
	if got := r.Clean("x " + short[:8] + " y"); got != "x "+short[:8]+" y" {
		t.Errorf("a piece of a short value was changed")
	}
}

// A line cut before it was cleaned loses any beginning of a value it ends
// with.
func TestTrimCut(t *testing.T) {
	given := "given-" + strings.Repeat("7", 20)
	r := New()
	r.LearnGiven(given)
	if s := r.TrimCut("ok x" + given[:5]); s != "ok x" {
		t.Errorf("TrimCut = %q", s)
	}
	if s := r.TrimCut("ok x"); s != "ok x" {
		t.Errorf("TrimCut = %q", s)
	}
}

func BenchmarkRedactorClean(b *testing.B) {
	r := New()
	r.LearnGiven("env-value-"+strings.Repeat("1", 20), "Bearer "+fakeToken("b"))
	line := "2026-01-02T03:04:05Z ERROR cannot connect to upstream https://api.example.com/v1: 401 unauthorized (retrying in 5s)"
	b.ReportAllocs()
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		_ = r.Clean(line)
	}
}

func BenchmarkRedact(b *testing.B) {
	r := New()
	r.LearnHeader("Authorization", "Bearer "+fakeToken("b"))
	r.LearnEnv("NODE_ENV", "production")
	line := "2026-01-02T03:04:05Z ERROR cannot connect to upstream https://api.example.com/v1: 401 unauthorized (retrying in 5s)"
	b.ReportAllocs()
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		_ = r.Redact(line)
	}
}

// benchTool is a typical tool definition: a kilobyte of prose and schema.
const benchTool = `{"name":"search_docs","title":"Search the docs","description":"Searches the documentation index for pages matching a query. Returns up to limit results, each with a title, a URL and a snippet. Use it before answering questions about configuration, deployment or the API; prefer exact product names. Results are ranked by relevance and recency.","inputSchema":{"type":"object","properties":{"query":{"type":"string","description":"What to look for, in plain words or with quotes for a phrase"},"limit":{"type":"integer","default":10,"minimum":1,"maximum":50},"section":{"type":"string","enum":["guides","reference","changelog","faq"],"examples":["guides"]}},"required":["query"]},"annotations":{"readOnlyHint":true,"openWorldHint":false}}`

// benchRedactor knows a typical connection's values: a token header, a
// DSN, a plain setting.
func benchRedactor() *Redactor {
	r := New()
	r.LearnHeader("Authorization", "Bearer "+fakeToken("b"))
	r.LearnEnv("DATABASE_URL", "postgres://app:Q7c0ffee12@db.internal:5432/app")
	r.LearnEnv("NODE_ENV", "production")
	return r
}

func BenchmarkEchoedIn(b *testing.B) {
	r := benchRedactor()
	raw := []byte(benchTool)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if r.EchoedIn(raw) {
			b.Fatal("echo")
		}
	}
}

// BenchmarkEchoedInBaseline is the plain alternative EchoedIn is reported
// against: strings.Contains of each credential, as given, in the raw JSON.
func BenchmarkEchoedInBaseline(b *testing.B) {
	creds := []string{fakeToken("b"), "Q7c0ffee12"}
	raw := benchTool
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range creds {
			if strings.Contains(raw, c) {
				b.Fatal("echo")
			}
		}
	}
}
