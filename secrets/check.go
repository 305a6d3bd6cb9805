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
	scanLooseURLs(rawURL, f.add)
	scanTokensDecoded(rawURL, f.add)
	scanAuthSchemes(rawURL, f.add)
	scanBase64(rawURL, f.add) // ?config=<base64 JSON with the key in it>
	scanRefDefaults(rawURL, f.addRefDefault)
	scanDecodedViews(rawURL, f.add) // ?config=%7B%22apiKey%22…
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

// CheckText refuses the credentials that are credentials wherever they
// appear: tokens of well-known formats, JWTs, PEM private keys and webhook
// URLs (the token/* rules and their kin in Rules), in the text as written
// and in its percent-decoded form (decoded once: key%3Dghp_… and ghp%5F…
// are tokens), and in each base64 run of 40 or more characters that
// decodes to text (a base64 token, or base64 JSON holding one); base64 is
// read for those rules only. It also refuses what a server could echo
// into prose from an env value of any name: a URL's or DSN's password, a
// connection string's Password=, a credential-named assignment, JSON
// member or query parameter, a credential header line, a Bearer or Basic
// credential; each unless the value only describes a credential (a
// placeholder, a reference, or a word such as "password" that names one).
// It is for free text a definition records, such as a system prompt, a
// description or a schema's strings, where CheckArgs' rules about flags
// and positional words would misread prose. Each finding is a
// *refusals.Error at pointer; the result is nil or their refusals.Join.
func CheckText(pointer, text string) error {
	var f findings
	scanTokensDecoded(text, f.add)
	scanBase64Tokens(text, f.add)
	scanProse(text, f.add)
	if !f.any() {
		return nil
	}
	var errs []error
	f.flush(pointer, &errs)
	return refusals.Join(errs...)
}

// CheckCommand refuses credentials in a server's command: the same rules
// as CheckArgs, applied to the words of the command (a command may be a
// whole command line, "env TOKEN=… node server.js"). Every finding is at
// pointer.
func CheckCommand(pointer, command string) error {
	var errs []error
	var st seq
	if f := checkCommand(command, &st); f.any() {
		f.flush(pointer, &errs)
	}
	return refusals.Join(errs...)
}

// CheckStdio refuses credentials in a stdio server's command and
// arguments, read together: what CheckCommand refuses in the command (at
// pointer + "/command") and CheckArgs in the arguments (at pointer +
// "/args/" + the index), and also what only the command says is a
// password. mysql -pSECRET, sshpass -p SECRET, redis-cli -a SECRET,
// sqlcmd -P SECRET, docker login -p SECRET and sqlplus user/password are
// refused when the command is that program, as they are when the program
// appears earlier in the arguments. It never refuses less than
// CheckCommand and CheckArgs do; with a command such as npx, node or uvx,
// which gives no flag a meaning, it refuses exactly what they do.
func CheckStdio(pointer, command string, args []string) error {
	var errs []error
	var cmd seq
	if f := checkCommand(command, &cmd); f.any() {
		f.flush(refusals.Append(pointer, "command"), &errs)
	}
	// The command's words seed a second reading of the arguments only if
	// they leave something for them: a program or a pending flag.
	seeded := cmd.prog != progNone || cmd.pend != pendNone
	var plain seq
	argsPointer := ""
	for i, a := range args {
		var f findings
		wholeScans(a, &f)
		plain.argWords(a, &f)
		if seeded {
			cmd.argWords(a, &f)
		}
		if f.any() {
			if argsPointer == "" {
				argsPointer = refusals.Append(pointer, "args")
			}
			f.flush(indexPointer(argsPointer, i), &errs)
		}
	}
	return refusals.Join(errs...)
}

// checkCommand checks a command line as CheckCommand does, leaving in st
// what its words leave for the arguments.
func checkCommand(command string, st *seq) (f findings) {
	wholeScans(command, &f)
	st.words(command, &f)
	return f
}

// report is how a scan tells what it found: the rule that fired, and the
// secret it fired on as it stands in the text the check was given (for a
// secret the scan decoded, the encoded text that holds it). Checks keep
// the rule; Credentials keeps the secret.
type report func(r rule, secret string)

