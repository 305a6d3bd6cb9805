package names

import (
	"strconv"
	"strings"

	"github.com/guardian-agent/guardian-go/refusals"
)

// A pointer is built from the keys of the input (a config's server names,
// its env and header names, a schema's property names), and a refusal names
// a tool or server by its name. A key or name that holds a credential would
// put the credential in the refusal, so it is written as a stand-in:
//
//   - in a pointer, "<member N>": the member's index (from 0) among its
//     object's members, in the order of the input (a config file's order; a
//     document's canonical order; sorted order for a Go map), which still
//     locates it; "<withheld>" where the index is not known (input that did
//     not parse);
//   - as a subject or a name in a message, "<withheld>".
//
// Both are valid RFC 6901 tokens, so every pointer still parses.

// Withheld stands for a name, or a pointer token, that holds a credential
// and whose place is not known.
const Withheld = "<withheld>"

// Member is the stand-in token for the index-th member of an object (from
// 0).
func Member(index int) string {
	return "<member " + strconv.Itoa(index) + ">"
}

// MemberIndex returns N for the stand-in token "<member N>", and whether
// tok is one.
func MemberIndex(tok string) (int, bool) {
	digits, ok := strings.CutPrefix(tok, "<member ")
	if !ok {
		return 0, false
	}
	digits, ok = strings.CutSuffix(digits, ">")
	n, err := strconv.Atoi(digits)
	if !ok || err != nil || n < 0 || Member(n) != tok {
		return 0, false
	}
	return n, true
}

// Token is key as a pointer token: key itself, or, when it holds a
// credential, Member(index); Withheld when index is negative.
func Token(key string, index int) string {
	if !HoldsCredential(key) {
		return key
	}
	if index < 0 {
		return Withheld
	}
	return Member(index)
}

// Append returns pointer extended by the token of the index-th member of
// the object at pointer, whose key is key (see Token).
func Append(pointer, key string, index int) string {
	return refusals.Append(pointer, Token(key, index))
}

// Pointer returns p with every token that holds a credential written
// Withheld, for a pointer given whole (one a user wrote, one a parser
// built from keys). A malformed p is Withheld when it holds a credential.
func Pointer(p string) string {
	if p == "" {
		return p
	}
	toks, err := refusals.Tokens(p)
	if err != nil {
		if HoldsCredential(p) {
			return Withheld
		}
		return p
	}
	changed := false
	for i, t := range toks {
		if HoldsCredential(t) {
			toks[i], changed = Withheld, true
		}
	}
	if !changed {
		return p
	}
	return refusals.Pointer(toks...)
}

// Subject is name as a refusal's subject or in a message: name itself, or
// Withheld when it holds a credential.
func Subject(name string) string {
	if HoldsCredential(name) {
		return Withheld
	}
	return name
}
