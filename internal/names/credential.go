package names

import (
	"github.com/guardian-agent/guardian-go/refusals"
	"github.com/guardian-agent/guardian-go/secrets"
)

// A name is read as text (secrets.CheckText: tokens of well-known formats,
// private keys, JWTs, webhook URLs) and as a lone word (secrets.CheckArgs:
// also NAME=value assignments, URLs with passwords, header-shaped words,
// random key material): a name is no prose, so what an argument may not
// hold, a name may not either.

// HoldsCredential reports whether s holds a credential.
func HoldsCredential(s string) bool {
	if s == "" {
		return false
	}
	return secrets.CheckText("", s) != nil || secrets.CheckArgs("", []string{s}) != nil
}

// Credential returns the refusals of the credential in name, at pointer:
// secrets' own, as CheckText gives them, or else as CheckArgs does; nil
// when it holds none.
func Credential(pointer, name string) []error {
	if name == "" {
		return nil
	}
	err := secrets.CheckText("", name)
	if err == nil {
		err = secrets.CheckArgs("", []string{name})
	}
	return refusals.Relocate(err, func(string) string { return pointer })
}
