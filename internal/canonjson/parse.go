package canonjson

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxDepth bounds nesting, so hostile input cannot exhaust the stack.
const MaxDepth = 512

// SyntaxError is a parse failure. It says where (byte offset, and the JSON
// pointer of the value being read) and what was wrong, in words that never
// quote the input.
type SyntaxError struct {
	Offset  int    // byte offset of the problem
	Pointer string // RFC 6901 pointer of the value being parsed
	Msg     string // e.g. "duplicate key", "invalid UTF-8 in string"
}

func (e *SyntaxError) Error() string {
	p := e.Pointer
	if p == "" {
		p = "/"
	}
	return "canonjson: " + p + ": " + e.Msg + " at offset " + strconv.Itoa(e.Offset)
}

// Parse parses exactly one JSON value (surrounded by optional whitespace).
// It refuses what an I-JSON (RFC 7493) reader must: invalid UTF-8, lone
// surrogate escapes, duplicate keys, numbers outside the float64 range.
func Parse(data []byte) (Value, error) {
	var p Parser
	return p.Parse(data)
}

// Parser parses like Parse, reusing its scratch space from one call to the
// next, for callers that parse many small values. Its zero value is ready
// to use; it is not safe for concurrent use.
type Parser struct {
	p parser
	// MaxDepth, if set, is a tighter nesting bound than the package's: a
	// value that will sit inside a document nested n deep must nest no
	// deeper than MaxDepth - n, or the document would not parse.
	MaxDepth int
}

// Parse parses data as the function Parse does.
func (ps *Parser) Parse(data []byte) (Value, error) {
	p := &ps.p
	p.data, p.pos, p.path = data, 0, p.path[:0]
	p.maxDepth = MaxDepth
	if ps.MaxDepth > 0 && ps.MaxDepth < MaxDepth {
		p.maxDepth = ps.MaxDepth
	}
	defer func() { p.data = nil }()
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return Value{}, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return Value{}, p.fail("unexpected data after the value")
	}
	return v, nil
}

type parser struct {
	data     []byte
	pos      int
	maxDepth int
	path     []string // tokens of the pointer being parsed, unescaped
	buf      []byte   // scratch for strings with escapes
	// Members and items of the objects and arrays being parsed, nested
	// ones above their parents'; each is copied out at its exact size when
	// complete, so parsing allocates once per object or array.
	members []Member
	items   []Value
}

func (p *parser) fail(msg string) error {
	return &SyntaxError{Offset: p.pos, Pointer: pointer(p.path), Msg: msg}
}

func pointer(tokens []string) string {
	if len(tokens) == 0 {
		return ""
	}
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		for i := 0; i < len(t); i++ {
			switch t[i] {
			case '~':
				b.WriteString("~0")
			case '/':
				b.WriteString("~1")
			default:
				b.WriteByte(t[i])
			}
		}
	}
	return b.String()
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (Value, error) {
	if depth > p.maxDepth {
		return Value{}, p.fail("nested too deeply")
	}
	if p.pos >= len(p.data) {
		return Value{}, p.fail("unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return Value{}, err
		}
		return Value{Kind: String, Text: s}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return p.literal("true", Value{Kind: Bool, Text: "true"})
	case c == 'f':
		return p.literal("false", Value{Kind: Bool, Text: "false"})
	case c == 'n':
		return p.literal("null", Value{Kind: Null})
	}
	return Value{}, p.fail("unexpected character")
}

func (p *parser) literal(word string, v Value) (Value, error) {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return Value{}, p.fail("invalid literal")
	}
	p.pos += len(word)
	return v, nil
}

