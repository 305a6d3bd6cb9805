// Package shapes is the code the test program fingerprints. The build
// tests copy this tree, edit it, build it and compare digests.
package shapes

import "strings"

// TopLevel is a top-level func.
func TopLevel(s string) string {
	return strings.ToUpper(s) + "!"
}

// Leaf is a leaf func with a signature over several lines.
func Leaf(
	a int,
	b int,
) int {
	return a * b
}

// Closure returns a func literal.
func Closure(n int) func() int {
	return func() int { return n + 1 }
}

// Nested returns a closure and the closure inside it.
func Nested() (func() func() int, func() int) {
	outer := func() func() int {
		return func() int { return 2 }
	}
	return outer, outer()
}

// Counter has methods of both receiver kinds and an unexported helper.
type Counter struct{ n int }

// Inc has a pointer receiver.
func (c *Counter) Inc() { c.n += c.step() }

// Get has a value receiver.
func (c Counter) Get() int { return c.n }

func (c *Counter) step() int { return 1 }

// Getter is an interface: a method value through it has no source.
type Getter interface{ Get() int }

// Map is a generic function.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// Var is a package-level func variable.
var Var = func(s string) bool { return s != "" }
