package secrets

import "strings"

// Character sets of token bodies.
const (
	csAlnum  uint8 = 1 << iota // A-Z a-z 0-9
	csUnder                    // _
	csDash                     // -
	csDot                      // .
	csB64                      // + / =
	csHex                      // 0-9 a-f A-F only (overrides csAlnum)
	csUpperD                   // A-Z 0-9 only (overrides csAlnum)
)

// tokenSpec is one well-known token format: a fixed prefix, then a body of
// min..max characters (max 0: no bound) from a character set. Prefixed
// formats are so specific that no entropy is asked of the body: a token
// made of one repeated letter is still refused, only an all-x mask is not.
type tokenSpec struct {
	prefix   string
	rule     rule
	cs       uint8
	min, max int
	// wordy: a body of short lowercase words (sk-learn-style-names) is
	// prose, not a token; for prefixes that ordinary words can start.
	wordy bool
	// check, if set, must also accept the body.
	check func(body string) bool
}

const (
	csWord  = csAlnum | csUnder
	csWordD = csAlnum | csUnder | csDash
)

// tokenSpecs: longer prefixes before shorter ones that share a start.
var tokenSpecs = [...]tokenSpec{
	{prefix: "github_pat_", rule: ruleTokenGitHub, cs: csWord, min: 40},
	{prefix: "ghp_", rule: ruleTokenGitHub, cs: csAlnum, min: 30},
	{prefix: "gho_", rule: ruleTokenGitHub, cs: csAlnum, min: 30},
	{prefix: "ghu_", rule: ruleTokenGitHub, cs: csAlnum, min: 30},
	{prefix: "ghs_", rule: ruleTokenGitHub, cs: csAlnum, min: 30},
	{prefix: "ghr_", rule: ruleTokenGitHub, cs: csAlnum, min: 30},
	{prefix: "glpat-", rule: ruleTokenGitLab, cs: csWordD | csDot, min: 20},
	{prefix: "gldt-", rule: ruleTokenGitLab, cs: csWordD, min: 20},
	{prefix: "glrt-", rule: ruleTokenGitLab, cs: csWordD, min: 20},
	{prefix: "glptt-", rule: ruleTokenGitLab, cs: csWordD, min: 20},
	{prefix: "glft-", rule: ruleTokenGitLab, cs: csWordD, min: 20},
	{prefix: "glsoat-", rule: ruleTokenGitLab, cs: csWordD, min: 20},
	{prefix: "glcbt-", rule: ruleTokenGitLab, cs: csWordD, min: 20},
	{prefix: "gloas-", rule: ruleTokenGitLab, cs: csWordD, min: 20},
	{prefix: "GR1348941", rule: ruleTokenGitLab, cs: csWordD, min: 20},
	{prefix: "glsa_", rule: ruleTokenGrafana, cs: csWord, min: 32},
	{prefix: "glc_", rule: ruleTokenGrafana, cs: csWord | csB64, min: 32},
	{prefix: "xoxb-", rule: ruleTokenSlack, cs: csAlnum | csDash, min: 15, wordy: true},
	{prefix: "xoxp-", rule: ruleTokenSlack, cs: csAlnum | csDash, min: 15, wordy: true},
	{prefix: "xoxa-", rule: ruleTokenSlack, cs: csAlnum | csDash, min: 15, wordy: true},
	{prefix: "xoxr-", rule: ruleTokenSlack, cs: csAlnum | csDash, min: 15, wordy: true},
	{prefix: "xoxs-", rule: ruleTokenSlack, cs: csAlnum | csDash, min: 15, wordy: true},
	{prefix: "xoxo-", rule: ruleTokenSlack, cs: csAlnum | csDash, min: 15, wordy: true},
	{prefix: "xoxe.", rule: ruleTokenSlack, cs: csAlnum | csDash | csDot, min: 15, wordy: true},
	{prefix: "xoxe-", rule: ruleTokenSlack, cs: csAlnum | csDash, min: 15, wordy: true},
	{prefix: "xapp-", rule: ruleTokenSlack, cs: csAlnum | csDash, min: 15, wordy: true},
	{prefix: "xkeysib-", rule: ruleTokenOther, cs: csAlnum | csDash, min: 60},
	{prefix: "xai-", rule: ruleTokenXAI, cs: csAlnum, min: 60},
	{prefix: "sk-ant-", rule: ruleTokenAnthropic, cs: csWordD, min: 20},
	{prefix: "sk-or-", rule: ruleTokenOpenRouter, cs: csWordD, min: 20},
	{prefix: "sk-", rule: ruleTokenOpenAI, cs: csWordD, min: 20, wordy: true},
	{prefix: "sk_live_", rule: ruleTokenStripe, cs: csAlnum, min: 16},
	{prefix: "sk_test_", rule: ruleTokenStripe, cs: csAlnum, min: 16},
	{prefix: "sk_", rule: ruleTokenElevenLabs, cs: csHex, min: 48, max: 48},
	{prefix: "sk.eyJ", rule: ruleTokenMapbox, cs: csWordD | csDot, min: 50},
	{prefix: "sbp_", rule: ruleTokenSupabase, cs: csHex, min: 40},
	{prefix: "sb_secret_", rule: ruleTokenSupabase, cs: csWordD, min: 20},
	{prefix: "secret_", rule: ruleTokenNotion, cs: csAlnum, min: 43, max: 43},
	{prefix: "sntrys_", rule: ruleTokenSentry, cs: csWord | csB64, min: 40},
	{prefix: "sntryu_", rule: ruleTokenSentry, cs: csHex, min: 64},
	{prefix: "shpat_", rule: ruleTokenShopify, cs: csHex, min: 32},
	{prefix: "shpca_", rule: ruleTokenShopify, cs: csHex, min: 32},
	{prefix: "shppa_", rule: ruleTokenShopify, cs: csHex, min: 32},
	{prefix: "shpss_", rule: ruleTokenShopify, cs: csHex, min: 32},
	{prefix: "shippo_live_", rule: ruleTokenOther, cs: csHex, min: 32},
	{prefix: "sl.", rule: ruleTokenOther, cs: csWordD, min: 130},
	{prefix: "sgp_", rule: ruleTokenOther, cs: csWord, min: 40},
	{prefix: "squ_", rule: ruleTokenOther, cs: csHex, min: 40},
	{prefix: "sqp_", rule: ruleTokenOther, cs: csHex, min: 40},
	{prefix: "sqa_", rule: ruleTokenOther, cs: csHex, min: 40},
	{prefix: "sq0atp-", rule: ruleTokenOther, cs: csWordD, min: 22},
	{prefix: "sq0csp-", rule: ruleTokenOther, cs: csWordD, min: 40},
	{prefix: "rk_live_", rule: ruleTokenStripe, cs: csAlnum, min: 16},
	{prefix: "rk_test_", rule: ruleTokenStripe, cs: csAlnum, min: 16},
	{prefix: "r8_", rule: ruleTokenReplicate, cs: csAlnum, min: 30},
	{prefix: "re_", rule: ruleTokenResend, cs: csWord, min: 30, wordy: true},
	{prefix: "rdme_", rule: ruleTokenOther, cs: csAlnum, min: 40},
	{prefix: "rnd_", rule: ruleTokenOther, cs: csAlnum, min: 25},
	{prefix: "whsec_", rule: ruleTokenStripe, cs: csAlnum | csB64, min: 24},
	{prefix: "AKIA", rule: ruleTokenAWS, cs: csUpperD, min: 16, max: 16},
	{prefix: "ASIA", rule: ruleTokenAWS, cs: csUpperD, min: 16, max: 16},
	{prefix: "ABIA", rule: ruleTokenAWS, cs: csUpperD, min: 16, max: 16},
	{prefix: "ACCA", rule: ruleTokenAWS, cs: csUpperD, min: 16, max: 16},
	{prefix: "A3T", rule: ruleTokenAWS, cs: csUpperD, min: 17, max: 17},
	{prefix: "AIza", rule: ruleTokenGoogle, cs: csWordD, min: 35, max: 35},
	{prefix: "AGE-SECRET-KEY-1", rule: ruleTokenAge, cs: csUpperD, min: 50},
	{prefix: "ATATT3", rule: ruleTokenAtlassian, cs: csWordD | csB64, min: 100},
	{prefix: "ATCTT3", rule: ruleTokenAtlassian, cs: csWordD | csB64, min: 100},
	{prefix: "apify_api_", rule: ruleTokenOther, cs: csAlnum, min: 30},
	{prefix: "api_org_", rule: ruleTokenHuggingFace, cs: csAlnum, min: 30},
	{prefix: "GOCSPX-", rule: ruleTokenGoogle, cs: csWordD, min: 20},
	{prefix: "ya29.", rule: ruleTokenGoogle, cs: csWordD | csDot, min: 30},
	{prefix: "hf_", rule: ruleTokenHuggingFace, cs: csAlnum, min: 30},
	{prefix: "hvs.", rule: ruleTokenVault, cs: csWordD, min: 20},
	{prefix: "hvb.", rule: ruleTokenVault, cs: csWordD, min: 20},
	{prefix: "hvr.", rule: ruleTokenVault, cs: csWordD, min: 20},
	{prefix: "HRKU-", rule: ruleTokenHeroku, cs: csWordD, min: 30},
	{prefix: "npm_", rule: ruleTokenNPM, cs: csAlnum, min: 36},
	{prefix: "nfp_", rule: ruleTokenOther, cs: csAlnum, min: 30},
	{prefix: "napi_", rule: ruleTokenOther, cs: csAlnum, min: 40},
	{prefix: "ntn_", rule: ruleTokenNotion, cs: csAlnum, min: 40},
	{prefix: "pypi-AgEIcHlwaS5vcmc", rule: ruleTokenPyPI, cs: csWordD, min: 50},
	{prefix: "pypi-AgENdGVzdC5weXBp", rule: ruleTokenPyPI, cs: csWordD, min: 50},
	{prefix: "pplx-", rule: ruleTokenPerplexity, cs: csAlnum, min: 40},
	{prefix: "pul-", rule: ruleTokenPulumi, cs: csHex, min: 40},
	{prefix: "pcsk_", rule: ruleTokenPinecone, cs: csWord, min: 40},
	{prefix: "pscale_tkn_", rule: ruleTokenPlanetScale, cs: csWordD | csDot, min: 32},
	{prefix: "pscale_pw_", rule: ruleTokenPlanetScale, cs: csWordD | csDot, min: 32},
	{prefix: "pscale_oauth_", rule: ruleTokenPlanetScale, cs: csWordD | csDot, min: 32},
	{prefix: "pnu_", rule: ruleTokenOther, cs: csAlnum, min: 36},
	{prefix: "pat", rule: ruleTokenAirtable, cs: csAlnum | csDot, min: 79, check: airtableBody},
	{prefix: "PMAK-", rule: ruleTokenPostman, cs: csAlnum | csDash, min: 50},
	{prefix: "dop_v1_", rule: ruleTokenDigitalOcean, cs: csHex, min: 64},
	{prefix: "doo_v1_", rule: ruleTokenDigitalOcean, cs: csHex, min: 64},
	{prefix: "dor_v1_", rule: ruleTokenDigitalOcean, cs: csHex, min: 64},
	{prefix: "dckr_pat_", rule: ruleTokenDocker, cs: csWordD, min: 20},
	{prefix: "dckr_oat_", rule: ruleTokenDocker, cs: csWordD, min: 20},
	{prefix: "dapi", rule: ruleTokenDatabricks, cs: csHex, min: 32, max: 34},
	{prefix: "dp.pt.", rule: ruleTokenDoppler, cs: csAlnum, min: 40},
	{prefix: "dp.st.", rule: ruleTokenDoppler, cs: csAlnum | csDot | csUnder, min: 40},
	{prefix: "dp.sa.", rule: ruleTokenDoppler, cs: csAlnum, min: 40},
	{prefix: "dp.ct.", rule: ruleTokenDoppler, cs: csAlnum, min: 40},
	{prefix: "dp.scim.", rule: ruleTokenDoppler, cs: csAlnum, min: 40},
	{prefix: "dp.audit.", rule: ruleTokenDoppler, cs: csAlnum, min: 40},
	{prefix: "dt0c01.", rule: ruleTokenOther, cs: csAlnum | csDot, min: 50},
	{prefix: "lin_api_", rule: ruleTokenLinear, cs: csAlnum, min: 32},
	{prefix: "lin_oauth_", rule: ruleTokenLinear, cs: csAlnum, min: 32},
	{prefix: "lsv2_pt_", rule: ruleTokenLangSmith, cs: csWord, min: 32},
	{prefix: "lsv2_sk_", rule: ruleTokenLangSmith, cs: csWord, min: 32},
	{prefix: "LTAI", rule: ruleTokenOther, cs: csAlnum, min: 16, max: 24, check: hasDigit},
	{prefix: "gsk_", rule: ruleTokenGroq, cs: csAlnum, min: 40},
	{prefix: "tvly-", rule: ruleTokenTavily, cs: csAlnum | csDash, min: 20, wordy: true},
	{prefix: "tfp_", rule: ruleTokenOther, cs: csAlnum, min: 40},
	{prefix: "fc-", rule: ruleTokenFirecrawl, cs: csHex, min: 32, max: 32},
	{prefix: "figd_", rule: ruleTokenFigma, cs: csWordD, min: 30},
	{prefix: "fo1_", rule: ruleTokenFly, cs: csWordD, min: 40},
	{prefix: "fm2_", rule: ruleTokenFly, cs: csWordD | csB64, min: 40},
	{prefix: "FLWSECK-", rule: ruleTokenOther, cs: csAlnum | csDash, min: 30},
	{prefix: "BSA", rule: ruleTokenBrave, cs: csWordD, min: 25, max: 40, check: mixedBody},
	{prefix: "bkua_", rule: ruleTokenOther, cs: csHex, min: 40},
	{prefix: "bb_live_", rule: ruleTokenOther, cs: csWordD, min: 20},
	{prefix: "CCIPAT_", rule: ruleTokenOther, cs: csWord, min: 30},
	{prefix: "CFPAT-", rule: ruleTokenOther, cs: csWordD, min: 40},
	{prefix: "ctx7sk-", rule: ruleTokenOther, cs: csWordD, min: 20},
	{prefix: "e2b_", rule: ruleTokenOther, cs: csAlnum, min: 30},
	{prefix: "jina_", rule: ruleTokenOther, cs: csWordD, min: 40},
	{prefix: "ops_eyJ", rule: ruleTokenOther, cs: csWordD | csB64, min: 50},
	{prefix: "key-", rule: ruleTokenMailgun, cs: csHex, min: 32, max: 32},
	{prefix: "SG.", rule: ruleTokenSendGrid, cs: csWordD | csDot, min: 60, check: sendGridBody},
}

