package redact

import (
	"slices"
	"testing"
)

func TestForms(t *testing.T) {
	got := forms("a/b&c d")
	for _, want := range []string{"a/b&c d", "a%2Fb%26c+d", "a%2Fb&c%20d", `a/b\u0026c d`, `a\/b\u0026c d`, `a\/b&c d`, "A/B&C D", "A%2FB%26C+D"} {
		if !slices.Contains(got, want) {
			t.Errorf("forms lacks %q: %q", want, got)
		}
	}
	if got := forms("plain"); !slices.Equal(got, []string{"PLAIN", "plain"}) {
		t.Errorf("forms(plain) = %q, want it in each case, once", got)
	}
}

func TestFoldASCII(t *testing.T) {
	for in, want := range map[string]string{"": "", "abc": "abc", "AbC-É": "abc-É", "GHP_X1": "ghp_x1"} {
		if got := foldASCII(in); got != want {
			t.Errorf("foldASCII(%q) = %q, want %q", in, got, want)
		}
	}
}
