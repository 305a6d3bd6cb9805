package secrets

import (
	"encoding/base64"
	"math"
	"strings"
)

// reference reports whether v is only references to a secret (${NAME},
// $NAME, %NAME%, {{ name }}, ${input:id}, $(cmd)) and punctuation, which
// record where a secret comes from, not the secret. A reference with a
// default (${NAME:-value}) returns its default: a literal default is the
// secret a definition would record, so callers judge it as the value.
func reference(v string) (ok bool, def string) {
	if len(v) > maxValue {
		v = v[:maxValue] // see maxValue; keeps ${${${… linear
	}
	found := false
	run := 0 // length of the current run of literal letters and digits
	for i := 0; i < len(v); {
		// A reference starts a word: in Sql$erver1 the dollar is part of
		// a literal password, not a variable.
		if i > 0 && isAlnum(v[i-1]) {
			if isAlnum(v[i]) {
				run++
				if run >= 6 {
					return false, ""
				}
			} else {
				run = 0
			}
			i++
			continue
		}
		if n, d := refAt(v, i); n > 0 {
			found = true
			if d != "" && def == "" {
				def = d
			}
			i += n
			run = 0
			continue
		}
		if isAlnum(v[i]) {
			run++
			// A literal word beside a reference may be the secret itself:
			// ${USER}:hunter22. Short words (a scheme, a port) are not.
			if run >= 6 {
				return false, ""
			}
		} else {
			run = 0
		}
		i++
	}
	return found, def
}

// refAt returns the length of the reference starting at v[i], or 0, and
// the reference's default value if it has one.
func refAt(v string, i int) (n int, def string) {
	if i >= len(v) {
		return 0, ""
	}
	rest := v[i:]
	switch {
	case strings.HasPrefix(rest, "${{"): // GitHub Actions: ${{ secrets.X }}
		if j := strings.Index(rest, "}}"); j > 0 {
			return j + 2, ""
		}
	case strings.HasPrefix(rest, "${"):
		j := strings.IndexByte(rest, '}')
		if j < 0 {
			return 0, ""
		}
		body := rest[2:j]
		name := identLen(body)
		if name == 0 {
			// ${input:id}, ${env:NAME}, ${workspaceFolder}: a colon-prefixed
			// variable kind, then a name.
			k := strings.IndexByte(body, ':')
			if k <= 0 || identLen(body[:k]) != k || identLen(body[k+1:]) == 0 {
				return 0, ""
			}
			return j + 1, ""
		}
		tail := body[name:]
		switch {
		case tail == "":
		case strings.HasPrefix(tail, ":?"), strings.HasPrefix(tail, "?"):
			// ${NAME:?message}: the text is the error shown when NAME is
			// unset, never a value.
		case strings.HasPrefix(tail, ":-"), strings.HasPrefix(tail, ":="), strings.HasPrefix(tail, ":+"):
			// A default, or (:+) the value used when NAME is set: either
			// way a literal that would be recorded.
			def = tail[2:]
		case strings.HasPrefix(tail, "-"), strings.HasPrefix(tail, "="), strings.HasPrefix(tail, "+"):
			def = tail[1:]
		case strings.HasPrefix(tail, ":"):
			// ${input:id} or ${env:NAME} where the kind is the ident.
			if identLen(tail[1:]) == 0 {
				return 0, ""
			}
		default:
			return 0, ""
		}
		return j + 1, def
	case strings.HasPrefix(rest, "$("):
		// Command substitution: the secret comes from a command at launch.
		if j := closeParen(rest, 1); j > 2 {
			return j + 1, ""
		}
	case rest[0] == '`':
		if j := strings.IndexByte(rest[1:], '`'); j > 0 {
			return j + 2, ""
		}
	case strings.HasPrefix(rest, "$env:"), strings.HasPrefix(rest, "$ENV:"): // PowerShell
		if k := identLen(rest[5:]); k > 0 {
			return 5 + k, ""
		}
	case rest[0] == '$':
		if k := identLen(rest[1:]); k > 0 {
			return 1 + k, ""
		}
	case rest[0] == '%':
		if k := identLen(rest[1:]); k > 0 && 1+k < len(rest) && rest[1+k] == '%' {
			return k + 2, ""
		}
	case strings.HasPrefix(rest, "{{"):
		if j := strings.Index(rest, "}}"); j > 2 {
			return j + 2, ""
		}
	case rest[0] == '{':
		// Registry URL templates and some launchers: {api_key}.
		if k := identLen(rest[1:]); k > 0 && 1+k < len(rest) && rest[1+k] == '}' {
			return k + 2, ""
		}
	}
	return 0, ""
}

