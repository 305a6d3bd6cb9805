package secrets

import "strings"

// This file walks a sequence of words (a server's arguments, or the
// words of a command line) carrying what one word tells about the next:
// a flag waiting for its value, the program whose flags are being read,
// a command that sets a variable. What a flag means is flags.go's.

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
		s.takePending(a, f) // the whole argument may still be a pending value
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

// word checks one word of a sequence: as the value of what came before, as
// a flag, or as a positional argument.
func (s *seq) word(w string, f *findings) {
	// "export A=b;" and "x&&": the command ends after this word.
	ends := false
	for len(w) > 1 && (w[len(w)-1] == ';' || w[len(w)-1] == '&' || w[len(w)-1] == '|') {
		w, ends = w[:len(w)-1], true
	}
	s.judgeWord(w, f)
	if ends {
		s.pend, s.strength, s.cmdPos, s.prev = pendNone, notSecret, 0, ""
	}
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
	// A vendor's prefix and a generated body (abc_<random>), which no
	// list need name: a positional word or an assignment's value.
	scanPrefixed(v, f.add)
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
