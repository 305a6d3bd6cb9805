package secrets

import (
	"strings"

	"github.com/guardian-agent/guardian-go/refusals"
)

// CheckURL refuses a credential in a server URL: a password in the
// userinfo, a token as the user name, a credential-named or signed-URL
// query or fragment parameter, a JDBC password property, and any
// well-known token anywhere in it. It returns nil, or a refusals.Join of
// one *refusals.Error per finding at pointer, with Kind
// refusals.ErrContainsSecret. A URL that net/url would reject is still
// checked: nothing here parses it with net/url.
func CheckURL(pointer, rawURL string) error {
	var f findings
	if k := strings.Index(rawURL, "://"); k >= 0 {
		// The whole string is the URL: spaces and NULs in it do not end it.
		checkURL(rawURL[:k], rawURL[k+3:], true, f.add)
		scanURLs(rawURL, f.add)
	} else if strings.HasPrefix(rawURL, "jdbc:") {
		scanURLs(rawURL, f.add)
	} else {
		// No scheme: read it as authority and the rest, so that
		// user:pass@host/db is not waved through.
		checkURL("", rawURL, true, f.add)
	}
	scanTokens(rawURL, f.add)
	scanAuthSchemes(rawURL, f.add)
	scanBase64(rawURL, f.add) // ?config=<base64 JSON with the key in it>
	var errs []error
	f.flush(pointer, &errs)
	return refusals.Join(errs...)
}

// CheckArgs refuses credentials in a server's arguments: tokens of
// well-known formats anywhere, URLs with passwords or credential
// parameters, values after credential-named flags (--api-key VALUE,
// --password=VALUE, -token VALUE), credentials in header-shaped arguments,
// env-style assignments of credential-named variables, and random-looking
// key material given as a bare argument. Each finding is a
// *refusals.Error at pointer + "/" + the argument's index; the result is
// nil or their refusals.Join.
func CheckArgs(pointer string, args []string) error {
	var errs []error
	var st seq
	for i, a := range args {
		var f findings
		st.arg(a, &f)
		if f.any() {
			f.flush(indexPointer(pointer, i), &errs)
		}
	}
	return refusals.Join(errs...)
}

// CheckCommand refuses credentials in a server's command: the same rules
// as CheckArgs, applied to the words of the command (a command may be a
// whole command line, "env TOKEN=… node server.js"). Every finding is at
// pointer.
func CheckCommand(pointer, command string) error {
	var f findings
	wholeScans(command, &f)
	var st seq
	st.words(command, &f)
	var errs []error
	f.flush(pointer, &errs)
	return refusals.Join(errs...)
}

// findings is the set of rules that fired on one value.
type findings struct{ bits [2]uint64 }

func (f *findings) add(r rule)      { f.bits[r/64] |= 1 << (r % 64) }
func (f *findings) has(r rule) bool { return f.bits[r/64]&(1<<(r%64)) != 0 }
func (f *findings) del(r rule)      { f.bits[r/64] &^= 1 << (r % 64) }
func (f *findings) any() bool       { return f.bits[0]|f.bits[1] != 0 }

// generic rules say less than a token rule about the same value; when a
// token rule fired on a value, they are left out so one secret gives one
// refusal.
var generic = [...]rule{
	ruleCredentialFlag, ruleCredentialAssignment, ruleHeaderCredential, ruleAuthScheme,
	ruleHighEntropy, ruleURLUserToken, ruleURLQueryCredential, ruleURLPathSecret,
}

func (f *findings) flush(pointer string, errs *[]error) {
	if !f.any() {
		return
	}
	token := false
	for r := ruleJWT; r < numRules; r++ {
		if f.has(r) {
			token = true
			break
		}
	}
	if token || f.has(rulePrivateKey) {
		for _, r := range generic {
			f.del(r)
		}
	}
	if f.has(ruleHeaderCredential) || f.has(ruleCredentialFlag) || f.has(ruleCredentialAssignment) {
		f.del(ruleAuthScheme)
	}
	for r := rule(0); r < numRules; r++ {
		if f.has(r) {
			*errs = append(*errs, r.refusal(pointer))
		}
	}
}

// wholeScans are the scans that read a value as a whole string, wherever
// in it a secret stands.
func wholeScans(s string, f *findings) {
	scanTokens(s, f.add)
	scanURLs(s, f.add)
	scanAssignments(s, f.add)
	scanAuthSchemes(s, f.add)
	scanBase64(s, f.add)
}

