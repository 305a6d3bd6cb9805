package textdiff

import "testing"

func TestUnified(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
	b := "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\n"
	want := "--- old\n+++ new\n@@ -1,10 +1,11 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n h\n i\n j\n+k\n"
	if got := Unified("old", "new", []byte(a), []byte(b)); got != want {
		t.Errorf("Unified =\n%s\nwant\n%s", got, want)
	}
	if got := Unified("x", "y", []byte(a), []byte(a)); got != "" {
		t.Errorf("equal inputs give %q", got)
	}
	far := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n"
	far2 := "1\nX\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\nY\n20\n"
	want2 := "--- a\n+++ b\n@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5\n@@ -16,5 +16,5 @@\n 16\n 17\n 18\n-19\n+Y\n 20\n"
	if got := Unified("a", "b", []byte(far), []byte(far2)); got != want2 {
		t.Errorf("two hunks =\n%s\nwant\n%s", got, want2)
	}
	if got := Unified("a", "b", nil, []byte("x\n")); got != "--- a\n+++ b\n@@ -1,0 +1,1 @@\n+x\n" {
		t.Errorf("from empty = %q", got)
	}
}

func FuzzUnified(f *testing.F) {
	f.Add([]byte("a\nb\n"), []byte("a\nc\n"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		d := Unified("a", "b", a, b)
		if (d == "") != (string(a) == string(b)) {
			t.Fatalf("diff %q for %q vs %q", d, a, b)
		}
	})
}
