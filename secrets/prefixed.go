package secrets

import "strings"

// This file holds the rule for tokens of formats no list names: a
// vendor's prefix and a generated body. Vendors mint keys as a short tag
// that says whose key it is (sk-, glpat-, lin_api_, dckr_pat_) and a body
// of random characters, or a UUID. The tag is a word or an abbreviation in
// one case; the body is what words are not: mixed classes of characters
// that change often, with no runs of letters the way words have them, or
// a long hex string, or a UUID. A new vendor's key has that shape whether
// or not anyone has listed it.

// minPrefixedBody is the shortest generated body taken for a key's: below
// it, prefixed IDs (cus_NffrFeUfNV2Hib) are as likely as keys.
const minPrefixedBody = 20

// scanPrefixed reports, under ruleTokenPrefixed, every word of s that is a
// prefix and a generated body (see prefixedLen). Words in a URL or a path
// are left out: document, repository and API URLs carry generated IDs
// after words (notion.so/Page-Title-<hex>), and a key in a URL is the URL
// rules' (url-path-secret, url-query-credential, url-user-token).
func scanPrefixed(s string, found report) {
	inPath := false // since the last space: a '/' or "://" was seen
	for i := 0; i < len(s); i++ {
		c := s[i]
		if chunkEnd(c) {
			inPath = false
			continue
		}
		if c == '/' || c == '\\' {
			inPath = true
			continue
		}
		if inPath || !isAlnum(c) || (i > 0 && !prefixBoundary(s[i-1])) {
			continue
		}
		// The word's end: no token starts inside it, and most words are
		// too short to hold one.
		j := i + 1
		for j < len(s) && tokenByte(s[j]) {
			j++
		}
		if j-i >= 3+minPrefixedBody {
			if n := prefixedLen(s[i:]); n > 0 {
				found(ruleTokenPrefixed, s[i:i+n])
			}
		}
		i = j - 1
	}
}

