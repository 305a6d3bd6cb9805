// Package secretforms lists the forms in which a secret may be quoted back
// in text (escaped for a URL or a JSON string), and folds ASCII case, for
// the two redactors of this module: mcpservers' (errors) and the guardian
// command's (stderr tails).
package secretforms

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
)

// Of returns v and its escaped forms, in this order and with repeats (a
// form that escapes nothing is v again): as it is, percent-encoded for a
// query and for a path, and JSON-escaped (the quotes stripped) with and
// without HTML escapes (<, > and & as \u00XX), each of those with / as it
// is and as \/.
func Of(v string) []string {
	out := []string{v, url.QueryEscape(v), url.PathEscape(v)}
	for _, html := range []bool{true, false} {
		j := jsonEscape(v, html)
		out = append(out, j, strings.ReplaceAll(j, "/", `\/`))
	}
	return out
}

// jsonEscape returns s as a JSON string holds it, without the quotes.
func jsonEscape(s string, html bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	_ = enc.Encode(s)
	out := strings.TrimSuffix(b.String(), "\n")
	return strings.TrimSuffix(strings.TrimPrefix(out, `"`), `"`)
}

// FoldASCII lower-cases the ASCII letters of s alone, keeping every byte
// where it is (so that offsets into the result are offsets into s).
func FoldASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
