package main

import (
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

func TestStderrTail(t *testing.T) {
	tail := newStderrTail([]string{"a", "a] b", "c"})
	write := func(s string) {
		t.Helper()
		if n, err := io.WriteString(tail, s); n != len(s) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	// As mcpservers writes: the prefix, then the line, in separate writes.
	write("[a] ")
	write("first\n")
	write("[a] b] longest name wins\n")
	write("[c] one\n[c] two\r\n")
	for i := range tailLines + 3 {
		write(fmt.Sprintf("[a] line %d\n", i))
	}
	write("[c] " + strings.Repeat("é", tailLineMax) + "\n")
	write("[c] no newline yet")
	red := newRedactor(nil)

	a := tail.Tail("a", red)
	if len(a) != tailLines || a[0] != "line 3" || a[len(a)-1] != fmt.Sprintf("line %d", tailLines+2) {
		t.Errorf("tail of a = %q", a)
	}
	if b := tail.Tail("a] b", red); !slices.Equal(b, []string{"longest name wins"}) {
		t.Errorf("tail of \"a] b\" = %q", b)
	}
	c := tail.Tail("c", red)
	if len(c) != 4 || c[0] != "one" || c[1] != "two" || c[3] != "no newline yet" {
		t.Errorf("tail of c = %q", c)
	}
	if long := c[2]; len(long) > tailLineMax+3 || !strings.HasSuffix(long, "é...") {
		t.Errorf("long line kept as %d bytes: %q", len(long), long)
	}
	if x := tail.Tail("unknown", red); len(x) != 0 {
		t.Errorf("tail of an unknown server = %q", x)
	}
}

func TestStderrTailBounded(t *testing.T) {
	tail := newStderrTail([]string{"s"})
	chunk := strings.Repeat("x", 1<<16)
	_, _ = io.WriteString(tail, "[s] ")
	for range 64 { // 4 MiB without a newline
		_, _ = io.WriteString(tail, chunk)
	}
	if len(tail.partial) > rawLineMax+64+1 {
		t.Errorf("an unfinished line grew to %d bytes", len(tail.partial))
	}
	got := tail.Tail("s", newRedactor(nil))
	if len(got) != 1 || len(got[0]) > tailLineMax+3 {
		t.Errorf("tail = %d lines, first %d bytes", len(got), len(got[0]))
	}
}

func TestRedactorClean(t *testing.T) {
	token := fakeToken("c")
	given := "given-" + strings.Repeat("9", 20)
	red := newRedactor([]string{given, "short", "", given})
	tests := []struct{ in, want string }{
		{"listening on stdio", "listening on stdio"},
		{"bad key " + given + " rejected", "bad key <redacted> rejected"},
		{"token " + token + " is not valid", "token <redacted> is not valid"},
		{"dsn postgres://app:s3cr3t-passw0rd@db/x unreachable", "dsn <redacted> unreachable"},
		{"flags: --api-key sk12345678901234567890abcdef", "flags: --api-key <redacted>"},
		{"Authorization: Bearer abcdefghijklmnop1234567890", withheldLine},
		{"set api_key=Zq8x7Yv6Wu5Ts4Rq3Po2 from env", "set api_key=<redacted> from env"},
		{"bad DATABASE_URL=postgres://u:pw0rd-s3cret@h/db", "bad DATABASE_URL=<redacted>"},
		{"short values like short stay", "short values like short stay"},
		{"  spaced   out  ", "  spaced   out  "},
	}
	for _, tt := range tests {
		if got := red.clean(tt.in); got != tt.want {
			t.Errorf("clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzRedactorClean: whatever a server writes around a value it was given
// (as given, upper-cased or percent-encoded), or around a token standing as a word of its own, the cleaned line holds
// neither, and cleaning never panics. (A token glued to letters or digits,
// "xghp_...", is another word, which the token rules rightly do not match.)
func FuzzRedactorClean(f *testing.F) {
	for _, s := range []string{"error: %s", "%s", "key=%s", "Bearer %s", "--token %s x", "[%s]", "%s%s", "a\x00%s\n"} {
		f.Add(s, "env-value-123456")
	}
	token := fakeToken("f")
	f.Fuzz(func(t *testing.T, format, given string) {
		red := newRedactor([]string{given})
		for _, secret := range []string{given, strings.ToUpper(given), url.QueryEscape(given), token} {
			line := strings.ReplaceAll(format, "%s", secret)
			if secret == token && gluedToWord(format) {
				continue
			}
			got := red.clean(line)
			known := secret == token || len(given) >= minSecret && len(secret) >= minSecret
			if known && strings.Contains(format, "%s") && strings.Contains(got, secret) {
				t.Fatalf("clean(%q) = %q kept the secret", line, got)
			}
		}
	})
}

// FuzzStderrTail: any bytes, in any chunks, keep the tail bounded, never
// panic, and never attribute a line to a server it did not name.
func FuzzStderrTail(f *testing.F) {
	f.Add([]byte("[a] x\n[b] y\n"), uint8(3))
	f.Add([]byte("[a] "+strings.Repeat("z", 500)), uint8(7))
	f.Fuzz(func(t *testing.T, data []byte, step uint8) {
		tail := newStderrTail([]string{"a", "b"})
		n := int(step%32) + 1
		for len(data) > 0 {
			k := min(n, len(data))
			_, _ = tail.Write(data[:k])
			data = data[k:]
		}
		red := newRedactor(nil)
		for _, s := range []string{"a", "b"} {
			lines := tail.Tail(s, red)
			if len(lines) > tailLines+1 {
				t.Fatalf("%d lines kept", len(lines))
			}
			for _, l := range lines {
				if len(l) > tailLineMax*3+3 {
					t.Fatalf("a line of %d bytes kept", len(l))
				}
			}
		}
		if len(tail.Tail("c", red)) != 0 {
			t.Fatal("lines for a server never named")
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

// A line cut at rawLineMax before it is cleaned loses any beginning of a
// value it ends with; a line cleaned then cut to tailLineMax never ends
// inside a mark.
func TestStderrTailCuts(t *testing.T) {
	given := "given-" + strings.Repeat("7", 20)
	red := newRedactor([]string{given})
	tail := newStderrTail([]string{"s"})
	_, _ = io.WriteString(tail, "[s] "+strings.Repeat(given+" ", (rawLineMax-5)/len(given+" "))+"x"+given[:5]+"\n")
	got := tail.Tail("s", red)
	if len(got) != 1 || strings.Contains(got[0], given[:5]) || strings.Contains(got[0], withheldLine) {
		t.Errorf("tail of a line cut raw = %q", got)
	}
	if s := red.trimCut("ok x" + given[:5]); s != "ok x" {
		t.Errorf("trimCut = %q", s)
	}
	for pad := tailLineMax - len(redactedMark); pad <= tailLineMax; pad++ {
		s := shorten(strings.Repeat("y", pad)+redactedMark+" tail", false)
		if m := strings.TrimSuffix(s, "..."); strings.HasSuffix(m, "<") || strings.Contains(m, "<") && !strings.HasSuffix(m, redactedMark) {
			t.Errorf("pad %d: cut inside the mark: %q", pad, s[len(s)-16:])
		}
	}
}

// Each form of a value the redactor knows is found, in an error reason as
// in a stderr line: escaped, in another case, in part. Short values are
// found whole in any case, not in part.
func TestRedactorForms(t *testing.T) {
	secret := fakePassword("unit", 33)
	short := "Pin&" + strings.Repeat("Q", 6)
	red := newRedactor([]string{secret, short})
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
		if got := red.clean(in); got != "x <redacted> y" {
			t.Errorf("form #%d not redacted (%d bytes left)", i, len(got))
		}
	}
	if got := red.clean("x " + secret[:11] + " y"); got != "x "+secret[:11]+" y" {
		t.Errorf("an 11-byte piece was changed")
	}
	if got := red.clean("x " + short[:8] + " y"); got != "x "+short[:8]+" y" {
		t.Errorf("a piece of a short value was changed")
	}
}

// A megabyte of text, every position a near miss of a window, is cleaned
// in time linear in its length.
func TestRedactorLinear(t *testing.T) {
	secret := fakePassword("lin", 64)
	red := newRedactor([]string{secret})
	s := strings.Repeat(secret[:11]+"~", (1<<20)/12)
	start := time.Now()
	_ = red.spans(s)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a megabyte took %v", d)
	}
}