// chunkEnd: a byte that ends the stretch of text a URL or path can span.
func chunkEnd(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', '`', '<', '>', '(', ')', '[', ']', '{', '}', ',', ';', '|':
		return true
	}
	return false
}

// prefixBoundary: a byte a prefixed token may follow. After a letter,
// digit, separator or '@' the word started earlier (an identifier, a
// package scope, an e-mail address).
func prefixBoundary(c byte) bool {
	return !tokenByte(c) && c != '.' && c != '@'
}

// tokenByte: a byte of a prefixed token's word.
func tokenByte(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }

// prefixedLen returns the length of the token s starts with, or 0: a
// prefix of one to three segments, each two to ten letters (digits after
// the first), all letters of one case, each ended by '_' or '-'; then a
// body of at least 20 characters that reads as generated (generatedBody)
// or is a UUID; then the end of the word (not '.', '@' or base64 going
// on). A prefix whose last segment names a kind of object (user_, order-,
// trace_) marks an ID, not a key; a digest's name (sha256-) a digest.
func prefixedLen(s string) int {
	n := 0
	for n < len(s) && n < maxBody && tokenByte(s[n]) {
		n++
	}
	if n == maxBody || n < 3+minPrefixedBody || !wordEnd(s, n) {
		return 0
	}
	w := s[:n]
	if n == 36 && isUUID(w) {
		return 0 // a UUID whose first group is letters: an ID
	}
	for w[len(w)-1] == '-' || w[len(w)-1] == '_' {
		w = w[:len(w)-1]
		if len(w) < 3+minPrefixedBody {
			return 0
		}
	}
	caseOf := byte(0) // 'l' or 'u' once a letter of the prefix is seen
	start := 0
	for seg := 0; seg < 3; seg++ {
		end := start
		for end < len(w) && isAlnum(w[end]) {
			end++
		}
		p := w[start:end]
		if end >= len(w) || len(p) < 2 || len(p) > 10 || isDigit(p[0]) {
			return 0
		}
		for k := 0; k < len(p); k++ {
			var cs byte
			switch {
			case isLower(p[k]):
				cs = 'l'
			case isUpper(p[k]):
				cs = 'u'
			default:
				continue
			}
			if caseOf == 0 {
				caseOf = cs
			} else if cs != caseOf {
				return 0
			}
		}
		body := w[end+1:]
		if len(body) >= minPrefixedBody && (isUUID(body) || generatedBody(body)) {
			if idNoun(p) || (seg == 0 && digestName(p)) || publicByDesign(w) ||
				maskLike(body) || fillerBody(body) || vendorExample(body) {
				return 0
			}
			return len(w)
		}
		start = end + 1
	}
	return 0
}

// wordEnd: s[n] (if any) ends a token: not a dot before more of a word
// (a domain, a file name), not '@' (an address), not base64 going on.
func wordEnd(s string, n int) bool {
	if n >= len(s) {
		return true
	}
	switch s[n] {
	case '@', '+', '/', '=', '%':
		return false
	case '.', ':':
		return n+1 >= len(s) || !isAlnum(s[n+1])
	}
	return true
}

// generatedBody reports whether b (at least minPrefixedBody bytes of
// letters, digits, '-' and '_') reads as generated rather than as words:
// few separators, and either a long hex string, or letters whose pairs
// English words do not make (plausiblePairs), in a mix of character
// classes or, for letters of one case alone, throughout.
func generatedBody(b string) bool {
	var upper, lower, digits, seps, changes int
	hex := true
	prev := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		class := 0
		switch {
		case isDigit(c):
			digits++
			class = 1
		case isUpper(c):
			upper++
			class = 2
		case isLower(c):
			lower++
			class = 3
		default:
			seps++
			prev = 0
			hex = false
			continue
		}
		if !isHex(c) {
			hex = false
		}
		if prev != 0 && class != prev {
			changes++
		}
		prev = class
	}
	n := len(b) - seps
	if seps*8 > len(b) || n < minPrefixedBody {
		return false
	}
	if hex && upper*lower == 0 {
		// A hex string: a key of 32 or more, with both digits and
		// letters (not a number, not a word of hex letters).
		return n >= 32 && digits > 0 && upper+lower > 0
	}
	odd, pairs := oddPairs(b)
	classes := 0
	for _, k := range [...]int{upper, lower, digits} {
		if k >= 2 {
			classes++
		}
	}
	if classes < 2 {
		// Letters of one case (and a digit at most): random only if
		// word-breaking pairs are everywhere.
		return odd >= 3 && odd*5 >= pairs
	}
	// Evidence of generation, one point each: a pair no word makes
	// (each), class changes at a third of the characters or more, and
	// at half or more.
	score := odd
	if changes*3 >= n {
		score++
	}
	if changes*2 >= n {
		score++
	}
	return score >= 2
}

// oddPairs counts the pairs of adjacent letters in b's words that English
// words and identifiers do not make (not in plausiblePairs), and all the
// pairs. Words break at anything but a letter and at camelCase
// boundaries (fooBar, HTTPServer), and are read case-folded.
func oddPairs(b string) (odd, pairs int) {
	prev := -1
	for i := 0; i < len(b); i++ {
		c := b[i]
		up, low := isUpper(c), isLower(c)
		if !up && !low {
			prev = -1
			continue
		}
		if i > 0 && up && (isLower(b[i-1]) || (isUpper(b[i-1]) && i+1 < len(b) && isLower(b[i+1]))) {
			prev = -1
		}
		cur := int(c|0x20) - 'a'
		if prev >= 0 {
			pairs++
			if plausiblePairs[prev]&(1<<cur) == 0 {
				odd++
			}
		}
		prev = cur
	}
	return odd, pairs
}

// idNoun reports whether a prefix's last segment names a kind of object
// that services give generated IDs (user_2NNEq…, org_…, req_…,
// trace-<uuid>): such a word before a body marks an ID. Key prefixes are
// vendors' tags and abbreviations of "key" and "token", not these nouns.
func idNoun(p string) bool {
	var buf [10]byte
	for i := 0; i < len(p); i++ {
		buf[i] = toLower(p[i])
	}
	_, ok := idNouns[string(buf[:len(p)])]
	return ok
}

var idNouns = map[string]struct{}{
	"user": {}, "usr": {}, "org": {}, "team": {}, "group": {}, "project": {}, "proj": {},
	"workspace": {}, "account": {}, "acct": {}, "tenant": {}, "customer": {}, "cus": {},
	"request": {}, "req": {}, "trace": {}, "span": {}, "run": {}, "job": {}, "task": {},
	"event": {}, "evt": {}, "order": {}, "item": {}, "doc": {}, "document": {}, "page": {},
	"file": {}, "folder": {}, "thread": {}, "message": {}, "msg": {}, "node": {}, "chat": {},
	"call": {}, "batch": {}, "build": {}, "deploy": {}, "release": {}, "commit": {},
	"invoice": {}, "payment": {}, "charge": {}, "price": {}, "product": {}, "prod": {},
	"txn": {}, "record": {}, "rec": {}, "row": {}, "entry": {}, "object": {}, "obj": {},
	"instance": {}, "cluster": {}, "container": {}, "image": {}, "asset": {}, "block": {},
	"comment": {}, "issue": {}, "ticket": {}, "post": {}, "channel": {}, "room": {},
	"device": {}, "site": {}, "table": {}, "model": {}, "version": {}, "ver": {},
	"id": {}, "uuid": {}, "guid": {}, "ref": {}, "tmp": {}, "temp": {},
}

// digestName: a hash's name, which starts a digest (sha256-…, md5_…).
func digestName(p string) bool {
	l := strings.ToLower(p)
	for _, h := range [...]string{"sha", "sha3", "md", "blake", "blake2b", "blake2s", "crc", "xxh", "ripemd"} {
		if rest, ok := strings.CutPrefix(l, h); ok && strings.Trim(rest, "0123456789") == "" {
			return true
		}
	}
	return false
}
