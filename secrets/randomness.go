package secrets

import (
	"encoding/base64"
	"math"
	"strings"
)

// This file tells generated key material from words, numbers, versions
// and identifiers: looksRandom after a name that may name a credential,
// bareRandom, stricter, for a value nothing names.

// looksRandom reports whether v reads as generated key material rather
// than words, numbers, versions or identifiers: some stretch of it mixes
// letters and digits (or changes case) the way random strings do, or it is
// a long hex string. It is the test used after a name that only may name a
// credential (--key, ?auth=), so it is stricter than nothing and looser
// than [bareRandom].
func looksRandom(v string) bool {
	if len(v) < 16 || isUUID(v) {
		return false
	}
	if len(v) > 4096 {
		v = v[:4096]
	}
	// Split into segments at separators; judge each long segment.
	start := 0
	for i := 0; i <= len(v); i++ {
		if i < len(v) && !isSeparator(v[i]) {
			if !isAlnum(v[i]) {
				return false // not key material: spaces, quotes, punctuation
			}
			continue
		}
		if randomSegment(v[start:i]) {
			return true
		}
		start = i + 1
	}
	return false
}

func isSeparator(c byte) bool {
	switch c {
	case '-', '_', '.', '~', '/', '+', '=':
		return true
	}
	return false
}

// randomSegment judges one separator-free run of letters and digits.
func randomSegment(s string) bool {
	if len(s) < 12 {
		return false
	}
	var digits, letters, transitions, upper, lower int
	hex := true
	prevClass := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		class := 1 // digit
		switch {
		case isDigit(c):
			digits++
		case isUpper(c):
			upper++
			letters++
			class = 2
		default:
			lower++
			letters++
			class = 3
		}
		if !isHex(c) {
			hex = false
		}
		if i > 0 && class != prevClass {
			transitions++
		}
		prevClass = class
	}
	if hex && len(s) >= 20 && digits > 0 && letters > 0 {
		return true
	}
	if digits >= 2 && letters >= 2 && transitions >= 4 {
		return entropy(s) >= 3.0
	}
	// Mixed case without digits (base64 of short text): many changes.
	if upper >= 3 && lower >= 3 && transitions*4 >= len(s) {
		return entropy(s) >= 3.2
	}
	return false
}

// bareRandom is the strict test for a value nothing names: a positional
// argument or a word of a command. Only long, mixed-case, digit-bearing,
// high-entropy key material counts; hex (commit IDs, digests), UUIDs,
// paths, versions and package names never do.
func bareRandom(v string) bool {
	if len(v) < 32 || len(v) > 1024 {
		return false
	}
	for _, p := range notKeyPrefixes {
		if hasPrefixFold(v, p) {
			return false
		}
	}
	if wellKnownID(v) {
		return false
	}
	var upper, lower, digits, transitions, seps, longest, run int
	hex := true
	prevClass := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
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
		case c == '+' || c == '/' || c == '=' || c == '_' || c == '-':
			seps++
			if run > longest {
				longest = run
			}
			run = 0
			prevClass = 0
			hex = false
			continue
		default:
			return false
		}
		run++
		if !isHex(c) {
			hex = false
		}
		if prevClass != 0 && class != prevClass {
			transitions++
		}
		prevClass = class
	}
	if run > longest {
		longest = run
	}
	if hex || upper == 0 || lower == 0 || digits < 2 || longest < 16 || transitions < 10 {
		return false
	}
	if prefixedHex(v) || wordLike(v) || entropy(v) < 4.0 {
		return false
	}
	// Base64 of text (a path, a sentence) is random-looking but holds
	// what its text holds, and the base64 scan has judged that.
	return !base64Text(v)
}

// prefixedHex: a hex ID after a type prefix of up to four letters, as
// Twilio's SIDs (AC…, SK…, PN…) are: an identifier, like bare hex.
func prefixedHex(v string) bool {
	h := len(v) // where the hex tail starts
	for h > 0 && isHex(v[h-1]) {
		h--
	}
	if len(v)-h < 24 {
		return false
	}
	p := h
	if p > 0 && (v[p-1] == '_' || v[p-1] == '-') {
		p--
	}
	if p > 4 {
		return false
	}
	for i := 0; i < p; i++ {
		if !isUpper(v[i]) && !isLower(v[i]) {
			return false
		}
	}
	return true
}