// findings is the set of rules that fired on one value.
type findings struct {
	bits [2]uint64
	// secrets, if not nil, collects the secret of every finding
	// (Credentials); the checks leave it nil.
	secrets *[]string
	// refDefault: a credential-named reference with a literal default
	// (${API_KEY:-VALUE}) stands in the value. It is reported as
	// credential-assignment only if no other rule refused the value, so
	// that --api-key ${API_KEY:-VALUE} and postgres://u:${DB_PASSWORD:-pw}@db
	// give one refusal, not two.
	refDefault bool
}

func (f *findings) add(r rule, secret string) {
	f.bits[r/64] |= 1 << (r % 64)
	f.keep(secret)
}
func (f *findings) has(r rule) bool { return f.bits[r/64]&(1<<(r%64)) != 0 }
func (f *findings) del(r rule)      { f.bits[r/64] &^= 1 << (r % 64) }
func (f *findings) any() bool       { return f.bits[0]|f.bits[1] != 0 || f.refDefault }
func (f *findings) addRefDefault(secret string) {
	f.refDefault = true
	f.keep(secret)
}

func (f *findings) keep(secret string) {
	if f.secrets != nil && secret != "" {
		*f.secrets = append(*f.secrets, secret)
	}
}

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
	if f.refDefault && f.bits[0]|f.bits[1] == 0 {
		f.bits[ruleCredentialAssignment/64] |= 1 << (ruleCredentialAssignment % 64)
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
	scanTokensDecoded(s, f.add)
	scanURLs(s, f.add)
	scanAssignments(s, f.add)
	scanAuthSchemes(s, f.add)
	scanBase64(s, f.add)
	scanRefDefaults(s, f.addRefDefault)
	scanDecodedViews(s, f.add)
	scanHeaderLines(s, f.add)
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
	pendSetName               // setx, set -x, git config: this word may name a variable
	pendSetValue              // setx API_KEY: this word is the credential assigned
	pendSMBUser               // smbclient -U: user%password
	pendLFTPUser              // lftp -u: user,password
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
	// cmdPos counts the positional words since the start of the current
	// command (the line's start, or a shell operator): setx and set take
	// a variable's name only where a command or its subcommand stands.
	cmdPos int
	prev   string // the last positional word of the current command
	depth  int    // of command substitution this line is read at
}

// arg checks one argument: the whole-string scans, then the argument as a
// word of the sequence, then, for an argument with spaces in it (a shell
// line given as one argument, "--api-key abc"), its own words.
func (s *seq) arg(a string, f *findings) {
	wholeScans(a, f)
	s.argWords(a, f)
}

