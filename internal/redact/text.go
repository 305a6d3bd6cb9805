package redact

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Marks that stand for what was removed from an error's text.
const (
	// Mark stands for a removed value in Redact's output.
	Mark = "[redacted]"
	// Withheld is all of Redact's output when a secret would survive the
	// marking (overlapping the mark, or completed by it).
	Withheld = "[details withheld]"
)

// Redact returns s with every value r learnt, in any form, case or
// encoded run, and every 12-byte run of a long credential, replaced with
// Mark; Withheld if a secret is left in the result.
func (r *Redactor) Redact(s string) string {
	set := r.load()
	if set == nil {
		return s
	}
	out, changed := set.replace(s, Mark)
	if changed && set.holdsValue(out) {
		return Withheld
	}
	return out
}

// replace returns s with each run of marked bytes (whole runes) replaced
// by mark, and whether anything was.
func (s *set) replace(text, mark string) (string, bool) {
	var m []bool
	s.findAll(text, s.all, func(i, j int) bool {
		if m == nil {
			m = make([]bool, len(text))
		}
		for ; i < j; i++ {
			m[i] = true
		}
		return true
	})
	if m == nil {
		return text, false
	}
	// Whole runes go, so that what is left is valid UTF-8.
	for i := 1; i < len(text); i++ {
		if m[i] && !m[i-1] {
			for j := i; j > 0 && !utf8.RuneStart(text[j]); j-- {
				m[j-1] = true
			}
		}
	}
	for i := 0; i+1 < len(text); i++ {
		if m[i] && !m[i+1] && !utf8.RuneStart(text[i+1]) {
			m[i+1] = true
		}
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if !m[i] {
			b.WriteByte(text[i])
			continue
		}
		b.WriteString(mark)
		for i+1 < len(text) && m[i+1] {
			i++
		}
	}
	return b.String(), true
}

// RedactValue returns v, decoded JSON, with every string in it (member
// names too) redacted: a server's error data may echo a credential as
// well as its message.
func (r *Redactor) RedactValue(v any) any {
	switch x := v.(type) {
	case string:
		return r.Redact(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = r.RedactValue(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[r.Redact(k)] = r.RedactValue(e)
		}
		return out
	}
	return v // numbers, booleans, null
}

// MaxDetail bounds how much of a cause Describe prints.
const MaxDetail = 300

// Describe is err's text made safe to print: a *url.Error's URL replaced
// by "[url]", what r learnt redacted, and the length bounded to MaxDetail
// bytes and "...".
func (r *Redactor) Describe(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	var ue *url.Error
	for e := err; errors.As(e, &ue); e = ue.Err {
		s = strings.ReplaceAll(s, strconv.Quote(ue.URL), "[url]")
		if ue.Err == nil {
			break
		}
	}
	s = r.Redact(s)
	if len(s) > MaxDetail {
		n := MaxDetail
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "..."
		// The ellipsis can complete a secret that ends in dots.
		if set := r.load(); set.holdsValue(s) {
			return Withheld
		}
	}
	return s
}
