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
func (e *Error) Error() string {
	var b strings.Builder
	if e.Pointer != "" {
		b.WriteString(e.Pointer)
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
		b.WriteString(e.Rule)
	}
	if e.Subject != "" {
		b.WriteString(" (")
		b.WriteString(strconv.Quote(e.Subject))
		b.WriteString(")")
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	if e.Fix != "" {
		b.WriteString("; ")
		b.WriteString(e.Fix)
	}
	return b.String()
}

// Unwrap returns the kind, so that errors.Is(err, refusals.ErrContainsSecret)
// and the family tests work through wrapping.
func (e *Error) Unwrap() error { return e.Kind }
