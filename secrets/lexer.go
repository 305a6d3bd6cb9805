package secrets

import "strings"

// This file splits a command line into shell-style words.

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