// base64Text reports whether v is base64 (standard or URL-safe, padded or
// not) of printable text that is not itself key material: a path, a
// sentence, a name. Base64 of random bytes is not text; base64 of hex or
// of a random string is, but its text is random, and is refused.
func base64Text(v string) bool {
	if len(v) > 1024 {
		return false
	}
	for len(v) > 0 && v[len(v)-1] == '=' {
		v = v[:len(v)-1]
	}
	var buf [768]byte
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		n, err := enc.Decode(buf[:], []byte(v))
		if err != nil {
			continue
		}
		t := buf[:n]
		if !printable(t) {
			return false
		}
		// Each run of letters and digits in the text must read as words
		// or numbers, not as a key.
		start := 0
		for i := 0; i <= len(t); i++ {
			if i < len(t) && isAlnum(t[i]) {
				continue
			}
			if randomSegment(string(t[start:i])) {
				return false
			}
			start = i + 1
		}
		return true
	}
	return false
}

// wordLike: much of v is runs of four or more letters of one case, as in
// CamelCaseIdentifiers and SHOUTED_WORDS; random strings switch case too
// often for that.
func wordLike(v string) bool {
	covered, run, prev := 0, 0, 0
	for i := 0; i <= len(v); i++ {
		class := 0
		if i < len(v) {
			switch {
			case isLower(v[i]):
				class = 1
			case isUpper(v[i]):
				class = 2
			}
		}
		if class != 0 && class == prev {
			run++
			continue
		}
		if run >= 4 {
			covered += run
		}
		run, prev = 1, class
		if class == 0 {
			run = 0
		}
	}
	return covered*10 >= len(v)*4
}

// notKeyPrefixes start long random-looking strings that are not secrets:
// integrity digests, and SSH public keys (base64 of "\0\0\0\x0bssh-…").
var notKeyPrefixes = []string{"sha1-", "sha256-", "sha384-", "sha512-", "sha1:", "sha256:", "sha384:", "sha512:", "md5-", "md5:", "blake3:", "AAAA"}

// entropy is the Shannon entropy of s in bits per byte, over at most its
// first 256 bytes.
func entropy(s string) float64 {
	if len(s) > 256 {
		s = s[:256]
	}
	if s == "" {
		return 0
	}
	var counts [256]uint16
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// isUUID: 8-4-4-4-12 hex.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if !isHex(s[i]) {
				return false
			}
		}
	}
	return true
}

// wellKnownID: random-looking identifiers of well-known shapes that are not
// secrets: Google Drive, Docs and Sheets IDs ("1" and 32 or 43 base64url
// characters) and IPFS CIDv0 ("Qm" and 44 base58 characters).
func wellKnownID(v string) bool {
	switch {
	case v[0] == '1' && (len(v) == 33 || len(v) == 44):
		for i := 1; i < len(v); i++ {
			if !isAlnum(v[i]) && v[i] != '-' && v[i] != '_' {
				return false
			}
		}
		return true
	case len(v) == 46 && strings.HasPrefix(v, "Qm"):
		for i := 2; i < len(v); i++ {
			if c := v[i]; !isAlnum(c) || c == '0' || c == 'O' || c == 'I' || c == 'l' {
				return false
			}
		}
		return true
	}
	return false
}

// identifierLike: words and numbers joined by separators (user-name,
// my-project-key-2024, created_at): every part all letters or all digits,
// none long. Generated keys mix letters and digits within a part.
func identifierLike(v string) bool {
	if v == "" || len(v) > 64 {
		return false
	}
	start := 0
	for i := 0; i <= len(v); i++ {
		if i < len(v) && !strings.ContainsRune("-_.:/", rune(v[i])) {
			if !isAlnum(v[i]) {
				return false
			}
			continue
		}
		part := v[start:i]
		start = i + 1
		if len(part) > 24 {
			return false
		}
		letters, digits := false, false
		for j := 0; j < len(part); j++ {
			if isDigit(part[j]) {
				digits = true
			} else {
				letters = true
			}
		}
		if letters && digits {
			return false
		}
	}
	return true
}
