package fingerprint

import (
	"encoding/binary"
	"errors"
	"go/scanner"
	"go/token"
	"strconv"
	"strings"
)

// errScan reports source that go/scanner rejects. Source that compiled
// never does, so a caller maps it to stale source.
var errScan = errors.New("fingerprint: source does not scan as Go")

// appendTokens appends the normalised token stream of src, a fragment of a
// Go file (one declaration or literal), to dst, each token text written as
// its length (unsigned LEB128) followed by its bytes. imports maps a file's
// import names to their paths; nil disables import substitution.
//
// The rules, specified in docs/fingerprint.md, make the stream independent
// of comments, layout, semicolon and trailing-comma style, string quoting
// and import aliases, and nothing else:
//
//   - comments are dropped, and every ';' (written or automatic) is ";";
//   - the ';' and ',' directly before ')' or '}', the ',' directly before
//     ']', and the ';' at the very end are dropped (repeatedly);
//   - a string literal is written as strconv.QuoteToASCII of its value, a
//     rune literal as strconv.QuoteRuneToASCII of its value;
//   - an identifier X that is an import name of the file, directly followed
//     by '.' and not directly preceded by '.', is written "import:" + path.
func appendTokens(dst, src []byte, imports map[string]string) ([]byte, error) {
	var s scanner.Scanner
	failed := false
	s.Init(token.NewFileSet().AddFile("", -1, len(src)), src, func(token.Position, string) { failed = true }, 0)

	// One token of lookahead (an identifier is an import only before '.'),
	// and the previous token (and not after '.').
	var seps []byte // pending ';' and ',', not yet written
	prev := token.ILLEGAL
	_, tok, lit := s.Scan()
	for tok != token.EOF {
		_, next, nextLit := s.Scan()
		switch tok {
		case token.ILLEGAL:
			failed = true
		case token.SEMICOLON, token.COMMA:
			seps = append(seps, sepByte(tok))
		default:
			switch tok {
			case token.RPAREN, token.RBRACE:
				seps = seps[:0]
			case token.RBRACK:
				for len(seps) > 0 && seps[len(seps)-1] == ',' {
					seps = seps[:len(seps)-1]
				}
			}
			for _, b := range seps {
				dst = appendText(dst, sepText(b))
			}
			seps = seps[:0]
			dst = appendText(dst, tokenText(tok, lit, imports, prev, next))
		}
		prev, tok, lit = tok, next, nextLit
	}
	if failed {
		return dst, errScan
	}
	for len(seps) > 0 && seps[len(seps)-1] == ';' {
		seps = seps[:len(seps)-1]
	}
	for _, b := range seps {
		dst = appendText(dst, sepText(b))
	}
	return dst, nil
}

// tokenText is a token's normalised text.
func tokenText(tok token.Token, lit string, imports map[string]string, prev, next token.Token) string {
	switch tok {
	case token.STRING:
		if v, err := strconv.Unquote(lit); err == nil {
			return strconv.QuoteToASCII(v)
		}
	case token.CHAR:
		return canonicalRune(lit)
	case token.IDENT:
		if imports != nil && next == token.PERIOD && prev != token.PERIOD {
			if p, ok := imports[lit]; ok {
				return "import:" + p
			}
		}
	}
	if lit == "" {
		return tok.String()
	}
	return lit
}

func sepByte(tok token.Token) byte {
	if tok == token.SEMICOLON {
		return ';'
	}
	return ','
}

func sepText(s byte) string {
	if s == ';' {
		return ";"
	}
	return ","
}

// appendText writes one token text: its length as unsigned LEB128, then
// its bytes.
func appendText(dst []byte, text string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(text)))
	return append(dst, text...)
}

// canonicalRune rewrites a rune literal by its value, so 'a', '\x61' and
// '\u0061' are one token. A literal it cannot read is kept as written.
func canonicalRune(lit string) string {
	if len(lit) < 3 || lit[0] != '\'' || lit[len(lit)-1] != '\'' {
		return lit
	}
	r, _, tail, err := strconv.UnquoteChar(lit[1:len(lit)-1], '\'')
	if err != nil || tail != "" {
		return lit
	}
	return strconv.QuoteRuneToASCII(r)
}

// importNames maps the names a file's imports are known by to their paths.
// An import with an explicit name is known by it; one without is known by
// the name goimports assumes ([assumedName]). Blank and dot imports, and
// names two imports share, are left out.
func importNames(specs [][2]string) map[string]string {
	m := make(map[string]string, len(specs))
	dup := map[string]bool{}
	for _, s := range specs {
		name, path := s[0], s[1]
		if name == "" {
			name = assumedName(path)
		}
		if name == "" || name == "_" || name == "." {
			continue
		}
		if _, ok := m[name]; ok || dup[name] {
			delete(m, name)
			dup[name] = true
			continue
		}
		m[name] = path
	}
	return m
}

// assumedName is the package name an import path is assumed to declare,
// by goimports' rule: the last path element, skipping a major-version
// element ("v" and what strconv.ParseInt reads as a 64-bit decimal integer:
// v2, and also v0, v1, v+1, v007), without a "go-" prefix, cut at the
// first character that cannot be in an identifier ("yaml.v3" is "yaml",
// "mcp-go" is "mcp").
func assumedName(importPath string) string {
	base := importPath
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		base = base[i+1:]
	}
	if len(base) > 1 && base[0] == 'v' {
		// goimports' test is strconv.Atoi, whose int is the platform's:
		// a 64-bit integer here on every GOARCH, so the digest is too.
		if _, err := strconv.ParseInt(base[1:], 10, 64); err == nil {
			if i := strings.LastIndexByte(importPath, '/'); i > 0 {
				dir := importPath[:i]
				if j := strings.LastIndexByte(dir, '/'); j >= 0 {
					dir = dir[j+1:]
				}
				base = dir
			}
		}
	}
	base = strings.TrimPrefix(base, "go-")
	if i := strings.IndexFunc(base, notIdentifier); i >= 0 {
		base = base[:i]
	}
	return base
}

// notIdentifier is ASCII-only on purpose: Unicode tables change between Go
// releases, and the digest must not.
func notIdentifier(r rune) bool {
	return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_')
}
