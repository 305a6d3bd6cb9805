package redact

import (
	"strings"
	"unicode/utf8"
)

// find calls mark for every match in low (folded text) of a form of
// list, of a whole-word credential (words), or of a window, with the part
// of it not yet marked by an earlier match of the same form, until mark
// returns false. The work is linear in low for each form, and for the
// windows a map look-up per byte.
func (s *set) find(low string, list []string, words bool, mark func(i, j int) bool) bool {
	for _, v := range list {
		end := 0
		for off := 0; off < len(low); {
			k := strings.Index(low[off:], v)
			if k < 0 {
				break
			}
			i := off + k
			if !mark(max(i, end), i+len(v)) {
				return false
			}
			end, off = i+len(v), i+1
		}
	}
	for _, v := range s.words {
		if !words {
			break
		}
		for off := 0; off < len(low); {
			k := strings.Index(low[off:], v)
			if k < 0 {
				break
			}
			i := off + k
			off = i + 1
			if wordByte(low, i-1) || wordByte(low, i+len(v)) {
				continue
			}
			if !mark(i, i+len(v)) {
				return false
			}
		}
	}
	if len(s.windows) == 0 {
		return true
	}
	end := 0
	for i := 0; i+windowLen <= len(low); i++ {
		if _, ok := s.windows[low[i:i+windowLen]]; ok {
			if !mark(max(i, end), i+windowLen) {
				return false
			}
			end = i + windowLen
		}
	}
	return true
}

// wordByte reports whether s[i] exists and is an ASCII letter or digit:
// a short credential next to one is part of another word.
func wordByte(s string, i int) bool {
	return i >= 0 && i < len(s) && (isLetter(s[i]) || isDigit(s[i]))
}

// findAll is find on text (folded) and on every encoded run of text (see
// runs) whose decoding holds a form of list or a window: such a run is
// marked whole, as it is a copy of a secret however it was encoded. A
// whole-word credential counts in a decoding only if that is text (valid
// UTF-8, no control character): a short word is too likely to turn up in
// the bytes another run decodes to.
func (s *set) findAll(text string, list []string, mark func(i, j int) bool) {
	if !s.find(foldASCII(text), list, true, mark) {
		return
	}
	runs(text, func(i, j int, decoded string) bool {
		found := false
		s.find(foldASCII(decoded), list, isText(decoded), func(int, int) bool { found = true; return false })
		if found {
			return mark(i, j)
		}
		return true
	})
}

// isText reports whether s is valid UTF-8 without control characters but
// tab, newline and carriage return.
func isText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			return false
		}
	}
	return true
}

// holds reports whether text holds a form of list, a whole-word
// credential or a window, as it is or in an encoded run.
func (s *set) holds(text string, list []string) bool {
	if s == nil {
		return false
	}
	found := false
	s.findAll(text, list, func(i, j int) bool { found = true; return false })
	return found
}

// holdsValue reports whether text holds any value learnt (see holds).
func (s *set) holdsValue(text string) bool {
	return s != nil && s.holds(text, s.all)
}

// minRun is the shortest encoded run decoded: a base64 run this long
// decodes to at least minSecret bytes.
const minRun = 8

// runs calls visit with the bounds of every encoded run of s and its
// decoding, until visit returns false: every maximal run of base64 (either
// alphabet, with or without padding) of minRun bytes or more, decoded from
// each of its first four offsets (a run glued to a word still holds the
// encoding at one of them), and every maximal run of non-space bytes that
// holds a %XX escape, percent-decoded (a '+' kept, and as a space). Each
// run is decoded a bounded number of times, so the work is linear in s.
func runs(s string, visit func(i, j int, decoded string) bool) {
	for i := 0; i < len(s); {
		if b64Value(s[i]) < 0 {
			i++
			continue
		}
		j := i
		for j < len(s) && b64Value(s[j]) >= 0 {
			j++
		}
		end := j
		for end < len(s) && end-j < 2 && s[end] == '=' {
			end++
		}
		if j-i >= minRun {
			for off := 0; off < 4 && j-i-off >= minRun; off++ {
				if !visit(i, end, decodeBase64(s[i+off:j])) {
					return
				}
			}
		}
		i = j
	}
	for i := 0; i < len(s); {
		if isSpace(s[i]) {
			i++
			continue
		}
		j := i
		escapes := false
		for j < len(s) && !isSpace(s[j]) {
			if s[j] == '%' && j+2 < len(s) && hexValue(s[j+1]) >= 0 && hexValue(s[j+2]) >= 0 {
				escapes = true
			}
			j++
		}
		if escapes {
			run := s[i:j]
			if !visit(i, j, percentDecode(run, false)) {
				return
			}
			if strings.Contains(run, "+") && !visit(i, j, percentDecode(run, true)) {
				return
			}
		}
		i = j
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' || c == '\''
}

// b64Value is c's value in base64, either alphabet (+ and - are 62, / and
// _ 63), or -1.
func b64Value(c byte) int {
	switch {
	case 'A' <= c && c <= 'Z':
		return int(c - 'A')
	case 'a' <= c && c <= 'z':
		return int(c-'a') + 26
	case '0' <= c && c <= '9':
		return int(c-'0') + 52
	case c == '+' || c == '-':
		return 62
	case c == '/' || c == '_':
		return 63
	}
	return -1
}

// decodeBase64 decodes s, all base64 characters, dropping the bits of a
// last partial byte.
func decodeBase64(s string) string {
	out := make([]byte, 0, len(s)*3/4)
	var acc, bits uint
	for i := 0; i < len(s); i++ {
		acc = acc<<6 | uint(b64Value(s[i]))
		bits += 6
		if bits >= 8 {
			bits -= 8
			out = append(out, byte(acc>>bits))
			acc &= 1<<bits - 1
		}
	}
	return string(out)
}

func hexValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c|0x20 && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10
	}
	return -1
}

// percentDecode decodes every valid %XX escape of s, leaving anything else
// as it is, and '+' as a space if plus.
func percentDecode(s string, plus bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%' && i+2 < len(s) && hexValue(s[i+1]) >= 0 && hexValue(s[i+2]) >= 0:
			b.WriteByte(byte(hexValue(s[i+1])<<4 | hexValue(s[i+2])))
			i += 2
		case c == '+' && plus:
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
