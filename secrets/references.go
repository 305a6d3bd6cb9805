package secrets

import "strings"

// This file recognises references to a secret, which record where it
// comes from and are what a definition should hold: ${NAME}, $NAME,
// %NAME%, {{ name }}, $(cmd), op://… and other secret-store references;
// and it judges a reference's literal default, which is recorded.

// reference reports whether v is only references to a secret (${NAME},
// $NAME, %NAME%, {{ name }}, ${input:id}, $(cmd)) and punctuation, which
// record where a secret comes from, not the secret. A reference with a
// default (${NAME:-value}) returns its default: a literal default is the
// secret a definition would record, so callers judge it as the value.
func reference(v string) (ok bool, def string) {
	if len(v) > maxValue {
		v = v[:maxValue] // see maxValue; keeps ${${${… linear
	}
	found := false
	run := 0 // length of the current run of literal letters and digits
	for i := 0; i < len(v); {
		// A reference starts a word: in Sql$erver1 the dollar is part of
		// a literal password, not a variable.
		if i == 0 || !isAlnum(v[i-1]) {
			if n, d := refAt(v, i); n > 0 {
				found = true
				if d != "" && def == "" {
					def = d
				}
				i += n
				run = 0
				continue
			}
		}
		if isAlnum(v[i]) {
			run++
			// A literal word beside a reference may be the secret itself:
			// ${USER}:hunter22. Short words (a scheme, a port) are not.
			if run >= 6 {
				return false, ""
			}
		} else {
			run = 0
		}
		i++
	}
	return found, def
}

// refAt returns the length of the reference starting at v[i], or 0, and
// the reference's default value if it has one.
func refAt(v string, i int) (n int, def string) {
	if i >= len(v) {
		return 0, ""
	}
	rest := v[i:]
	switch {
	case strings.HasPrefix(rest, "${{"): // GitHub Actions: ${{ secrets.X }}
		if j := strings.Index(rest, "}}"); j > 0 {
			return j + 2, ""
		}
	case strings.HasPrefix(rest, "${"):
		j := strings.IndexByte(rest, '}')
		if j < 0 {
			return 0, ""
		}
		body := rest[2:j]
		name := identLen(body)
		if name == 0 {
			// ${input:id}, ${env:NAME}, ${workspaceFolder}: a colon-prefixed
			// variable kind, then a name.
			k := strings.IndexByte(body, ':')
			if k <= 0 || identLen(body[:k]) != k || identLen(body[k+1:]) == 0 {
				return 0, ""
			}
			return j + 1, ""
		}
		tail := body[name:]
		switch {
		case tail == "":
		case strings.HasPrefix(tail, ":?"), strings.HasPrefix(tail, "?"):
			// ${NAME:?message}: the text is the error shown when NAME is
			// unset, never a value.
		case strings.HasPrefix(tail, ":-"), strings.HasPrefix(tail, ":="), strings.HasPrefix(tail, ":+"):
			// A default, or (:+) the value used when NAME is set: either
			// way a literal that would be recorded.
			def = tail[2:]
		case strings.HasPrefix(tail, "-"), strings.HasPrefix(tail, "="), strings.HasPrefix(tail, "+"):
			def = tail[1:]
		case strings.HasPrefix(tail, ":"):
			// ${input:id} or ${env:NAME} where the kind is the ident.
			if identLen(tail[1:]) == 0 {
				return 0, ""
			}
		default:
			return 0, ""
		}
		return j + 1, def
	case strings.HasPrefix(rest, "$("):
		// Command substitution: the secret comes from a command at launch.
		if j := closeParen(rest, 1); j > 2 {
			return j + 1, ""
		}
	case rest[0] == '`':
		if j := strings.IndexByte(rest[1:], '`'); j > 0 {
			return j + 2, ""
		}
	case strings.HasPrefix(rest, "$env:"), strings.HasPrefix(rest, "$ENV:"): // PowerShell
		if k := identLen(rest[5:]); k > 0 {
			return 5 + k, ""
		}
	case rest[0] == '$':
		if k := identLen(rest[1:]); k > 0 {
			return 1 + k, ""
		}
	case rest[0] == '%':
		if k := identLen(rest[1:]); k > 0 && 1+k < len(rest) && rest[1+k] == '%' {
			return k + 2, ""
		}
	case strings.HasPrefix(rest, "{{"):
		if j := strings.Index(rest, "}}"); j > 2 {
			return j + 2, ""
		}
	case rest[0] == '{':
		// Registry URL templates and some launchers: {api_key}.
		if k := identLen(rest[1:]); k > 0 && 1+k < len(rest) && rest[1+k] == '}' {
			return k + 2, ""
		}
	}
	return 0, ""
}

