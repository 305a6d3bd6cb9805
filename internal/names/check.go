package names

import (
	"fmt"
	"unicode"

	"github.com/guardian-agent/guardian-go/refusals"
)

// Check refuses what a name may not hold, at pointer: a credential
// (refusals.ErrContainsSecret, secrets' rule), and a character that is not
// what it looks like (refusals.ErrInvalid, rule "name-character"): a
// control character, a bidi control that reorders what is shown, or an
// invisible one (zero-width, format, line separators, variation selectors
// and the other default-ignorable characters). Such a name shows as
// another, or as nothing, to the person who reads the definition, while
// the model and the server see what it holds. Anything else may be in a
// name: MCP's tool-name guidance (1 to 128 of A-Z a-z 0-9 _ - .) is a
// SHOULD that real servers do not all keep, and spaces, slashes and
// non-Latin letters are names too.
//
// It returns nil, or one refusal per problem; the name is never quoted.
func Check(pointer, name string) []error {
	errs := Credential(pointer, name)
	if r, ok := FirstInvisible(name); ok {
		errs = append(errs, &refusals.Error{
			Kind: refusals.ErrInvalid, Pointer: pointer, Rule: "name-character",
			Detail: fmt.Sprintf("the name holds %U, %s", r, describe(r)),
			Fix:    "rename it: a name holds no control, bidi or invisible character",
		})
	}
	return errs
}

// FirstInvisible returns the first character of s a name may not hold.
func FirstInvisible(s string) (rune, bool) {
	for _, r := range s {
		if invisible(r) {
			return r, true
		}
	}
	return 0, false
}

func invisible(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp,
		unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

func describe(r rune) string {
	switch {
	case unicode.IsControl(r):
		return "a control character"
	case unicode.Is(unicode.Bidi_Control, r):
		return "a bidi control character, which reorders the text shown"
	case unicode.In(r, unicode.Zl, unicode.Zp):
		return "a line or paragraph separator"
	}
	return "an invisible character"
}
