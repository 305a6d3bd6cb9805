package secrets

import (
	"bytes"
	"encoding/base64"
	"strings"
	"unsafe"
)

// Credentials are sometimes passed base64-encoded: a service account's JSON
// key, a kubeconfig, a config object with an apiKey in it, all as one long
// blob. scanBase64 decodes each long base64 run and, when the result is
// text, scans that text for tokens, private keys, URLs and credential
// assignments, reporting under the same rules. Binary results (SSH public
// keys, random key material, hex read as base64) are not text and are left
// to the other rules.

const (
	minUserPass = 12       // "user:pass" is 12 base64 characters
	minBase64   = 40       // shorter runs hold nothing but a user:password worth decoding
	maxBase64   = 64 << 10 // longer runs are decoded up to here
)

func scanBase64(s string, found report) {
	base64Runs(s, func(run string) {
		if len(run) >= minUserPass && len(run) < minBase64 {
			// user:password, base64-encoded as Basic auth carries it.
			if shortBasicPair(run) {
				found(ruleAuthScheme, run)
			}
		} else if text, ok := longRunText(run); ok {
			// What the text holds is secret as the run that encodes it.
			inRun := func(r rule, _ string) { found(r, run) }
			scanTokens(text, inRun)
			scanURLs(text, inRun)
			scanAssignments(text, inRun)
			scanAuthSchemes(text, inRun)
		}
	})
}

// base64Runs calls yield with each run of base64 characters in s. '=' is
// padding only at the end of a run; inside one it is an assignment
// (config=eyJ…), and the run after it is its own.
func base64Runs(s string, yield func(run string)) {
	for i := 0; i < len(s); {
		if !isBase64Char(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isBase64Char(s[j]) && s[j] != '=' {
			j++
		}
		for k := 0; k < 2 && j < len(s) && s[j] == '='; k++ {
			j++
		}
		yield(s[i:j])
		i = j
	}
}

// longRunText decodes a run of at least minBase64 characters (up to
// maxBase64 of them) and reports whether it is text.
func longRunText(run string) (string, bool) {
	if len(run) < minBase64 {
		return "", false
	}
	if len(run) > maxBase64 {
		run = run[:maxBase64]
	}
	return decodeText(run)
}

func isBase64Char(c byte) bool {
	return isAlnum(c) || c == '+' || c == '/' || c == '-' || c == '_' || c == '='
}

// decodeText decodes run as standard or URL base64, with or without
// padding, and reports whether the result is text.
func decodeText(run string) (string, bool) {
	for len(run) > 0 && run[len(run)-1] == '=' {
		run = run[:len(run)-1]
	}
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		b, err := enc.DecodeString(run)
		if err != nil {
			continue
		}
		if printable(b) {
			return string(b), true
		}
		// PowerShell's -EncodedCommand is base64 of UTF-16LE: ASCII
		// text with a zero after each byte.
		if t, ok := utf16LE(b); ok && printable(t) {
			return string(t), true
		}
		return "", false
	}
	return "", false
}

// utf16LE reports whether b reads as UTF-16LE text of mostly ASCII
// characters, and returns it narrowed to one byte a character (others
// become '?').
func utf16LE(b []byte) ([]byte, bool) {
	if len(b) < 4 || len(b)%2 != 0 {
		return nil, false
	}
	t := make([]byte, len(b)/2)
	wide := 0
	for i := range t {
		lo, hi := b[2*i], b[2*i+1]
		if hi != 0 || lo >= 0x80 {
			wide++
			lo = '?'
		}
		t[i] = lo
	}
	return t, wide*20 <= len(t)
}

// printable: at least 95% of the bytes are printable ASCII or whitespace,
// and there are some letters.
func printable(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	bad, letters := 0, 0
	for _, c := range b {
		switch {
		case c == '\n' || c == '\r' || c == '\t':
		case c < 0x20 || c > 0x7e:
			bad++
		case isAlnum(c):
			letters++
		}
	}
	return bad*20 <= len(b) && letters > 0
}