// scanRefDefaults calls found if s holds a reference to a credential-named
// variable with a literal default, wherever it stands: ${OPENAI_API_KEY:-VALUE},
// ${DB_PASSWORD-VALUE}, ${DB_PASSWORD:=VALUE}, ${DB_PASSWORD=VALUE}. The
// default is what the client uses when the variable is unset, and it is
// recorded, so it is judged as the value of NAME=VALUE would be: a
// placeholder or a reference is accepted, a literal password is not.
// ${NAME:?message} carries an error message, and ${NAME:+word} the word
// used in NAME's place when it is set (often a flag built from it,
// ${TOKEN:+--token=$TOKEN}): neither is NAME's value, and neither is judged
// here.
//
// A default is judged up to the next "${" (a nested reference is judged on
// its own), so the defaults judged never overlap, and the next '}' is
// searched for once however many openers precede it: the scan is linear.
//
// A default that is itself a reference with a default
// (${API_KEY:-${FALLBACK:-VALUE}}) is the outer variable's value too, so
// the inner one is judged with the outer name's strength if that is
// greater. A default of any name that is a credential header line
// (${H:-Authorization: Bearer …}) is judged as that header.
func scanRefDefaults(s string, found func(secret string)) {
	closeAt := -1 // the next '}' at or after off
	inheritAt, inherit := -1, notSecret
	for off := 0; ; {
		i := strings.Index(s[off:], "${")
		if i < 0 {
			return
		}
		opener := off + i
		off += i + 2
		if closeAt < off {
			j := strings.IndexByte(s[off:], '}')
			if j < 0 {
				return
			}
			closeAt = off + j
		}
		body := s[off:closeAt]
		n := identLen(body)
		if n == 0 {
			continue
		}
		var def string
		switch tail := body[n:]; {
		case strings.HasPrefix(tail, ":-"), strings.HasPrefix(tail, ":="):
			def = tail[2:]
		case strings.HasPrefix(tail, "-"), strings.HasPrefix(tail, "="):
			def = tail[1:]
		default:
			continue
		}
		st := classifyName(body[:n])
		if opener == inheritAt && inherit > st {
			st = inherit
		}
		if j := strings.Index(def, "${"); j >= 0 {
			if j == 0 && st != notSecret {
				inheritAt, inherit = off+len(body)-len(def), st
			}
			def = def[:j]
		}
		if def == "" {
			continue
		}
		if st != notSecret && literalSecret(st, def) {
			found(judged(st, def))
		} else if name, v, ok := splitHeader(def); ok {
			if sec, ok := headerSecretOf(headerStrength(name), v); ok {
				found(sec)
			}
		}
	}
}

// closeParen returns the index of the ')' that closes the '(' at s[open],
// or -1. Parentheses nest; quotes are not read.
func closeParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// identLen is the length of the identifier ([A-Za-z_][A-Za-z0-9_]*) at the
// start of s (dots allowed after the first character, for {{ secrets.x }}
// style names).
func identLen(s string) int {
	if s == "" || !(isAlnum(s[0]) && !isDigit(s[0]) || s[0] == '_') {
		return 0
	}
	i := 1
	for i < len(s) && (isAlnum(s[i]) || s[i] == '_' || s[i] == '.') {
		i++
	}
	return i
}

