package definition

import (
	"github.com/guardian-agent/guardian-go/internal/names"
	"github.com/guardian-agent/guardian-go/refusals"
)

// Names — the agent's, each sub-agent's, each tool's and each server's —
// are recorded, printed and matched on, so they are held to more than
// prose (internal/names.Check): no credential, read as text and as a lone
// word, and no control, bidi or invisible character, which would show the
// person reading the definition another name than the one the model and
// the server see. Build and Parse apply the same rule, so every document
// Build writes is one Parse reads.
//
// A refusal never quotes a name that holds a credential: its subject, and
// a pointer token made from such a key, are written as stand-ins
// (names.Subject, names.Token).

// name refuses what the name at base/key may not hold.
func (b *builder) name(base, key, s string) {
	b.checkText(base, key, s)
	if s == "" || (b.cache != nil && b.cache.isCleanName(s)) {
		return
	}
	if errs := names.Check(refusals.Append(base, key), s); len(errs) > 0 {
		b.errs = append(b.errs, errs...)
		return
	}
	if b.cache != nil {
		b.cache.markCleanName(s)
	}
}

// subject is name as a refusal's subject.
func subject(name string) string { return names.Subject(name) }