// pending is what the previous word left for this one.
type pending uint8

const (
	pendNone          pending = iota
	pendFlagValue             // a non-credential flag: this word may be its value
	pendCredential            // a credential flag: this word is the credential
	pendHeader                // a header flag: this word is a header
	pendHeaderVal             // a credential header's name alone: this word is its value
	pendPassword              // a program's password flag (sshpass -p)
	pendOpenSSL               // openssl -passin: pass:SECRET
	pendUserPass              // curl -u: user:password
	pendUserPassGuess         // -u or --user with no program known: user:password, judged strictly
)

// seq carries what one word tells about the next, through a list of
// arguments or the words of a command line.
type seq struct {
	pend     pending
	strength strength // of the pending credential flag or header name
	prog     program
	login    bool // "login" seen after a registry program
	// inner: the words of one argument (a shell line, or prose). There a
	// word ending in ':' is read as a header name only after a header
	// flag, since prose has "Token: …" too.
	inner bool
}

// arg checks one argument: the whole-string scans, then the argument as a
// word of the sequence, then, for an argument with spaces in it (a shell
// line given as one argument, "--api-key abc"), its own words.
func (s *seq) arg(a string, f *findings) {
	wholeScans(a, f)
	if strings.ContainsAny(a, " \t\n") {
		// "Name: value" as a whole argument is a header, unless it is
		// the value of an ordinary flag (--title "Token: overview").
		if name, value, ok := splitHeader(a); ok && s.pend != pendFlagValue {
			if headerSecret(headerStrength(name), value) {
				f.add(ruleHeaderCredential)
			}
		}
		s.value(a, f) // the whole argument may still be a pending value
		inner := seq{prog: s.prog, login: s.login, inner: true}
		inner.words(a, f)
		return
	}
	s.word(a, f)
}

// words walks the shell-style words of a line.
func (s *seq) words(line string, f *findings) {
	for line != "" {
		var w string
		w, line = nextWord(line)
		if w != "" {
			s.word(trimQuotes(w), f)
		}
	}
}

// nextWord splits off the first word: a run of non-space characters, in
// which quotes group spaces.
func nextWord(s string) (word, rest string) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	start := i
	for i < len(s) {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			break
		}
		if c == '"' || c == '\'' {
			if j := strings.IndexByte(s[i+1:], c); j >= 0 {
				i += j + 2
				continue
			}
		}
		i++
	}
	return s[start:i], s[i:]
}

// value consumes what the previous word left pending, if anything, with w
// as the value. It reports whether w was consumed as a value.
func (s *seq) value(w string, f *findings) bool {
	p, st := s.pend, s.strength
	s.pend, s.strength = pendNone, notSecret
	switch p {
	case pendNone:
		return false
	case pendFlagValue:
		if isFlagWord(w) {
			return false
		}
		if schemelessUserinfo(w) {
			f.add(ruleURLPassword) // --proxy user:pw@proxy.example.com
		}
	case pendCredential:
		if isFlagWord(w) {
			return false // a credential flag with no value: a switch
		}
		if literalSecret(st, w) || (st == strong && openSSLPassSecret(w)) {
			f.add(ruleCredentialFlag)
		}
	case pendHeader:
		if name, v, ok := splitHeader(w); ok {
			hs := headerStrength(name)
			if v == "" && hs != notSecret {
				s.pend, s.strength = pendHeaderVal, hs
			} else if headerSecret(hs, v) {
				f.add(ruleHeaderCredential)
			}
		} else if hs := headerStrength(w); hs != notSecret && !strings.ContainsAny(w, "= ") {
			s.pend, s.strength = pendHeaderVal, hs // --header Authorization "Bearer …"
		} else if authSchemeValue(w) {
			f.add(ruleHeaderCredential) // --header "Bearer …": the value alone
		}
	case pendHeaderVal:
		if isFlagWord(w) {
			return false
		}
		if headerSecret(st, w) {
			f.add(ruleHeaderCredential)
		}
	case pendPassword:
		if isFlagWord(w) {
			return false
		}
		if literalSecret(strong, w) {
			f.add(ruleCredentialFlag)
		}
	case pendOpenSSL:
		if openSSLPassSecret(w) {
			f.add(ruleCredentialFlag)
		}
	case pendUserPass:
		if userPassword(w) {
			f.add(ruleCredentialFlag)
		}
	case pendUserPassGuess:
		if isFlagWord(w) {
			return false
		}
		// Without the program's name, -u may be docker's user:group: only
		// a password that is neither a number nor a plain name counts.
		if c := strings.IndexByte(w, ':'); c > 0 && userPassword(w) && !identifierLike(w[c+1:]) {
			f.add(ruleCredentialFlag)
		}
	}
	return true
}