// tokenIndex lists, for each first byte, the specs whose prefix starts with
// it, in table order. It is computed once and never changed.
var tokenIndex = func() (idx [256][]uint8) {
	for k := range tokenSpecs {
		c := tokenSpecs[k].prefix[0]
		idx[c] = append(idx[c], uint8(k))
	}
	return idx
}()

// scanTokens reports every well-known token in s (at a word boundary), and
// JWTs, PEM private keys and webhook URLs, through found.
func scanTokens(s string, found report) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if i > 0 && isAlnum(s[i-1]) {
			// Telegram's API puts the token right after "bot":
			// https://api.telegram.org/bot<token>/getMe.
			if isDigit(c) && i >= 3 && s[i-3:i] == "bot" {
				if n := telegramLen(s[i:]); n > 0 {
					found(ruleTokenTelegram, s[i:i+n])
				}
			}
			continue
		}
		if !isAlnum(c) {
			continue
		}
		if c == 'e' && strings.HasPrefix(s[i:], "eyJ") {
			if n := jwtLen(s[i:]); n > 0 {
				found(ruleJWT, s[i:i+n])
				continue
			}
		}
		if isDigit(c) {
			if n := telegramLen(s[i:]); n > 0 {
				found(ruleTokenTelegram, s[i:i+n])
				continue
			}
		}
		if c == 'M' || c == 'N' || c == 'O' {
			if n := discordLen(s[i:]); n > 0 {
				found(ruleTokenDiscord, s[i:i+n])
				continue
			}
		}
		listed := false
		for _, k := range tokenIndex[c] {
			t := &tokenSpecs[k]
			if !strings.HasPrefix(s[i:], t.prefix) {
				continue
			}
			body := s[i+len(t.prefix):]
			n := bodyLen(body, t.cs)
			if n < t.min || (t.max > 0 && n > t.max) {
				continue
			}
			body = body[:n]
			if maskLike(body) || fillerBody(body) || vendorExample(body) || (t.wordy && wordy(body)) || (t.check != nil && !t.check(body)) {
				continue
			}
			found(t.rule, s[i:i+len(t.prefix)+n])
			listed = true
			break
		}
		if !listed {
			if n := catalogLen(s[i:]); n > 0 {
				found(ruleTokenCatalog, s[i:i+n])
			}
		}
	}
	if len(s) < 20 {
		return // too short for any of the formats below
	}
	if strings.Contains(s, "-----BEGIN") {
		privateKeyBlocks(s, found)
	}
	if i := strings.Index(s, "PuTTY-User-Key-File-"); i >= 0 && strings.Contains(s[i:], "Private-Lines:") {
		found(rulePrivateKey, s[i:])
	}
	if len(s) < 40 {
		return
	}
	if strings.Contains(s, ".atlasv1.") {
		terraformTokens(s, found)
	}
	if strings.Contains(s, "Q~") {
		azureSecrets(s, found)
	}
	if strings.Contains(s, "hooks.slack.com/") {
		webhookPaths(s, ruleTokenSlackWebhook, found, "hooks.slack.com/services/", "hooks.slack.com/workflows/", "hooks.slack.com/triggers/")
	}
	if strings.Contains(s, "/api/webhooks/") {
		webhookPaths(s, ruleTokenDiscordWebhook, found, "discord.com/api/webhooks/", "discordapp.com/api/webhooks/")
	}
	if strings.Contains(s, "webhook.office.com/") {
		webhookPaths(s, ruleTokenTeamsWebhook, found, "webhook.office.com/webhookb2/")
	}
}

