package secrets

import "strings"

// This file recognises values that stand where a credential would and
// are none: placeholders (<token>, YOUR_API_KEY, xxxx, sk-...), vendors'
// published examples, settings and paths, and keys public by design.

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
	return maskLike(v) || ellipsis(v) || prefixMask(v) || vendorExample(v) || zeroFill(v)
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

// prefixMask: a token's prefix and a short mask where its body goes,
// as READMEs write a key they will not show: "ntn_****", "sk-xxxx",
// "ghp_•••••". The prefix is as ellipsis takes it; the mask is three to
// fifteen of '*', 'x', 'X' or '•': no token's body is that short (the
// shortest are sixteen), so no key is let through, and a mask as long as
// a body (ghp_ and 36 x) keeps the exact shape of a key (decision 18).
func prefixMask(v string) bool {
	end, n := len(v), 0
	for end > 0 {
		if c := v[end-1]; c == '*' || c == 'x' || c == 'X' {
			end--
		} else if strings.HasSuffix(v[:end], "•") {
			end -= len("•")
		} else {
			break
		}
		n++
	}
	if n < 3 || n > 15 || end == 0 || end > 16 {
		return false
	}
	prefix := v[:end]
	for i := 0; i < len(prefix); i++ {
		if c := prefix[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	last := prefix[len(prefix)-1]
	return last == '-' || last == '_' || last == '.'
}

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

// fillerBody: a token body that is filler, as vendors' documentation
// writes a token's shape: all zeros or x's but for a few characters
// (ghp_000…, sk-proj-XXXX…, xoxb-0000-0000-XXXX…). A generated token has
// random characters throughout; twelve filler characters and at most
// eight others is no such token.
func fillerBody(body string) bool {
	filler, other := 0, 0
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '0' || c == 'x' || c == 'X':
			filler++
		case isAlnum(c):
			other++
		}
	}
	return filler >= 12 && other <= 8
}

// vendorExample: AWS's documented example keys end in EXAMPLE
// (AKIAIOSFODNN7EXAMPLE) or EXAMPLEKEY (…bPxRfiCYEXAMPLEKEY), and other
// vendors follow the pattern; a generated key never does.
func vendorExample(v string) bool {
	return strings.HasSuffix(v, "EXAMPLE") || strings.HasSuffix(v, "EXAMPLEKEY")
}

// fillerPath: a webhook path whose every segment is filler after at most
// one leading letter, as Slack's documentation writes its webhook
// (T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX). A real webhook's IDs
// and secret are not zeros.
func fillerPath(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if len(seg) > 1 && isUpper(seg[0]) {
			seg = seg[1:]
		}
		for i := 0; i < len(seg); i++ {
			if c := seg[i]; c != '0' && c != 'x' && c != 'X' && c != '-' && c != '_' {
				return false
			}
		}
	}
	return true
}
