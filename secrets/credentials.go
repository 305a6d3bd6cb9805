package secrets

import (
	"cmp"
	"slices"
	"strings"
)

// Credentials returns the credentials secrets finds in value, read as the
// value of an environment variable or header of any name: each is the exact
// substring of value that is secret (a URL's or DSN's password, an
// assignment's or JSON member's value, a token), in order of appearance,
// without duplicates. A value holding none gives nil. Placeholders and
// references (${VAR}, <token>, ...) are not credentials.
//
// It applies every rule CheckArgs applies to one argument, whatever the
// variable is called, so that DB_URL=mysql://root:pw@db/app gives "pw",
// CONNECTION_STRING=Server=db;Password=pw; gives "pw", and
// OPENAPI_MCP_HEADERS={"Authorization": "Bearer tok"} gives "tok". Short
// secrets count: a password of two bytes is returned. A secret the rules
// find only in a decoded form of value (base64, percent escapes) is
// returned as the text of value that encodes it. A value that is an
// Authorization value on its own ("Bearer tok", any scheme) gives its
// credential, however short.
//
// It runs in time linear in len(value), and never panics.
func Credentials(value string) []string {
	var found []string
	f := findings{secrets: &found}
	wholeScans(value, &f)
	var st seq
	st.argWords(value, &f)
	if v := strings.TrimSpace(value); authSchemeValue(v) {
		// "Bearer tok" standing alone is an Authorization value: its
		// credential counts however short (scanAuthSchemes, for prose,
		// asks for twelve bytes).
		f.keep(authCredential(v))
	}
	type span struct{ at, n int }
	spans := make([]span, 0, len(found))
	for _, s := range found {
		if at, ok := offsetIn(value, s); ok {
			spans = append(spans, span{at, len(s)})
		}
	}
	if len(spans) == 0 {
		return nil
	}
	slices.SortFunc(spans, func(a, b span) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(b.n, a.n))
	})
	out := make([]string, 0, len(spans))
	seen := make(map[string]bool, len(spans))
	for _, sp := range spans {
		s := value[sp.at : sp.at+sp.n]
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
