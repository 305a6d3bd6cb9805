// Package locallib is a module the test program replaces with this
// directory: its code is the user's, fingerprinted by its source.
package locallib

// Twice doubles n.
func Twice(n int) int { return 2 * n }
