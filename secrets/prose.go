package secrets

import "strings"

// This file decides what CheckText refuses beyond tokens: what a server
// could echo into prose from an env value of any name. A URL's or DSN's
// password, a connection string's Password=, a JSON member or assignment
// of a credential name, a credential header line and a Bearer or Basic
// credential are refused in prose as in an argument, unless the value
// only describes a credential: a placeholder, a reference, or the word
// that names it ("postgres://user:password@host is the URL's shape",
// "password=secret").

// proseRules are the rules prose is judged by besides the token formats.
var proseRules = [...]rule{
	ruleURLPassword, ruleURLQueryCredential, ruleURLSigned, ruleCredentialAssignment,
	ruleHeaderCredential, ruleAuthScheme,
}

// scanProse reports, under proseRules, the credentials in prose that do
// not merely describe one.
func scanProse(s string, found report) {
	keep := func(r rule, secret string) {
		for _, p := range proseRules {
			if r == p {
				if !describes(secret) {
					found(r, secret)
				}
				return
			}
		}
	}
	scanURLs(s, keep)
	scanAssignments(s, keep)
	scanAuthSchemes(s, keep)
	scanHeaderLines(s, keep)
	if d, from, ok := jsonUnescaped(s); ok {
		scanView(s, d, from, func(v string, r report) {
			scanURLs(v, r)
			scanAssignments(v, r)
			scanAuthSchemes(v, r)
		}, keep)
	}
}

// describes reports whether a value found where a credential goes only
// names one: a word, or words joined by '_' or '-', that is itself a
// credential's name (password, secret, pass, api_key, my-token). Prose
// and examples write such words where the credential goes; no one's real
// password is the word "password" as far as a document about it can
// tell, and one that is fails only the prose check, not the others.
func describes(v string) bool {
	if v == "" || len(v) > maxName {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !isLower(c) && !isUpper(c) && c != '_' && c != '-' {
			return false
		}
	}
	return classifyName(v) != notSecret
}

// scanHeaderLines finds "Name: value" where Name is a credential header
// (X-API-Key, Authorization, Cookie, X-Acme-Token, X-Acme-Key, …) and
// value, the next word, is shaped like a key, as an echoed header is: a
// random-looking string, a UUID or a hex string of 16 or more (many
// vendors issue those). Prose that names a header ("send it in the
// X-API-Key: header") has a word there, not a key. An Authorization
// value's first word is its scheme when another word follows, whatever
// the scheme is called (Token, ApiKey, Klaviyo-API-Key).
func scanHeaderLines(s string, found report) {
	for c := range indexes(s, ": ") {
		k := c
		for k > 0 && c-k < 40 && (isAlnum(s[k-1]) || s[k-1] == '-' || s[k-1] == '_') {
			k--
		}
		if k == c || (k > 0 && isAlnum(s[k-1])) {
			continue
		}
		st := headerStrength(s[k:c])
		switch st {
		case strong, keyAlone, authName, authorization:
		default:
			continue
		}
		v := strings.TrimLeft(s[c+2:], " \t")
		if st == authorization {
			v = afterScheme(v)
		}
		n := 0
		for n < len(v) && n < maxValue && (isAlnum(v[n]) || strings.IndexByte("._~+/=-", v[n]) >= 0) {
			n++
		}
		if w := strings.TrimRight(v[:n], "."); keyShaped(w) && !placeholder(w) {
			found(ruleHeaderCredential, w)
		}
	}
}

// afterScheme returns an Authorization value from its credential on: the
// word after the first when the first is scheme-shaped (letters, digits
// and '-', starting with a letter, as every HTTP auth scheme is) and
// another word follows it; v itself otherwise.
func afterScheme(v string) string {
	sp := strings.IndexAny(v, " \t")
	if sp <= 0 || sp > 40 || !isUpper(v[0]) && !isLower(v[0]) {
		return v
	}
	for i := 0; i < sp; i++ {
		if !isAlnum(v[i]) && v[i] != '-' {
			return v
		}
	}
	return strings.TrimLeft(v[sp+1:], " \t")
}

// keyShaped: a header value that can only be a key: random-looking, a
// UUID, or 16 or more hex digits with letters and digits both.
func keyShaped(w string) bool {
	if looksRandom(w) || isUUID(w) {
		return true
	}
	if len(w) < 16 {
		return false
	}
	letters, digits := 0, 0
	for i := 0; i < len(w); i++ {
		switch {
		case isDigit(w[i]):
			digits++
		case isHex(w[i]):
			letters++
		default:
			return false
		}
	}
	return letters > 0 && digits > 0
}
