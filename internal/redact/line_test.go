package redact

import (
	"crypto/rand"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/secrets"
)

// fakeBase64 is a generated base64 key of n random bytes, padded: one '='
// for n%3 == 2, two for n%3 == 1; one the secrets checks refuse as a word
// (a few random keys look too little random to them).
func fakeBase64(t testing.TB, n int, enc *base64.Encoding) string {
	t.Helper()
	for range 100 {
		b := make([]byte, n)
		if _, err := rand.Read(b); err != nil {
			t.Fatal(err)
		}
		if k := enc.EncodeToString(b); secrets.CheckArgs("", []string{k}) != nil {
			return k
		}
	}
	t.Fatal("no generated key is refused by the secrets checks")
	return ""
}

// noPiece fails if s holds, in any case, a piece of n bytes of secret,
// without printing either.
func noPiece(t *testing.T, s, secret string, n int) {
	t.Helper()
	ls, lsec := strings.ToLower(s), strings.ToLower(secret)
	for i := 0; i+n <= len(lsec); i++ {
		if strings.Contains(ls, lsec[i:i+n]) {
			t.Errorf("a %d-byte piece of the secret, at byte %d, is in the %d-byte line", n, i, len(s))
			return
		}
	}
}

// TestCleanNeverSplitsASecret: a refused word is cut at '=' to keep what
// was set only when what is before the '=' is a name that holds nothing
// secret, and what is after is a value: a base64 key ending in '=' or '=='
// (issue 14, leak 4) and a token before an '=' go whole. Clean knows none
// of these secrets: the secrets checks find them.
func TestCleanNeverSplitsASecret(t *testing.T) {
	r := New()
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		for _, n := range []int{32, 31, 64} { // '=', '==', '=' again, a longer key
			key := fakeBase64(t, n, enc)
			if !strings.HasSuffix(key, "=") {
				t.Fatalf("the %d-byte key has no padding", n)
			}
			for _, line := range []string{
				"shared key " + key,
				"shared key " + key + " rejected",
				"error: " + key + ", retrying",
			} {
				got := r.Clean(line)
				noPiece(t, got, strings.TrimRight(key, "="), 6)
				if !strings.Contains(got, LineMark) {
					t.Errorf("the key is not redacted in place: %d bytes left", len(got))
				}
			}
			for name, line := range map[string]string{
				"api_key":      "set api_key=" + key + " from env",
				"--shared-key": "flags --shared-key=" + key,
			} {
				got := r.Clean(line)
				noPiece(t, got, strings.TrimRight(key, "="), 6)
				if !strings.Contains(got, name+"="+LineMark) {
					t.Errorf("the name %s of an assignment is not kept: %q", name, got)
				}
			}
		}
	}
	// A token before an '=' is no name.
	tok := fakeToken("t")
	if got := r.Clean("got " + tok + "=1 back"); strings.Contains(got, tok[:12]) {
		t.Errorf("a token before '=' is kept as a name")
	}
}

// TestAssignedName: which words' names are printed.
func TestAssignedName(t *testing.T) {
	r := New()
	r.LearnGiven("given-value-1234567")
	for word, want := range map[string]string{
		"api_key=x1":                   "api_key",
		"--token=abc":                  "--token",
		"DATABASE_URL=postgres://":     "DATABASE_URL",
		"Zs9fT2KqLw8XyP4mN6ZE7Q=":      "",
		"Zs9fT2KqLw8XyP4mN6ZE7Q==":     "",
		"a/b=c":                        "",
		"1abc=x":                       "",
		"given-value-1234567=x":        "",
		"=x":                           "",
		"key=":                         "",
		strings.Repeat("k", 65) + "=v": "",
	} {
		got, ok := r.assignedName(word)
		if ok != (want != "") || got != want {
			t.Errorf("assignedName(%.30q) = %q, %v; want %q", word, got, ok, want)
		}
	}
}
