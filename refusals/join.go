package refusals

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"
)

// Join returns the refusals among errs as one error, in a fixed order:
// sorted by pointer (array indices compared as numbers), then by rule,
// subject and kind, with exact duplicates dropped. Nil errors are ignored,
// and joined errors (from Join or errors.Join) are flattened, so Join can
// gather the results of several checks. It returns nil when nothing is left,
// the refusal itself when one is, and an errors.Join of them otherwise;
// errors.Is and errors.As see every one.
//
// Errors that are not *Error are kept, after the refusals, in the order
// given. A nil *Error is dropped, as a nil error is.
func Join(errs ...error) error {
	var refs []*Error
	var others []error
	var flatten func(error)
	flatten = func(err error) {
		if err == nil {
			return
		}
		if e, ok := err.(*Error); ok {
			if e != nil {
				refs = append(refs, e)
			}
			return
		}
		if m, ok := err.(interface{ Unwrap() []error }); ok {
			for _, x := range m.Unwrap() {
				flatten(x)
			}
			return
		}
		others = append(others, err)
	}
	for _, err := range errs {
		flatten(err)
	}
	slices.SortStableFunc(refs, compare)
	refs = slices.CompactFunc(refs, func(a, b *Error) bool { return *a == *b })
	out := make([]error, 0, len(refs)+len(others))
	for _, r := range refs {
		out = append(out, r)
	}
	out = append(out, others...)
	switch len(out) {
	case 0:
		return nil
	case 1:
		return out[0]
	}
	return errors.Join(out...)
}

// All returns every *Error in err's tree, in the order Join put them,
// leaving out nil ones. It returns nil when err holds no refusal.
func All(err error) []*Error {
	var out []*Error
	var walk func(error)
	walk = func(err error) {
		switch x := err.(type) {
		case nil:
		case *Error:
			if x != nil {
				out = append(out, x)
			}
		case interface{ Unwrap() []error }:
			for _, e := range x.Unwrap() {
				walk(e)
			}
		case interface{ Unwrap() error }:
			walk(x.Unwrap())
		}
	}
	walk(err)
	return out
}

func compare(a, b *Error) int {
	if c := ComparePointers(a.Pointer, b.Pointer); c != 0 {
		return c
	}
	if c := strings.Compare(a.Rule, b.Rule); c != 0 {
		return c
	}
	if c := strings.Compare(a.Subject, b.Subject); c != 0 {
		return c
	}
	return strings.Compare(kindText(a.Kind), kindText(b.Kind))
}

func kindText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// ComparePointers orders JSON pointers token by token, comparing tokens that
// are both array indices as numbers, so /args/2 comes before /args/10, and a
// pointer before the pointers below it.
func ComparePointers(a, b string) int {
	for a != "" && b != "" {
		ta, ra := cut(a)
		tb, rb := cut(b)
		if c := compareToken(ta, tb); c != 0 {
			return c
		}
		a, b = ra, rb
	}
	return cmp.Compare(len(a), len(b))
}

func cut(p string) (token, rest string) {
	p = strings.TrimPrefix(p, "/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i], p[i:]
	}
	return p, ""
}

func compareToken(a, b string) int {
	na, ea := strconv.ParseUint(a, 10, 64)
	nb, eb := strconv.ParseUint(b, 10, 64)
	if ea == nil && eb == nil {
		return cmp.Compare(na, nb)
	}
	return strings.Compare(a, b)
}
