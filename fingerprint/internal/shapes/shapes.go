// Package shapes is a test fixture for package fingerprint: one of every
// shape of code a fingerprint must find. Its digests are pinned in
// ../../testdata/shapes.golden; editing a declaration here changes them
// (go test ./fingerprint -update rewrites the file).
package shapes

import (
	rnd "math/rand/v2"
	"net/http"
	"strings"
)

// TopLevel is a top-level func.
func TopLevel(s string) string { return strings.ToUpper(s) }

// MultiLineSig is a leaf func whose signature spans lines: the binary's
// entry line is its first statement's, not the func keyword's.
func MultiLineSig(
	a int,
	b int,
) int {
	return a + b
}

// Closure returns a func literal.
func Closure(n int) func() int {
	return func() int { return n + 1 }
}

// Nested returns a closure and the closure inside it; the inner one
// starts on the outer one's first body line.
func Nested() (outer func() func() int, inner func() int) {
	outer = func() func() int {
		return func() int { return 2 }
	}
	return outer, outer()
}

// TwoOnOneLine returns two different literals that start on one line.
func TwoOnOneLine() (func() int, func() int) {
	return func() int { return 1 }, func() int { return 2 }
}

// Counter has pointer and value methods, and a closure in a method.
type Counter struct{ n int }

// Inc has a pointer receiver.
func (c *Counter) Inc() { c.n++ }

// Get has a value receiver.
func (c Counter) Get() int { return c.n }

// ClosureInMethod returns a closure declared in a method.
func (c *Counter) ClosureInMethod() func() int {
	return func() int { return c.n * 2 }
}

// PackageVar is a package-level func variable.
var PackageVar = func(s string) bool { return s != "" }

// Map is a generic function.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// GenericClosure returns a closure from a generic function.
func GenericClosure[T any](v T) func() T {
	return func() T { return v }
}

// Box is a generic type with a method.
type Box[T any] struct{ v T }

// Get returns the box's value.
func (b *Box[T]) Get() T { return b.v }

// Getter is an interface: a method value through it has no source.
type Getter interface{ Get() int }

// AuthRT is an http.RoundTripper with an unexported helper, the kind of
// code a definition must record.
type AuthRT struct {
	Next http.RoundTripper
}

// RoundTrip adds a header.
func (a *AuthRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", a.token())
	return a.Next.RoundTrip(r)
}

func (a *AuthRT) token() string { return "Bearer " + strings.Repeat("x", 3) }

// Transport embeds a standard library type and adds its own method.
type Transport struct {
	http.Transport
	Header string
}

// RoundTrip sets the header and defers to the embedded transport.
func (t *Transport) RoundTrip(r *http.Request) (*http.Response, error) {
	r.Header.Set(t.Header, "1")
	return t.Transport.RoundTrip(r)
}

// Inner is embedded by Outer.
type Inner struct{}

// Hello is promoted to Outer.
func (Inner) Hello() string { return "hello" }

// Outer embeds user types.
type Outer struct {
	Inner
	*Counter
}

// HandlerFunc is a user's named func type with a method.
type HandlerFunc func(string) string

// Handle calls the func.
func (h HandlerFunc) Handle(s string) string { return h(s) }

// Upper is a func to convert to HandlerFunc.
func Upper(s string) string { return strings.ToUpper(s) }

// Dice uses an aliased import, so the digest names the import path.
func Dice() int { return rnd.IntN(6) }

// Local returns a value of a type declared inside a func.
func Local() any {
	type local struct{ A int }
	return local{A: 1}
}

// Shadow is a package-level type; ShadowLocal declares another of its
// name inside a func. The binary does not say which one a value is of.
type Shadow struct{ B string }

// ShadowLocal returns a value of a func-local type named like Shadow.
func ShadowLocal() any {
	type Shadow struct{ C float64 }
	return Shadow{C: 1}
}

// Named is a package-level type with an exported method, so the binary
// tells it from the func-local Named in NamedLocal, which has none.
type Named struct{ B string }

// Name is Named's own method.
func (n Named) Name() string { return n.B }

// NamedLocal returns a value of a func-local type named like Named.
func NamedLocal() any {
	type Named struct{ C float64 }
	return Named{C: 1}
}