// placeholder reports whether v is an obvious stand-in for a value that a
// user is meant to fill in: <token>, YOUR_API_KEY, your-key-here, xxxx,
// ****, REDACTED. None of them is a credential.
func placeholder(v string) bool {
	if len(v) >= 3 && v[0] == '<' && v[len(v)-1] == '>' {
		return true
	}
	if len(v) >= 5 && strings.EqualFold(v[:4], "your") && (v[4] == '_' || v[4] == '-' || isUpper(v[4])) {
		return true
	}
	if hasSuffixFold(v, "_here") || hasSuffixFold(v, "-here") {
		return true
	}
	if v == "REDACTED" || v == "[REDACTED]" || v == "**REDACTED**" || v == "<redacted>" {
		return true
	}
	return maskLike(v) || ellipsis(v) || vendorExample(v) || zeroFill(v)
}

// ellipsis: dots or an ellipsis where the value goes, after at most a
// token's prefix: "...", "…", "sk-...", "ghp_…", "sk-proj-...". Nothing of
// a key is there. A value with characters of its own before the dots
// ("abc123...") is not taken for one: it may be a password with dots.
func ellipsis(v string) bool {
	end := len(v)
	dots := 0
	for end > 0 {
		if v[end-1] == '.' {
			end--
			dots++
		} else if strings.HasSuffix(v[:end], "…") {
			end -= len("…")
			dots += 3
		} else {
			break
		}
	}
	if dots < 3 {
		return false
	}
	prefix := v[:end]
	if prefix == "" {
		return true
	}
	if len(prefix) > 16 {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if c := prefix[i]; !isAlnum(c) && c != '-' && c != '_' {
			return false
		}
	}
	// sk-, ghp_, xoxb-: a prefix ends in a separator, or is a known one.
	if c := prefix[len(prefix)-1]; c == '-' || c == '_' {
		return true
	}
	for k := range tokenSpecs {
		if tokenSpecs[k].prefix == prefix {
			return true
		}
	}
	return false
}

// seedPhrase: 12 to 24 short lowercase words, as BIP-39 mnemonics are
// written.
func seedPhrase(v string) bool {
	words, n := 0, 0
	for i := 0; i <= len(v); i++ {
		if i < len(v) && isLower(v[i]) {
			n++
			continue
		}
		if i < len(v) && v[i] != ' ' {
			return false
		}
		if n < 3 || n > 8 {
			return false
		}
		words, n = words+1, 0
	}
	return words >= 12 && words <= 24 && words%3 == 0
}

// identifierByDesign: values of credential-looking shape that their
// services document as identifiers, the secret being separate: Twilio's
// API key and account SIDs (SK… and AC… and 32 hex), which TWILIO_API_KEY
// and --api-key-sid hold beside TWILIO_API_SECRET.
func identifierByDesign(v string) bool {
	if len(v) != 34 || (v[:2] != "SK" && v[:2] != "AC") {
		return false
	}
	for i := 2; i < len(v); i++ {
		if !isDigit(v[i]) && (v[i] < 'a' || v[i] > 'f') {
			return false
		}
	}
	return true
}

// publicByDesign: keys their services publish on purpose, in web pages
// and apps, and that grant nothing secret: Stripe's (and Clerk's)
// publishable keys, Mapbox public tokens, Supabase publishable keys and
// PostHog project keys.
func publicByDesign(v string) bool {
	for _, p := range publicKeyPrefixes {
		if strings.HasPrefix(v, p) && len(v) > len(p)+8 {
			body := v[len(p):]
			for i := 0; i < len(body); i++ {
				if c := body[i]; !isAlnum(c) && c != '_' && c != '-' && c != '.' {
					return false
				}
			}
			return true
		}
	}
	return false
}

var publicKeyPrefixes = []string{"pk_live_", "pk_test_", "pk.eyJ", "sb_publishable_", "phc_"}