// argWords is arg without the whole-string scans.
func (s *seq) argWords(a string, f *findings) {
	if strings.ContainsAny(a, " \t\n") {
		// "Name: value" as a whole argument is a header, unless it is
		// the value of an ordinary flag (--title "Token: overview").
		// A header is one line: "auth:\n  type: …" is YAML, whose lines
		// scanConfigLines reads.
		if name, value, ok := splitHeader(a); ok && s.pend != pendFlagValue && !strings.ContainsAny(value, "\n\r") {
			if sec, ok := headerSecretOf(headerStrength(name), value); ok {
				f.add(ruleHeaderCredential, sec)
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
	lx := lexer{s: line}
	for {
		w, ok := lx.next()
		if !ok {
			return
		}
		s.word(trimQuotes(w), f)
		if s.depth < maxDepth && (strings.Contains(w, "$(") || strings.IndexByte(w, '`') >= 0) {
			s.substitutions(w, f)
		}
	}
}

// maxDepth bounds how deeply command substitutions are read, so that
// $($($(…))) costs a bounded number of passes over its text.
const maxDepth = 3

// substitutions reads the commands inside a word's command substitutions
// ($(…) and `…`) as lines of their own. The substitution is a reference as
// a value, but the command it runs is recorded too, and may hold a
// password (TOKEN=$(mysql -pSECRET -e …)).
func (s *seq) substitutions(w string, f *findings) {
	for i := 0; i < len(w); i++ {
		var body string
		switch {
		case w[i] == '$' && i+1 < len(w) && w[i+1] == '(':
			j := closeParen(w[i:], 1)
			if j < 0 {
				return
			}
			body = w[i+2 : i+j]
			i += j
		case w[i] == '`':
			j := strings.IndexByte(w[i+1:], '`')
			if j < 0 {
				return
			}
			body = w[i+1 : i+1+j]
			i += j + 1
		default:
			continue
		}
		inner := seq{prog: s.prog, inner: true, depth: s.depth + 1}
		inner.words(body, f)
	}
}

// lexer splits a line into shell-style words: runs of non-space
// characters in which quotes, backticks, $( … ), ${ … } and {{ … }} keep
// spaces inside the word, as a shell (or a template) would. PEM blocks
// are skipped whole: their base64 lines are not words to judge, and a
// private key among them has been found by the token scan already.
//
// Each closer is searched for once per opener, and a search that fails
// turns that kind of grouping off for the rest of the line (a later
// opener could only find the same nothing), so the split is linear
// however many unclosed openers a hostile line holds.
type lexer struct {
	s                                                   string
	i                                                   int
	noDQuote, noSQuote, noTick, noParen, noBrace, noTpl bool
	noPEM                                               bool
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// next returns the next word, or false at the end of the line.
func (l *lexer) next() (string, bool) {
	s := l.s
	for {
		for l.i < len(s) && isSpace(s[l.i]) {
			l.i++
		}
		if l.i >= len(s) {
			return "", false
		}
		if !l.noPEM && s[l.i] == '-' && strings.HasPrefix(s[l.i:], "-----BEGIN ") {
			if end := pemEnd(s[l.i:]); end > 0 {
				l.i += end
				continue
			}
			l.noPEM = true
		}
		break
	}
	start := l.i
	for l.i < len(s) {
		switch c := s[l.i]; {
		case isSpace(c):
			return s[start:l.i], true
		case lexSpecial[c]:
			l.i += l.group(l.i)
		default:
			l.i++
		}
	}
	return s[start:l.i], true
}

// lexSpecial: the bytes that may open a group.
var lexSpecial = [256]bool{'"': true, '\'': true, '`': true, '$': true, '{': true}

// group returns how many bytes, at least one, from s[i] belong together.
func (l *lexer) group(i int) int {
	s := l.s
	switch c := s[i]; {
	case c == '"' && !l.noDQuote, c == '\'' && !l.noSQuote, c == '`' && !l.noTick:
		if j := strings.IndexByte(s[i+1:], c); j >= 0 {
			return j + 2
		}
		switch c {
		case '"':
			l.noDQuote = true
		case '\'':
			l.noSQuote = true
		default:
			l.noTick = true
		}
	case c == '$' && i+1 < len(s) && s[i+1] == '(' && !l.noParen:
		if j := closeParen(s[i:], 1); j > 0 {
			return j + 1
		}
		l.noParen = true
	case c == '$' && i+1 < len(s) && s[i+1] == '{' && !l.noBrace:
		if j := strings.IndexByte(s[i:], '}'); j > 0 {
			return j + 1
		}
		l.noBrace = true
	case c == '{' && i+1 < len(s) && s[i+1] == '{' && !l.noTpl:
		if j := strings.Index(s[i:], "}}"); j > 0 {
			return j + 2
		}
		l.noTpl = true
	}
	return 1
}

// pemEnd returns the length of the PEM block s starts with, through the
// dashes of its END line, or 0 if it has none.
func pemEnd(s string) int {
	e := strings.Index(s, "-----END ")
	if e < 0 {
		return 0
	}
	// Only a block of base64 lines (real or \n-escaped newlines), with
	// armor headers (Version: …, Proc-Type: …) before them, is skipped;
	// anything else between the markers is read as words.
	body := s[len("-----BEGIN "):e]
	if h := strings.Index(body, "-----"); h >= 0 {
		body = body[h+len("-----"):]
	}
	for start, i := 0, 0; i <= len(body); i++ {
		nl := 0 // the length of the line break at i, if one
		if i == len(body) || body[i] == '\n' {
			nl = 1
		} else if body[i] == '\\' && i+1 < len(body) && body[i+1] == 'n' {
			nl = 2
		}
		if nl == 0 {
			continue
		}
		if line := body[start:i]; !base64Line(line) && !armorHeader(line) {
			return 0
		}
		i += nl - 1
		start = i + 1
	}
	k := strings.Index(s[e+len("-----END "):], "-----")
	if k < 0 {
		return 0
	}
	return e + len("-----END ") + k + len("-----")
}

// base64Line: a line of a PEM body.
func base64Line(l string) bool {
	for i := 0; i < len(l); i++ {
		if c := l[i]; !isAlnum(c) && c != '+' && c != '/' && c != '=' && c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// armorHeader: "Name: value" in a PEM or PGP armor header.
func armorHeader(l string) bool {
	name, _, ok := splitHeader(strings.TrimSpace(l))
	return ok && name != ""
}

// shellOperator: a word that ends one command and starts the next.
func shellOperator(w string) bool {
	switch w {
	case "&&", "||", ";", "|", "&", "(", ")", "then", "do", "exec":
		return true
	}
	return false
}

// value consumes what the previous word left pending, if anything, with w
// as the value. It reports whether w was consumed as a value.
func (s *seq) value(w string, f *findings) bool {
	p, st := s.pend, s.strength
	s.pend, s.strength = pendNone, notSecret
	if shellOperator(w) {
		// && ; | exec: the command ends, and with it what was pending (a
		// credential flag with no value, like one followed by a flag).
		s.cmdPos, s.prev = 0, ""
		return true
	}
	switch p {
	case pendNone:
		return false
	case pendFlagValue:
		if isFlagWord(w) {
			return false
		}
		if pw := schemelessPassword(w); pw != "" {
			f.add(ruleURLPassword, pw) // --proxy user:pw@proxy.example.com
		}
		if pw := s.oraclePassword(w); pw != "" {
			f.add(ruleURLPassword, pw) // sqlplus -S scott/tiger@db
		}
	case pendCredential:
		if isFlagWord(w) {
			return false // a credential flag with no value: a switch
		}
		if literalSecret(st, w) {
			f.add(ruleCredentialFlag, judged(st, w))
		} else if st == strong && openSSLPassSecret(w) {
			f.add(ruleCredentialFlag, w[len("pass:"):])
		}
	case pendHeader:
		if name, v, ok := splitHeader(w); ok {
			hs := headerStrength(name)
			if v == "" && hs != notSecret {
				s.pend, s.strength = pendHeaderVal, hs
			} else if sec, ok := headerSecretOf(hs, v); ok {
				f.add(ruleHeaderCredential, sec)
			}
		} else if hs := headerStrength(w); hs != notSecret && !strings.ContainsAny(w, "= ") {
			s.pend, s.strength = pendHeaderVal, hs // --header Authorization "Bearer …"
		} else if authSchemeValue(w) {
			f.add(ruleHeaderCredential, authCredential(w)) // --header "Bearer …": the value alone
		}
	case pendHeaderVal:
		if isFlagWord(w) {
			return false
		}
		if sec, ok := headerSecretOf(st, w); ok {
			f.add(ruleHeaderCredential, sec)
		}
	case pendPassword:
		if isFlagWord(w) {
			return false
		}
		if sec, ok := judge(strong, w); ok {
			f.add(ruleCredentialFlag, sec)
		}
	case pendOpenSSL:
		if openSSLPassSecret(w) {
			f.add(ruleCredentialFlag, w[len("pass:"):])
		}
	case pendUserPass:
		if pw := userPasswordOf(w); pw != "" {
			f.add(ruleCredentialFlag, pw)
		}
	case pendSMBUser:
		if pw := smbPassword(w); pw != "" {
			f.add(ruleCredentialFlag, pw)
		}
	case pendLFTPUser:
		if pw := lftpPassword(w); pw != "" {
			f.add(ruleCredentialFlag, pw)
		}
	case pendUserPassGuess:
		if isFlagWord(w) {
			return false
		}
		// Without the program's name, -u may be docker's user:group: only
		// a password that is neither a number nor a plain name counts.
		if c := strings.IndexByte(w, ':'); c > 0 && userPassword(w) && !identifierLike(w[c+1:]) {
			f.add(ruleCredentialFlag, w[c+1:])
		}
	case pendSetName:
		if w == "" {
			return false
		}
		if len(w) <= 3 && w[0] == '/' {
			s.pend = pendSetName // setx /M NAME VALUE
			return true
		}
		if name, _, _, ok := flagName(w); ok {
			if classifyName(name) != notSecret {
				return false // set --api-key …: the flag speaks for itself
			}
			s.pend = pendSetName // set -gx NAME VALUE, git config --global NAME VALUE
			return true
		}
		if !variableName(w) {
			return false
		}
		s.cmdPos, s.prev = s.cmdPos+1, w
		if st := classifyName(w); st != notSecret {
			s.pend, s.strength = pendSetValue, st // setx API_KEY VALUE
		}
	case pendSetValue:
		if name, v, hasVal, ok := flagName(w); ok {
			// gh secret set API_KEY --body VALUE, az … --value VALUE.
			switch name {
			case "body", "b", "value", "v":
				if !hasVal {
					s.pend, s.strength = pendSetValue, st
				} else if sec, ok := judge(st, v); ok {
					f.add(ruleCredentialAssignment, sec)
				}
				return true
			}
			return false
		}
		if sec, ok := judge(st, w); ok {
			f.add(ruleCredentialAssignment, sec)
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
	// "export A=b;" and "x&&": the command ends after this word.
	ends := false
	for len(w) > 1 && (w[len(w)-1] == ';' || w[len(w)-1] == '&' || w[len(w)-1] == '|') {
		w, ends = w[:len(w)-1], true
	}
	s.word1(w, f)
	if ends {
		s.pend, s.strength, s.cmdPos, s.prev = pendNone, notSecret, 0, ""
	}
}

func (s *seq) word1(w string, f *findings) {
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
		if sec, ok := headerSecretOf(headerStrength(name), v); ok {
			f.add(ruleHeaderCredential, sec)
		}
	}
	// Windows and PowerShell spell a flag's value with a colon:
	// /password:VALUE, -Password:VALUE.
	if name, v, ok := colonFlag(w); ok {
		if st := classifyName(name); st != notSecret {
			if sec, ok := judge(st, v); ok {
				f.add(ruleCredentialFlag, sec)
			}
			return
		}
	}
	if s.prog == progFreeRDP && strings.HasPrefix(w, "/p:") {
		if sec, ok := judge(strong, w[3:]); ok {
			f.add(ruleCredentialFlag, sec) // xfreerdp /p:SECRET
		}
		return
	}
	name, val, hasVal, isFlag := flagName(w)
	if !isFlag {
		s.positional(w, f)
		return
	}
	// A program's short password flags: mysql -pSECRET, sshpass -p SECRET.
	// short is the flag's letter and all that is attached to it, '=' and
	// '/' included: mysql takes -pPass=word/1 whole.
	if short := w[1:]; w[0] == '-' && w[1] != '-' {
		sep, att := shortPassword(s.prog, short[0], s.login)
		if len(short) == 1 && sep {
			s.pend = pendPassword
			return
		}
		if len(short) > 1 && att {
			if sec, ok := judge(strong, short[1:]); ok {
				f.add(ruleCredentialFlag, sec)
			}
			return
		}
		if s.prog == progNone && short[0] == 'p' && len(short) > 1 && attachedPasswordGuess(short[1:]) {
			f.add(ruleCredentialFlag, short[1:])
			return
		}
		if (short[0] == 'u' && s.prog == progCurl) || (short[0] == 'a' && s.prog == progHTTPie) {
			// curl -u user:pw, -uuser:pw; HTTPie -a user:pw, -auser:pw.
			if len(short) == 1 {
				s.pend = pendUserPass
			} else if pw := userPasswordOf(short[1:]); pw != "" {
				f.add(ruleCredentialFlag, pw)
			}
			return
		}
		if short[0] == 'u' && s.prog == progLFTP {
			if len(short) == 1 {
				s.pend = pendLFTPUser
			} else if pw := lftpPassword(short[1:]); pw != "" {
				f.add(ruleCredentialFlag, pw)
			}
			return
		}
		if name == "u" && s.prog == progNone {
			s.pend = pendUserPassGuess // curl -u user:pw, when the command is not seen
			return
		}
		if s.prog == progSMB && short[0] == 'U' {
			if pw := smbPassword(short[1:]); len(short) > 1 && pw != "" {
				f.add(ruleCredentialFlag, pw)
			} else if len(short) == 1 {
				s.pend = pendSMBUser
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
				f.add(ruleCredentialFlag, val[len("pass:"):])
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
			if pw := userPasswordOf(val); pw != "" {
				f.add(ruleCredentialFlag, pw)
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
		} else if pw := schemelessPassword(val); pw != "" {
			f.add(ruleURLPassword, pw)
		}
		return
	}
	if hasVal {
		if sec, ok := judge(st, val); ok {
			f.add(ruleCredentialFlag, sec)
		} else if st == strong && openSSLPassSecret(val) {
			f.add(ruleCredentialFlag, val[len("pass:"):])
		}
		return
	}
	s.pend, s.strength = pendCredential, st
}

// positional checks a word that is neither a flag nor a flag's value.
func (s *seq) positional(w string, f *findings) {
	pos, prev := s.cmdPos, s.prev
	s.cmdPos, s.prev = s.cmdPos+1, w
	if p := programOf(w); p != progNone {
		s.prog, s.login = p, false
		return
	}
	if (s.prog == progDocker || s.prog == progAz) && w == "login" {
		s.login = true
	}
	// setx NAME VALUE, set -x NAME VALUE (fish), launchctl setenv, git
	// config NAME VALUE, npm config set NAME VALUE: a command that sets a
	// variable from the next two words.
	if setter(w, pos, prev) {
		s.pend = pendSetName
		return
	}
	// An assignment (env NAME=VALUE, export NAME=VALUE): its value is
	// judged, not the name with it; the name's own rule is the
	// assignment scan's.
	if len(w) < 8 && !strings.ContainsAny(w, "=:@/") {
		return // a word too short for any rule below: the common case
	}
	v, assigned := w, false
	if eq := assignEq(w); eq > 0 {
		v, assigned = w[eq+1:], true
	}
	if bareRandom(v) {
		f.add(ruleHighEntropy, v)
	} else if p := pairSecret(w); !assigned && bareRandom(p) {
		f.add(ruleHighEntropy, p)
	}
	if pw := schemelessPassword(w); pw != "" {
		f.add(ruleURLPassword, pw) // DSN=user:pw@host
	} else if pw := schemelessPassword(v); assigned && pw != "" {
		f.add(ruleURLPassword, pw)
	}
	if pw := s.oraclePassword(w); pw != "" {
		f.add(ruleURLPassword, pw) // sqlplus scott/tiger@db
	} else if assigned && strings.EqualFold(w[:len(w)-len(v)-1], "userid") {
		if pw := s.oraclePassword(v); pw != "" {
			f.add(ruleURLPassword, pw) // sqlldr userid=scott/tiger
		}
	}
}

// setter reports whether w, standing at position pos of its command after
// prev, is a command that sets a variable or a config key from the next
// two words. setx and setenv are no English words; "set" and "config" are,
// so they count only where a command or a tool's subcommand stands, not
// in prose ("please set API_KEY first").
func setter(w string, pos int, prev string) bool {
	switch w {
	case "setx", "setenv":
		return true
	case "set":
		switch prev {
		case "config", "user-secrets", "secrets", "secret", "/c", "/k":
			return true
		}
		return pos == 0
	case "config":
		switch prev {
		case "git", "npm", "yarn", "pnpm", "bun", "poetry", "conda", "pip", "pip3", "uv":
			return true
		}
		return pos == 0
	}
	return false
}

// pairSecret returns the secret of an id:secret pair given as one word,
// as Twilio's MCP server takes ACCOUNT_SID/API_KEY_SID:API_SECRET and some
// tools user:password, or "" if w is no such pair. The id part is a name
// or number (alice, svc-mcp, 1000), or an ID with digits or a '/' in it;
// digests (sha512:…), and words with more colons (did:key:…, urn:uuid:…)
// are not pairs.
func pairSecret(w string) string {
	c := strings.IndexByte(w, ':')
	if c <= 0 || c == len(w)-1 || strings.IndexByte(w[c+1:], ':') >= 0 || strings.Contains(w, "//") {
		return ""
	}
	id := w[:c]
	for _, p := range notKeyPrefixes {
		if strings.HasSuffix(p, ":") && strings.EqualFold(p[:len(p)-1], id) {
			return ""
		}
	}
	if identifierLike(id) || strings.IndexByte(id, '/') > 0 || (len(id) >= 8 && hasDigit(id)) {
		return w[c+1:]
	}
	return ""
}

// assignEq returns the index of the '=' of NAME=VALUE, where NAME is an
// identifier and VALUE is not empty, or -1. A base64 value's padding
// (Zm9v=) is no assignment.
func assignEq(w string) int {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 || eq == len(w)-1 || w[eq+1] == '=' {
		return -1
	}
	if c := w[0]; !isUpper(c) && !isLower(c) && c != '_' {
		return -1
	}
	for i := 1; i < eq; i++ {
		if c := w[i]; !isAlnum(c) && c != '_' && c != '.' && c != '-' {
			return -1
		}
	}
	return eq
}

// variableName: a word shaped like the name of a variable or a config key
// (API_KEY, TOKEN, github.token, npmAuthToken, //registry/:_authToken),
// not a word of prose.
func variableName(w string) bool {
	if len(w) < 2 || len(w) > maxName {
		return false
	}
	marked := false
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case isUpper(c), c == '_', c == '.', c == ':', c == '/':
			marked = true
		case isLower(c), isDigit(c), c == '-':
		default:
			return false
		}
	}
	return marked
}

// colonFlag splits /name:value and -Name:value, the Windows and PowerShell
// spelling of a flag with its value.
func colonFlag(w string) (name, value string, ok bool) {
	if len(w) < 4 || (w[0] != '/' && w[0] != '-') {
		return "", "", false
	}
	i := 1
	if w[0] == '-' && w[1] == '-' {
		i = 2
	}
	start := i
	if i >= len(w) || (!isUpper(w[i]) && !isLower(w[i])) {
		return "", "", false
	}
	for i < len(w) && (isAlnum(w[i]) || w[i] == '-' || w[i] == '_') {
		i++
	}
	if i-start < 2 || i >= len(w)-1 || w[i] != ':' {
		return "", "", false
	}
	return w[start:i], w[i+1:], true
}

// oraclePassword returns the password of w if w is an Oracle login with
// one, user/password or user/password@connect, as sqlplus, rman, expdp and
// SQLcl (which needs the @connect) take it once the program is seen; else "".
func (s *seq) oraclePassword(w string) string {
	if s.prog != progOracle && s.prog != progSQLcl {
		return ""
	}
	cred := w
	at := strings.IndexByte(w, '@')
	if at >= 0 {
		cred = w[:at]
	} else if s.prog == progSQLcl {
		return ""
	}
	sl := strings.IndexByte(cred, '/')
	if sl <= 0 || sl == len(cred)-1 || strings.ContainsAny(cred[sl+1:], "/ \t") {
		return ""
	}
	for i := 0; i < sl; i++ {
		if !oracleIdentChar(cred[i]) {
			return ""
		}
	}
	return urlPassword(cred[sl+1:])
}

// oracleIdentChar: a character of an Oracle user name.
func oracleIdentChar(c byte) bool { return isAlnum(c) || c == '_' || c == '$' || c == '#' }

// lftpPassword returns the password of lftp's user,password, or "".
func lftpPassword(v string) string {
	i := strings.IndexByte(v, ',')
	if i <= 0 || i == len(v)-1 {
		return ""
	}
	sec, _ := judge(strong, v[i+1:])
	return sec
}

// smbPassword returns the password of user%password, or "".
func smbPassword(v string) string {
	i := strings.IndexByte(v, '%')
	if i < 0 || i == len(v)-1 {
		return ""
	}
	sec, _ := judge(strong, v[i+1:])
	return sec
}
