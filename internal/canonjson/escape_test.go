package canonjson

import "testing"

func TestAppendEscape(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    string
		n       int
		problem string
		at      int
	}{
		{`\n rest`, "\n", 2, "", 0},
		{`\/`, "/", 2, "", 0},
		{`\u00e9`, "é", 6, "", 0},
		{`\ud83d\ude00!`, "😀", 12, "", 0},
		{`\x`, "", 0, EscapeInvalid, 0},
		{`\`, "", 0, EscapeInvalid, 0},
		{`\u12`, "", 0, EscapeInvalidHex, 0},
		{`\u12g4`, "", 0, EscapeInvalidHex, 0},
		{`\ud800"`, "", 0, EscapeLoneSurrogate, 6},
		{`\ud800\u0041`, "", 0, EscapeLoneSurrogate, 6},
		{`\ud800\uzzzz`, "", 0, EscapeLoneSurrogate, 6},
		{`\udc00\ud800`, "", 0, EscapeLoneSurrogate, 6},
	} {
		out, n, problem, at := AppendEscape([]byte("x"), []byte(tc.in))
		want := "x" + tc.want
		if string(out) != want || n != tc.n || problem != tc.problem || at != tc.at {
			t.Errorf("AppendEscape(%q) = %q, %d, %q, %d; want %q, %d, %q, %d", tc.in, out, n, problem, at, want, tc.n, tc.problem, tc.at)
		}
	}
}
