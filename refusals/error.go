// Package refusals is the error vocabulary of guardian-go: one located error
// type for everything the library refuses, and the kinds callers test with
// errors.Is.
//
// A refusal says where (an RFC 6901 JSON pointer into the definition
// document or config file), which rule fired, what it is about, and what to
// do instead. It never says the value that was refused: a refusal of a
// credential must not become the way the credential leaks.
//
// Several refusals come back together from one call, joined by [Join] and
// sorted by pointer, so a user sees every problem at once and the message is
// the same on every run. [All] takes them apart again.
package refusals

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Error is one refusal, located in a definition document or config file.
// Modelled on fs.PathError: Kind is the sentinel that errors.Is matches, and
// the other fields say where and why.
//
// No field ever holds the refused value, a part of it, its length or a hash
// of it.
type Error struct {
	// Kind is the sentinel this refusal is an instance of: a family
	// (ErrContainsSecret, ErrInvalid, ErrCannotRecord, ErrUndescribed) or a
	// member of one. Unwrap returns it.
	Kind error

	// Pointer locates the refused value: an RFC 6901 JSON pointer into the
	// definition document (/mcpServers/0/args/3) or, for a config file, into
	// that file (/mcpServers/github/args/3). Empty means the whole input.
	Pointer string

	// Rule is the stable ID of the rule that fired, such as "url-password",
	// "credential-flag" or "token/github". Rule IDs are part of the API:
	// callers may match on them, and docs/ lists them.
	Rule string

	// Subject names what the refusal is about, where there is one: a tool, a
	// server or a Go symbol.
	Subject string

	// Detail is an optional note on what was found, in words that never
	// quote the input ("a password in the URL's userinfo").
	Detail string

	// Fix says what to do instead ("put it in headers or env").
	Fix string
}

// Error formats the refusal on one line:
//
//	/mcpServers/0/args/3: contains a secret: url-password (server "docs"): a password in the URL's userinfo; put it in headers or env
//
// A character of the pointer, rule, detail or fix that is not graphic (a control, bidi or
// invisible character a key may hold) is written as a Go escape (\n,
// \u202e), so that the line cannot be broken or reordered by the input. A
// nil *Error formats as "refusals: nil *Error".
func (e *Error) Error() string {
	if e == nil {
		return "refusals: nil *Error"
	}
	var b strings.Builder
	if e.Pointer != "" {
		writeEscaped(&b, e.Pointer)
	} else {
		b.WriteString("/")
	}
	b.WriteString(": ")
	if e.Kind != nil {
		b.WriteString(e.Kind.Error())
	} else {
		b.WriteString("refused")
	}
	if e.Rule != "" {
		b.WriteString(": ")
		writeEscaped(&b, e.Rule)
	}
	if e.Subject != "" {
		b.WriteString(" (")
		b.WriteString(strconv.Quote(e.Subject))
		b.WriteString(")")
	}
	if e.Detail != "" {
		b.WriteString(": ")
		writeEscaped(&b, e.Detail)
	}
	if e.Fix != "" {
		b.WriteString("; ")
		writeEscaped(&b, e.Fix)
	}
	return b.String()
}

// Unwrap returns the kind, so that errors.Is(err, refusals.ErrContainsSecret)
// and the family tests work through wrapping; nil for a nil *Error.
func (e *Error) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Kind
}

// writeEscaped writes s with every character that is not graphic, and
// every byte that is not UTF-8, as a Go escape.
func writeEscaped(b *strings.Builder, s string) {
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[0])|0x100, 16)[1:])
		case unicode.IsPrint(r):
			b.WriteString(s[:n])
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		s = s[n:]
	}
}