func inSet(c byte, cs uint8) bool {
	switch {
	case cs&csHex != 0:
		return isHex(c)
	case cs&csUpperD != 0:
		return isUpper(c) || isDigit(c)
	case isAlnum(c):
		return cs&csAlnum != 0
	case c == '_':
		return cs&csUnder != 0
	case c == '-':
		return cs&csDash != 0
	case c == '.':
		return cs&csDot != 0
	case c == '+' || c == '/' || c == '=':
		return cs&csB64 != 0
	}
	return false
}

// maxBody bounds how far a token body is read: longer bodies count as
// maxBody long, which every format's minimum is below. The bound keeps the
// scan linear on hostile input (sk-sk-sk-… would otherwise read the rest
// of the string from every boundary).
const maxBody = 256

func bodyLen(s string, cs uint8) int {
	n := 0
	for n < len(s) && n < maxBody && inSet(s[n], cs) {
		n++
	}
	// A trailing dot or dash ends a sentence or a word, not a token.
	for n > 0 && (s[n-1] == '.' || s[n-1] == '-') {
		n--
	}
	return n
}

// wordy: every dash- or underscore-separated part is a short lowercase
// word, as in sk-learn-model-name or re_run_the_tests: prose, not a token.
func wordy(body string) bool {
	start := 0
	for i := 0; i <= len(body); i++ {
		if i < len(body) && body[i] != '-' && body[i] != '_' {
			if !isLower(body[i]) {
				return false
			}
			continue
		}
		if i-start > 12 {
			return false
		}
		start = i + 1
	}
	return true
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			return true
		}
	}
	return false
}

