package mcpconfig

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/guardian-agent/guardian-go/internal/canonjson"
	"github.com/guardian-agent/guardian-go/internal/names"
	"github.com/guardian-agent/guardian-go/refusals"
)

// This file is a strict JSONC reader: JSON (RFC 8259) plus the two things
// VS Code's mcp.json allows, comments (// and /* */) and trailing commas.
// It keeps object members in file order, refuses duplicate keys, invalid
// UTF-8 and anything else JSON does not allow, and reports every problem
// by position and pointer, never by quoting the input.

// maxDepth bounds nesting, so hostile input cannot exhaust the stack.
const maxDepth = 256

type kind uint8

const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

// node is one JSON value and where it starts.
type node struct {
	kind  kind
	off   int    // byte offset of the value in the input
	str   string // decoded string, raw number text, or "true"/"false"
	keys  []string
	koffs []int   // byte offset of each key
	vals  []*node // object members (with keys) or array elements
}

func (n *node) member(key string) (*node, int, bool) {
	for i, k := range n.keys {
		if k == key {
			return n.vals[i], n.koffs[i], true
		}
	}
	return nil, 0, false
}

func (k kind) String() string {
	switch k {
	case kindNull:
		return "null"
	case kindBool:
		return "a boolean"
	case kindNumber:
		return "a number"
	case kindString:
		return "a string"
	case kindArray:
		return "an array"
	}
	return "an object"
}

// marshal writes n back as compact JSON (comments and trailing commas gone).
func (n *node) marshal(b *bytes.Buffer) {
	switch n.kind {
	case kindNull:
		b.WriteString("null")
	case kindBool, kindNumber:
		b.WriteString(n.str)
	case kindString:
		q, _ := json.Marshal(n.str)
		b.Write(q)
	case kindArray:
		b.WriteByte('[')
		for i, v := range n.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			v.marshal(b)
		}
		b.WriteByte(']')
	case kindObject:
		b.WriteByte('{')
		for i, v := range n.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			q, _ := json.Marshal(n.keys[i])
			b.Write(q)
			b.WriteByte(':')
			v.marshal(b)
		}
		b.WriteByte('}')
	}
}

type parser struct {
	data []byte
	pos  int
}

// parseJSONC parses data as one JSONC value.
func parseJSONC(data []byte) (*node, error) {
	p := &parser{data: data}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		p.pos = 3 // a UTF-8 byte order mark, as Windows editors write
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.pos == len(p.data) {
		return nil, p.errAt(p.pos, "", "empty file: want a JSON object")
	}
	n, err := p.value(nil, 0)
	if err != nil {
		return nil, err
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.pos != len(p.data) {
		return nil, p.errAt(p.pos, "", "unexpected text after the end of the JSON value")
	}
	return n, nil
}

func (p *parser) errAt(off int, pointer, msg string) *Error {
	line, col := position(p.data, off)
	return &Error{Line: line, Column: col, Pointer: pointer, Msg: msg}
}

// position turns a byte offset into a 1-based line and column (in
// characters, so editors agree).
func position(data []byte, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return line, 1 + utf8.RuneCount(data[start:off])
}

// space skips whitespace and comments.
func (p *parser) space() error {
	for p.pos < len(p.data) {
		switch c := p.data[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '/' && p.pos+1 < len(p.data) && p.data[p.pos+1] == '/':
			i := bytes.IndexByte(p.data[p.pos:], '\n')
			if i < 0 {
				p.pos = len(p.data)
			} else {
				p.pos += i + 1
			}
		case c == '/' && p.pos+1 < len(p.data) && p.data[p.pos+1] == '*':
			i := bytes.Index(p.data[p.pos+2:], []byte("*/"))
			if i < 0 {
				return p.errAt(p.pos, "", "unterminated /* comment")
			}
			p.pos += i + 4
		default:
			return nil
		}
	}
	return nil
}

// seg is one token of the pointer of the value being parsed: a member's
// key and its index among its object's members, or an array index (member
// -1).
type seg struct {
	key    string
	member int
}

// pointerOf is the pointer of path, built only for an error: a key that
// holds a credential is written as its stand-in, "<member N>".
func pointerOf(path []seg) string {
	ptr := ""
	for _, s := range path {
		if s.member < 0 {
			ptr = refusals.Append(ptr, s.key)
		} else {
			ptr = names.Append(ptr, s.key, s.member)
		}
	}
	return ptr
}

// value parses the value at p.pos; path is its pointer's tokens.
func (p *parser) value(path []seg, depth int) (*node, error) {
	if depth > maxDepth {
		return nil, p.errAt(p.pos, pointerOf(path), "nested too deeply")
	}
	if p.pos >= len(p.data) {
		return nil, p.errAt(p.pos, pointerOf(path), "unexpected end of file: want a value")
	}
	start := p.pos
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(path, depth)
	case c == '[':
		return p.array(path, depth)
	case c == '"':
		s, err := p.string(path)
		if err != nil {
			return nil, err
		}
		return &node{kind: kindString, off: start, str: s}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(path)
	case bytes.HasPrefix(p.data[p.pos:], []byte("true")):
		p.pos += 4
		return &node{kind: kindBool, off: start, str: "true"}, nil
	case bytes.HasPrefix(p.data[p.pos:], []byte("false")):
		p.pos += 5
		return &node{kind: kindBool, off: start, str: "false"}, nil
	case bytes.HasPrefix(p.data[p.pos:], []byte("null")):
		p.pos += 4
		return &node{kind: kindNull, off: start}, nil
	}
	return nil, p.errAt(p.pos, pointerOf(path), "invalid character: want a value")
}

