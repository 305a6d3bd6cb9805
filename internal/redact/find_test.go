package redact

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
)

// percentAll percent-encodes every byte of s, as no Go escaper does.
func percentAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return b.String()
}

// TestShortCredentials: a credential part secrets finds is redacted
// whatever its length, as a whole word (issue 14, leak 5): an 11-byte DSN
// password (too short for a 12-byte run of the DSN) and a 5-byte one
// (shorter than a value is ever found in part); a short value that is no
// credential is not, and a short credential inside another word is not.
func TestShortCredentials(t *testing.T) {
	for _, pw := range []string{fakePW(t, 5)[:11], fakePW(t, 2)[:5], "x"} {
		r := New()
		r.LearnEnv("DATABASE_URL", "postgres://app:"+pw+"@db/app")
		r.LearnEnv("PORT", "5432")
		for _, line := range []string{
			"password authentication failed for user app with " + pw,
			"password authentication failed for user app with " + strings.ToUpper(pw) + ".",
			"dsn app:" + pw + "@db",
		} {
			if got := r.Redact(line); strings.Contains(got, pw) || !strings.Contains(got, Mark) {
				t.Errorf("a %d-byte password is not redacted: %d bytes left", len(pw), len(got))
			}
			if got := r.Clean(line); strings.Contains(got, pw) || !strings.Contains(got, LineMark) {
				t.Errorf("a %d-byte password is not cleaned: %d bytes left", len(pw), len(got))
			}
			if !r.HoldsCredential(line) {
				t.Errorf("a %d-byte password is not found", len(pw))
			}
		}
		if got := r.Redact("listening on 5432 as app"); got != "listening on 5432 as app" {
			t.Errorf("a short plain value or the user is redacted: %q", got)
		}
		if inside := "zz" + pw + "zz"; len(pw) < minSecret && r.HoldsCredential(inside) {
			t.Errorf("a %d-byte password is found inside another word", len(pw))
		}
	}
}

// TestEncodedCopies: a credential copied into a base64 run (either
// alphabet, with or without padding, glued to other text, or a Basic
// pair) or a percent-encoded run (every byte escaped, as no Go escaper
// writes it) is found and the run redacted (issue 14, leak 5).
func TestEncodedCopies(t *testing.T) {
	key := "k" + fakePW(t, 10)
	r := New()
	r.LearnHeader("X-Api-Key", key)
	if !r.HoldsCredential(key) {
		t.Fatal("the header's value is no credential: the test proves nothing")
	}
	basic := base64.StdEncoding.EncodeToString([]byte("svc:" + key))
	for name, text := range map[string]string{
		"Basic pair":           "send Authorization: Basic " + basic + " to the API",
		"raw url base64":       "key (base64): " + base64.RawURLEncoding.EncodeToString([]byte(key)) + ".",
		"glued base64":         "token=" + base64.StdEncoding.EncodeToString([]byte(`{"k":"`+key+`"}`)),
		"percent-encoded all":  "see https://x.example/?q=" + percentAll(key) + "&x=1",
		"percent-encoded JSON": "?h=" + strings.ReplaceAll(percentAll(`{"X-Api-Key":"`+key+`"}`), "%20", "+"),
	} {
		if strings.Contains(strings.ToLower(text), strings.ToLower(key[:8])) {
			t.Fatalf("%s: the text holds the key as it is: the test proves nothing", name)
		}
		if !r.HoldsCredential(text) || !r.EchoedIn([]byte(`{"description":`+mustJSON(t, text)+`}`)) {
			t.Errorf("%s: the encoded copy is not found", name)
		}
		got := r.Redact(text)
		if r.HoldsCredential(got) || !strings.Contains(got, Mark) {
			t.Errorf("%s: the encoded copy is not redacted: %q", name, got)
		}
		if got := r.Clean(text); r.HoldsCredential(got) {
			t.Errorf("%s: the encoded copy is not cleaned", name)
		}
	}
	// Text that decodes to nothing learnt is left alone.
	for _, text := range []string{"Deploys the application to production", "see https://x.example/a%20b?q=c%2Fd", "id dGhpcyBpcyBmaW5l"} {
		if got := r.Redact(text); got != text {
			t.Errorf("Redact(%q) = %q", text, got)
		}
	}
}

// FuzzEncodedCopies: for any credential of 6 bytes or more and any text
// around its base64 (standard or raw URL alphabet) or its every byte
// percent-encoded, as a word of its own, the copy is found, Redact leaves
// none of it, and runs reports only bounds inside the text.
func FuzzEncodedCopies(f *testing.F) {
	f.Add("hunter2hunter2", "key ", " end", false)
	f.Add("a:b/c+d", "", "", true)
	f.Add("\x00\xff\xfe\x01xx", "x=", "==", false)
	f.Fuzz(func(t *testing.T, secret, before, after string, percent bool) {
		if len(secret) < minSecret {
			return
		}
		copies := []string{base64.StdEncoding.EncodeToString([]byte(secret)), base64.RawURLEncoding.EncodeToString([]byte(secret))}
		if percent {
			copies = []string{percentAll(secret)}
		}
		r := New()
		r.Learn(secret)
		for _, c := range copies {
			text := before + " " + c + " " + after
			runs(text, func(i, j int, _ string) bool {
				if i < 0 || j > len(text) || i > j {
					t.Fatalf("run [%d,%d) outside %d bytes", i, j, len(text))
				}
				return true
			})
			if !r.HoldsCredential(text) {
				t.Fatalf("the copy %q of %q is not found in %q", c, secret, text)
			}
			if got := r.Redact(text); strings.Contains(got, c) || strings.Contains(got, secret) {
				t.Fatalf("Redact(%q) = %q keeps the copy", text, got)
			}
		}
	})
}
