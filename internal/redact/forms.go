package redact

import (
	"bytes"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
)

// forms returns v in the forms a text may quote it in, each once: as
// given, upper- and lower-cased, and each of those percent-encoded for a
// query and for a path, and JSON-escaped (the quotes stripped) with and
// without HTML escapes (<, > and & as \u00XX), / as it is and as \/.
func forms(v string) []string {
	var out []string
	for _, c := range []string{v, strings.ToUpper(v), strings.ToLower(v)} {
		out = append(out, escaped(c)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// escaped returns v and its escaped forms, in this order and with repeats
// (a form that escapes nothing is v again).
func escaped(v string) []string {
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

// foldASCII lower-cases the ASCII letters of s alone, keeping every byte
// where it is (so that offsets into the result are offsets into s).
func foldASCII(s string) string {
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

// withDecoded returns vals and, after them, each one's percent-decoded
// forms that differ from it: %XX escapes decoded, and '+' as a space
// too, as a server decodes a URL's userinfo, path or query before it
// uses, logs or quotes the value (rediss://user:p%2Fw@host is used, and
// echoed, as p/w). Decoding is done once: a server that decodes twice is
// not modelled.
func withDecoded(vals []string) []string {
	out := vals
	for _, v := range vals {
		if !strings.Contains(v, "%") && !strings.Contains(v, "+") {
			continue
		}
		if out == nil || &out[0] == &vals[0] {
			out = slices.Clone(vals)
		}
		for _, plus := range []bool{false, true} {
			if d := percentDecode(v, plus); d != v && d != "" {
				out = append(out, d)
			}
		}
	}
	return out
}
