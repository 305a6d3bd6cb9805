package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// With progress on (stderr a terminal), each server's connecting, its
// tools and its failure are printed as they happen; the final report is
// the same as without.
func TestProgress(t *testing.T) {
	dir := workspace(t)
	var out, errb bytes.Buffer
	lookup := func(name string) (string, bool) { return "x", name == "GUARDIAN_TEST_TOKEN" }
	e := &env{stdout: &out, stderr: &errb, lookupEnv: lookup, progress: true}
	code := runEnv(context.Background(), []string{"record", filepath.Join(dir, "failing.json"), "--timeout", "1s"}, e)
	if code != exitBad {
		t.Errorf("exit %d, want %d", code, exitBad)
	}
	for _, want := range []string{
		`guardian record: "docs": connecting`,
		`guardian record: "broken": connecting`,
		`guardian record: "slow": connecting`,
		`guardian record: "docs": 5 tools`,
		`guardian record: "broken": failed: connect: cannot connect: server exited: exit status 3`,
		`guardian record: "slow": failed: timed out after 1s (--timeout)`,
	} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
	// A terminal's progress comes before the report, which says it all again.
	if i, j := strings.Index(errb.String(), `"slow": failed`), strings.Index(errb.String(), `server "slow" failed`); i < 0 || j < i {
		t.Errorf("progress after the report:\n%s", errb.String())
	}

	// Not a terminal: no progress at all.
	r := guardian(t, dir, []string{"GUARDIAN_TEST_TOKEN=x"}, "record", "failing.json", "--timeout", "1s")
	if strings.Contains(r.stderr, "connecting") || strings.Contains(r.stderr, `"docs": 5 tools`) {
		t.Errorf("progress without a terminal:\n%s", r.stderr)
	}
}