// shortBasicPair decodes a short run on the stack (no allocation: most
// arguments have such runs, and few are base64) and reports whether it is
// user:password.
func shortBasicPair(run string) bool {
	var src [minBase64]byte
	var dst [minBase64]byte
	n := copy(src[:], run)
	for n > 0 && src[n-1] == '=' {
		n--
	}
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		m, err := enc.Decode(dst[:], src[:n])
		if err != nil {
			continue
		}
		return printable(dst[:m]) && basicPair(dst[:m])
	}
	return false
}

// basicPair: the decoded text is user:password and nothing else.
func basicPair(t []byte) bool {
	c := bytes.IndexByte(t, ':')
	if c <= 0 || c > 64 || len(t)-c-1 < 3 {
		return false
	}
	for i := 0; i < c; i++ {
		if !isAlnum(t[i]) && strings.IndexByte("._@+-", t[i]) < 0 {
			return false
		}
	}
	for i := c + 1; i < len(t); i++ {
		if t[i] <= ' ' || t[i] > '~' {
			return false
		}
	}
	return true
}

// percentDecoded returns s with each well-formed %XX escape decoded, once,
// and reports whether there was one. A malformed escape (%zz, a '%' near
// the end) is left as written, and so is what a decoded '%' starts
// (%2567 decodes to %67, not to g): a server decodes a value once. The
// result is only scanned, never printed.
func percentDecoded(s string) (string, bool) {
	i := strings.IndexByte(s, '%')
	for i >= 0 && !escapeAt(s, i) {
		j := strings.IndexByte(s[i+1:], '%')
		if j < 0 {
			return "", false
		}
		i += 1 + j
	}
	if i < 0 {
		return "", false
	}
	buf := make([]byte, 0, len(s))
	buf = append(buf, s[:i]...)
	for ; i < len(s); i++ {
		if s[i] == '%' && escapeAt(s, i) {
			buf = append(buf, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		buf = append(buf, s[i])
	}
	return string(buf), true
}

func escapeAt(s string, i int) bool {
	return i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
}

// scanTokensDecoded runs scanTokens on s and, if s holds percent escapes,
// on its decoded form too: a token written %67hp_… or ghp%5F…, or one that
// a decoded separator sets apart (a%3Dghp_…, %20ghp_…), is a token to the
// server that decodes it.
//
// A token found in the decoded form is reported as the text of s that
// decodes to it.
func scanTokensDecoded(s string, found report) {
	scanTokens(s, found)
	d, ok := percentDecoded(s)
	if !ok {
		return
	}
	var from []int // from[k]: where in s the byte d[k] is written; built once, on the first finding
	scanTokens(d, func(r rule, secret string) {
		k, ok := offsetIn(d, secret)
		if !ok {
			found(r, s)
			return
		}
		if from == nil {
			from = decodedFrom(s, len(d))
		}
		found(r, s[from[k]:from[k+len(secret)]])
	})
}

// scanView runs scan over view, a decoded form of s in which decoded byte
// k is written at s[from[k]] (from has one more entry, for the end),
// reporting each secret found as the text of s that encodes it.
func scanView(s, view string, from []int, scan func(string, report), found report) {
	scan(view, func(r rule, secret string) {
		k, ok := offsetIn(view, secret)
		if !ok {
			found(r, s) // decoded again inside the view (base64): the whole value
			return
		}
		found(r, s[from[k]:from[k+len(secret)]])
	})
}

// viewScans are the whole-string scans that a decoded view of a value
// gets: a JSON string's escapes (https:\/\/u:pw@h, "ghp\u005f…") and
// percent escapes (?config=%7B%22apiKey%22…) hide from the scans of the
// text as written what a program that decodes the value reads.
func viewScans(s string, found report) {
	scanTokens(s, found)
	scanURLs(s, found)
	scanAssignments(s, found)
	scanAuthSchemes(s, found)
}

// percentViewScans are the scans of a value's percent-decoded form beyond
// its tokens (scanTokensDecoded's): assignments and JSON members
// (?config=%7B%22apiKey%22%3A…) and auth schemes. URLs are not read
// there: %DB_USER%:%DB_PASSWORD%@db is a URL of Windows references, whose
// %DB decodes to a byte.
func percentViewScans(s string, found report) {
	scanAssignments(s, found)
	scanAuthSchemes(s, found)
}

// scanDecodedViews runs viewScans over the JSON-unescaped form of s, and
// percentViewScans over its percent-decoded form, when s has such escapes.
func scanDecodedViews(s string, found report) {
	if d, from, ok := jsonUnescaped(s); ok {
		scanView(s, d, from, viewScans, found)
	}
	if d, ok := percentDecoded(s); ok {
		scanView(s, d, decodedFrom(s, len(d)), percentViewScans, found)
	}
}

// jsonUnescaped decodes the escapes of JSON strings in s (\/ \" \\ \n \t
// \r \b \f and \uXXXX for ASCII), once, and reports whether there was
// one; from maps the result back to s as in scanView. Other escapes and
// non-ASCII \u escapes are left as written. The result is only scanned,
// never printed.
func jsonUnescaped(s string) (string, []int, bool) {
	i := strings.IndexByte(s, '\\')
	for i >= 0 && jsonEscapeLen(s[i:]) == 0 {
		j := strings.IndexByte(s[i+1:], '\\')
		if j < 0 {
			return "", nil, false
		}
		i += 1 + j
	}
	if i < 0 {
		return "", nil, false
	}
	buf := make([]byte, 0, len(s))
	from := make([]int, 0, len(s)+1)
	for k := 0; k < i; k++ {
		from = append(from, k)
	}
	buf = append(buf, s[:i]...)
	for ; i < len(s); i++ {
		from = append(from, i)
		if s[i] == '\\' {
			if n := jsonEscapeLen(s[i:]); n > 0 {
				buf = append(buf, jsonEscaped(s[i:i+n]))
				i += n - 1
				continue
			}
		}
		buf = append(buf, s[i])
	}
	return string(buf), append(from, len(s)), true
}

// jsonEscapeLen returns the length of the JSON escape s starts with that
// jsonUnescaped decodes, or 0.
func jsonEscapeLen(s string) int {
	if len(s) < 2 || s[0] != '\\' {
		return 0
	}
	switch s[1] {
	case '/', '"', '\\', 'n', 't', 'r', 'b', 'f':
		return 2
	case 'u':
		if len(s) >= 6 && s[2] == '0' && s[3] == '0' && isHex(s[4]) && isHex(s[5]) && s[4] < '8' {
			return 6
		}
	}
	return 0
}

func jsonEscaped(e string) byte {
	switch e[1] {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'u':
		return unhex(e[4])<<4 | unhex(e[5])
	}
	return e[1]
}

// decodedFrom maps percentDecoded(s), n bytes long, back to s: for each
// index k of the decoded text (and for n, its end), the index in s of the
// byte or escape that gives decoded byte k.
func decodedFrom(s string, n int) []int {
	from := make([]int, 0, n+1)
	for i := 0; i < len(s); i++ {
		from = append(from, i)
		if s[i] == '%' && escapeAt(s, i) {
			i += 2
		}
	}
	return append(from, len(s))
}

// scanBase64Tokens is scanBase64 for prose (CheckText): each long base64
// run that decodes to text is scanned for tokens only, the rules CheckText
// applies to plain text, so that encoding a sentence never makes it more
// refused than writing it out. Short user:password runs are not judged:
// CheckText does not judge Basic credentials in plain text either.
func scanBase64Tokens(s string, found report) {
	base64Runs(s, func(run string) {
		if text, ok := longRunText(run); ok {
			scanTokens(text, func(r rule, _ string) { found(r, run) })
		}
	})
}

// offsetIn returns where sub starts in s if sub is a substring of s in
// memory (a slice of it, as the scans' secrets are of the text they
// scan), and false for any other string. It compares addresses and so
// costs nothing, however long s is.
func offsetIn(s, sub string) (int, bool) {
	if len(sub) == 0 || len(s) == 0 {
		return 0, false
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	q := uintptr(unsafe.Pointer(unsafe.StringData(sub)))
	if q < p || q-p > uintptr(len(s)-len(sub)) || len(sub) > len(s) {
		return 0, false
	}
	return int(q - p), true
}
