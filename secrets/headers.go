package secrets

import (
	"encoding/base64"
	"strings"
)

// Header names that carry a credential but that the name vocabulary would
// not recognise from their words alone.
var credentialHeaders = map[string]strength{
	"cookie":                    strong,
	"x-api-key":                 strong,
	"api-key":                   strong,
	"apikey":                    strong,
	"x-auth-token":              strong,
	"x-auth-key":                strong,
	"private-token":             strong,
	"x-vault-token":             strong,
	"x-figma-token":             strong,
	"x-subscription-token":      strong,
	"ocp-apim-subscription-key": strong,
	"x-functions-key":           strong,
	"x-goog-api-key":            strong,
	"x-access-token":            strong,
	"x-shopify-access-token":    strong,
	"x-consumer-key":            strong,
	"x-client-secret":           strong,
}

// headerStrength says how surely a header name carries a credential.
func headerStrength(name string) strength {
	if len(name) <= 32 {
		var buf [32]byte
		for i := 0; i < len(name); i++ {
			buf[i] = toLower(name[i])
		}
		if st, ok := credentialHeaders[string(buf[:len(name)])]; ok {
			return st
		}
	}
	return classifyName(name)
}

// splitHeader splits "Name: value" (curl's -H form). The name is a header
// token of two or more characters; "https://…" and "C:\…" are not headers.
func splitHeader(w string) (name, value string, ok bool) {
	if w == "" || !isAlnum(w[0]) {
		return "", "", false // -Password:x and /password:x are flags
	}
	n := 0
	for n < len(w) && (isAlnum(w[n]) || w[n] == '-' || w[n] == '_') {
		n++
	}
	if n < 2 || n >= len(w) || w[n] != ':' {
		return "", "", false
	}
	rest := w[n+1:]
	if strings.HasPrefix(rest, "//") || strings.HasPrefix(rest, `\`) {
		return "", "", false
	}
	return w[:n], strings.TrimSpace(rest), true
}

// headerSecretOf decides a header's value and returns the secret in it.
func headerSecretOf(st strength, value string) (string, bool) {
	switch st {
	case notSecret:
		return "", false
	case strong:
		// A credential header's value is the credential, whatever its
		// shape (a cookie is name=value pairs): only a reference or a
		// placeholder is not.
		v := trimQuotes(strings.TrimSpace(value))
		if v == "" || placeholder(v) {
			return "", false
		}
		if ok, def := reference(v); ok {
			return def, def != "" && !placeholder(def)
		}
		return v, true
	}
	return judge(st, value)
}

// Authorization schemes: the word before the credential.
var authSchemes = []string{
	"bearer", "basic", "token", "bot", "apikey", "api-key", "key", "sso-key", "ssws", "splunk",
	"negotiate", "ntlm", "hmac", "otoken", "digest", "aws4-hmac-sha256", "dpop", "mac",
}

// authValueSecret decides an Authorization header value: a scheme (or none)
// and a credential. "Bearer ${TOKEN}" and a bare scheme are fine.
func authValueSecret(v string) bool {
	v = authCredential(v)
	if v == "" || placeholder(v) {
		return false
	}
	if ok, def := reference(v); ok {
		return def != "" && !placeholder(def)
	}
	return true
}

// authCredential returns the credential of an Authorization value: what
// follows its scheme, or the whole value if it has no known scheme; "" for
// a scheme alone.
func authCredential(v string) string {
	v = strings.TrimSpace(v)
	if sp := strings.IndexAny(v, " \t"); sp > 0 {
		for _, s := range authSchemes {
			if strings.EqualFold(v[:sp], s) {
				return strings.TrimSpace(v[sp+1:])
			}
		}
		return v
	}
	for _, s := range authSchemes {
		if strings.EqualFold(v, s) {
			return ""
		}
	}
	return v
}

// scanAuthSchemes finds "Bearer <credential>" and "Basic <base64 of
// user:password>" anywhere in s, header or not.
func scanAuthSchemes(s string, found report) {
	for i := 0; i+6 < len(s); i++ {
		c := s[i] | 0x20
		if c != 'b' || (i > 0 && isAlnum(s[i-1])) {
			continue
		}
		switch {
		case strings.EqualFold(s[i:i+6], "bearer") && (s[i+6] == ' ' || s[i+6] == '\t'):
			cred := credentialWord(proseBearer(s[i+7:]))
			if bearerCredential(cred) {
				found(ruleAuthScheme, cred)
			}
		case strings.EqualFold(s[i:i+5], "basic") && (s[i+5] == ' ' || s[i+5] == '\t'):
			cred := credentialWord(s[i+6:])
			if basicCredential(cred) {
				found(ruleAuthScheme, cred)
			}
		}
	}
}

// proseBearer skips the words prose puts between "bearer" and the
// credential: "bearer token abc…", "Bearer token: abc…", "bearer token
// is abc…". What follows is the credential, judged as after "Bearer ".
func proseBearer(s string) string {
	t := strings.TrimLeft(s, " \t")
	if !hasPrefixFold(t, "token") || (len(t) > 5 && isAlnum(t[5])) {
		return s
	}
	t = strings.TrimLeft(t[5:], " \t")
	switch {
	case strings.HasPrefix(t, ":"), strings.HasPrefix(t, "="):
		t = t[1:]
	case hasPrefixFold(t, "is ") || hasPrefixFold(t, "is\t"):
		t = t[3:]
	}
	return t
}

// credentialWord: the word after a scheme, spaces skipped. A '}' with no
// '{' before it in the word closes a reference the word stands in
// (${H:-Authorization: Bearer tok}), and ends the word.
func credentialWord(s string) string {
	s = strings.TrimLeft(s, " \t")
	n, open := 0, false
	for n < len(s) && (isAlnum(s[n]) || strings.IndexByte("._~+/=-$%{}()", s[n]) >= 0) {
		if s[n] == '{' {
			open = true
		} else if s[n] == '}' && !open {
			break
		}
		n++
	}
	return s[:n]
}

// bearerCredential: long enough and token-like: not a reference, not a
// placeholder, not a lowercase English word ("Bearer authentication").
func bearerCredential(w string) bool {
	if len(w) < 12 || placeholder(w) {
		return false
	}
	if ok, _ := reference(w); ok {
		return false
	}
	if strings.ContainsAny(w, "${}()%") {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !isLower(w[i]) && w[i] != '-' {
			return true
		}
	}
	return false
}

// basicCredential: base64 that decodes to user:password.
func basicCredential(w string) bool {
	if len(w) < 8 || len(w) > 4096 {
		return false
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(w); err == nil {
			i := strings.IndexByte(string(b), ':')
			return i >= 0 && i < len(b)-1
		}
	}
	return false
}

// authSchemeValue: "<scheme> <credential>" with a known scheme and a
// literal credential.
func authSchemeValue(v string) bool {
	sp := strings.IndexAny(v, " \t")
	if sp <= 0 {
		return false
	}
	for _, s := range authSchemes {
		if strings.EqualFold(v[:sp], s) {
			return authValueSecret(v)
		}
	}
	return false
}
