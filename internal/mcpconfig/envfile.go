package mcpconfig

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// ReadEnvFile reads and parses the env file name (a server's envFile), a
// regular file of at most MaxEnvFileSize bytes (ReadBounded). A file that
// cannot be read gives an *fs.PathError.
func ReadEnvFile(name string) (map[string]string, error) {
	data, err := ReadBounded(name, MaxEnvFileSize)
	if err != nil {
		return nil, err
	}
	return ParseEnvFile(data)
}

// ParseEnvFile parses the lines of an env file, the dotenv format VS Code
// and Cursor read a server's envFile in:
//
//	# a comment
//	KEY=value           unquoted: up to a # or the end of the line, trimmed
//	export KEY=value    "export " is allowed and ignored
//	KEY="a\nb"          double quotes: \n, \r, \t, \" and \\ are escapes
//	KEY='a\nb'          single quotes (or backquotes): taken as written
//
// Quoted values may span lines. A key is letters, digits, '_', '.' and
// '-'; a later line overrides an earlier one. A NUL byte is refused
// anywhere: no program's environment can hold one. Anything else is an
// *Error with the line and column, which never quotes the file: its values
// are secrets.
func ParseEnvFile(data []byte) (map[string]string, error) {
	p := envParser{data: data}
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return nil, p.errorAt(i, "invalid UTF-8")
		}
		if r == 0 {
			return nil, p.errorAt(i, "a NUL byte: an environment variable cannot hold one")
		}
		i += n
	}
	if bytes.HasPrefix(data, []byte("\ufeff")) {
		p.pos = len("\ufeff") // a byte order mark
	}
	out := map[string]string{}
	for p.pos < len(p.data) {
		key, val, ok, err := p.line()
		if err != nil {
			return nil, err
		}
		if ok {
			out[key] = val
		}
	}
	return out, nil
}

type envParser struct {
	data []byte
	pos  int
}

func (p *envParser) errorAt(off int, msg string) *Error {
	line, col := position(p.data, off)
	return &Error{Line: line, Column: col, Msg: msg}
}

func (p *envParser) blanks() {
	for p.pos < len(p.data) && (p.data[p.pos] == ' ' || p.data[p.pos] == '\t') {
		p.pos++
	}
}

// eol consumes the end of a line: spaces, an optional comment, then a
// newline or the end of the file.
func (p *envParser) eol() error {
	p.blanks()
	if p.pos < len(p.data) && p.data[p.pos] == '#' {
		for p.pos < len(p.data) && p.data[p.pos] != '\n' {
			p.pos++
		}
	}
	if p.pos < len(p.data) && p.data[p.pos] == '\r' && p.pos+1 < len(p.data) && p.data[p.pos+1] == '\n' {
		p.pos++
	}
	switch {
	case p.pos == len(p.data):
		return nil
	case p.data[p.pos] == '\n':
		p.pos++
		return nil
	}
	return p.errorAt(p.pos, "unexpected text after the value")
}

// line reads one KEY=VALUE line, or a blank or comment line (ok false).
func (p *envParser) line() (key, val string, ok bool, err error) {
	p.blanks()
	if p.pos == len(p.data) || p.data[p.pos] == '#' || p.data[p.pos] == '\n' || p.data[p.pos] == '\r' {
		return "", "", false, p.eol()
	}
	if rest := p.data[p.pos:]; bytes.HasPrefix(rest, []byte("export")) && len(rest) > 6 && (rest[6] == ' ' || rest[6] == '\t') {
		p.pos += 6
		p.blanks()
	}
	start := p.pos
	for p.pos < len(p.data) && isKeyByte(p.data[p.pos]) {
		p.pos++
	}
	if p.pos == start {
		return "", "", false, p.errorAt(p.pos, "want a KEY=VALUE line")
	}
	key = string(p.data[start:p.pos])
	p.blanks()
	if p.pos == len(p.data) || p.data[p.pos] != '=' {
		return "", "", false, p.errorAt(p.pos, "want '=' after the key")
	}
	p.pos++
	p.blanks()
	if p.pos < len(p.data) {
		switch q := p.data[p.pos]; q {
		case '"', '\'', '`':
			val, err = p.quoted(q)
			if err != nil {
				return "", "", false, err
			}
			return key, val, true, p.eol()
		}
	}
	start = p.pos
	for p.pos < len(p.data) && p.data[p.pos] != '#' && p.data[p.pos] != '\n' {
		p.pos++
	}
	val = strings.TrimRight(string(p.data[start:p.pos]), " \t\r")
	return key, val, true, p.eol()
}

// quoted reads a value in quotes q, which may span lines.
func (p *envParser) quoted(q byte) (string, error) {
	open := p.pos
	p.pos++
	var b strings.Builder
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == q:
			p.pos++
			return b.String(), nil
		case c == '\\' && q == '"' && p.pos+1 < len(p.data):
			switch e := p.data[p.pos+1]; e {
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case '"', '\\':
				b.WriteByte(e)
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
			p.pos += 2
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	return "", p.errorAt(open, "unterminated quoted value")
}

func isKeyByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || '0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z'
}