// scanRefDefaults calls found if s holds a reference to a credential-named
// variable with a literal default, wherever it stands: ${OPENAI_API_KEY:-VALUE},
// ${DB_PASSWORD-VALUE}, ${DB_PASSWORD:=VALUE}, ${DB_PASSWORD=VALUE}. The
// default is what the client uses when the variable is unset, and it is
// recorded, so it is judged as the value of NAME=VALUE would be: a
// placeholder or a reference is accepted, a literal password is not.
// ${NAME:?message} carries an error message, and ${NAME:+word} the word
// used in NAME's place when it is set (often a flag built from it,
// ${TOKEN:+--token=$TOKEN}): neither is NAME's value, and neither is judged
// here.
//
// A default is judged up to the next "${" (a nested reference is judged on
// its own), so the defaults judged never overlap, and the next '}' is
// searched for once however many openers precede it: the scan is linear.
//
// A default that is itself a reference with a default
// (${API_KEY:-${FALLBACK:-VALUE}}) is the outer variable's value too, so
// the inner one is judged with the outer name's strength if that is
// greater. A default of any name that is a credential header line
// (${H:-Authorization: Bearer …}) is judged as that header.
func scanRefDefaults(s string, found func(secret string)) {
	closeAt := -1 // the next '}' at or after off
	inheritAt, inherit := -1, notSecret
	for opener := range indexes(s, "${") {
		off := opener + 2
		if closeAt < off {
			j := strings.IndexByte(s[off:], '}')
			if j < 0 {
				return
			}
			closeAt = off + j
		}
		body := s[off:closeAt]
		n := identLen(body)
		if n == 0 {
			continue
		}
		var def string
		switch tail := body[n:]; {
		case strings.HasPrefix(tail, ":-"), strings.HasPrefix(tail, ":="):
			def = tail[2:]
		case strings.HasPrefix(tail, "-"), strings.HasPrefix(tail, "="):
			def = tail[1:]
		default:
			continue
		}
		st := classifyName(body[:n])
		if opener == inheritAt && inherit > st {
			st = inherit
		}
		if j := strings.Index(def, "${"); j >= 0 {
			if j == 0 && st != notSecret {
				inheritAt, inherit = off+len(body)-len(def), st
			}
			def = def[:j]
		}
		if def == "" {
			continue
		}
		if st != notSecret && literalSecret(st, def) {
			found(judged(st, def))
		} else if name, v, ok := splitHeader(def); ok {
			if sec, ok := headerSecretOf(headerStrength(name), v); ok {
				found(sec)
			}
		}
	}
}

// closeParen returns the index of the ')' that closes the '(' at s[open],
// or -1. Parentheses nest; quotes are not read.
func closeParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// identLen is the length of the identifier ([A-Za-z_][A-Za-z0-9_]*) at the
// start of s (dots allowed after the first character, for {{ secrets.x }}
// style names).
func identLen(s string) int {
	if s == "" || !(isAlnum(s[0]) && !isDigit(s[0]) || s[0] == '_') {
		return 0
	}
	i := 1
	for i < len(s) && (isAlnum(s[i]) || s[i] == '_' || s[i] == '.') {
		i++
	}
	return i
}

// secretStoreRef: a value that names a secret in a store or says where it
// is, the way 1Password (op://), Vault, cloud secret managers and openssl
// (env:, file:, fd:) take them.
func secretStoreRef(v string) bool {
	for _, p := range secretStorePrefixes {
		if hasPrefixFold(v, p) && len(v) > len(p) {
			return true
		}
	}
	return false
}

var secretStorePrefixes = []string{
	"op://", "vault://", "vault:", "arn:aws:secretsmanager:", "arn:aws:ssm:", "ssm://", "sm://",
	"gcp-secret://", "gcpsm://", "azure-keyvault://", "akv://", "keyvault://", "keychain:", "env:", "file:", "fd:",
	"projects/", "infisical://", "doppler://", "bws://",
}
