package redact

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"

	"github.com/guardian-agent/guardian-go/secrets"
)

// LearnEnv learns the value of an environment variable a server is given.
// Every credential secrets finds inside it (secrets.Credentials: a URL's
// or DSN's password, a JSON member's token, an assignment's value) is a
// credential, whatever the variable is called and however short, and the
// value around it text; a value holding none is a credential when secrets
// refuses NAME=value or the value alone (its name says so, or it is a
// token), text otherwise.
func (r *Redactor) LearnEnv(name, value string) {
	r.learnNamed(func() bool { return secrets.CheckArgs("", []string{name + "=" + value}) != nil }, value)
}

// LearnQuery learns the value of a URL's query parameter, as LearnEnv.
func (r *Redactor) LearnQuery(name, value string) {
	r.LearnEnv(name, value)
}

// LearnHeader learns the value of a header a connection sends, as
// LearnEnv (secrets reads "Name: value"), and for an Authorization header
// its credential without the scheme and a Basic pair's user and password:
// each a credential.
func (r *Redactor) LearnHeader(name, value string) {
	r.learnNamed(func() bool { return secrets.CheckArgs("", []string{name + ": " + value}) != nil }, value)
	if parts := authParts(name, value); len(parts) > 0 {
		r.Learn(parts...)
	}
}

// LearnCallHeaders learns every value of h, and the parts of an
// Authorization header's, as credentials whatever their names: a call's
// own headers are never printed.
func (r *Redactor) LearnCallHeaders(h http.Header) {
	for k, vs := range h {
		for _, v := range vs {
			r.Learn(v)
			r.Learn(authParts(k, v)...)
		}
	}
}

// LearnURL learns a connection's URL: the whole URL as text (a server may
// quote it in a tool, and it says nothing secret when its parts do not),
// its user and password as credentials, and each query value as
// LearnQuery.
func (r *Redactor) LearnURL(raw string) {
	if raw == "" {
		return
	}
	r.LearnText(raw)
	u, err := url.Parse(raw)
	if err != nil {
		return
	}
	if u.User != nil {
		// A user name, often a plain word ("app", "postgres"), from
		// minSecret bytes.
		if user := u.User.Username(); len(user) >= minSecret {
			r.Learn(user)
		}
		r.learnPassword(u.User)
	}
	for k, vs := range u.Query() {
		for _, v := range vs {
			r.LearnQuery(k, v)
		}
	}
}

// learnNamed learns value: the credentials secrets finds in it as
// credentials and the value as text; or, when it holds none, the value as
// a credential if named() (secrets refuses it under its name) or secrets
// refuses it alone, as text otherwise. A value holding a credential is not
// one whole, so that its other parts (a DSN's scheme, user and host) are
// not found in part: a tool may name the database it works on.
func (r *Redactor) learnNamed(named func() bool, value string) {
	r.learnUserinfo(value)
	if parts := secrets.Credentials(value); len(parts) > 0 {
		r.Learn(parts...)
		r.Learn(pairForms(value, parts)...)
		r.LearnText(value)
		return
	}
	if named() || secrets.CheckArgs("", []string{value}) != nil {
		r.Learn(value)
		return
	}
	r.LearnText(value)
}

// authParts returns what of an Authorization (or Proxy-Authorization)
// header's value may be quoted back apart: the credential without the
// scheme ("Bearer" alone would be redacted everywhere), a Basic pair
// decoded, its user and its password. A first word that is no scheme
// (not letters alone, as every registered scheme is) is part of the
// credential and is returned too, so that nothing of the value is left
// out of what is redacted by splitting it.
func authParts(name, value string) []string {
	switch http.CanonicalHeaderKey(name) {
	case "Authorization", "Proxy-Authorization":
	default:
		return nil
	}
	scheme, cred, ok := strings.Cut(strings.TrimSpace(value), " ")
	if !ok {
		return nil
	}
	cred = strings.TrimSpace(cred)
	out := []string{cred}
	if !isScheme(scheme) {
		out = append(out, scheme)
	}
	if strings.EqualFold(scheme, "Basic") {
		if b, err := base64.StdEncoding.DecodeString(cred); err == nil {
			// The password whatever its length, the user from
			// minSecret bytes, as for a URL's.
			user, pass, _ := strings.Cut(string(b), ":")
			out = append(out, string(b), pass)
			if len(user) >= minSecret {
				out = append(out, user)
			}
		}
	}
	return out
}