// mixedBody: digits and letters both, as generated keys have and words and
// identifiers that merely start with the prefix (BSAConfig…) lack.
func mixedBody(s string) bool {
	d, l := 0, 0
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			d++
		} else if isAlnum(s[i]) {
			l++
		}
	}
	return d >= 2 && l >= 2
}

// airtableBody: pat + 14 alphanumerics + "." + 64 hex.
func airtableBody(s string) bool {
	if len(s) < 79 || s[14] != '.' {
		return false
	}
	for i := 0; i < 14; i++ {
		if !isAlnum(s[i]) {
			return false
		}
	}
	for i := 15; i < 79; i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// sendGridBody: SG. + 16+ + "." + 16+.
func sendGridBody(s string) bool {
	i := strings.IndexByte(s, '.')
	return i >= 16 && len(s)-i-1 >= 16 && !strings.Contains(s[i+1:], ".")
}

// jwtLen returns the length of the JWT s starts with, or 0: three (or
// five) base64url segments, the first two long, joined by dots:
// header.payload.signature. The header is JSON, so it starts eyJ.
func jwtLen(s string) int {
	if len(s) > 16<<10 {
		s = s[:16<<10] // a header and payload longer than this are no JWT
	}
	seg, n, dots := 0, 0, 0
	i := 0
	for ; i <= len(s); i++ {
		if seg == 0 && n > 512 {
			return 0 // no JWT header is this long
		}
		if i < len(s) && (isAlnum(s[i]) || s[i] == '_' || s[i] == '-') {
			n++
			continue
		}
		if seg < 2 && n < 10 {
			return 0
		}
		seg++
		if i < len(s) && s[i] == '.' && seg < 5 {
			dots++
			n = 0
			continue
		}
		break
	}
	if dots < 2 {
		return 0
	}
	for i > 0 && s[i-1] == '.' {
		i-- // a sentence's full stop after an empty signature
	}
	return i
}

// telegramLen returns the length of the Telegram bot token s starts with,
// or 0: 8-10 digits, ":AA", 33 base64url characters.
func telegramLen(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	if n < 8 || n > 10 || !strings.HasPrefix(s[n:], ":AA") {
		return 0
	}
	b := bodyLen(s[n+3:], csWordD)
	if b < 33 {
		return 0
	}
	return n + 3 + b
}

// discordLen returns the length of the Discord bot token s starts with,
// or 0: [MNO] + 23-27 alphanumerics, ".", 6 characters, ".", 27+.
func discordLen(s string) int {
	a := bodyLen(s, csAlnum)
	if a < 24 || a > 28 || a >= len(s) || s[a] != '.' {
		return 0
	}
	b := bodyLen(s[a+1:], csWordD)
	if b != 6 || a+1+b >= len(s) || s[a+1+b] != '.' {
		return 0
	}
	rest := s[a+2+b:]
	c := bodyLen(rest, csWordD)
	if c < 27 || !mixedBody(s[:a]) {
		return 0
	}
	return a + 2 + b + c
}

// privateKeyBlocks reports each PEM block whose label names a private key,
// from its BEGIN line through its END line (or the end of s).
func privateKeyBlocks(s string, found report) {
	noEnd := false // no END line after here: stop looking for one
	for off := 0; ; {
		i := strings.Index(s[off:], "-----BEGIN ")
		if i < 0 {
			return
		}
		start := off + i
		off = start + len("-----BEGIN ")
		end := strings.Index(s[off:], "-----")
		if end < 0 {
			return
		}
		if end > 64 || !strings.Contains(s[off:off+end], "PRIVATE KEY") || !pemBody(s[off+end+5:]) {
			continue // another label, or prose naming the header with no key after it
		}
		stop := len(s)
		if e := strings.Index(s[off+end+5:], "-----END "); noEnd || e < 0 {
			noEnd = true
		} else {
			stop = off + end + 5 + e + len("-----END ")
			if k := strings.Index(s[stop:], "-----"); k >= 0 {
				stop += k + len("-----")
			}
		}
		found(rulePrivateKey, s[start:stop])
		off = stop
	}
}

// terraformTokens reports each Terraform Cloud token: 14 alphanumerics,
// ".atlasv1.", 60+ more.
func terraformTokens(s string, found report) {
	for i := range indexes(s, ".atlasv1.") {
		before := 0
		for before < i && before < 14 && isAlnum(s[i-1-before]) {
			before++
		}
		if n := bodyLen(s[i+9:], csWordD|csB64); before >= 14 && n >= 60 {
			found(ruleTokenTerraform, s[i-before:i+9+n])
		}
	}
}

// azureSecrets reports each Entra ID client secret: 3 characters, a
// digit, "Q~", then 31 to 34 more.
func azureSecrets(s string, found report) {
	const cs = csWordD | csDot
	for i := range indexes(s, "Q~") {
		if i < 4 || !isDigit(s[i-1]) {
			continue
		}
		ok := true
		for j := i - 4; j < i-1; j++ {
			if !inSet(s[j], cs) && s[j] != '~' {
				ok = false
			}
		}
		if i > 4 && (inSet(s[i-5], cs) || s[i-5] == '~') {
			ok = false
		}
		n := 0
		for i+2+n < len(s) && n <= 34 && (inSet(s[i+2+n], cs) || s[i+2+n] == '~') {
			n++
		}
		if ok && n >= 31 && n <= 34 {
			found(ruleTokenAzure, s[i-4:i+2+n])
		}
	}
}

// webhookPaths reports, under rule r, the secret path after each of the
// webhook bases that is long enough to hold one.
func webhookPaths(s string, r rule, found report, bases ...string) {
	for _, b := range bases {
		for i := range indexes(s, b) {
			rest := s[i+len(b):]
			n := 0
			for n < len(rest) && n < maxBody && (isAlnum(rest[n]) || strings.IndexByte("/_-@", rest[n]) >= 0) {
				n++
			}
			if n >= 20 && strings.Count(rest[:n], "/") >= 1 && !fillerPath(rest[:n]) {
				found(r, rest[:n])
			}
		}
	}
}

// pemBody reports whether s, the text after a PEM header's closing
// dashes, starts a key's body: after line breaks (real or \n-escaped) and
// armor headers (Proc-Type: …), a line of at least 16 base64 characters.
// A header named in prose ("must match -----BEGIN PRIVATE KEY-----", a
// JSON schema's pattern) has no body, and is no key.
func pemBody(s string) bool {
	for lines := 0; lines < 4; lines++ {
		for s != "" && (s[0] == '\n' || s[0] == '\r' || s[0] == ' ' || s[0] == '\t' || strings.HasPrefix(s, `\n`) || strings.HasPrefix(s, `\r`)) {
			if s[0] == '\\' {
				s = s[2:]
			} else {
				s = s[1:]
			}
		}
		n := 0
		for n < len(s) && (isAlnum(s[n]) || s[n] == '+' || s[n] == '/' || s[n] == '=') {
			n++
		}
		if n >= 16 {
			return true
		}
		// An armor header: "Name: value" to the end of its line, which
		// is short (the search is bounded, so the scan stays linear).
		if n == 0 {
			return false
		}
		line := s[:min(len(s), 128)]
		end := strings.IndexAny(line, "\n\\")
		if end < 0 || !strings.Contains(line[:end], ":") {
			return false
		}
		s = s[end:]
	}
	return false
}