func (p *parser) object(depth int) (Value, error) {
	p.pos++ // {
	start := len(p.members)
	defer func() { p.members = p.members[:start] }()
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return Value{Kind: Object, Members: []Member{}}, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return Value{}, p.fail("expected a string key")
		}
		key, err := p.str()
		if err != nil {
			return Value{}, err
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return Value{}, p.fail("expected ':' after key")
		}
		p.pos++
		p.skipSpace()
		p.path = append(p.path, key)
		v, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		p.path = p.path[:len(p.path)-1]
		p.members = append(p.members, Member{Key: key, Value: v})
		p.skipSpace()
		if p.pos >= len(p.data) {
			return Value{}, p.fail("unexpected end of input in object")
		}
		if p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.data[p.pos] == '}' {
			p.pos++
			break
		}
		return Value{}, p.fail("expected ',' or '}' in object")
	}
	members := make([]Member, len(p.members)-start)
	copy(members, p.members[start:])
	sortMembers(members)
	for i := 1; i < len(members); i++ {
		if members[i].Key == members[i-1].Key {
			p.path = append(p.path, members[i].Key)
			err := &SyntaxError{Offset: p.pos, Pointer: pointer(p.path), Msg: "duplicate key"}
			p.path = p.path[:len(p.path)-1]
			return Value{}, err
		}
	}
	return Value{Kind: Object, Members: members}, nil
}

func (p *parser) array(depth int) (Value, error) {
	p.pos++ // [
	start := len(p.items)
	defer func() { p.items = p.items[:start] }()
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return Value{Kind: Array, Items: []Value{}}, nil
	}
	for i := 0; ; i++ {
		p.skipSpace()
		p.path = append(p.path, strconv.Itoa(i))
		v, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		p.path = p.path[:len(p.path)-1]
		p.items = append(p.items, v)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return Value{}, p.fail("unexpected end of input in array")
		}
		if p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.data[p.pos] == ']' {
			p.pos++
			items := make([]Value, len(p.items)-start)
			copy(items, p.items[start:])
			return Value{Kind: Array, Items: items}, nil
		}
		return Value{}, p.fail("expected ',' or ']' in array")
	}
}

// str reads a string starting at the opening quote.
func (p *parser) str() (string, error) {
	p.pos++ // "
	start := p.pos
	// Fast path: no escapes.
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		if c == '"' {
			s := p.data[start:p.pos]
			if !utf8.Valid(s) {
				return "", p.fail("invalid UTF-8 in string")
			}
			p.pos++
			return string(s), nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", p.fail("control character in string")
		}
		p.pos++
	}
	buf := append(p.buf[:0], p.data[start:p.pos]...)
	for {
		if p.pos >= len(p.data) {
			return "", p.fail("unterminated string")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			if !utf8.Valid(buf) {
				return "", p.fail("invalid UTF-8 in string")
			}
			p.buf = buf
			return string(buf), nil
		case c < 0x20:
			return "", p.fail("control character in string")
		case c != '\\':
			buf = append(buf, c)
			p.pos++
			continue
		}
		// An escape.
		if p.pos+1 >= len(p.data) {
			return "", p.fail("unterminated string")
		}
		var n int
		var problem string
		buf, n, problem, _ = AppendEscape(buf, p.data[p.pos:])
		if n == 0 {
			return "", p.fail(problem)
		}
		p.pos += n
	}
}

// number reads a number per the JSON grammar and stores its canonical text.
func (p *parser) number() (Value, error) {
	start := p.pos
	if p.data[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.pos < len(p.data) && p.data[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return Value{}, p.fail("invalid number")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return Value{}, p.fail("invalid number")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return Value{}, p.fail("invalid number")
		}
	}
	text, ok := CanonicalNumber(string(p.data[start:p.pos]))
	if !ok {
		return Value{}, p.fail("number out of range")
	}
	return Value{Kind: Number, Text: text}, nil
}

// CanonicalNumber returns the RFC 8785 form of a JSON number literal: the
// shortest text that round-trips the float64 value, as ECMAScript's
// Number.prototype.toString writes it, with -0 as 0. It reports false for a
// literal outside the float64 range.
func CanonicalNumber(lit string) (string, bool) {
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", false
	}
	return string(AppendFloat(nil, f)), true
}

// AppendFloat appends the ECMAScript form of f (finite) to dst.
func AppendFloat(dst []byte, f float64) []byte {
	if f == 0 {
		return append(dst, '0') // also -0
	}
	format := byte('f')
	if abs := math.Abs(f); abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	n := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// Go writes e-07 where ECMAScript writes e-7.
		b := dst[n:]
		if l := len(b); l >= 4 && b[l-4] == 'e' && b[l-2] == '0' {
			b[l-2] = b[l-1]
			dst = dst[:len(dst)-1]
		}
	}
	return dst
}