// isScheme reports whether s may be an HTTP auth scheme's name: letters,
// digits after the first and '-', at most 32 bytes (Bearer, Basic, Digest,
// AWS4-HMAC-SHA256, Negotiate).
func isScheme(s string) bool {
	if s == "" || len(s) > 32 || !isLetter(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) && !isDigit(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// LearnGiven learns values a connection was given whose names are not at
// hand (what references resolved to): each of 6 bytes or more as a
// credential, found in part too when long, and every credential secrets
// finds in one (secrets.Credentials) however short.
func (r *Redactor) LearnGiven(vals ...string) {
	for _, v := range vals {
		if len(v) >= minSecret {
			r.Learn(v)
		}
		r.learnUserinfo(v)
		parts := secrets.Credentials(v)
		r.Learn(parts...)
		r.Learn(pairForms(v, parts)...)
	}
}

// learnUserinfo learns the password of value when value is a URL with
// one, whatever secrets makes of it: a value a connection is given is
// used as it is, so a password such as "$ecret" is no reference there.
func (r *Redactor) learnUserinfo(value string) {
	if !strings.Contains(value, "://") || !strings.Contains(value, "@") {
		return
	}
	v := strings.TrimSpace(value)
	if u, err := url.Parse(v); err == nil && u.User != nil {
		r.learnPassword(u.User)
		// And the password as this value writes it, which may escape
		// other characters than Go does.
		auth := v[strings.Index(v, "://")+3:]
		if end := strings.IndexAny(auth, "/?#"); end >= 0 {
			auth = auth[:end]
		}
		if at := strings.LastIndexByte(auth, '@'); at >= 0 {
			if _, pw, ok := strings.Cut(auth[:at], ":"); ok && pw != "" {
				r.Learn(pw)
			}
		}
	}
}

// learnPassword learns a URL's password (decoded, as url.Userinfo gives
// it) whatever its length, and the pair as the URL writes it and as a
// client sends it in Basic auth (the decoded pair in base64); what the
// URL writes, the password escaped, is learnt with it (forms).
func (r *Redactor) learnPassword(ui *url.Userinfo) {
	p, ok := ui.Password()
	if !ok || p == "" {
		return
	}
	r.Learn(p, ui.String())
	r.Learn(basicForms(ui.Username() + ":" + p)...)
}

// pairForms returns, for each credential in parts that stands in value as
// the password of a user:password pair (a URL's or DSN's userinfo,
// user:pw@host), the pair as written and percent-decoded, and the base64
// of each, as a client sends the pair in Basic auth: a server may quote
// the pair it parsed, or the header it built from it.
func pairForms(value string, parts []string) []string {
	var out []string
	for _, p := range parts {
		at := strings.Index(value, p)
		if at < 1 || value[at-1] != ':' || at+len(p) >= len(value) || value[at+len(p)] != '@' {
			continue
		}
		u := at - 1
		for u > 0 && at-1-u < 256 && userByte(value[u-1]) {
			u--
		}
		pair := value[u : at+len(p)]
		out = append(out, pair)
		out = append(out, basicForms(pair)...)
		if d := percentDecode(pair, false); d != pair {
			out = append(out, d)
			out = append(out, basicForms(d)...)
		}
	}
	return out
}

// userByte: a byte of a userinfo's user name (RFC 3986's unreserved and
// sub-delims, and percent escapes); '/', ':', '@' and spaces end it.
func userByte(c byte) bool {
	return isLetter(c) || isDigit(c) || strings.IndexByte("-._~!$&'()*+,;=%", c) >= 0
}

// basicForms is pair in base64 as Basic auth carries it: standard and
// URL-safe, padded and not.
func basicForms(pair string) []string {
	b := []byte(pair)
	return []string{
		base64.StdEncoding.EncodeToString(b), base64.RawStdEncoding.EncodeToString(b),
		base64.URLEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b),
	}
}
