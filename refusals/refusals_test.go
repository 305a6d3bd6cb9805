package refusals

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestKindsMatchTheirFamily(t *testing.T) {
	members := []error{
		ErrSessionTool, ErrArgsNotStrings, ErrWebSocket,
		ErrUnreadableSource, ErrStaleSource, ErrOpaqueCode, ErrHiddenTool, ErrForeignTool,
	}
	families := []error{ErrContainsSecret, ErrInvalid, ErrCannotRecord, ErrUndescribed}
	for _, m := range members {
		err := fmt.Errorf("wrapped: %w", &Error{Kind: m, Pointer: "/tools/0"})
		if !errors.Is(err, m) {
			t.Errorf("errors.Is(%v, its kind) = false", err)
		}
		if !errors.Is(err, ErrCannotRecord) {
			t.Errorf("errors.Is(%v, ErrCannotRecord) = false", err)
		}
		for _, f := range families {
			if f != ErrCannotRecord && errors.Is(err, f) {
				t.Errorf("errors.Is(%v, %v) = true, want false", err, f)
			}
		}
		for _, other := range members {
			if other != m && errors.Is(err, other) {
				t.Errorf("errors.Is(%v, %v) = true, want false", err, other)
			}
		}
	}
	for _, f := range families {
		for _, g := range families {
			if got := errors.Is(&Error{Kind: f}, g); got != (f == g) {
				t.Errorf("errors.Is(%v, %v) = %v", f, g, got)
			}
		}
	}
}

func TestErrorMessage(t *testing.T) {
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{"full", &Error{Kind: ErrContainsSecret, Pointer: "/mcpServers/0/args/3", Rule: "url-password",
			Subject: "docs", Detail: "a password in the URL's userinfo", Fix: "put it in headers or env"},
			`/mcpServers/0/args/3: contains a secret: url-password ("docs"): a password in the URL's userinfo; put it in headers or env`},
		{"bare", &Error{Kind: ErrInvalid}, `/: invalid`},
		{"no kind", &Error{Pointer: "/a"}, `/a: refused`},
		{"hostile subject", &Error{Kind: ErrInvalid, Pointer: "/x", Subject: "a\"b\n\x1b[31m"},
			`/x: invalid ("a\"b\n\x1b[31m")`},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%s: Error() = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestPointerEscaping(t *testing.T) {
	tests := []struct {
		tokens []string
		want   string
	}{
		{nil, ""},
		{[]string{""}, "/"},
		{[]string{"mcpServers", "0", "args", "3"}, "/mcpServers/0/args/3"},
		{[]string{"a/b", "m~n", "~1"}, "/a~1b/m~0n/~01"},
	}
	for _, tt := range tests {
		got := Pointer(tt.tokens...)
		if got != tt.want {
			t.Errorf("Pointer(%q) = %q, want %q", tt.tokens, got, tt.want)
		}
		back, err := Tokens(got)
		if err != nil || strings.Join(back, "\x00") != strings.Join(tt.tokens, "\x00") {
			t.Errorf("Tokens(%q) = %q, %v, want %q", got, back, err, tt.tokens)
		}
	}
	if got := Append("/mcpServers/0", "args", "1"); got != "/mcpServers/0/args/1" {
		t.Errorf("Append = %q", got)
	}
	for _, bad := range []string{"a", "/~", "/~2", "/a~"} {
		if _, err := Tokens(bad); err == nil {
			t.Errorf("Tokens(%q) = nil error, want malformed", bad)
		}
	}
}

func TestJoinSortsAndFlattens(t *testing.T) {
	a := &Error{Kind: ErrContainsSecret, Pointer: "/mcpServers/0/args/10", Rule: "r"}
	b := &Error{Kind: ErrContainsSecret, Pointer: "/mcpServers/0/args/2", Rule: "r"}
	c := &Error{Kind: ErrInvalid, Pointer: "/mcpServers/0", Rule: "r"}
	d := &Error{Kind: ErrWebSocket, Pointer: "/mcpServers/1"}
	other := errors.New("plain")
	err := Join(a, nil, Join(d, b), other, c, &Error{Kind: ErrContainsSecret, Pointer: "/mcpServers/0/args/2", Rule: "r"})
	got := All(err)
	want := []*Error{c, b, a, d}
	if len(got) != len(want) {
		t.Fatalf("All = %v, want %v", got, want)
	}
	for i := range want {
		if *got[i] != *want[i] {
			t.Errorf("All[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	if !errors.Is(err, other) || !errors.Is(err, ErrWebSocket) || !errors.Is(err, ErrInvalid) {
		t.Errorf("Join lost a member: %v", err)
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 5 || lines[4] != "plain" || !strings.HasPrefix(lines[0], "/mcpServers/0: ") {
		t.Errorf("Join message = %q", err.Error())
	}
	if Join() != nil || Join(nil, nil) != nil {
		t.Error("Join of nothing is not nil")
	}
	if got := Join(nil, a); got != error(a) {
		t.Errorf("Join of one = %#v, want the refusal itself", got)
	}
}

func TestComparePointers(t *testing.T) {
	ordered := []string{"", "/a", "/a/2", "/a/10", "/a/b", "/b", "/b/0"}
	for i := range ordered {
		for j := range ordered {
			got := ComparePointers(ordered[i], ordered[j])
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got != want {
				t.Errorf("ComparePointers(%q, %q) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
}

func FuzzTokens(f *testing.F) {
	for _, s := range []string{"", "/", "/a/b", "/a~0b/c~1d", "/~", "a", "/~2", "/0/10/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		toks, err := Tokens(p)
		if err != nil {
			if err.Error() != errBadPointer.Error() {
				t.Fatalf("Tokens error %q quotes more than it should", err)
			}
			return
		}
		if back := Pointer(toks...); back != p {
			t.Fatalf("Pointer(Tokens(%q)) = %q", p, back)
		}
		if ComparePointers(p, p) != 0 {
			t.Fatalf("ComparePointers(%q, itself) != 0", p)
		}
	})
}
