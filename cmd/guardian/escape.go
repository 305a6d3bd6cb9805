package main

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// What guardian prints holds outside text: config keys and file names,
// servers' and tools' names, servers' stderr lines and error messages. A
// newline in one would forge a line of guardian's own (a scan result), and
// an escape sequence, a carriage return or a bidi override would rewrite
// or reorder what the terminal shows. So every line guardian writes for
// people goes through printLine, which writes it with escape, and every
// JSON report through writeJSON.

// escape returns s with every character that is not graphic (a control
// character, DEL, a C1 control, a bidi control, a zero-width or other
// format character, a line separator; unicode.IsPrint is false) written as
// a Go escape (\n, \r, \t, \x1b, \u202e), and every byte that is not UTF-8
// as \xNN. Graphic text, spaces and backslashes stay as they are, so paths
// and messages read as written. Text that is escaped already, or quoted
// with strconv.Quote, is unchanged by it.
func escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case unicode.IsPrint(r):
			b.WriteString(s[:n])
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		s = s[n:]
	}
	return b.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c >= 0x7f {
			return strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) || !utf8.ValidString(s)
		}
	}
	return false
}

// printLine writes one line for people to w: format and args, escaped
// whole (format is guardian's own and holds no newline), then a newline.
func printLine(w io.Writer, format string, args ...any) {
	io.WriteString(w, escape(fmt.Sprintf(format, args...))+"\n")
}

// jsonSafe rewrites what encoding/json leaves as it is and a terminal
// would act on — DEL, C1 controls, bidi and other format characters,
// anything unicode.IsPrint calls not graphic — as \uXXXX escapes (a
// surrogate pair above U+FFFF). Such characters can only stand inside a
// JSON string (everything outside one is ASCII), where an escape means the
// same character, so the report is the same JSON value, and still valid.
func jsonSafe(data []byte) []byte {
	if !needsEscape(string(data)) {
		return data
	}
	var b bytes.Buffer
	b.Grow(len(data) + 16)
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		if r >= 0x7f && !(r == utf8.RuneError && n == 1) && !unicode.IsPrint(r) {
			if r > 0xffff {
				hi, lo := utf16.EncodeRune(r)
				fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		} else {
			b.Write(data[:n])
		}
		data = data[n:]
	}
	return b.Bytes()
}
