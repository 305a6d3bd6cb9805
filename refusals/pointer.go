package refusals

import (
	"errors"
	"strings"
)

var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

// Pointer builds an RFC 6901 JSON pointer from reference tokens, escaping
// "~" as "~0" and "/" as "~1". Pointer() is "", the whole document.
//
//	Pointer("mcpServers", "a/b", "args", "3") == "/mcpServers/a~1b/args/3"
func Pointer(tokens ...string) string {
	return Append("", tokens...)
}

// Append returns pointer extended by tokens, each escaped as in [Pointer].
func Append(pointer string, tokens ...string) string {
	if len(tokens) == 0 {
		return pointer
	}
	// Sized exactly, so building a pointer is one allocation: Build makes
	// one per tool.
	n := len(pointer)
	for _, t := range tokens {
		n += 1 + len(t)
		for i := 0; i < len(t); i++ {
			if t[i] == '~' || t[i] == '/' {
				n++
			}
		}
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(pointer)
	for _, t := range tokens {
		b.WriteByte('/')
		for {
			i := strings.IndexAny(t, "~/")
			if i < 0 {
				b.WriteString(t)
				break
			}
			b.WriteString(t[:i])
			if t[i] == '~' {
				b.WriteString("~0")
			} else {
				b.WriteString("~1")
			}
			t = t[i+1:]
		}
	}
	return b.String()
}

// errBadPointer is returned by Tokens; it quotes nothing of the input.
var errBadPointer = errors.New("refusals: malformed JSON pointer")

// Tokens splits an RFC 6901 JSON pointer into its unescaped reference
// tokens. "" gives no tokens. A pointer that does not start with "/" or
// holds a "~" not followed by "0" or "1" is malformed.
func Tokens(pointer string) ([]string, error) {
	if pointer == "" {
		return nil, nil
	}
	if pointer[0] != '/' {
		return nil, errBadPointer
	}
	parts := strings.Split(pointer[1:], "/")
	for i, p := range parts {
		for j := 0; j < len(p); j++ {
			if p[j] == '~' && (j+1 == len(p) || (p[j+1] != '0' && p[j+1] != '1')) {
				return nil, errBadPointer
			}
		}
		parts[i] = pointerUnescaper.Replace(p)
	}
	return parts, nil
}
