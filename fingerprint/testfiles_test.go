package fingerprint

import "testing"

// testOnlyType is declared in a _test.go file: its fingerprint needs the
// package's test files, which are read for it (and only for such a type:
// see TestSources).
type testOnlyType struct{ n int }

func (t *testOnlyType) RoundTrip() int { return t.n }

func TestTypeDeclaredInTestFile(t *testing.T) {
	if _, err := New(nil).Value("/v", &testOnlyType{}); err != nil {
		t.Errorf("a type declared in a test file: %v", err)
	}
}