// zeroFill: twelve or more zeros and nothing else, as documentation fills
// a key's place (a real key is not all zeros; a PIN of four is not this).
func zeroFill(v string) bool {
	return len(v) >= 12 && strings.Trim(v, "0") == ""
}

// maskLike: only x, X, * and separators, at least three of the first kind.
func maskLike(v string) bool {
	n := 0
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case 'x', 'X', '*':
			n++
		case '.', '-', '_', '#':
		default:
			return false
		}
	}
	return n >= 3
}

// plainSetting reports whether v is a word no credential is: a switch value
// or a keyword some tools take in place of a secret (--password prompt,
// --credentials default).
func plainSetting(v string) bool {
	switch strings.ToLower(v) {
	case "true", "false", "yes", "no", "on", "off", "none", "null", "nil", "auto", "default",
		"required", "optional", "prompt", "stdin", "-", "env", "file", "keychain", "keyring",
		"inherit", "oauth", "oauth2", "oidc", "disabled", "enabled", "0", "1":
		return true
	}
	return false
}

// pathLike reports whether v is a path to a file (where a secret lives),
// not a secret: /run/secrets/token, ./key.pem, ~/.config/x, C:\keys\a.pem,
// credentials.json. A random-looking value is not taken for a path even if
// it starts with a slash, as base64 may.
func pathLike(v string) bool {
	if v == "" || looksRandom(v) {
		return false
	}
	switch {
	case v[0] == '/', strings.HasPrefix(v, "./"), strings.HasPrefix(v, "../"), strings.HasPrefix(v, "~/"),
		strings.HasPrefix(v, `.\`), strings.HasPrefix(v, `..\`), strings.HasPrefix(v, `~\`),
		strings.HasPrefix(v, `\\`), strings.HasPrefix(v, "file:"):
		return !strings.ContainsAny(v, " \t\n")
	case len(v) > 3 && isAlnum(v[0]) && !isDigit(v[0]) && v[1] == ':' && (v[2] == '\\' || v[2] == '/'):
		return true
	}
	// A bare or relative file name with a key-file extension.
	dot := strings.LastIndexByte(v, '.')
	if dot <= 0 || strings.ContainsAny(v, " \t\n:") {
		return false
	}
	switch strings.ToLower(v[dot+1:]) {
	case "pem", "key", "json", "txt", "crt", "cer", "p12", "pfx", "jks", "der", "yaml", "yml",
		"toml", "env", "cfg", "conf", "ini", "asc", "gpg", "pub", "keystore", "secret", "token":
		return true
	}
	return false
}

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

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// maxValue bounds how much of a value is judged.
const maxValue = 512

// literalSecret decides a value given to a name of strength st: whether a
// definition recording it would record a credential. The caller has
// already scanned the value for tokens and URLs.
func literalSecret(st strength, v string) bool {
	if len(v) > maxValue {
		// Judged by its start: a value this long after a credential name
		// is refused or accepted by what it begins with, and judging it
		// whole at every '=' of a hostile string would be quadratic.
		v = v[:maxValue]
	}
	v = trimQuotes(strings.TrimSpace(v))
	if v == "" {
		return false
	}
	if ok, def := reference(v); ok {
		if def == "" {
			return false
		}
		v = def
		if ok, _ := reference(v); ok {
			return false
		}
	}
	if placeholder(v) || secretStoreRef(v) || publicByDesign(v) || identifierByDesign(v) {
		return false
	}
	switch st {
	case strong:
		if plainSetting(v) || pathLike(v) || isPairList(v) {
			return false
		}
		return true
	case authorization:
		return authValueSecret(v)
	case authName:
		return !plainSetting(v) && !authMethod(v) && !pathLike(v)
	case keyAlone:
		return !identifierLike(v) && !plainSetting(v) && !pathLike(v) && !isPairList(v)
	case weak:
		// --seed 42 is a number; --wallet-seed "abandon ability …" is
		// a wallet.
		return looksRandom(v) || userPassword(v) || seedPhrase(v)
	case nameRef:
		return looksRandom(v)
	}
	return false
}

// judge is literalSecret returning, when it refuses v, the secret it
// judged (see judged).
func judge(st strength, v string) (string, bool) {
	if !literalSecret(st, v) {
		return "", false
	}
	return judged(st, v), true
}

// judged returns the part of v that literalSecret judges as the secret:
// v without surrounding spaces and quotes, a reference's literal default
// (${KEY:-VALUE} gives VALUE), and an Authorization value's credential
// without its scheme. It is a substring of v.
func judged(st strength, v string) string {
	v = trimQuotes(strings.TrimSpace(v))
	if ok, def := reference(v); ok && def != "" {
		v = def
	}
	if st == authorization {
		v = authCredential(v)
	}
	return v
}

// secretStoreRef: a value that names a secret in a store or says where it
// is, the way 1Password (op://), Vault, cloud secret managers and openssl
// (env:, file:, fd:) take them.
func secretStoreRef(v string) bool {
	for _, p := range secretStorePrefixes {
		if hasPrefixFold(v, p) && len(v) > len(p) {
			return true
		}
	}
	return false
}

var secretStorePrefixes = []string{
	"op://", "vault://", "vault:", "arn:aws:secretsmanager:", "arn:aws:ssm:", "ssm://", "sm://",
	"gcp-secret://", "gcpsm://", "azure-keyvault://", "akv://", "keyvault://", "keychain:", "env:", "file:", "fd:",
	"projects/", "infisical://", "doppler://", "bws://",
}

// isPairList: the value is itself key=value pairs (docker's --secret
// id=x,src=path): its keys decide, and the assignment scan judges them.
func isPairList(v string) bool {
	eq := strings.IndexByte(v, '=')
	if eq <= 0 || eq == len(v)-1 || v[eq+1] == '=' {
		return false
	}
	switch strings.ToLower(v[:eq]) {
	case "id", "src", "source", "type", "env", "target", "name", "required", "mode", "uid", "gid":
		return true
	}
	return false
}

// userPassword: user:password given to an auth-ish name (--auth u:p), or
// user/password as NEO4J_AUTH takes it.
func userPassword(v string) bool { return userPasswordOf(v) != "" }

// userPasswordOf returns the password of v if userPassword would accept
// v as user:password or user/password, else "".
func userPasswordOf(v string) string {
	if i := strings.IndexByte(v, '/'); i > 0 && i < len(v)-1 && strings.Count(v, "/") == 1 &&
		!strings.ContainsAny(v, ".:@ ") && identLen(v[:i]) == i {
		pw := v[i+1:]
		if ok, _ := reference(pw); !ok && !placeholder(pw) {
			return pw
		}
	}
	i := strings.IndexByte(v, ':')
	if i <= 0 || i == len(v)-1 || strings.ContainsAny(v, " /@") {
		return ""
	}
	pw := v[i+1:]
	if ok, _ := reference(pw); ok || placeholder(pw) {
		return ""
	}
	for j := 0; j < len(pw); j++ {
		if !isDigit(pw[j]) {
			return pw
		}
	}
	return "" // uid:gid
}

func trimQuotes(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
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

// authMethod: a word that says how to authenticate, or with whom, as
// --auth and *_AUTH often take instead of a credential.
func authMethod(v string) bool {
	switch strings.ToLower(v) {
	case "basic", "bearer", "token", "apikey", "api-key", "api_key", "jwt", "mtls", "tls", "sigv4", "iam",
		"ldap", "saml", "oidc", "kerberos", "ntlm", "digest", "anonymous", "password", "key", "cert",
		"certificate", "header", "query", "cookie", "session", "device", "browser", "interactive",
		"github", "google", "azure", "microsoft", "okta", "auth0", "keycloak", "cognito", "firebase",
		"supabase", "clerk", "gitlab", "bitbucket", "aws", "gcp", "sso", "pat", "client_credentials",
		"authorization_code", "pkce", "implicit", "service-account", "service_account", "workload-identity":
		return true
	}
	return false
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
