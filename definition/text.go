package definition

import (
	"strconv"

	"github.com/guardian-agent/guardian-go/internal/canonjson"
	"github.com/guardian-agent/guardian-go/internal/names"
	"github.com/guardian-agent/guardian-go/refusals"
	"github.com/guardian-agent/guardian-go/secrets"
)

// A definition records prose as well as servers: an agent's name, model
// and system prompt, its tools' names, titles and descriptions, and every
// string of their schemas and annotations. A credential there lands in the
// document as surely as one in a server's args, so each is checked for the
// credentials that are credentials wherever they appear (secrets.CheckText:
// tokens of well-known formats, private keys, JWTs, webhook URLs). A Cache
// remembers the text and schemas that passed.

// prose refuses text at base/key that is not valid UTF-8 or holds a
// credential.
func (b *builder) prose(base, key, s string) {
	b.checkText(base, key, s)
	if s == "" || (b.cache != nil && b.cache.isClean(s)) {
		return
	}
	if err := secrets.CheckText("", s); err != nil {
		b.errs = append(b.errs, located(err, refusals.Append(base, key))...)
		return
	}
	if b.cache != nil {
		b.cache.markClean(s)
	}
}

// located returns err's refusals at pointer.
func located(err error, pointer string) []error {
	return refusals.Relocate(err, func(string) string { return pointer })
}

// textRefusals refuses the credentials in v's strings and member names; v
// is at pointer base. A member name is read as a name (names.Credential:
// as text and as a lone word), and a finding in one is at the member's
// stand-in, "<member N>" (its index in the canonical order): the name is
// the secret.
func textRefusals(v canonjson.Value, base string) []error {
	var errs []error
	var path []string
	var walk func(v canonjson.Value)
	at := func() string { return refusals.Append(base, path...) }
	walk = func(v canonjson.Value) {
		switch v.Kind {
		case canonjson.String:
			if err := secrets.CheckText("", v.Text); err != nil {
				errs = append(errs, located(err, at())...)
			}
		case canonjson.Array:
			for i, x := range v.Items {
				path = append(path, strconv.Itoa(i))
				walk(x)
				path = path[:len(path)-1]
			}
		case canonjson.Object:
			for i, m := range v.Members {
				if found := names.Credential(refusals.Append(at(), names.Member(i)), m.Key); found != nil {
					errs = append(errs, found...)
					continue
				}
				path = append(path, m.Key)
				walk(m.Value)
				path = path[:len(path)-1]
			}
		}
	}
	walk(v)
	return errs
}