// isFlagWord: a word that is a flag, not a value.
func isFlagWord(w string) bool {
	_, _, _, ok := flagName(w)
	return ok
}

// word checks one word of a sequence: as the value of what came before, as
// a flag, or as a positional argument.
func (s *seq) word(w string, f *findings) {
	if s.value(w, f) {
		return
	}
	if name, v, ok := splitHeader(w); ok && v == "" && !s.inner {
		// "Authorization:" alone, its value in the next word.
		if hs := headerStrength(name); hs != notSecret {
			s.pend, s.strength = pendHeaderVal, hs
			return
		}
	} else if ok && v != "" {
		if headerSecret(headerStrength(name), v) {
			f.add(ruleHeaderCredential)
		}
	}
	name, val, hasVal, isFlag := flagName(w)
	if !isFlag {
		s.positional(w, f)
		return
	}
	// A program's short password flags: mysql -pSECRET, sshpass -p SECRET.
	if w[1] != '-' && len(name) >= 1 {
		sep, att := shortPassword(s.prog, name[0], s.login)
		if len(name) == 1 && !hasVal && sep {
			s.pend = pendPassword
			return
		}
		if len(name) > 1 && att && !hasVal {
			if literalSecret(strong, name[1:]) {
				f.add(ruleCredentialFlag)
			}
			return
		}
		if s.prog == progNone && name[0] == 'p' && len(name) > 1 && !hasVal && attachedPasswordGuess(name[1:]) {
			f.add(ruleCredentialFlag)
			return
		}
		if name == "u" && s.prog == progCurl {
			s.pend = pendUserPass
			return
		}
		if name == "u" && s.prog == progNone {
			s.pend = pendUserPassGuess // curl -u user:pw, when the command is not seen
			return
		}
		if s.prog == progSMB && name[0] == 'U' {
			if len(name) > 1 && smbUserPassword(name[1:]) {
				f.add(ruleCredentialFlag)
			} else if len(name) == 1 {
				s.pend = pendUserPass
			}
			return
		}
	}
	if isHeaderFlag(name) {
		if hasVal {
			s.pend = pendHeader
			s.value(val, f)
		} else {
			s.pend = pendHeader
		}
		return
	}
	if openSSLPassFlag(name) {
		if hasVal {
			if openSSLPassSecret(val) {
				f.add(ruleCredentialFlag)
			}
		} else {
			s.pend = pendOpenSSL
		}
		return
	}
	if (name == "user" || name == "proxy-user") && s.prog == progNone && !hasVal {
		s.pend = pendUserPassGuess
		return
	}
	if s.prog == progCurl && (name == "user" || name == "proxy-user") {
		if hasVal {
			if userPassword(val) {
				f.add(ruleCredentialFlag)
			}
		} else {
			s.pend = pendUserPass
		}
		return
	}
	st := classifyName(name)
	if st == notSecret {
		if !hasVal {
			s.pend = pendFlagValue
		} else if schemelessUserinfo(val) {
			f.add(ruleURLPassword)
		}
		return
	}
	if hasVal {
		if literalSecret(st, val) || (st == strong && openSSLPassSecret(val)) {
			f.add(ruleCredentialFlag)
		}
		return
	}
	s.pend, s.strength = pendCredential, st
}

// positional checks a word that is neither a flag nor a flag's value.
func (s *seq) positional(w string, f *findings) {
	if p := programOf(w); p != progNone {
		s.prog, s.login = p, false
		return
	}
	if s.prog == progDocker && w == "login" {
		s.login = true
	}
	if bareRandom(w) {
		f.add(ruleHighEntropy)
	}
	if schemelessUserinfo(w) {
		f.add(ruleURLPassword)
	}
	// An assignment's value after the first '=': DSN=user:pw@host.
	if eq := strings.IndexByte(w, '='); eq > 0 && schemelessUserinfo(w[eq+1:]) {
		f.add(ruleURLPassword)
	}
}

// smbUserPassword: user%password.
func smbUserPassword(v string) bool {
	i := strings.IndexByte(v, '%')
	return i >= 0 && i < len(v)-1 && literalSecret(strong, v[i+1:])
}
