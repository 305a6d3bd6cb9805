package secretforms

import (
	"slices"
	"testing"
)

func TestOf(t *testing.T) {
	got := Of("a/b&c d")
	for _, want := range []string{"a/b&c d", "a%2Fb%26c+d", "a%2Fb&c%20d", `a/b\u0026c d`, `a\/b\u0026c d`, `a\/b&c d`} {
		if !slices.Contains(got, want) {
			t.Errorf("Of lacks %q: %q", want, got)
		}
	}
	if got := Of("plain"); len(slices.Compact(got)) != 1 {
		t.Errorf("Of(plain) = %q, want one form, repeated", got)
	}
}

func TestFoldASCII(t *testing.T) {
	for in, want := range map[string]string{"": "", "abc": "abc", "AbC-É": "abc-É", "GHP_X1": "ghp_x1"} {
		if got := FoldASCII(in); got != want {
			t.Errorf("FoldASCII(%q) = %q, want %q", in, got, want)
		}
	}
}
