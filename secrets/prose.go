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
// (X-API-Key, Authorization, Cookie, …) and value, the next word, looks
// like a key, as an echoed header does; prose that names a header ("send
// it in the X-API-Key: header") has a word there, not a key.
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
		if st != strong && st != authorization {
			continue
		}
		v := strings.TrimLeft(s[c+2:], " \t")
		if st == authorization {
			// Bearer and Basic are scanAuthSchemes'; other schemes
			// (Token, ApiKey, …) and bare values are read here.
			if sp := strings.IndexAny(v, " \t"); sp > 0 {
				for _, sc := range authSchemes {
					if strings.EqualFold(v[:sp], sc) {
						v = strings.TrimLeft(v[sp+1:], " \t")
						break
					}
				}
			}
		}
		n := 0
		for n < len(v) && n < maxValue && (isAlnum(v[n]) || strings.IndexByte("._~+/=-", v[n]) >= 0) {
			n++
		}
		if w := strings.TrimRight(v[:n], "."); looksRandom(w) && !placeholder(w) {
			found(ruleHeaderCredential, w)
		}
	}
}
