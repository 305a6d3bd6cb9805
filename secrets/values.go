package secrets

import (
	"strings"
)

// seedPhrase: 12 to 24 short lowercase words, as BIP-39 mnemonics are
// written.
func seedPhrase(v string) bool {
	words, n := 0, 0
	for i := 0; i <= len(v); i++ {
		if i < len(v) && isLower(v[i]) {
			n++
			continue
		}
		if i < len(v) && v[i] != ' ' {
			return false
		}
		if n < 3 || n > 8 {
			return false
		}
		words, n = words+1, 0
	}
	return words >= 12 && words <= 24 && words%3 == 0
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// maxValue bounds how much of a value is judged.
const maxValue = 512

// literalSecret decides a value given to a name of strength st: whether a
// definition recording it would record a credential. The caller has
// already scanned the value for tokens and URLs.
func literalSecret(st strength, v string) bool {
	if len(v) > maxValue {
		// Judged by its start: a value this long after a credential name
		// is refused or accepted by what it begins with, and judging it
		// whole at every '=' of a hostile string would be quadratic.
		v = v[:maxValue]
	}
	v = trimQuotes(strings.TrimSpace(v))
	if v == "" {
		return false
	}
	if ok, def := reference(v); ok {
		if def == "" {
			return false
		}
		v = def
		if ok, _ := reference(v); ok {
			return false
		}
	}
	if placeholder(v) || secretStoreRef(v) || publicByDesign(v) || identifierByDesign(v) {
		return false
	}
	switch st {
	case strong:
		if plainSetting(v) || pathLike(v) || isPairList(v) {
			return false
		}
		return true
	case authorization:
		return authValueSecret(v)
	case authName:
		return !plainSetting(v) && !authMethod(v) && !pathLike(v)
	case keyAlone:
		return !identifierLike(v) && !plainSetting(v) && !pathLike(v) && !isPairList(v)
	case weak:
		// --seed 42 is a number; --wallet-seed "abandon ability …" is
		// a wallet.
		return looksRandom(v) || userPassword(v) || seedPhrase(v)
	case nameRef:
		return looksRandom(v)
	}
	return false
}

// judge is literalSecret returning, when it refuses v, the secret it
// judged (see judged).
func judge(st strength, v string) (string, bool) {
	if !literalSecret(st, v) {
		return "", false
	}
	return judged(st, v), true
}

// judged returns the part of v that literalSecret judges as the secret:
// v without surrounding spaces and quotes, a reference's literal default
// (${KEY:-VALUE} gives VALUE), and an Authorization value's credential
// without its scheme. It is a substring of v.
func judged(st strength, v string) string {
	v = trimQuotes(strings.TrimSpace(v))
	if ok, def := reference(v); ok && def != "" {
		v = def
	}
	if st == authorization {
		v = authCredential(v)
	}
	return v
}

// isPairList: the value is itself key=value pairs (docker's --secret
// id=x,src=path): its keys decide, and the assignment scan judges them.
func isPairList(v string) bool {
	eq := strings.IndexByte(v, '=')
	if eq <= 0 || eq == len(v)-1 || v[eq+1] == '=' {
		return false
	}
	switch strings.ToLower(v[:eq]) {
	case "id", "src", "source", "type", "env", "target", "name", "required", "mode", "uid", "gid":
		return true
	}
	return false
}

// userPassword: user:password given to an auth-ish name (--auth u:p), or
// user/password as NEO4J_AUTH takes it.
func userPassword(v string) bool { return userPasswordOf(v) != "" }

// userPasswordOf returns the password of v if userPassword would accept
// v as user:password or user/password, else "".
func userPasswordOf(v string) string {
	if i := strings.IndexByte(v, '/'); i > 0 && i < len(v)-1 && strings.Count(v, "/") == 1 &&
		!strings.ContainsAny(v, ".:@ ") && identLen(v[:i]) == i {
		pw := v[i+1:]
		if ok, _ := reference(pw); !ok && !placeholder(pw) {
			return pw
		}
	}
	i := strings.IndexByte(v, ':')
	if i <= 0 || i == len(v)-1 || strings.ContainsAny(v, " /@") {
		return ""
	}
	pw := v[i+1:]
	if ok, _ := reference(pw); ok || placeholder(pw) {
		return ""
	}
	for j := 0; j < len(pw); j++ {
		if !isDigit(pw[j]) {
			return pw
		}
	}
	return "" // uid:gid
}

func trimQuotes(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}