func (p *parser) object(path []seg, depth int) (*node, error) {
	n := &node{kind: kindObject, off: p.pos}
	seen := map[string]struct{}{}
	p.pos++ // {
	for {
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.data) {
			return nil, p.errAt(p.pos, pointerOf(path), "unexpected end of file in an object")
		}
		if p.data[p.pos] == '}' {
			p.pos++
			return n, nil
		}
		if len(n.keys) > 0 {
			if p.data[p.pos] != ',' {
				return nil, p.errAt(p.pos, pointerOf(path), "want ',' or '}' after an object member")
			}
			p.pos++
			if err := p.space(); err != nil {
				return nil, err
			}
			if p.pos < len(p.data) && p.data[p.pos] == '}' { // trailing comma
				p.pos++
				return n, nil
			}
		}
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.errAt(p.pos, pointerOf(path), "want a quoted member name")
		}
		koff := p.pos
		key, err := p.string(path)
		if err != nil {
			return nil, err
		}
		member := append(path[:len(path):len(path)], seg{key, len(n.keys)})
		if _, dup := seen[key]; dup {
			return nil, p.errAt(koff, pointerOf(member), "duplicate key")
		}
		seen[key] = struct{}{}
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.errAt(p.pos, pointerOf(member), "want ':' after a member name")
		}
		p.pos++
		if err := p.space(); err != nil {
			return nil, err
		}
		v, err := p.value(member, depth+1)
		if err != nil {
			return nil, err
		}
		n.keys = append(n.keys, key)
		n.koffs = append(n.koffs, koff)
		n.vals = append(n.vals, v)
	}
}

func (p *parser) array(path []seg, depth int) (*node, error) {
	n := &node{kind: kindArray, off: p.pos}
	p.pos++ // [
	for {
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.data) {
			return nil, p.errAt(p.pos, pointerOf(path), "unexpected end of file in an array")
		}
		if p.data[p.pos] == ']' {
			p.pos++
			return n, nil
		}
		if len(n.vals) > 0 {
			if p.data[p.pos] != ',' {
				return nil, p.errAt(p.pos, pointerOf(path), "want ',' or ']' after an array element")
			}
			p.pos++
			if err := p.space(); err != nil {
				return nil, err
			}
			if p.pos < len(p.data) && p.data[p.pos] == ']' { // trailing comma
				p.pos++
				return n, nil
			}
		}
		elem := append(path[:len(path):len(path)], seg{strconv.Itoa(len(n.vals)), -1})
		v, err := p.value(elem, depth+1)
		if err != nil {
			return nil, err
		}
		n.vals = append(n.vals, v)
	}
}

// string decodes the string at p.pos. Errors point at the string, never
// quote it.
func (p *parser) string(path []seg) (string, error) {
	start := p.pos
	p.pos++ // "
	var b []byte
	plain := p.pos
	for {
		if p.pos >= len(p.data) {
			return "", p.errAt(start, pointerOf(path), "unterminated string")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			s := p.data[plain:p.pos]
			p.pos++
			if b == nil {
				return string(s), nil
			}
			return string(append(b, s...)), nil
		case c < 0x20:
			return "", p.errAt(p.pos, pointerOf(path), "control character in a string")
		case c == '\\':
			b = append(b, p.data[plain:p.pos]...)
			if p.pos+1 >= len(p.data) {
				return "", p.errAt(start, pointerOf(path), "unterminated string")
			}
			var n, at int
			var problem string
			b, n, problem, at = canonjson.AppendEscape(b, p.data[p.pos:])
			if n == 0 {
				return "", p.errAt(p.pos+at, pointerOf(path), problem+" in a string")
			}
			p.pos += n
			plain = p.pos
		case c < utf8.RuneSelf:
			p.pos++
		default:
			r, size := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && size == 1 {
				return "", p.errAt(p.pos, pointerOf(path), "invalid UTF-8 in a string")
			}
			p.pos += size
		}
	}
}

// number reads a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *parser) number(path []seg) (*node, error) {
	start := p.pos
	bad := func() (*node, error) {
		return nil, p.errAt(start, pointerOf(path), "invalid number")
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.data[p.pos] == '-' {
		p.pos++
	}
	if p.pos < len(p.data) && p.data[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return bad()
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return bad()
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return bad()
		}
	}
	return &node{kind: kindNumber, off: start, str: string(p.data[start:p.pos])}, nil
}
