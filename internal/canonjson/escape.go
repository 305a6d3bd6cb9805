package canonjson

import (
	"unicode/utf16"
	"unicode/utf8"
)

// What can be wrong with an escape sequence, as AppendEscape reports it.
// Callers word their own errors around these.
const (
	EscapeInvalid       = "invalid escape"
	EscapeInvalidHex    = "invalid \\u escape"
	EscapeLoneSurrogate = "lone surrogate escape"
)

// AppendEscape decodes the JSON escape sequence at the start of data (whose
// first byte is the backslash) and appends what it stands for to buf, as
// UTF-8. A high surrogate's \u escape takes the low surrogate's after it.
// It returns the extended buf and the sequence's length; or, for an invalid
// sequence, n == 0 and the problem, at offset at in data. Both JSON readers
// of this module (this package's and internal/mcpconfig's JSONC) use it, so
// they agree on what a string says.
func AppendEscape(buf, data []byte) (out []byte, n int, problem string, at int) {
	if len(data) < 2 || data[0] != '\\' {
		return buf, 0, EscapeInvalid, 0
	}
	switch e := data[1]; e {
	case '"', '\\', '/':
		return append(buf, e), 2, "", 0
	case 'b':
		return append(buf, '\b'), 2, "", 0
	case 'f':
		return append(buf, '\f'), 2, "", 0
	case 'n':
		return append(buf, '\n'), 2, "", 0
	case 'r':
		return append(buf, '\r'), 2, "", 0
	case 't':
		return append(buf, '\t'), 2, "", 0
	case 'u':
	default:
		return buf, 0, EscapeInvalid, 0
	}
	r, ok := hex4(data[2:])
	if !ok {
		return buf, 0, EscapeInvalidHex, 0
	}
	n = 6
	if utf16.IsSurrogate(r) {
		if r >= 0xdc00 || len(data) < 8 || data[6] != '\\' || data[7] != 'u' {
			return buf, 0, EscapeLoneSurrogate, n
		}
		lo, ok := hex4(data[8:])
		if !ok || lo < 0xdc00 || lo > 0xdfff {
			return buf, 0, EscapeLoneSurrogate, n
		}
		r, n = utf16.DecodeRune(r, lo), 12
	}
	return utf8.AppendRune(buf, r), n, "", 0
}

// hex4 reads four hex digits at the start of b.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}
