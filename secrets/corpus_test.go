package secrets_test

// An independent red-team corpus of realistic MCP server launch
// configurations (command, args, url), written to measure the scanner the
// way an outside evaluation would: recall on credentials and false
// positives on benign values. It is written from what people put in Claude
// Desktop / Cursor / VS Code mcp.json files and MCP server READMEs, not
// from the rules in this package, so that it tests whether the rules
// generalise.
//
// Every fake credential is built here from a seeded PRNG, never written as
// a literal, and every message this test prints shows a generated value
// only by its shape ("<ghp_ + 36 alnum>"), never the value itself.
//
// An argument, command or URL wrapped in X(...) is where a credential was
// planted: the scanner must refuse exactly there, and nowhere else.

import (
	"encoding/base64"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/refusals"
	"github.com/guardian-agent/guardian-go/secrets"
)

// corpusCase is one launch configuration.
type corpusCase struct {
	cat     string   // category, for the per-category report
	name    string   // unique, human-readable
	command string   // as in mcp.json; "" for a URL server
	args    []string // as in mcp.json
	url     string   // as in mcp.json; "" for a stdio server
	// want holds the pointers, relative to the server ("/command",
	// "/args/3", "/url"), that hold a credential and must be refused.
	// Empty means the whole configuration is benign.
	want []string
	// why, on an ambiguous case only, says why it is ambiguous; want is
	// then the decision recommended.
	why string
}

// dirty reports whether the case holds a credential.
func (c corpusCase) dirty() bool { return len(c.want) > 0 }

// corpusMark prefixes a value in which a credential was planted. No real
// command, argument or URL starts with a NUL byte.
const corpusMark = "\x00\x01planted\x01"

// X marks v as holding a planted credential.
func X(v string) string { return corpusMark + v }

// A is shorthand for an argument list.
func A(args ...string) []string { return args }

func unmark(v string) (string, bool) {
	if s, ok := strings.CutPrefix(v, corpusMark); ok {
		return s, true
	}
	return v, false
}

const (
	csDigits   = "0123456789"
	csLower    = "abcdefghijklmnopqrstuvwxyz"
	csUpper    = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	csAlpha    = csUpper + csLower
	csAlnum    = csAlpha + csDigits
	csLowAlnum = csLower + csDigits
	csUpAlnum  = csUpper + csDigits
	csHex      = "0123456789abcdef"
	csUHex     = "0123456789ABCDEF"
	csB64      = csAlnum + "+/"
	csB64URL   = csAlnum + "-_"
	csB32Low   = "abcdefghijklmnopqrstuvwxyz234567"
	csB32Up    = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	csBase58   = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	csBech32Up = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
)

var csNames = map[string]string{
	csDigits: "digits", csLower: "lower", csUpper: "upper", csAlpha: "letters",
	csAlnum: "alnum", csLowAlnum: "lower-alnum", csUpAlnum: "upper-alnum",
	csHex: "hex", csUHex: "HEX", csB64: "base64", csB64URL: "base64url",
	csB32Low: "base32", csB32Up: "BASE32", csBase58: "base58", csBech32Up: "bech32",
}

// corpusGen makes the corpus's generated values, deterministically, and
// remembers the shape of each so messages can show it instead.
type corpusGen struct {
	r      *rand.Rand
	shapes map[string]string
	secret map[string]bool
}

func newCorpusGen() *corpusGen {
	return &corpusGen{
		r:      rand.New(rand.NewPCG(0x5eed_c0de_2025, 0x9e3779b97f4a7c15)),
		shapes: map[string]string{},
		secret: map[string]bool{},
	}
}

// pick returns n random characters of set.
func (g *corpusGen) pick(set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[g.r.IntN(len(set))]
	}
	return string(b)
}

// sec registers v as a planted secret, shown as shape.
func (g *corpusGen) sec(shape, v string) string {
	g.shapes[v] = shape
	g.secret[v] = true
	return v
}

// ben registers v as a benign generated value, shown as shape.
func (g *corpusGen) ben(shape, v string) string {
	if !g.secret[v] {
		g.shapes[v] = shape
	}
	return v
}

// rs is a random secret of n characters of set; rb the benign kind. Both
// start with a letter or digit: a value starting with "-" reads as the next
// flag, which is a case of its own (see corpusAmbiguous).
func (g *corpusGen) rs(set string, n int) string {
	return g.sec(fmt.Sprintf("<%d %s>", n, csNames[set]), g.word(set, n))
}
func (g *corpusGen) rb(set string, n int) string {
	return g.ben(fmt.Sprintf("<%d %s>", n, csNames[set]), g.word(set, n))
}

func (g *corpusGen) word(set string, n int) string {
	for {
		v := g.pick(set, n)
		if c := v[0]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			return v
		}
	}
}

func (g *corpusGen) uuidRaw() string {
	h := g.pick(csHex, 32)
	return h[0:8] + "-" + h[8:12] + "-4" + h[13:16] + "-" + string("89ab"[g.r.IntN(4)]) + h[17:20] + "-" + h[20:32]
}

// uuid is a benign UUID; uuidS one that is a credential (Exa, Heroku and
// Smithery keys are UUIDs).
func (g *corpusGen) uuid() string  { return g.ben("<uuid>", g.uuidRaw()) }
func (g *corpusGen) uuidS() string { return g.sec("<uuid used as an API key>", g.uuidRaw()) }

var corpusWords = []string{"Maple", "Tiger", "Falcon", "Summer", "Winter", "Ocean", "Rocket", "Purple", "Hunter", "Dragon", "Coffee", "Banana", "Silver", "Castle"}

// pw is a human-chosen password: Word, symbol, four digits, word. Low
// entropy on purpose: only the flag or field name says it is a password.
func (g *corpusGen) pw() string {
	w1 := corpusWords[g.r.IntN(len(corpusWords))]
	w2 := strings.ToLower(corpusWords[g.r.IntN(len(corpusWords))])
	sym := string("!#*?@-_.+="[g.r.IntN(10)])
	return g.sec("<password Word"+"?NNNNword>", w1+sym+g.pick(csDigits, 4)+w2)
}

// pwURL is a password made of characters that need no escaping in a URL's
// userinfo.
func (g *corpusGen) pwURL() string {
	w1 := corpusWords[g.r.IntN(len(corpusWords))]
	w2 := strings.ToLower(corpusWords[g.r.IntN(len(corpusWords))])
	sym := string("-_.!~*"[g.r.IntN(6)])
	return g.sec("<url-safe password Word?NNNNword>", w1+sym+g.pick(csDigits, 4)+w2)
}

var corpusBIP39 = []string{"abandon", "ability", "able", "about", "above", "absent", "absorb", "abstract", "absurd", "abuse", "access", "accident", "account", "accuse", "achieve", "acid", "acoustic", "acquire", "across", "act", "action", "actor", "actress", "actual", "adapt", "add", "addict", "address", "adjust", "admit", "adult", "advance", "advice", "aerobic", "affair", "afford", "afraid", "again", "age", "agent", "agree", "ahead", "aim", "air", "airport", "aisle", "alarm", "album"}

func (g *corpusGen) mnemonic() string {
	w := make([]string, 12)
	for i := range w {
		w[i] = corpusBIP39[g.r.IntN(len(corpusBIP39))]
	}
	return g.sec("<12-word BIP-39 seed phrase>", strings.Join(w, " "))
}

func b64url(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// jwt builds a signed JWT from a header and payload.
func (g *corpusGen) jwt(shape, header, payload string, sigLen int) string {
	return g.sec(shape, b64url(header)+"."+b64url(payload)+"."+g.pick(csB64URL, sigLen))
}

func (g *corpusGen) jwtHS() string {
	return g.jwt("<JWT HS256>", `{"alg":"HS256","typ":"JWT"}`,
		fmt.Sprintf(`{"sub":"%s","name":"mcp-client","iat":%d,"exp":%d}`, g.pick(csDigits, 10), 1700000000+g.r.IntN(1e7), 1800000000+g.r.IntN(1e7)), 43)
}

func (g *corpusGen) jwtK8s() string {
	return g.jwt("<JWT RS256 Kubernetes service-account token>",
		fmt.Sprintf(`{"alg":"RS256","kid":"%s"}`, g.pick(csB64URL, 43)),
		fmt.Sprintf(`{"aud":["https://kubernetes.default.svc"],"exp":%d,"iss":"https://kubernetes.default.svc","kubernetes.io":{"namespace":"mcp","serviceaccount":{"name":"mcp-reader","uid":"%s"}},"sub":"system:serviceaccount:mcp:mcp-reader"}`, 1800000000+g.r.IntN(1e7), g.uuidRaw()), 342)
}

func (g *corpusGen) supabaseJWT(ref, role string) string {
	return g.jwt("<Supabase "+role+" JWT>", `{"alg":"HS256","typ":"JWT"}`,
		fmt.Sprintf(`{"iss":"supabase","ref":"%s","role":"%s","iat":1712345678,"exp":2027921678}`, ref, role), 43)
}

// supaRef is a Supabase project ref: 20 lowercase letters, an identifier.
func (g *corpusGen) supaRef() string { return g.rb(csLower, 20) }

func (g *corpusGen) googleClientID() string {
	return g.ben("<google oauth client id>", g.pick(csDigits, 12)+"-"+g.pick(csLowAlnum, 32)+".apps.googleusercontent.com")
}

// pem builds a PEM block with label, lines joined by nl ("\n", or the two
// characters `\n` as in JSON-escaped env files).
func (g *corpusGen) pem(label, nl string, secret bool) string {
	var b strings.Builder
	b.WriteString("-----BEGIN " + label + "-----" + nl)
	for range 10 {
		b.WriteString(g.pick(csB64, 64) + nl)
	}
	b.WriteString(g.pick(csB64, 24) + "==" + nl)
	b.WriteString("-----END " + label + "-----")
	shape := "<PEM " + label
	if nl != "\n" {
		shape += `, \n-escaped`
	}
	shape += ">"
	if nl == "\n" {
		b.WriteString("\n")
	}
	if secret {
		return g.sec(shape, b.String())
	}
	return g.ben(shape, b.String())
}

// privKey is the label of a private-key PEM block, kept out of the source
// as one literal so that scanners of this repository stay quiet.
func privKey(kind string) string {
	if kind == "" {
		return "PRIVATE " + "KEY"
	}
	return kind + " PRIVATE " + "KEY"
}

// tk returns a fake credential of a well-known format.
func (g *corpusGen) tk(kind string) string {
	p := g.pick
	var v string
	switch kind {
	case "ghp", "gho", "ghu", "ghs", "ghr":
		v = kind + "_" + p(csAlnum, 36)
	case "github_pat":
		v = "github_pat_" + p(csAlnum, 22) + "_" + p(csAlnum, 59)
	case "glpat":
		v = "glpat-" + p(csAlnum+"-_", 20)
	case "glptt":
		v = "glptt-" + p(csHex, 40)
	case "xoxb":
		v = "xoxb-" + p(csDigits, 11) + "-" + p(csDigits, 13) + "-" + p(csAlnum, 24)
	case "xoxp":
		v = "xoxp-" + p(csDigits, 11) + "-" + p(csDigits, 11) + "-" + p(csDigits, 13) + "-" + p(csHex, 32)
	case "xapp":
		v = "xapp-1-A0" + p(csUpAlnum, 9) + "-" + p(csDigits, 13) + "-" + p(csHex, 64)
	case "xoxc":
		v = "xoxc-" + p(csDigits, 11) + "-" + p(csDigits, 12) + "-" + p(csDigits, 13) + "-" + p(csHex, 64)
	case "xoxd":
		v = "xoxd-" + url.QueryEscape(p(csB64, 120)+"==")
	case "openai":
		v = "sk-" + p(csAlnum, 20) + "T3BlbkFJ" + p(csAlnum, 20)
	case "openai_proj":
		v = "sk-proj-" + p(csB64URL, 74) + "T3BlbkFJ" + p(csB64URL, 74)
	case "openai_svc":
		v = "sk-svcacct-" + p(csB64URL, 74) + "T3BlbkFJ" + p(csB64URL, 74)
	case "anthropic":
		v = "sk-ant-api03-" + p(csB64URL, 93) + "AA"
	case "anthropic_admin":
		v = "sk-ant-admin01-" + p(csB64URL, 93) + "AA"
	case "openrouter":
		v = "sk-or-v1-" + p(csHex, 64)
	case "deepseek":
		v = "sk-" + p(csHex, 32)
	case "akia":
		v = "AKIA" + p(csB32Up, 16)
	case "asia":
		v = "ASIA" + p(csB32Up, 16)
	case "aws_secret":
		v = p(csB64, 40)
	case "aws_session":
		v = "IQoJb3JpZ2luX2VjE" + p(csB64, 380) + "=="
	case "google":
		v = "AIza" + p(csB64URL, 35)
	case "gocspx":
		v = "GOCSPX-" + p(csB64URL, 28)
	case "ya29":
		v = "ya29.a0" + p(csB64URL, 160)
	case "google_refresh":
		v = "1//0g" + p(csB64URL, 98)
	case "hf":
		v = "hf_" + p(csAlpha, 34)
	case "npm":
		v = "npm_" + p(csAlnum, 36)
	case "pypi":
		v = "pypi-AgEIcHlwaS5vcmc" + p(csB64URL, 140)
	case "stripe_live":
		v = "sk_live_51" + p(csAlnum, 97)
	case "stripe_live_short":
		v = "sk_live_" + p(csAlnum, 24)
	case "stripe_test":
		v = "sk_test_51" + p(csAlnum, 97)
	case "stripe_rk":
		v = "rk_live_51" + p(csAlnum, 97)
	case "whsec":
		v = "whsec_" + p(csAlnum, 32)
	case "sendgrid":
		v = "SG." + p(csB64URL, 22) + "." + p(csB64URL, 43)
	case "shpat":
		v = "shpat_" + p(csHex, 32)
	case "shpss":
		v = "shpss_" + p(csHex, 32)
	case "dop":
		v = "dop_v1_" + p(csHex, 64)
	case "dckr":
		v = "dckr_pat_" + p(csB64URL, 27)
	case "dapi":
		v = "dapi" + p(csHex, 32)
	case "linear":
		v = "lin_api_" + p(csAlnum, 40)
	case "notion_secret":
		v = "secret_" + p(csAlnum, 43)
	case "ntn":
		v = "ntn_" + p(csDigits, 11) + p(csAlnum, 35)
	case "atlassian":
		v = "ATATT3xFfGF0" + p(csB64URL, 170) + "=" + p(csUHex, 8)
	case "groq":
		v = "gsk_" + p(csAlnum, 52)
	case "replicate":
		v = "r8_" + p(csAlnum, 37)
	case "pplx":
		v = "pplx-" + p(csAlnum, 48)
	case "xai":
		v = "xai-" + p(csAlnum, 80)
	case "tavily":
		v = "tvly-" + p(csAlnum, 32)
	case "tavily_dev":
		v = "tvly-dev-" + p(csAlnum, 32)
	case "firecrawl":
		v = "fc-" + p(csHex, 32)
	case "brave":
		v = "BSA" + p(csAlnum, 28)
	case "age":
		v = "AGE-SECRET-KEY-1" + p(csBech32Up, 58)
	case "vault":
		v = "hvs.CAESI" + p(csB64URL, 86)
	case "terraform":
		v = p(csAlnum, 14) + ".atlasv1." + p(csAlnum, 67)
	case "pulumi":
		v = "pul-" + p(csHex, 40)
	case "postman":
		v = "PMAK-" + p(csHex, 24) + "-" + p(csHex, 34)
	case "figma":
		v = "figd_" + p(csB64URL, 40)
	case "sentry_org":
		v = "sntrys_" + base64.RawStdEncoding.EncodeToString([]byte(`{"iat":1712345678.0,"url":"https://sentry.io","region_url":"https://us.sentry.io","org":"acme"}`)) + "_" + p(csB64, 43)
	case "sentry_user":
		v = "sntryu_" + p(csHex, 64)
	case "grafana_sa":
		v = "glsa_" + p(csAlnum, 32) + "_" + p(csHex, 8)
	case "grafana_cloud":
		v = "glc_eyJvIjoi" + p(csB64, 100) + "=="
	case "doppler":
		v = "dp.st.prd." + p(csAlnum, 43)
	case "langsmith":
		v = "lsv2_pt_" + p(csHex, 32) + "_" + p(csHex, 10)
	case "pinecone":
		v = "pcsk_" + p(csAlnum, 6) + "_" + p(csAlnum, 63)
	case "sbp":
		v = "sbp_" + p(csHex, 40)
	case "sb_secret":
		v = "sb_secret_" + p(csB64URL, 31)
	case "telegram":
		v = p(csDigits, 10) + ":AA" + p(csB64URL, 33)
	case "mailgun":
		v = "key-" + p(csHex, 32)
	case "discord":
		v = "MT" + p(csAlnum, 24) + "." + p(csB64URL, 6) + "." + p(csB64URL, 38)
	case "mapbox_sk":
		v = "sk.eyJ1IjoiYWNtZSIsImEiOiJ" + p(csAlnum, 20) + "In0." + p(csB64URL, 22)
	case "nrak":
		v = "NRAK-" + p(csUpAlnum, 27)
	case "resend":
		v = "re_" + p(csAlnum, 8) + "_" + p(csAlnum, 24)
	case "e2b":
		v = "e2b_" + p(csHex, 40)
	case "apify":
		v = "apify_api_" + p(csAlnum, 36)
	case "airtable":
		v = "pat" + p(csAlnum, 14) + "." + p(csHex, 64)
	case "clickup":
		v = "pk_" + p(csDigits, 8) + "_" + p(csUpAlnum, 32)
	case "netlify":
		v = "nfp_" + p(csAlnum, 36)
	case "planetscale":
		v = "pscale_tkn_" + p(csAlnum, 43)
	case "neon":
		v = "napi_" + p(csLowAlnum, 64)
	case "bitbucket":
		v = "ATBB" + p(csAlnum, 32)
	case "browserbase":
		v = "bb_live_" + p(csB64URL, 27)
	case "elevenlabs":
		v = "sk_" + p(csHex, 48)
	case "cerebras":
		v = "csk-" + p(csLowAlnum, 48)
	case "okta":
		v = "00" + p(csB64URL, 40)
	case "asana":
		v = "2/" + p(csDigits, 16) + "/" + p(csDigits, 16) + ":" + p(csHex, 32)
	case "azure_secret":
		v = p(csAlnum, 3) + "8Q~" + p(csAlnum+"_~.-", 34)
	case "ado_pat":
		v = p(csB32Low, 52)
	case "cloudflare":
		v = p(csB64URL, 40)
	case "cf_global":
		v = p(csHex, 37)
	case "todoist":
		v = p(csHex, 40)
	case "obsidian":
		v = p(csHex, 64)
	case "eth":
		v = "0x" + p(csHex, 64)
	case "solana":
		v = p(csBase58, 88)
	default:
		panic("corpus: unknown token kind " + kind)
	}
	return g.sec("<"+kind+" token>", v)
}

// show replaces every generated value in s by its shape, and quotes the
// result, so a message can show an input without showing a secret.
func (g *corpusGen) show(s string) string { return strconv.Quote(g.plain(s)) }

// plain replaces every generated value in s by its shape.
func (g *corpusGen) plain(s string) string {
	vals := make([]string, 0, len(g.shapes))
	for v := range g.shapes {
		if strings.Contains(s, v) {
			vals = append(vals, v)
		}
	}
	sort.Slice(vals, func(i, j int) bool { return len(vals[i]) > len(vals[j]) })
	for _, v := range vals {
		s = strings.ReplaceAll(s, v, g.shapes[v])
	}
	return s
}

func (g *corpusGen) showArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = g.show(a)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// corpusBuilder gathers cases; cat applies to the cases added after it is set.
type corpusBuilder struct {
	g     *corpusGen
	cat   string
	cases []corpusCase
}

// section starts the cases of category cat, and reseeds the generator from
// cat's name, so that editing one section leaves every other section's
// values, and so its results, as they were.
func (b *corpusBuilder) section(cat string) {
	b.cat = cat
	h := fnv.New64a()
	h.Write([]byte(cat))
	b.g.r = rand.New(rand.NewPCG(h.Sum64(), 0x9e3779b97f4a7c15))
}

// c adds a case. Values wrapped in X are where credentials were planted.
func (b *corpusBuilder) c(name, command string, args []string, rawURL string) {
	b.add(name, "", command, args, rawURL)
}

// amb adds an ambiguous case; X marks the recommended decision.
func (b *corpusBuilder) amb(why, name, command string, args []string, rawURL string) {
	b.add(name, why, command, args, rawURL)
}

func (b *corpusBuilder) add(name, why, command string, args []string, rawURL string) {
	c := corpusCase{cat: b.cat, name: name, why: why}
	var hit bool
	if c.command, hit = unmark(command); hit {
		c.want = append(c.want, "/command")
	}
	for i, a := range args {
		a, hit = unmark(a)
		if hit {
			c.want = append(c.want, "/args/"+strconv.Itoa(i))
		}
		c.args = append(c.args, a)
	}
	if c.url, hit = unmark(rawURL); hit {
		c.want = append(c.want, "/url")
	}
	b.cases = append(b.cases, c)
}

// u adds a URL-only case (a remote server).
func (b *corpusBuilder) u(name, rawURL string) { b.c(name, "", nil, rawURL) }

// corpusServer is the pointer of the server every case is checked as.
var corpusServer = refusals.Pointer("mcpServers", "server")

// corpusRun checks one case as a client config reader would: a stdio
// server's command and args together with CheckStdio, as the definition
// and guardian scan do, and a URL with CheckURL. It returns the relative
// pointers refused and the errors returned.
func corpusRun(c corpusCase) (got []string, errs []error) {
	if c.command != "" || len(c.args) > 0 {
		errs = append(errs, secrets.CheckStdio(corpusServer, c.command, c.args))
	}
	if c.url != "" {
		errs = append(errs, secrets.CheckURL(corpusServer+"/url", c.url))
	}
	return corpusGot(errs), errs
}

// corpusRunSplit checks one case with the three checks apart, as a caller
// who has not got CheckStdio would: CheckArgs does not see the command, so
// a password flag that only the command explains (sshpass -p) is missed.
func corpusRunSplit(c corpusCase) (got []string, errs []error) {
	if c.command != "" {
		errs = append(errs, secrets.CheckCommand(corpusServer+"/command", c.command))
	}
	if len(c.args) > 0 {
		errs = append(errs, secrets.CheckArgs(corpusServer+"/args", c.args))
	}
	if c.url != "" {
		errs = append(errs, secrets.CheckURL(corpusServer+"/url", c.url))
	}
	return corpusGot(errs), errs
}

// corpusGot lists the relative pointers errs refuse, sorted.
func corpusGot(errs []error) (got []string) {
	seen := map[string]bool{}
	for _, err := range errs {
		for _, r := range refusals.All(err) {
			p := strings.TrimPrefix(r.Pointer, corpusServer)
			if !seen[p] {
				seen[p] = true
				got = append(got, p)
			}
		}
	}
	slices.SortFunc(got, refusals.ComparePointers)
	return got
}

// corpusValue returns the value a relative pointer names in c.
func corpusValue(c corpusCase, p string) string {
	switch {
	case p == "/command":
		return c.command
	case p == "/url":
		return c.url
	case strings.HasPrefix(p, "/args/"):
		i, err := strconv.Atoi(strings.TrimPrefix(p, "/args/"))
		if err == nil && i >= 0 && i < len(c.args) {
			return c.args[i]
		}
	}
	return "(no such value)"
}

// corpusLeaks checks that no error text holds a planted secret or a
// 12-character prefix of one, and that every refusal is well formed.
func corpusLeaks(t *testing.T, g *corpusGen, c corpusCase, errs []error) {
	t.Helper()
	inputs := c.command + "\x00" + strings.Join(c.args, "\x00") + "\x00" + c.url
	var planted []string
	for v := range g.secret {
		if strings.Contains(inputs, v) {
			planted = append(planted, v)
		}
	}
	for _, err := range errs {
		if err == nil {
			continue
		}
		if !errors.Is(err, refusals.ErrContainsSecret) {
			t.Errorf("%s: error is not refusals.ErrContainsSecret", g.plain(c.name))
		}
		texts := []string{err.Error(), fmt.Sprintf("%v", err), fmt.Sprintf("%+v", err)}
		for _, r := range refusals.All(err) {
			texts = append(texts, fmt.Sprintf("%#v", *r))
			if r.Rule == "" || r.Fix == "" {
				t.Errorf("%s: refusal at %s has no rule or fix", g.plain(c.name), r.Pointer)
			}
			if !errors.Is(r, refusals.ErrContainsSecret) {
				t.Errorf("%s: refusal at %s is not ErrContainsSecret", g.plain(c.name), r.Pointer)
			}
		}
		for _, s := range planted {
			needles := []string{s}
			if len(s) > 12 {
				needles = append(needles, s[:12])
			}
			for _, text := range texts {
				for _, n := range needles {
					if strings.Contains(text, n) {
						t.Errorf("%s: error text leaks the planted %s (or its 12-character prefix)", g.plain(c.name), g.shapes[s])
					}
				}
			}
		}
	}
}

// corpusStats counts one category's results.
type corpusStats struct {
	configs, dirtyConfigs, cleanConfigs int
	planted, found                      int // credentials (pointers) planted and refused
	benign, falsePos                    int // benign values and how many were refused
	missedConfigs, refusedCleanConfigs  int
}

func (s *corpusStats) addCase(c corpusCase, got []string) (missed, extra []string) {
	s.configs++
	if c.dirty() {
		s.dirtyConfigs++
	} else {
		s.cleanConfigs++
	}
	values := len(c.args)
	if c.command != "" {
		values++
	}
	if c.url != "" {
		values++
	}
	for _, p := range c.want {
		s.planted++
		if slices.Contains(got, p) {
			s.found++
		} else {
			missed = append(missed, p)
		}
	}
	s.benign += values - len(c.want)
	for _, p := range got {
		if !slices.Contains(c.want, p) {
			extra = append(extra, p)
			s.falsePos++
		}
	}
	if len(missed) > 0 {
		s.missedConfigs++
	}
	if !c.dirty() && len(got) > 0 {
		s.refusedCleanConfigs++
	}
	return missed, extra
}

func (s *corpusStats) merge(o corpusStats) {
	s.configs += o.configs
	s.dirtyConfigs += o.dirtyConfigs
	s.cleanConfigs += o.cleanConfigs
	s.planted += o.planted
	s.found += o.found
	s.benign += o.benign
	s.falsePos += o.falsePos
	s.missedConfigs += o.missedConfigs
	s.refusedCleanConfigs += o.refusedCleanConfigs
}

func (s corpusStats) String() string {
	recall := 100.0
	if s.planted > 0 {
		recall = 100 * float64(s.found) / float64(s.planted)
	}
	return fmt.Sprintf("configs %3d (%3d dirty, %3d clean)  recall %3d/%3d = %5.1f%%  false positives %2d of %4d benign values (%d clean configs refused)",
		s.configs, s.dirtyConfigs, s.cleanConfigs, s.found, s.planted, recall, s.falsePos, s.benign, s.refusedCleanConfigs)
}

// describe writes a case out precisely, every generated value by shape.
func (g *corpusGen) describe(c corpusCase) string {
	var b strings.Builder
	if c.command != "" {
		fmt.Fprintf(&b, "command=%s ", g.show(c.command))
	}
	if len(c.args) > 0 {
		fmt.Fprintf(&b, "args=%s ", g.showArgs(c.args))
	}
	if c.url != "" {
		fmt.Fprintf(&b, "url=%s ", g.show(c.url))
	}
	return strings.TrimSpace(b.String())
}

func TestCorpus(t *testing.T) {
	g := newCorpusGen()
	cases := corpusCases(g)
	if len(cases) < 400 {
		t.Fatalf("corpus has %d configurations, want at least 400", len(cases))
	}
	names := map[string]bool{}
	byCat := map[string]*corpusStats{}
	var cats []string
	var total, split corpusStats
	var splitMissed []string
	for _, c := range cases {
		if names[c.name] {
			t.Fatalf("duplicate case name %q", g.plain(c.name))
		}
		names[c.name] = true
		if byCat[c.cat] == nil {
			byCat[c.cat] = &corpusStats{}
			cats = append(cats, c.cat)
		}
		got, errs := corpusRun(c)
		corpusLeaks(t, g, c, errs)
		missed, extra := byCat[c.cat].addCase(c, got)
		for _, p := range missed {
			t.Errorf("MISS [%s] %s: %s: credential not refused at %s (value %s); refused at %v",
				c.cat, g.plain(c.name), g.describe(c), p, g.show(corpusValue(c, p)), got)
		}
		for _, p := range extra {
			t.Errorf("FALSE POSITIVE [%s] %s: %s: benign value refused at %s (value %s); rules %s",
				c.cat, g.plain(c.name), g.describe(c), p, g.show(corpusValue(c, p)), corpusRules(errs, p))
		}
		// The three checks apart must never refuse what CheckStdio does
		// not: CheckStdio refuses at least what they do.
		sgot, serrs := corpusRunSplit(c)
		corpusLeaks(t, g, c, serrs)
		smissed, sextra := split.addCase(c, sgot)
		for _, p := range sextra {
			t.Errorf("FALSE POSITIVE (checks apart) [%s] %s: refused at %s (rules %s)", c.cat, g.plain(c.name), p, corpusRules(serrs, p))
		}
		for _, p := range sgot {
			if !slices.Contains(got, p) {
				t.Errorf("CheckStdio refuses less than the checks apart [%s] %s: %s", c.cat, g.plain(c.name), p)
			}
		}
		for _, p := range smissed {
			splitMissed = append(splitMissed, fmt.Sprintf("[%s] %s at %s", c.cat, g.plain(c.name), p))
		}
	}
	sort.Strings(cats)
	for _, cat := range cats {
		t.Logf("%-18s %s", cat, byCat[cat])
		total.merge(*byCat[cat])
	}
	t.Logf("%-18s %s", "TOTAL", total)
	// What a caller of CheckCommand, CheckArgs and CheckURL apart gets:
	// only the cases where the command alone says what a flag means differ.
	t.Logf("%-18s %s", "checks apart", split)
	for _, m := range splitMissed {
		t.Logf("  needs the command (CheckStdio): %s", m)
	}
}

// corpusRules lists the rules that refused pointer p.
func corpusRules(errs []error, p string) string {
	var rules []string
	for _, err := range errs {
		for _, r := range refusals.All(err) {
			if strings.TrimPrefix(r.Pointer, corpusServer) == p {
				rules = append(rules, r.Rule)
			}
		}
	}
	return strings.Join(rules, ",")
}

// TestCorpusAmbiguous runs the cases a reasonable person could decide
// either way. Each is now decided (docs/secrets.md gives the decision and
// its reason), and X marks the decision: the test fails when the scanner
// decides otherwise, or on a leak or a malformed refusal.
func TestCorpusAmbiguous(t *testing.T) {
	g := newCorpusGen()
	cases := corpusAmbiguous(g)
	for _, c := range cases {
		got, errs := corpusRun(c)
		corpusLeaks(t, g, c, errs)
		rec := "accept"
		if c.dirty() {
			rec = "refuse at " + strings.Join(c.want, ",")
		}
		outcome := "accepted"
		if len(got) > 0 {
			outcome = "refused at " + strings.Join(got, ",") + " (" + corpusRules(errs, got[0]) + ")"
		}
		if slices.Equal(got, c.want) || (len(got) == 0 && len(c.want) == 0) {
			t.Logf("ambiguous, as decided  %s: %s: %s. %s", g.plain(c.name), g.describe(c), outcome, c.why)
		} else {
			t.Errorf("ambiguous, DIFFERS  %s: %s: decided %s, %s. %s", g.plain(c.name), g.describe(c), rec, outcome, c.why)
		}
	}
	t.Logf("ambiguous: %d cases", len(cases))
}

// corpusCases is the corpus proper: every case here is unambiguous.
func corpusCases(g *corpusGen) []corpusCase {
	b := &corpusBuilder{g: g}
	corpusFlags(b)
	corpusFlagsBenign(b)
	corpusAssignments(b)
	corpusAssignmentsBenign(b)
	corpusHeaders(b)
	corpusHeadersBenign(b)
	corpusURLs(b)
	corpusURLsBenign(b)
	corpusConnStrings(b)
	corpusBlobs(b)
	corpusTokens(b)
	corpusCommands(b)
	corpusIDsBenign(b)
	corpusPathsBenign(b)
	corpusRefsBenign(b)
	corpusEdges(b)
	corpusEdgesBenign(b)
	corpusMore(b)
	corpusMoreBenign(b)
	corpusPathURLs(b)
	corpusPositionalBenign(b)
	corpusPasswordChars(b)
	corpusDecided(b)
	corpusRefDefaults(b)
	corpusRefDefaultsBenign(b)
	corpusEscapedParams(b)
	corpusEscapedParamsBenign(b)
	corpusCloudFront(b)
	corpusEncodedTokens(b)
	corpusEncodedTokensBenign(b)
	corpusHardening(b)
	return b.cases
}

// corpusDecided: the cases the red team left ambiguous and the lead then
// decided, with variants of each decision in other forms.
func corpusDecided(b *corpusBuilder) {
	g := b.g
	b.section("decided")
	b.c("twilio mcp sid/key:secret positional", "npx", A("-y", "@twilio-alpha/mcp", X("AC"+g.rb(csHex, 32)+"/SK"+g.rb(csHex, 32)+":"+g.rs(csAlnum, 32))), "")
	b.c("sshpass -p", "sshpass", A("-p", X(g.pw()), "ssh", "deploy@server.example.com"), "")
	b.c("sshpass -p inside sh -c", "sh", A("-c", X("sshpass -p "+g.pw()+" ssh -o StrictHostKeyChecking=no deploy@server.example.com mcp-server")), "")
	b.c("redis-cli -a", "redis-cli", A("-h", "cache.internal", "-a", X(g.rs(csAlnum, 32))), "")
	b.c("redis-cli -a in docker run", "docker", A("run", "--rm", "-i", "redis:7", "redis-cli", "-h", "cache", "-a", X(g.rs(csAlnum, 32)), "ping"), "")
	b.c("docker login -p", "docker", A("login", "-u", "ci-bot", "-p", X(g.pw()), "registry.example.com"), "")
	b.c("podman login -p", "podman", A("login", "--username", "ci-bot", "-p", X(g.pw()), "quay.io"), "")
	b.c("sqlcmd -P", "sqlcmd", A("-S", "db.example.com", "-U", "sa", "-P", X(g.pw()), "-d", "app"), "")
	b.c("sqlcmd -P full path", "/opt/mssql-tools18/bin/sqlcmd", A("-S", "db", "-U", "sa", "-P", X(g.pw()), "-C"), "")
	b.c("mysql -pPW command", "mysql", A("-h", "db", "-u", "app", X("-p"+g.pw())), "")
	b.c("mysqldump -p in uvx wrapper", "uvx", A("mysql-mcp", "--dump-command", "mysqldump", X("-p"+g.pw()), "shop"), "")
	b.c("PGPASSWORD before psql", "env", A(X("PGPASSWORD="+g.pw()), "psql", "-h", "db", "-U", "app"), "")
	b.c("sqlplus EZConnect", "sqlplus", A("-S", X("system/"+g.pwURL()+"@//db.example.com:1521/XEPDB1")), "")
	b.c("rman target login", "rman", A("target", X("sys/"+g.pwURL()+"@prod")), "")
	b.u("openweather appid", X("https://api.openweathermap.org/data/2.5/mcp?appid="+g.rs(csHex, 32)))
	b.c("wolfram appid in arg", "npx", A("-y", "@acme/wolfram-mcp", "--endpoint", X("https://api.wolframalpha.com/v2/query?input=pi&appid="+g.rs(csUpAlnum, 6)+"-"+g.rs(csUpAlnum, 10))), "")
	b.c("infura project id path", "npx", A("-y", "@acme/evm-mcp", "--rpc-url", X("https://mainnet.infura.io/v3/"+g.rs(csHex, 32))), "")
	b.c("infura websocket", "npx", A("-y", "@acme/evm-mcp", X("--ws-url=wss://sepolia.infura.io/ws/v3/"+g.rs(csHex, 32))), "")
	b.c("alchemy key path", "npx", A("-y", "@acme/evm-mcp", "--rpc-url", X("https://eth-mainnet.g.alchemy.com/v2/"+g.rs(csB64URL, 32))), "")
	b.c("alchemy in docker -e", "docker", A("run", "-i", "--rm", "-e", X("RPC_URL=https://polygon-mainnet.g.alchemy.com/v2/"+g.rs(csAlnum, 32)), "mcp/evm"), "")
	b.c("quicknode endpoint", "npx", A("-y", "@acme/solana-mcp", "--rpc", X("https://"+g.rb(csLower, 6)+"-"+g.rb(csLower, 5)+"-"+g.rb(csDigits, 4)+".solana-mainnet.quiknode.pro/"+g.rs(csHex, 40)+"/")), "")
	b.c("ankr endpoint", "uvx", A("web3-mcp", X("https://rpc.ankr.com/eth/"+g.rs(csHex, 64))), "")

	b.section("benign-decided")
	b.c("sk-... placeholder", "npx", A("-y", "@acme/openai-mcp", "--api-key", "sk-..."), "")
	b.c("ghp_... placeholder", "npx", A("-y", "@acme/gh-mcp", "--token", "ghp_..."), "")
	b.c("ellipsis placeholder in docker -e", "docker", A("run", "-i", "--rm", "-e", "ANTHROPIC_API_KEY=sk-ant-…", "mcp/claude"), "")
	b.c("bare dots placeholder", "npx", A("-y", "@acme/mcp", "--secret", "..."), "")
	b.c("stripe publishable key", "npx", A("-y", "@acme/checkout-mcp", "--publishable-key", "pk_live_51"+g.rb(csAlnum, 97)), "")
	b.c("stripe publishable key after --api-key", "npx", A("-y", "@acme/checkout-mcp", "--api-key", "pk_test_51"+g.rb(csAlnum, 97)), "")
	b.c("stripe publishable key in env", "docker", A("run", "-i", "--rm", "-e", "STRIPE_PUBLISHABLE_KEY=pk_live_51"+g.rb(csAlnum, 97), "mcp/checkout"), "")
	b.c("mapbox public token", "npx", A("-y", "@mapbox/mcp-server", "--public-token", "pk.eyJ1IjoiYWNtZSIsImEiOiJ"+g.rb(csAlnum, 20)+"In0."+g.rb(csB64URL, 22)), "")
	b.c("mapbox public token as access token", "docker", A("run", "-i", "--rm", "-e", "MAPBOX_ACCESS_TOKEN=pk.eyJ1IjoiYWNtZSIsImEiOiJ"+g.rb(csAlnum, 20)+"In0."+g.rb(csB64URL, 22), "mcp/mapbox"), "")
	b.c("twilio api key sid", "npx", A("-y", "@twilio-alpha/mcp", "--api-key-sid", "SK"+g.rb(csHex, 32)), "")
	b.c("twilio sid bare", "npx", A("-y", "@acme/twilio-mcp", "SK"+g.rb(csHex, 32)), "")
	b.c("twilio sid in env", "docker", A("run", "-i", "--rm", "-e", "TWILIO_API_KEY_SID=SK"+g.rb(csHex, 32), "mcp/twilio"), "")
	b.c("helm existingSecret name", "helm", A("upgrade", "--install", "mcp", "./chart", "--set", "auth.existingSecret=mcp-credentials"), "")
	b.c("helm nested existingSecret", "helm", A("install", "mcp", "./chart", "--set", "postgresql.auth.existingSecret=pg-credentials,redis.auth.existingSecret=redis-auth"), "")
	b.c("--from-secret k8s name", "npx", A("-y", "@acme/mcp", "--from-secret", "mcp-credentials"), "")
	b.c("--existing-secret", "npx", A("-y", "@acme/mcp", "--existing-secret=mcp-api-keys"), "")
	b.c("--token-secret-ref", "npx", A("-y", "@acme/mcp", "--token-secret-ref", "github-token"), "")
	b.c("--api-key-secret-name", "npx", A("-y", "@acme/mcp", "--api-key-secret-name", "prod/openai-api-key"), "")
	b.c("externalSecret in helm", "helm", A("install", "mcp", "./chart", "--set", "externalSecret.name=mcp,externalSecret=vault-mcp"), "")
	b.c("rpc url with reference", "npx", A("-y", "@acme/evm-mcp", "--rpc-url", "https://mainnet.infura.io/v3/${INFURA_PROJECT_ID}"), "")
	b.c("public rpc url", "npx", A("-y", "@acme/evm-mcp", "--rpc-url", "https://rpc.ankr.com/eth", "--fallback", "https://eth.llamarpc.com"), "")
}

// corpusFlags: a credential as the value of a credential-named flag, in
// the spellings real servers use.
func corpusFlags(b *corpusBuilder) {
	g := b.g
	b.section("flag")
	b.c("stripe --api-key= live", "npx", A("-y", "@stripe/mcp", "--tools=all", X("--api-key="+g.tk("stripe_live"))), "")
	b.c("stripe restricted key", "npx", A("-y", "@stripe/mcp@latest", "--tools=customers.read,invoices.read", X("--api-key="+g.tk("stripe_rk"))), "")
	b.c("stripe test key separate", "npx", A("-y", "@stripe/mcp", "--tools=all", "--api-key", X(g.tk("stripe_test"))), "")
	b.c("supabase --access-token", "npx", A("-y", "@supabase/mcp-server-supabase@latest", "--read-only", "--project-ref="+g.supaRef(), "--access-token", X(g.tk("sbp"))), "")
	b.c("sentry --access-token= user token", "npx", A("@sentry/mcp-server@latest", X("--access-token="+g.tk("sentry_user")), "--host=sentry.example.com"), "")
	b.c("sentry org auth token", "npx", A("-y", "@sentry/mcp-server", "--access-token", X(g.tk("sentry_org"))), "")
	b.c("mcp-atlassian two tokens", "uvx", A("mcp-atlassian", "--confluence-url=https://acme.atlassian.net/wiki", "--confluence-username=alice@acme.com", X("--confluence-token="+g.tk("atlassian")), "--jira-url=https://acme.atlassian.net", "--jira-username=alice@acme.com", X("--jira-token="+g.tk("atlassian"))), "")
	b.c("jira data center personal token", "uvx", A("mcp-atlassian", "--jira-url", "https://jira.corp.example.com", "--jira-personal-token", X(g.rs(csB64, 44))), "")
	b.c("brave --brave-api-key", "npx", A("-y", "@brave/brave-search-mcp-server", "--transport", "stdio", "--brave-api-key", X(g.tk("brave"))), "")
	b.c("tavily --api-key", "npx", A("-y", "tavily-mcp@0.2.4", "--api-key", X(g.tk("tavily"))), "")
	b.c("exa uuid key after --exa-api-key", "npx", A("-y", "exa-mcp-server", "--tools=web_search_exa,crawling_exa", "--exa-api-key", X(g.uuidS())), "")
	b.c("firecrawl --api-key=", "npx", A("-y", "firecrawl-mcp", X("--api-key="+g.tk("firecrawl"))), "")
	b.c("openai project key in node flag", "node", A("/opt/mcp/openai-server/dist/index.js", "--openai-api-key", X(g.tk("openai_proj")), "--model", "gpt-4o-mini"), "")
	b.c("anthropic key snake_case flag", "python", A("-m", "claude_bridge", "--anthropic_api_key", X(g.tk("anthropic"))), "")
	b.c("go-style -token hex40", "/usr/local/bin/todo-mcp", A("-token", X(g.tk("todoist")), "-listen", "stdio"), "")
	b.c("go-style -api-key=hex32", "/home/alice/go/bin/weather-mcp", A(X("-api-key="+g.rs(csHex, 32)), "-units=metric"), "")
	b.c("java --apiKey camelCase", "java", A("-jar", "/opt/mcp/search-mcp.jar", "--apiKey", X(g.rs(csAlnum, 32))), "")
	b.c("java --APIKEY= upper", "java", A("-jar", "mcp-server.jar", X("--APIKEY="+g.rs(csAlnum, 40))), "")
	b.c("--api_key snake", "npx", A("-y", "@acme/weather-mcp", "--api_key", X(g.rs(csB64URL, 40))), "")
	b.c("notion --notion-token", "npx", A("-y", "@notionhq/notion-mcp-server", "--notion-token", X(g.tk("ntn"))), "")
	b.c("linear --linear-api-key", "uvx", A("linear-mcp", "--linear-api-key", X(g.tk("linear"))), "")
	b.c("gitlab --gitlab-token", "npx", A("-y", "@zereight/mcp-gitlab", "--gitlab-url", "https://gitlab.com/api/v4", "--gitlab-token", X(g.tk("glpat"))), "")
	b.c("slack bot token flag with team id", "npx", A("-y", "slack-mcp-server@latest", "--transport", "stdio", "--slack-bot-token", X(g.tk("xoxb")), "--slack-team-id", "T0"+g.rb(csUpAlnum, 9)), "")
	b.c("mysql server --password human", "uvx", A("mcp-server-mysql", "--host", "127.0.0.1", "--port", "3306", "--user", "root", "--password", X(g.pw()), "--database", "shop"), "")
	b.c("--db-password= human", "node", A("dist/index.js", "--db-host=db.internal", "--db-user=app", X("--db-password="+g.pw())), "")
	b.c("--passwd imap", "python3", A("-m", "imap_mcp", "--server", "imap.gmail.com", "--user", "alice@gmail.com", "--passwd", X(g.pw())), "")
	b.c("--app-password google style", "uvx", A("email-mcp", "--email", "alice@gmail.com", "--app-password", X(g.sec("<google app password: 4x4 lower>", g.pick(csLower, 4)+" "+g.pick(csLower, 4)+" "+g.pick(csLower, 4)+" "+g.pick(csLower, 4)))), "")
	b.c("--secret base64", "npx", A("-y", "@acme/webhook-mcp", "--secret", X(g.rs(csB64, 32))), "")
	b.c("google --client-secret GOCSPX", "npx", A("-y", "@acme/google-workspace-mcp", "--client-id", g.googleClientID(), "--client-secret", X(g.tk("gocspx"))), "")
	b.c("azure --client-secret", "npx", A("-y", "@azure/mcp@latest", "server", "start", "--tenant-id", g.uuid(), "--client-id", g.uuid(), "--client-secret", X(g.tk("azure_secret"))), "")
	b.c("aws key pair flags", "uvx", A("aws-mcp", "--aws-access-key-id", X(g.tk("akia")), "--aws-secret-access-key", X(g.tk("aws_secret")), "--region", "us-west-2"), "")
	b.c("minio --secret-key=", "npx", A("-y", "minio-mcp", "--endpoint", "http://localhost:9000", X("--secret-key="+g.rs(csAlnum, 40))), "")
	b.c("twilio --auth-token", "npx", A("-y", "@twilio-alpha/mcp", "--account-sid", "AC"+g.rb(csHex, 32), "--auth-token", X(g.rs(csHex, 32))), "")
	b.c("--bearer-token", "npx", A("-y", "mcp-remote-proxy", "--url", "https://mcp.example.com/mcp", "--bearer-token", X(g.rs(csAlnum, 40))), "")
	b.c("--bearer", "./mcp-bridge", A("--endpoint", "https://api.example.com", "--bearer", X(g.rs(csB64URL, 43))), "")
	b.c("supergateway --oauth2Bearer", "npx", A("-y", "supergateway", "--sse", "https://mcp.example.com/sse", "--oauth2Bearer", X(g.rs(csB64URL, 43))), "")
	b.c("evm --private-key 0x", "npx", A("-y", "@acme/evm-mcp", "--rpc-url", "https://eth.llamarpc.com", "--private-key", X(g.tk("eth"))), "")
	b.c("google --access-token= ya29", "uvx", A("google-drive-mcp", X("--access-token="+g.tk("ya29"))), "")
	b.c("google --refresh-token", "uvx", A("gmail-mcp", "--client-id", g.googleClientID(), "--refresh-token", X(g.tk("google_refresh"))), "")
	b.c("exchange --api-key and --api-secret", "npx", A("-y", "@acme/binance-mcp", "--api-key", X(g.rs(csAlnum, 64)), "--api-secret", X(g.rs(csAlnum, 64))), "")
	b.c("azure devops --personal-access-token", "npx", A("-y", "@azure-devops/mcp", "contoso", "--personal-access-token", X(g.tk("ado_pat"))), "")
	b.c("cloudflare --api-token", "npx", A("-y", "@cloudflare/mcp-server-cloudflare", "run", g.rb(csHex, 32), "--api-token", X(g.tk("cloudflare"))), "")
	b.c("digitalocean --token=", "npx", A("-y", "@digitalocean/mcp", X("--token="+g.tk("dop"))), "")
	b.c("huggingface --hf-token", "uvx", A("huggingface-mcp", "--hf-token", X(g.tk("hf"))), "")
	b.c("--github-token= fine-grained", "npx", A("-y", "@modelcontextprotocol/server-github", X("--github-token="+g.tk("github_pat"))), "")
	b.c("--gh-token oauth token", "github-mcp-server", A("stdio", "--gh-token", X(g.tk("gho"))), "")
	b.c("mongosh --password", "mongosh", A("mongodb://db.internal:27017/app", "--username", "admin", "--password", X(g.pw()), "--authenticationDatabase", "admin"), "")
	b.c("mysql attached -pPASSWORD", "mysql", A("-h", "db.internal", "-u", "app", X("-p"+g.pw()), "shop"), "")
	b.c("docker login --password", "docker", A("login", "-u", "ci-bot", "--password", X(g.pw()), "ghcr.io"), "")
	b.c("--token hex40 is a token, not a commit", "npx", A("-y", "@acme/todoist-mcp", "--token", X(g.tk("todoist"))), "")
	b.c("--webhook-secret whsec", "npx", A("-y", "@acme/stripe-webhooks-mcp", "--webhook-secret", X(g.tk("whsec"))), "")
	b.c("--signing-secret slack", "npx", A("-y", "@acme/slack-events-mcp", "--signing-secret", X(g.rs(csHex, 32)), "--port", "3000"), "")
	b.c("--encryption-key base64", "node", A("server.js", "--encryption-key", X(g.rs(csB64, 43)+"=")), "")
	b.c("meilisearch --master-key", "uvx", A("meilisearch-mcp", "--url", "http://localhost:7700", "--master-key", X(g.rs(csB64URL, 32))), "")
	b.c("grafana --admin-password", "npx", A("-y", "@acme/grafana-mcp", "--url", "http://grafana:3000", "--admin-user", "admin", "--admin-password", X(g.pw())), "")
	b.c("alphavantage --apikey", "uvx", A("alphavantage-mcp", "--apikey", X(g.rs(csUpAlnum, 16))), "")
	b.c("elasticsearch --basic-auth=user:pass", "npx", A("-y", "@elastic/mcp-server-elasticsearch", "--es-url", "https://es.example.com:9200", X("--basic-auth=elastic:"+g.pw())), "")
	b.c("aws session credentials flags", "uvx", A("aws-mcp", "--aws-access-key-id", X(g.tk("asia")), "--aws-secret-access-key", X(g.tk("aws_secret")), "--aws-session-token", X(g.tk("aws_session"))), "")
	b.c("sftp --passphrase", "npx", A("-y", "@acme/sftp-mcp", "--host", "sftp.example.com", "--private-key-path", "~/.ssh/id_ed25519", "--passphrase", X(g.pw())), "")
	b.c("kafka --keystore-password=", "java", A("-jar", "kafka-mcp.jar", "--keystore", "/etc/kafka/client.jks", X("--keystore-password="+g.pw())), "")
	b.c("--id-token jwt", "node", A("dist/index.js", "--id-token", X(g.jwtHS())), "")
	ref := g.supaRef()
	b.c("supabase --service-role-key", "npx", A("-y", "@acme/supabase-admin-mcp", "--supabase-url", "https://"+ref+".supabase.co", "--service-role-key", X(g.supabaseJWT(ref, "service_role"))), "")
	b.c("windows exe --TOKEN", `C:\mcp\server.exe`, A("--TOKEN", X(g.rs(csAlnum, 40))), "")
	b.c("dotnet --Api-Key after --", "dotnet", A("run", "--project", "./src/McpServer", "--", "--Api-Key", X(g.rs(csHex, 32))), "")
	b.c("--x-api-key", "npx", A("-y", "@acme/api-gateway-mcp", "--x-api-key", X(g.rs(csAlnum, 40))), "")
	b.c("r2 --secret-access-key", "npx", A("-y", "@acme/r2-mcp", "--account-id", g.rb(csHex, 32), "--secret-access-key", X(g.rs(csHex, 64))), "")
	b.c("gitea-mcp -token=", "/opt/bin/gitea-mcp", A("-t", "stdio", "-host", "https://gitea.example.com", X("-token="+g.rs(csHex, 40))), "")
	b.c("--auth-token=", "npx", A("-y", "@acme/mcp-server", X("--auth-token="+g.rs(csB64URL, 32))), "")
	b.c("wasabi --access-key AKIA and --secret-key", "npx", A("-y", "@acme/wasabi-mcp", "--access-key", X(g.tk("akia")), "--secret-key", X(g.tk("aws_secret"))), "")
	b.c("wireguard --private-key base64", "uvx", A("wireguard-mcp", "--interface", "wg0", "--private-key", X(g.rs(csB64, 43)+"=")), "")
	b.c("redis --password random", "npx", A("-y", "@acme/redis-mcp", "--host", "redis.internal", "--password", X(g.rs(csAlnum, 32))), "")
	b.c("snowflake --password human", "uvx", A("mcp-snowflake-server", "--account", "xy12345.us-east-1", "--warehouse", "COMPUTE_WH", "--user", "svc_mcp", "--password", X(g.pw()), "--role", "ANALYST"), "")
	b.c("--api-key after -- passthrough", "npx", A("-y", "mcp-proxy", "--", "node", "server.js", "--api-key", X(g.rs(csHex, 32))), "")
	b.c("openai legacy --openai-key", "uvx", A("mcp-openai", "--openai-key", X(g.tk("openai"))), "")
	b.c("deepseek --api-key sk-hex", "npx", A("-y", "deepseek-mcp-server", "--api-key", X(g.tk("deepseek"))), "")
	b.c("openrouter --openrouter-api-key", "npx", A("-y", "openrouter-mcp", "--openrouter-api-key", X(g.tk("openrouter"))), "")
	b.c("groq --groq-api-key=", "uvx", A("groq-mcp", X("--groq-api-key="+g.tk("groq"))), "")
	b.c("xai --api-key", "npx", A("-y", "grok-mcp", "--api-key", X(g.tk("xai"))), "")
	b.c("perplexity --api-key", "npx", A("-y", "server-perplexity-ask", "--api-key", X(g.tk("pplx"))), "")
	b.c("replicate --api-token", "npx", A("-y", "replicate-mcp", "--api-token", X(g.tk("replicate"))), "")
	b.c("npm --npm-token", "npx", A("-y", "@acme/npm-publish-mcp", "--npm-token", X(g.tk("npm"))), "")
	b.c("pypi --pypi-token", "uvx", A("pypi-mcp", "--pypi-token", X(g.tk("pypi"))), "")
	b.c("datadog --api-key and --app-key", "npx", A("-y", "@winor30/mcp-server-datadog", "--api-key", X(g.rs(csHex, 32)), "--app-key", X(g.rs(csHex, 40)), "--site", "datadoghq.eu"), "")
	b.c("mistral --mistral-api-key", "uvx", A("mistral-mcp", "--mistral-api-key", X(g.rs(csAlnum, 32))), "")
	b.c("cohere --cohere-api-key=", "uvx", A("cohere-mcp", X("--cohere-api-key="+g.rs(csAlnum, 40))), "")
	b.c("pinecone --api-key=", "npx", A("-y", "@pinecone-database/mcp", X("--api-key="+g.tk("pinecone"))), "")
	b.c("langsmith --langsmith-api-key", "uvx", A("langsmith-mcp-server", "--langsmith-api-key", X(g.tk("langsmith"))), "")
	b.c("elevenlabs --api-key", "uvx", A("elevenlabs-mcp", "--api-key", X(g.tk("elevenlabs"))), "")
	b.c("e2b --api-key", "npx", A("-y", "@e2b/mcp-server", "--api-key", X(g.tk("e2b"))), "")
	b.c("apify --token", "npx", A("-y", "@apify/actors-mcp-server", "--actors", "apify/rag-web-browser", "--token", X(g.tk("apify"))), "")
	b.c("figma --figma-api-key=", "npx", A("-y", "figma-developer-mcp", X("--figma-api-key="+g.tk("figma")), "--stdio"), "")
	b.c("airtable --api-key pat", "npx", A("-y", "airtable-mcp-server", "--api-key", X(g.tk("airtable"))), "")
	b.c("clickup --api-key", "npx", A("-y", "@taazkareem/clickup-mcp-server", "--api-key", X(g.tk("clickup")), "--team-id", g.rb(csDigits, 8)), "")
	b.c("postman --api-key", "npx", A("-y", "@postman/postman-mcp-server", "--api-key", X(g.tk("postman"))), "")
	b.c("grafana --service-account-token", "mcp-grafana", A("--url", "http://localhost:3000", "--service-account-token", X(g.tk("grafana_sa"))), "")
	b.c("vault --token hvs", "vault-mcp", A("--addr", "https://vault.example.com:8200", "--token", X(g.tk("vault"))), "")
	b.c("terraform --tfe-token", "terraform-mcp-server", A("stdio", "--tfe-address", "https://app.terraform.io", "--tfe-token", X(g.tk("terraform"))), "")
	b.c("pulumi --access-token", "npx", A("-y", "@pulumi/mcp-server", "--access-token", X(g.tk("pulumi"))), "")
	b.c("doppler run --token", "doppler", A("run", "--token", X(g.tk("doppler")), "--", "npx", "-y", "@acme/mcp"), "")
	b.c("netlify --auth", "npx", A("-y", "@netlify/mcp", "--auth", X(g.tk("netlify"))), "")
	b.c("browserbase --apiKey", "npx", A("-y", "@browserbasehq/mcp", "--apiKey", X(g.tk("browserbase")), "--projectId", g.uuid()), "")
	b.c("heroku --api-key uuid", "npx", A("-y", "@heroku/mcp-server", "--api-key", X(g.uuidS())), "")
	b.c("shopify --access-token shpat", "npx", A("-y", "shopify-mcp", "--access-token", X(g.tk("shpat")), "--domain", "acme.myshopify.com"), "")
	b.c("sendgrid --api-key", "npx", A("-y", "@acme/sendgrid-mcp", "--api-key", X(g.tk("sendgrid"))), "")
	b.c("mailgun --api-key key-", "npx", A("-y", "@mailgun/mcp-server", "--api-key", X(g.tk("mailgun")), "--domain", "mg.example.com"), "")
	b.c("discord --discord-token", "npx", A("-y", "discord-mcp", "--discord-token", X(g.tk("discord"))), "")
	b.c("telegram --bot-token", "uvx", A("telegram-mcp", "--bot-token", X(g.tk("telegram"))), "")
	b.c("docker hub --docker-token", "npx", A("-y", "@acme/dockerhub-mcp", "--username", "acme", "--docker-token", X(g.tk("dckr"))), "")
	b.c("databricks --token dapi", "uvx", A("databricks-mcp", "--host", "https://adb-1234567890123456.7.azuredatabricks.net", "--token", X(g.tk("dapi"))), "")
	b.c("okta --api-token", "npx", A("-y", "@acme/okta-mcp", "--org-url", "https://acme.okta.com", "--api-token", X(g.tk("okta"))), "")
	b.c("asana --access-token", "npx", A("-y", "@roychri/mcp-server-asana", "--access-token", X(g.tk("asana"))), "")
	b.c("bitbucket --app-password ATBB", "npx", A("-y", "bitbucket-mcp", "--username", "alice", "--app-password", X(g.tk("bitbucket"))), "")
	b.c("planetscale --service-token", "pscale", A("mcp", "server", "--service-token-id", g.rb(csLowAlnum, 12), "--service-token", X(g.tk("planetscale"))), "")
	b.c("neon --api-key napi", "npx", A("-y", "@neondatabase/mcp-server-neon", "start", X(g.tk("neon"))), "")
	b.c("cerebras --api-key", "uvx", A("cerebras-mcp", "--api-key", X(g.tk("cerebras"))), "")
	b.c("sops --age-key", "uvx", A("sops-mcp", "--age-key", X(g.tk("age"))), "")
	b.c("resend --key", "npx", A("-y", "resend-mcp", "--key", X(g.tk("resend")), "--sender", "noreply@example.com"), "")
	b.c("cloudflare global --api-key hex37 with email", "npx", A("-y", "@acme/cf-mcp", "--email", "ops@example.com", "--api-key", X(g.tk("cf_global"))), "")
	b.c("obsidian --api-key hex64", "uvx", A("mcp-obsidian", "--host", "127.0.0.1", "--api-key", X(g.tk("obsidian"))), "")
	b.c("--credential human", "npx", A("-y", "@acme/ldap-mcp", "--bind-dn", "cn=reader,dc=example,dc=org", "--credential", X(g.pw())), "")
	b.c("--client_secret snake", "python", A("server.py", "--client_id", g.uuid(), "--client_secret", X(g.rs(csB64URL, 40))), "")
	b.c("--access-key-secret", "npx", A("-y", "@alicloud/mcp", "--access-key-id", X("LTAI"+g.rs(csAlnum, 20)), "--access-key-secret", X(g.rs(csAlnum, 30))), "")
	b.c("--secret-key stripe-like", "npx", A("-y", "@acme/payments-mcp", "--secret-key", X(g.tk("stripe_live_short"))), "")
	b.c("--token=jwt for k8s", "kubectl", A("--server=https://10.0.0.1:6443", X("--token="+g.jwtK8s()), "get", "pods"), "")
	b.c("--password= strong random", "npx", A("-y", "@acme/rabbitmq-mcp", "--user=mcp", X("--password="+g.rs(csAlnum+"!#*", 24))), "")
}

// corpusFlagsBenign: flags whose names hold credential words but whose
// values are not credentials, and flags with no value.
func corpusFlagsBenign(b *corpusBuilder) {
	g := b.g
	b.section("benign-flag")
	b.c("--max-tokens 4096", "npx", A("-y", "@acme/llm-mcp", "--model", "gpt-4o", "--max-tokens", "4096"), "")
	b.c("--max_tokens=1000", "uvx", A("openai-mcp", "--max_tokens=1000", "--temperature=0.2"), "")
	b.c("--maxTokens 8192", "node", A("dist/index.js", "--maxTokens", "8192"), "")
	b.c("--tokenizer cl100k_base", "uvx", A("token-counter-mcp", "--tokenizer", "cl100k_base"), "")
	b.c("--tokenizer hf path", "python", A("-m", "rag_mcp", "--tokenizer", "bert-base-uncased", "--embedding-model", "BAAI/bge-small-en-v1.5"), "")
	b.c("--token-limit", "npx", A("-y", "@acme/summarizer-mcp", "--token-limit", "100000"), "")
	b.c("--context-tokens", "npx", A("-y", "@acme/mcp", "--context-tokens=200000"), "")
	b.c("--keyring", "uvx", A("keyring-mcp", "--keyring"), "")
	b.c("--keyring-backend", "uvx", A("secret-store-mcp", "--keyring-backend", "keyring.backends.SecretService.Keyring"), "")
	b.c("--api-key-file path", "npx", A("-y", "@acme/openai-mcp", "--api-key-file", "~/.config/openai/key"), "")
	b.c("--api-key-env NAME", "npx", A("-y", "@acme/openai-mcp", "--api-key-env", "OPENAI_API_KEY"), "")
	b.c("--token-file path", "github-mcp-server", A("stdio", "--token-file", "/run/secrets/github_token"), "")
	b.c("--token-env NAME", "npx", A("-y", "@acme/gh-mcp", "--token-env=GITHUB_TOKEN"), "")
	b.c("--password-stdin", "docker", A("login", "ghcr.io", "-u", "ci-bot", "--password-stdin"), "")
	b.c("--password-file path", "uvx", A("postgres-mcp", "--host", "db", "--user", "app", "--password-file", "/run/secrets/db_password"), "")
	b.c("--secret-file path", "npx", A("-y", "@acme/mcp", "--secret-file=/etc/mcp/secret"), "")
	b.c("playwright --secrets path", "npx", A("@playwright/mcp@latest", "--browser", "chrome", "--secrets", "./secrets.env", "--storage-state", "./auth-state.json"), "")
	b.c("--auth-type oauth", "npx", A("-y", "@acme/mcp", "--auth-type", "oauth"), "")
	b.c("--auth oauth", "npx", A("-y", "mcp-remote", "https://mcp.example.com/sse", "--auth", "oauth"), "")
	b.c("--auth-method none", "uvx", A("mcp-proxy", "--auth-method=none"), "")
	b.c("--no-auth", "npx", A("-y", "@acme/local-mcp", "--no-auth", "--port", "8080"), "")
	b.c("--auth-server-url", "npx", A("-y", "@acme/mcp", "--auth-server-url", "https://auth.example.com/realms/mcp"), "")
	b.c("--token-url", "npx", A("-y", "@acme/mcp", "--token-url", "https://oauth2.googleapis.com/token"), "")
	b.c("--oauth-scopes", "npx", A("-y", "@acme/github-oauth-mcp", "--oauth-scopes", "repo read:org"), "")
	b.c("--client-id google", "npx", A("-y", "@acme/google-mcp", "--client-id", g.googleClientID()), "")
	b.c("--secret-name reference", "uvx", A("aws-secrets-mcp", "--secret-name", "prod/mcp/database"), "")
	b.c("--kms-key-id arn", "uvx", A("awslabs.s3-mcp-server", "--kms-key-id", "arn:aws:kms:us-east-1:123456789012:key/"+g.uuid()), "")
	b.c("--ssh-key path", "npx", A("-y", "ssh-mcp", "--host", "server.example.com", "--user", "deploy", "--ssh-key", "~/.ssh/id_ed25519"), "")
	b.c("--private-key-path", "npx", A("-y", "@acme/github-app-mcp", "--app-id", "123456", "--private-key-path", "./github-app.private-key.pem"), "")
	b.c("--tls-key and --tls-cert", "/usr/local/bin/mcp-gateway", A("--tls-cert", "/etc/ssl/certs/server.crt", "--tls-key", "/etc/ssl/private/server.key"), "")
	b.c("--key and --cert paths", "uvx", A("mtls-mcp", "--cert", "./certs/client.crt", "--key", "./certs/client.key", "--cacert", "./certs/ca.pem"), "")
	b.c("--api-key-header name", "npx", A("-y", "@acme/openapi-mcp", "--spec", "https://api.example.com/openapi.json", "--api-key-header", "X-API-Key"), "")
	b.c("--token-header name", "npx", A("-y", "@acme/mcp", "--token-header", "Authorization"), "")
	b.c("--password-prompt", "uvx", A("keepass-mcp", "--db", "~/vault.kdbx", "--password-prompt"), "")
	b.c("--api-version date", "npx", A("-y", "@azure/openai-mcp", "--api-version", "2024-10-21"), "")
	b.c("--api-base url", "uvx", A("litellm-mcp", "--api-base", "https://api.openai.com/v1"), "")
	b.c("--primary-key column", "uvx", A("dynamodb-mcp", "--table", "users", "--primary-key", "id", "--sort-key", "created_at"), "")
	b.c("--partition-key", "npx", A("-y", "@azure/cosmos-mcp", "--partition-key", "/tenantId"), "")
	b.c("--keys list", "npx", A("-y", "@acme/csv-mcp", "--keys", "name,email,created_at"), "")
	b.c("--keyword phrase", "npx", A("-y", "@acme/news-mcp", "--keyword", "model context protocol"), "")
	b.c("--token-budget", "uvx", A("context-mcp", "--token-budget", "2000"), "")
	b.c("--credential-helper", "npx", A("-y", "@acme/git-mcp", "--credential-helper", "osxkeychain"), "")
	b.c("--credentials-file aws", "uvx", A("aws-mcp", "--credentials-file", "~/.aws/credentials", "--profile", "default"), "")
	b.c("--credentials path json", "npx", A("-y", "@acme/gdrive-mcp", "--credentials", "/Users/alice/.config/gcloud/service-account.json"), "")
	b.c("--secret-store keychain", "npx", A("-y", "@acme/mcp", "--secret-store", "keychain"), "")
	b.c("--token last arg, no value", "npx", A("-y", "@acme/gh-mcp", "--token"), "")
	b.c("--api-key then another flag", "npx", A("-y", "@acme/mcp", "--api-key", "--verbose"), "")
	b.c("--api-key= empty", "npx", A("-y", "@acme/mcp", "--api-key="), "")
	b.c("--password empty string", "uvx", A("mysql-mcp", "--user", "root", "--password", ""), "")
	b.c("--password then flag (prompt)", "mysql", A("-h", "127.0.0.1", "-P", "3306", "-u", "root", "-p"), "")
	b.c("--token-type bearer", "npx", A("-y", "@acme/mcp", "--token-type", "bearer"), "")
	b.c("--tokens-per-minute", "uvx", A("rate-limited-mcp", "--tokens-per-minute", "90000"), "")
	b.c("--allow-env deno names", "deno", A("run", "--allow-net", "--allow-env=OPENAI_API_KEY,GITHUB_TOKEN", "jsr:@acme/mcp"), "")
	b.c("--env-file", "node", A("--env-file=.env", "dist/index.js"), "")
	b.c("--secret-manager vault", "npx", A("-y", "@acme/mcp", "--secret-manager", "vault", "--vault-addr", "https://vault.example.com:8200"), "")
	b.c("--password-min-length", "npx", A("-y", "@acme/auth-admin-mcp", "--password-min-length", "12"), "")
	b.c("--session-timeout", "npx", A("-y", "@acme/mcp", "--session-timeout", "3600"), "")
	b.c("--jwt-audience and --jwks-url", "npx", A("-y", "@acme/mcp-gateway", "--jwt-audience", "https://api.example.com", "--jwks-url", "https://auth.example.com/.well-known/jwks.json", "--issuer", "https://auth.example.com/"), "")
	b.c("--oauth-callback-port", "npx", A("-y", "mcp-remote", "https://mcp.linear.app/sse", "--oauth-callback-port", "3334"), "")
	b.c("--token-cache path", "uvx", A("msgraph-mcp", "--token-cache", "~/.cache/msgraph/tokens.json"), "")
	b.c("--auth-file path", "npx", A("-y", "@acme/mcp", "--auth-file", "~/.config/acme/auth.json"), "")
	b.c("--keychain-service name", "npx", A("-y", "@acme/mcp", "--keychain-service", "github-mcp"), "")
	b.c("--key-name label", "npx", A("-y", "@acme/kms-mcp", "--key-name", "prod-signing-key"), "")
	b.c("jira --project-key", "uvx", A("mcp-atlassian", "--jira-url", "https://acme.atlassian.net", "--jira-projects-filter", "PROJ,OPS", "--project-key", "PROJ"), "")
	b.c("--s3-key object path", "uvx", A("s3-mcp", "--bucket", "acme-reports", "--s3-key", "reports/2024/q1.csv"), "")
	b.c("--idempotency-key uuid", "npx", A("-y", "@acme/mcp", "--idempotency-key", g.uuid()), "")
	b.c("--public-key ssh", "npx", A("-y", "@acme/ssh-ca-mcp", "--public-key", g.ben("<ssh-ed25519 public key>", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"+g.pick(csB64, 43)+" alice@laptop")), "")
	b.c("--age-recipient public key", "uvx", A("sops-mcp", "--age-recipient", g.ben("<age public key>", "age1"+strings.ToLower(g.pick(csBech32Up, 58)))), "")
	b.c("--api-key-name label", "npx", A("-y", "@acme/mcp", "--api-key-name", "production"), "")
	b.c("--read-only --toolsets", "github-mcp-server", A("stdio", "--read-only", "--toolsets", "repos,issues,pull_requests"), "")
	b.c("--port -p 8080", "npx", A("-y", "@acme/http-mcp", "-p", "8080", "--host", "127.0.0.1"), "")
	b.c("docker -p port mapping", "docker", A("run", "--rm", "-p", "127.0.0.1:8080:8080", "mcp/time"), "")
	b.c("psql -p port", "psql", A("-h", "localhost", "-p", "5432", "-U", "postgres", "-d", "app"), "")
	b.c("redis-cli -p port", "redis-cli", A("-h", "127.0.0.1", "-p", "6379", "--no-auth-warning"), "")
	b.c("--auth-header-name", "npx", A("-y", "@acme/mcp", "--auth-header-name", "X-Api-Key", "--auth-scheme", "Bearer"), "")
	b.c("--token-endpoint-auth-method", "npx", A("-y", "@acme/oidc-mcp", "--token-endpoint-auth-method", "client_secret_basic"), "")
	b.c("--secrets-provider", "uvx", A("mcp-secrets", "--secrets-provider", "aws-secrets-manager", "--region", "eu-central-1"), "")
	b.c("--ask-pass", "ansible-mcp", A("--inventory", "./hosts.ini", "--ask-pass"), "")
	b.c("--password-command", "npx", A("-y", "@acme/mail-mcp", "--password-command", "pass show mail/alice"), "")
	b.c("--credential-source", "uvx", A("aws-mcp", "--credential-source", "Ec2InstanceMetadata"), "")
	b.c("--signature-version", "uvx", A("s3-mcp", "--signature-version", "s3v4"), "")
	b.c("--auth-mode managed-identity", "npx", A("-y", "@azure/mcp@latest", "server", "start", "--auth-mode", "managed-identity"), "")
	b.c("--token-refresh-interval", "npx", A("-y", "@acme/mcp", "--token-refresh-interval", "55m"), "")
	b.c("-k insecure", "npx", A("-y", "@acme/http-mcp", "-k", "--url", "https://localhost:8443"), "")
	b.c("--api-key placeholder angle", "npx", A("-y", "@acme/mcp", "--api-key", "<YOUR_API_KEY>"), "")
	b.c("--api-key YOUR_API_KEY", "npx", A("-y", "tavily-mcp", "--api-key", "YOUR_API_KEY"), "")
	b.c("--token your_token_here", "npx", A("-y", "@acme/mcp", "--token", "your_token_here"), "")
	b.c("--password <password>", "uvx", A("mysql-mcp", "--password", "<password>"), "")
	b.c("--api-key your-api-key-here", "npx", A("-y", "firecrawl-mcp", "--api-key=your-api-key-here"), "")
}

// corpusShellSafe reports whether v can stand unquoted in a shell word.
func corpusShellSafe(v string) bool {
	for _, r := range v {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./:@,+=-", r)) {
			return false
		}
	}
	return true
}

// corpusEnvContexts are the ways people set an environment variable in a
// launch configuration. Each returns the command and args, and the index
// of the argument holding the assignment (-1: the command).
var corpusEnvContexts = []func(name, value, pkg, image string) (string, []string, int){
	func(n, v, pkg, image string) (string, []string, int) {
		return "docker", A("run", "-i", "--rm", "-e", n+"="+v, image), 4
	},
	func(n, v, pkg, image string) (string, []string, int) {
		return "env", A(n+"="+v, "npx", "-y", pkg), 0
	},
	func(n, v, pkg, image string) (string, []string, int) {
		if !corpusShellSafe(v) {
			v = "'" + v + "'"
		}
		return "sh", A("-c", n+"="+v+" exec npx -y "+pkg), 1
	},
	func(n, v, pkg, image string) (string, []string, int) {
		return "docker", A("run", "--rm", "-i", "--env", n+"="+v, image), 4
	},
	func(n, v, pkg, image string) (string, []string, int) {
		return "npx", A("-y", "@modelcontextprotocol/inspector", "-e", n+"="+v, "--", "npx", "-y", pkg), 3
	},
	func(n, v, pkg, image string) (string, []string, int) {
		if !corpusShellSafe(v) {
			v = "'" + v + "'"
		}
		return "bash", A("-lc", "export "+n+"="+v+" && exec npx -y "+pkg), 1
	},
	func(n, v, pkg, image string) (string, []string, int) {
		return "docker", A("run", "-i", "--rm", "--env="+n+"="+v, image), 3
	},
	func(n, v, pkg, image string) (string, []string, int) {
		return "cmd", A("/c", "set "+n+"="+v+"&& npx -y "+pkg), 1
	},
	func(n, v, pkg, image string) (string, []string, int) {
		if !corpusShellSafe(v) {
			v = "'" + v + "'"
		}
		return "env " + n + "=" + v + " npx -y " + pkg, nil, -1
	},
	func(n, v, pkg, image string) (string, []string, int) {
		return "podman", A("run", "-i", "--rm", "-e", n+"="+v, image), 4
	},
	func(n, v, pkg, image string) (string, []string, int) {
		return "powershell", A("-NoProfile", "-Command", "$env:"+n+"='"+v+"'; npx -y "+pkg), 2
	},
	func(n, v, pkg, image string) (string, []string, int) {
		return "docker", A("run", "-i", "--rm", "-e", "LOG_LEVEL=info", "-e", n+"="+v, image), 6
	},
}

// assign adds a case setting name=value in the i-th context (rotating),
// marked as planted when dirty.
func (b *corpusBuilder) assign(i int, name, value, pkg, image string, dirty bool) {
	ctx := corpusEnvContexts[i%len(corpusEnvContexts)]
	if strings.ContainsAny(value, " \n'") {
		ctx = corpusEnvContexts[0] // only docker -e takes any value as one word
	}
	cmd, args, at := ctx(name, value, pkg, image)
	if dirty {
		if at < 0 {
			cmd = X(cmd)
		} else {
			args[at] = X(args[at])
		}
	}
	b.c(fmt.Sprintf("%s via %s #%d", name, strings.Fields(cmd)[0], i), cmd, args, "")
}

// corpusAssignments: credentials assigned to credential-named variables,
// the env-style form (docker -e, env, sh -c, set, $env:).
func corpusAssignments(b *corpusBuilder) {
	g := b.g
	b.section("assign")
	type v struct{ name, value, pkg, image string }
	ref := g.supaRef()
	list := []v{
		{"GITHUB_PERSONAL_ACCESS_TOKEN", g.tk("ghp"), "@modelcontextprotocol/server-github", "ghcr.io/github/github-mcp-server"},
		{"GITHUB_PERSONAL_ACCESS_TOKEN", g.tk("github_pat"), "@modelcontextprotocol/server-github", "ghcr.io/github/github-mcp-server"},
		{"GITHUB_TOKEN", g.tk("ghs"), "@acme/gh-actions-mcp", "mcp/github"},
		{"GH_TOKEN", g.tk("ghu"), "@acme/gh-mcp", "mcp/gh"},
		{"GITLAB_PERSONAL_ACCESS_TOKEN", g.tk("glpat"), "@modelcontextprotocol/server-gitlab", "mcp/gitlab"},
		{"SLACK_BOT_TOKEN", g.tk("xoxb"), "@modelcontextprotocol/server-slack", "mcp/slack"},
		{"SLACK_USER_TOKEN", g.tk("xoxp"), "@modelcontextprotocol/server-slack", "mcp/slack"},
		{"SLACK_APP_TOKEN", g.tk("xapp"), "slack-mcp-server", "ghcr.io/korotovsky/slack-mcp-server"},
		{"SLACK_MCP_XOXC_TOKEN", g.tk("xoxc"), "slack-mcp-server", "ghcr.io/korotovsky/slack-mcp-server"},
		{"SLACK_MCP_XOXD_TOKEN", g.tk("xoxd"), "slack-mcp-server", "ghcr.io/korotovsky/slack-mcp-server"},
		{"OPENAI_API_KEY", g.tk("openai_proj"), "@acme/openai-mcp", "mcp/openai"},
		{"OPENAI_API_KEY", g.tk("openai_svc"), "@acme/openai-mcp", "mcp/openai"},
		{"ANTHROPIC_API_KEY", g.tk("anthropic"), "@acme/claude-mcp", "mcp/anthropic"},
		{"ANTHROPIC_ADMIN_KEY", g.tk("anthropic_admin"), "@acme/claude-admin-mcp", "mcp/anthropic-admin"},
		{"OPENROUTER_API_KEY", g.tk("openrouter"), "openrouter-mcp", "mcp/openrouter"},
		{"DEEPSEEK_API_KEY", g.tk("deepseek"), "deepseek-mcp-server", "mcp/deepseek"},
		{"AWS_ACCESS_KEY_ID", g.tk("akia"), "@aws/mcp", "public.ecr.aws/awslabs/mcp"},
		{"AWS_SECRET_ACCESS_KEY", g.tk("aws_secret"), "@aws/mcp", "public.ecr.aws/awslabs/mcp"},
		{"AWS_SESSION_TOKEN", g.tk("aws_session"), "@aws/mcp", "public.ecr.aws/awslabs/mcp"},
		{"GOOGLE_API_KEY", g.tk("google"), "@acme/maps-mcp", "mcp/google-maps"},
		{"GEMINI_API_KEY", g.tk("google"), "gemini-mcp", "mcp/gemini"},
		{"GOOGLE_CLIENT_SECRET", g.tk("gocspx"), "@acme/gworkspace-mcp", "mcp/gworkspace"},
		{"GOOGLE_OAUTH_ACCESS_TOKEN", g.tk("ya29"), "@acme/gdrive-mcp", "mcp/gdrive"},
		{"HF_TOKEN", g.tk("hf"), "@llmindset/hf-mcp-server", "mcp/huggingface"},
		{"HUGGING_FACE_HUB_TOKEN", g.tk("hf"), "@llmindset/hf-mcp-server", "mcp/huggingface"},
		{"NPM_TOKEN", g.tk("npm"), "@acme/npm-mcp", "mcp/npm"},
		{"TWINE_PASSWORD", g.tk("pypi"), "@acme/pypi-mcp", "mcp/pypi"},
		{"STRIPE_SECRET_KEY", g.tk("stripe_live"), "@stripe/mcp", "mcp/stripe"},
		{"STRIPE_API_KEY", g.tk("stripe_rk"), "@stripe/mcp", "mcp/stripe"},
		{"STRIPE_WEBHOOK_SECRET", g.tk("whsec"), "@acme/stripe-events", "mcp/stripe-events"},
		{"SENDGRID_API_KEY", g.tk("sendgrid"), "@acme/sendgrid-mcp", "mcp/sendgrid"},
		{"SHOPIFY_ACCESS_TOKEN", g.tk("shpat"), "shopify-mcp", "mcp/shopify"},
		{"SHOPIFY_API_SECRET", g.tk("shpss"), "shopify-mcp", "mcp/shopify"},
		{"DIGITALOCEAN_API_TOKEN", g.tk("dop"), "@digitalocean/mcp", "mcp/digitalocean"},
		{"DOCKERHUB_TOKEN", g.tk("dckr"), "@acme/dockerhub-mcp", "mcp/dockerhub"},
		{"DATABRICKS_TOKEN", g.tk("dapi"), "databricks-mcp", "mcp/databricks"},
		{"LINEAR_API_KEY", g.tk("linear"), "linear-mcp-server", "mcp/linear"},
		{"NOTION_TOKEN", g.tk("ntn"), "@notionhq/notion-mcp-server", "mcp/notion"},
		{"NOTION_API_KEY", g.tk("notion_secret"), "@notionhq/notion-mcp-server", "mcp/notion"},
		{"JIRA_API_TOKEN", g.tk("atlassian"), "mcp-atlassian", "ghcr.io/sooperset/mcp-atlassian"},
		{"CONFLUENCE_API_TOKEN", g.tk("atlassian"), "mcp-atlassian", "ghcr.io/sooperset/mcp-atlassian"},
		{"GROQ_API_KEY", g.tk("groq"), "groq-mcp", "mcp/groq"},
		{"REPLICATE_API_TOKEN", g.tk("replicate"), "replicate-mcp", "mcp/replicate"},
		{"PERPLEXITY_API_KEY", g.tk("pplx"), "server-perplexity-ask", "mcp/perplexity-ask"},
		{"XAI_API_KEY", g.tk("xai"), "grok-mcp", "mcp/grok"},
		{"TAVILY_API_KEY", g.tk("tavily"), "tavily-mcp", "mcp/tavily"},
		{"TAVILY_API_KEY", g.tk("tavily_dev"), "tavily-mcp", "mcp/tavily"},
		{"FIRECRAWL_API_KEY", g.tk("firecrawl"), "firecrawl-mcp", "mcp/firecrawl"},
		{"BRAVE_API_KEY", g.tk("brave"), "@modelcontextprotocol/server-brave-search", "mcp/brave-search"},
		{"EXA_API_KEY", g.uuidS(), "exa-mcp-server", "mcp/exa"},
		{"SOPS_AGE_KEY", g.tk("age"), "@acme/sops-mcp", "mcp/sops"},
		{"VAULT_TOKEN", g.tk("vault"), "@acme/vault-mcp", "hashicorp/vault-mcp-server"},
		{"TFE_TOKEN", g.tk("terraform"), "@acme/terraform-mcp", "hashicorp/terraform-mcp-server"},
		{"PULUMI_ACCESS_TOKEN", g.tk("pulumi"), "@pulumi/mcp-server", "mcp/pulumi"},
		{"POSTMAN_API_KEY", g.tk("postman"), "@postman/postman-mcp-server", "mcp/postman"},
		{"FIGMA_API_KEY", g.tk("figma"), "figma-developer-mcp", "mcp/figma"},
		{"SENTRY_AUTH_TOKEN", g.tk("sentry_org"), "@sentry/mcp-server", "mcp/sentry"},
		{"SENTRY_ACCESS_TOKEN", g.tk("sentry_user"), "@sentry/mcp-server", "mcp/sentry"},
		{"GRAFANA_SERVICE_ACCOUNT_TOKEN", g.tk("grafana_sa"), "@acme/grafana-mcp", "mcp/grafana"},
		{"GRAFANA_CLOUD_TOKEN", g.tk("grafana_cloud"), "@acme/grafana-mcp", "mcp/grafana"},
		{"DOPPLER_TOKEN", g.tk("doppler"), "@acme/doppler-mcp", "mcp/doppler"},
		{"LANGSMITH_API_KEY", g.tk("langsmith"), "langsmith-mcp-server", "mcp/langsmith"},
		{"PINECONE_API_KEY", g.tk("pinecone"), "@pinecone-database/mcp", "mcp/pinecone"},
		{"SUPABASE_ACCESS_TOKEN", g.tk("sbp"), "@supabase/mcp-server-supabase", "mcp/supabase"},
		{"SUPABASE_SECRET_KEY", g.tk("sb_secret"), "@supabase/mcp-server-supabase", "mcp/supabase"},
		{"SUPABASE_SERVICE_ROLE_KEY", g.supabaseJWT(ref, "service_role"), "@supabase/mcp-server-supabase", "mcp/supabase"},
		{"TELEGRAM_BOT_TOKEN", g.tk("telegram"), "telegram-mcp", "mcp/telegram"},
		{"MAILGUN_API_KEY", g.tk("mailgun"), "@mailgun/mcp-server", "mcp/mailgun"},
		{"DISCORD_TOKEN", g.tk("discord"), "discord-mcp", "mcp/discord"},
		{"MAPBOX_ACCESS_TOKEN", g.tk("mapbox_sk"), "@mapbox/mcp-server", "mcp/mapbox"},
		{"NEW_RELIC_API_KEY", g.tk("nrak"), "@newrelic/mcp", "mcp/newrelic"},
		{"RESEND_API_KEY", g.tk("resend"), "resend-mcp", "mcp/resend"},
		{"E2B_API_KEY", g.tk("e2b"), "@e2b/mcp-server", "mcp/e2b"},
		{"APIFY_TOKEN", g.tk("apify"), "@apify/actors-mcp-server", "mcp/apify"},
		{"AIRTABLE_API_KEY", g.tk("airtable"), "airtable-mcp-server", "mcp/airtable"},
		{"CLICKUP_API_KEY", g.tk("clickup"), "@taazkareem/clickup-mcp-server", "mcp/clickup"},
		{"NETLIFY_PERSONAL_ACCESS_TOKEN", g.tk("netlify"), "@netlify/mcp", "mcp/netlify"},
		{"PLANETSCALE_SERVICE_TOKEN", g.tk("planetscale"), "@acme/pscale-mcp", "mcp/planetscale"},
		{"NEON_API_KEY", g.tk("neon"), "@neondatabase/mcp-server-neon", "mcp/neon"},
		{"BITBUCKET_APP_PASSWORD", g.tk("bitbucket"), "bitbucket-mcp", "mcp/bitbucket"},
		{"BROWSERBASE_API_KEY", g.tk("browserbase"), "@browserbasehq/mcp", "mcp/browserbase"},
		{"ELEVENLABS_API_KEY", g.tk("elevenlabs"), "elevenlabs-mcp", "mcp/elevenlabs"},
		{"CEREBRAS_API_KEY", g.tk("cerebras"), "cerebras-mcp", "mcp/cerebras"},
		{"OKTA_API_TOKEN", g.tk("okta"), "@acme/okta-mcp", "mcp/okta"},
		{"ASANA_ACCESS_TOKEN", g.tk("asana"), "@roychri/mcp-server-asana", "mcp/asana"},
		{"AZURE_CLIENT_SECRET", g.tk("azure_secret"), "@azure/mcp", "mcr.microsoft.com/azure-sdk/azure-mcp"},
		{"AZURE_DEVOPS_PAT", g.tk("ado_pat"), "@azure-devops/mcp", "mcp/azure-devops"},
		{"AZURE_OPENAI_API_KEY", g.rs(csHex, 32), "@azure/openai-mcp", "mcp/azure-openai"},
		{"CLOUDFLARE_API_TOKEN", g.tk("cloudflare"), "@cloudflare/mcp-server-cloudflare", "mcp/cloudflare"},
		{"CLOUDFLARE_API_KEY", g.tk("cf_global"), "@cloudflare/mcp-server-cloudflare", "mcp/cloudflare"},
		{"DD_API_KEY", g.rs(csHex, 32), "@winor30/mcp-server-datadog", "mcp/datadog"},
		{"DD_APP_KEY", g.rs(csHex, 40), "@winor30/mcp-server-datadog", "mcp/datadog"},
		{"TWILIO_AUTH_TOKEN", g.rs(csHex, 32), "@twilio-alpha/mcp", "mcp/twilio"},
		{"MISTRAL_API_KEY", g.rs(csAlnum, 32), "mistral-mcp", "mcp/mistral"},
		{"COHERE_API_KEY", g.rs(csAlnum, 40), "cohere-mcp", "mcp/cohere"},
		{"VERCEL_TOKEN", g.rs(csAlnum, 24), "@vercel/mcp", "mcp/vercel"},
		{"HEROKU_API_KEY", g.uuidS(), "@heroku/mcp-server", "mcp/heroku"},
		{"TODOIST_API_TOKEN", g.tk("todoist"), "@abhiz123/todoist-mcp-server", "mcp/todoist"},
		{"OBSIDIAN_API_KEY", g.tk("obsidian"), "mcp-obsidian", "mcp/obsidian"},
		{"API_KEY", g.rs(csHex, 32), "@acme/weather-mcp", "mcp/weather"},
		{"TOKEN", g.rs(csAlnum, 40), "@acme/mcp", "mcp/acme"},
		{"SECRET", g.rs(csB64URL, 32), "@acme/mcp", "mcp/acme"},
		{"AUTH_TOKEN", g.rs(csB64URL, 43), "@acme/mcp", "mcp/acme"},
		{"ACCESS_KEY", g.rs(csUpAlnum, 20), "@acme/mcp", "mcp/acme"},
		{"CLIENT_SECRET", g.rs(csB64URL, 40), "@acme/oauth-mcp", "mcp/oauth"},
		{"JWT_SECRET", g.rs(csHex, 64), "@acme/auth-mcp", "mcp/auth"},
		{"NEXTAUTH_SECRET", g.rs(csB64, 43) + "=", "@acme/next-mcp", "mcp/next"},
		{"SECRET_KEY_BASE", g.rs(csHex, 128), "@acme/rails-mcp", "mcp/rails"},
		{"DJANGO_SECRET_KEY", g.sec("<django-insecure- + 50 random>", "django-insecure-"+g.pick(csLowAlnum+"!@#%^&*(-_=+)", 50)), "@acme/django-mcp", "mcp/django"},
		{"ENCRYPTION_KEY", g.rs(csHex, 64), "@acme/mcp", "mcp/acme"},
		{"PRIVATE_KEY", g.tk("eth"), "@acme/evm-mcp", "mcp/evm"},
		{"WALLET_PRIVATE_KEY", g.tk("eth"), "@goat-sdk/mcp", "mcp/goat"},
		{"SOLANA_PRIVATE_KEY", g.tk("solana"), "solana-mcp", "mcp/solana"},
		{"PGPASSWORD", g.pw(), "@modelcontextprotocol/server-postgres", "mcp/postgres"},
		{"POSTGRES_PASSWORD", g.pw(), "@acme/pg-mcp", "postgres:16"},
		{"MYSQL_PASSWORD", g.pw(), "@benborla29/mcp-server-mysql", "mcp/mysql"},
		{"MYSQL_ROOT_PASSWORD", g.pw(), "@benborla29/mcp-server-mysql", "mysql:8"},
		{"REDIS_PASSWORD", g.rs(csAlnum, 32), "@acme/redis-mcp", "mcp/redis"},
		{"MONGO_INITDB_ROOT_PASSWORD", g.pw(), "@acme/mongo-mcp", "mongo:7"},
		{"SNOWFLAKE_PASSWORD", g.pw(), "mcp-snowflake-server", "mcp/snowflake"},
		{"DB_PASS", g.pw(), "@acme/db-mcp", "mcp/db"},
		{"SMTP_PASSWORD", g.pw(), "@acme/mail-mcp", "mcp/mail"},
		{"KUBE_TOKEN", g.jwtK8s(), "mcp-server-kubernetes", "mcp/kubernetes"},
		{"ARGOCD_AUTH_TOKEN", g.jwtHS(), "argocd-mcp", "mcp/argocd"},
		{"MNEMONIC", g.mnemonic(), "@acme/wallet-mcp", "mcp/wallet"},
		{"GOOGLE_PRIVATE_KEY", g.pem(privKey(""), `\n`, true), "@acme/sheets-mcp", "mcp/sheets"},
		{"GITHUB_APP_PRIVATE_KEY", g.pem(privKey("RSA"), "\n", true), "@acme/github-app-mcp", "mcp/github-app"},
		{"DATABASE_URL", "postgresql://app:" + g.pwURL() + "@db.internal:5432/app", "@acme/pg-mcp", "mcp/postgres"},
		{"MONGODB_URI", "mongodb+srv://admin:" + g.pwURL() + "@cluster0.ab1cd.mongodb.net/?retryWrites=true&w=majority", "mongodb-mcp-server", "mongodb/mongodb-mcp-server"},
		{"REDIS_URL", "redis://:" + g.rs(csAlnum, 32) + "@redis.internal:6379/0", "@modelcontextprotocol/server-redis", "mcp/redis"},
		{"OPENAPI_MCP_HEADERS", `{"Authorization": "Bearer ` + g.tk("ntn") + `", "Notion-Version": "2022-06-28"}`, "@notionhq/notion-mcp-server", "mcp/notion"},
	}
	for i, e := range list {
		b.assign(i, e.name, e.value, e.pkg, e.image, true)
	}
	// Java system properties and other NAME=VALUE shapes.
	b.c("spring datasource password -D", "java", A(X("-Dspring.datasource.password="+g.pw()), "-jar", "/opt/mcp/db-mcp.jar"), "")
	b.c("spring ai openai api-key -D", "java", A("-Dspring.ai.mcp.server.stdio=true", X("-Dspring.ai.openai.api-key="+g.tk("openai_proj")), "-jar", "mcp-server.jar"), "")
	b.c("kubectl --from-literal=api-key=", "kubectl", A("create", "secret", "generic", "mcp", X("--from-literal=api-key="+g.rs(csHex, 32))), "")
	b.c("helm --set auth.password=", "helm", A("upgrade", "--install", "mcp", "./chart", "--set", X("auth.password="+g.pw())), "")
	b.c("terraform -var db_password=", "terraform", A("apply", "-var", X("db_password="+g.pw()), "-var", "region=eu-west-1"), "")
	b.c("openssl -passin pass:", "openssl", A("pkcs12", "-in", "client.p12", "-nodes", "-passin", X("pass:"+g.pw())), "")
	b.c("bare NAME=VALUE arg to dotenv-cli", "npx", A("-y", "dotenv-cli", "-v", X("OPENAI_API_KEY="+g.tk("openai")), "--", "node", "server.js"), "")
	b.c("uv run --env NAME=VALUE", "uv", A("run", "--with", "mcp[cli]", "mcp", "run", "server.py", "--env", X("ANTHROPIC_API_KEY="+g.tk("anthropic"))), "")
	b.c("placeholder with real default", "sh", A("-c", X("exec npx -y @acme/mcp --api-key ${OPENAI_API_KEY:-"+g.tk("openai_proj")+"}")), "")
	b.c("docker -e lowercase name", "docker", A("run", "-i", "--rm", "-e", X("github_token="+g.tk("ghp")), "mcp/github"), "")
	b.c("docker -e quoted value", "docker", A("run", "-i", "--rm", "-e", X(`BRAVE_API_KEY="`+g.tk("brave")+`"`), "mcp/brave-search"), "")
	b.c("two assignments in one sh -c", "sh", A("-c", X("GITHUB_TOKEN="+g.tk("ghp")+" OPENAI_API_KEY="+g.tk("openai_proj")+" exec node /opt/mcp/index.js")), "")
	b.c("cmd set quoted", "cmd", A("/c", X(`set "ANTHROPIC_API_KEY=`+g.tk("anthropic")+`" && npx -y @acme/claude-mcp`)), "")
}

// corpusAssignmentsBenign: assignments that hold no credential, in the
// same contexts, and references to variables.
func corpusAssignmentsBenign(b *corpusBuilder) {
	g := b.g
	b.section("benign-assign")
	type v struct{ name, value string }
	list := []v{
		{"NODE_ENV", "production"},
		{"LOG_LEVEL", "debug"},
		{"GITHUB_TOOLSETS", "repos,issues,pull_requests"},
		{"GITHUB_HOST", "https://github.example.com"},
		{"GITHUB_READ_ONLY", "1"},
		{"AWS_REGION", "us-east-1"},
		{"AWS_PROFILE", "dev"},
		{"GOOGLE_APPLICATION_CREDENTIALS", "/secrets/service-account.json"},
		{"AWS_SHARED_CREDENTIALS_FILE", "/home/alice/.aws/credentials"},
		{"TOKENIZERS_PARALLELISM", "false"},
		{"MAX_TOKENS", "4096"},
		{"OPENAI_MAX_TOKENS", "1024"},
		{"TOKEN_LIMIT", "100000"},
		{"PASSWORD_MIN_LENGTH", "12"},
		{"AUTH_TYPE", "oauth"},
		{"AUTH_ENABLED", "false"},
		{"API_KEY_HEADER", "X-API-Key"},
		{"API_KEY_FILE", "/run/secrets/api_key"},
		{"GITHUB_TOKEN_FILE", "/run/secrets/github_token"},
		{"SECRET_NAME", "prod/mcp/database"},
		{"KEY_VAULT_URL", "https://acme-kv.vault.azure.net/"},
		{"SSH_AUTH_SOCK", "/run/user/1000/keyring/ssh"},
		{"PWD", "/home/alice/project"},
		{"HOME", "/home/alice"},
		{"PATH", "/usr/local/bin:/usr/bin:/bin"},
		{"OPENAI_API_BASE", "https://api.openai.com/v1"},
		{"OPENAI_MODEL", "gpt-4o-mini"},
		{"ANTHROPIC_MODEL", "claude-sonnet-4-5-20250929"},
		{"SLACK_TEAM_ID", "T0" + g.rb(csUpAlnum, 9)},
		{"SLACK_CHANNEL_IDS", "C0" + g.rb(csUpAlnum, 9) + ",C0" + g.rb(csUpAlnum, 9)},
		{"CLOUDFLARE_ACCOUNT_ID", g.rb(csHex, 32)},
		{"NOTION_PAGE_ID", g.rb(csHex, 32)},
		{"SUPABASE_URL", "https://" + g.supaRef() + ".supabase.co"},
		{"SUPABASE_PROJECT_REF", g.supaRef()},
		{"DD_SITE", "datadoghq.eu"},
		{"SENTRY_ORG", "acme-corp"},
		{"JIRA_URL", "https://acme.atlassian.net"},
		{"JIRA_USERNAME", "alice@acme.com"},
		{"CONFLUENCE_SPACES_FILTER", "DEV,DOC"},
		{"READ_ONLY_MODE", "true"},
		{"ENABLED_TOOLS", "search,fetch"},
		{"GIT_COMMIT", g.rb(csHex, 40)},
		{"IMAGE_DIGEST", "sha256:" + g.rb(csHex, 64)},
		{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://localhost:4318"},
		{"HTTPS_PROXY", "http://proxy.corp.example.com:3128"},
		{"NODE_OPTIONS", "--max-old-space-size=4096"},
		{"PYTHONUNBUFFERED", "1"},
		{"UV_PYTHON", "3.12"},
		{"KUBECONFIG", "/home/alice/.kube/config"},
		{"VAULT_ADDR", "https://vault.internal:8200"},
		{"TZ", "America/New_York"},
		{"JWT_EXPIRES_IN", "3600"},
		{"JWT_ALGORITHM", "RS256"},
		{"OAUTH_REDIRECT_URI", "http://localhost:3000/callback"},
		{"OAUTH_CLIENT_ID", g.googleClientID()},
		{"AZURE_TENANT_ID", g.uuid()},
		{"AZURE_CLIENT_ID", g.uuid()},
		{"AZURE_SUBSCRIPTION_ID", g.uuid()},
		{"AUTH0_DOMAIN", "dev-" + g.rb(csLowAlnum, 16) + ".us.auth0.com"},
		{"KEYCLOAK_REALM", "master"},
		{"GIT_ASKPASS", "/usr/lib/ssh/ssh-askpass"},
		{"SECRETS_PROVIDER", "aws-secrets-manager"},
		{"GITHUB_TOKEN", "${GITHUB_TOKEN}"},
		{"OPENAI_API_KEY", "$OPENAI_API_KEY"},
		{"API_KEY", "%API_KEY%"},
		{"ANTHROPIC_API_KEY", "${env:ANTHROPIC_API_KEY}"},
		{"BRAVE_API_KEY", "${input:brave_api_key}"},
		{"TOKEN", ""},
		{"MODEL_PATH", "/models/llama-3.1-8b-instruct.Q4_K_M.gguf"},
		{"MCP_TRANSPORT", "stdio"},
		{"PORT", "8080"},
		{"ALLOWED_HOSTS", "localhost,127.0.0.1"},
		{"CORS_ORIGIN", "https://claude.ai"},
		{"SESSION_TTL", "30m"},
		{"KEY_ID", g.uuid()},
		{"PUBLIC_KEY_PATH", "/etc/mcp/public.pem"},
	}
	for i, e := range list {
		b.assign(i, e.name, e.value, "@acme/mcp", "mcp/acme", false)
	}
	b.c("docker -e NAME references only", "docker", A("run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "-e", "GITHUB_TOOLSETS", "ghcr.io/github/github-mcp-server"), "")
	b.c("docker --env NAME references", "docker", A("run", "-i", "--rm", "--env", "SLACK_BOT_TOKEN", "--env", "SLACK_TEAM_ID", "mcp/slack"), "")
	b.c("docker --env-file", "docker", A("run", "-i", "--rm", "--env-file", "./.env", "mcp/notion"), "")
	b.c("env -u unset", "env", A("-u", "OPENAI_API_KEY", "node", "dist/index.js"), "")
	b.c("env with benign assignments", "env", A("NODE_OPTIONS=--max-old-space-size=4096", "LOG_LEVEL=warn", "node", "build/index.js"), "")
	b.c("java -D benign properties", "java", A("-Dspring.ai.mcp.server.stdio=true", "-Dspring.main.banner-mode=off", "-Dlogging.pattern.console=", "-Dspring.datasource.url=jdbc:postgresql://db:5432/app", "-jar", "mcp.jar"), "")
	b.c("helm --set benign", "helm", A("upgrade", "--install", "mcp", "./chart", "--set", "image.tag=1.4.2", "--set", "replicaCount=2"), "")
	b.c("kubectl --from-file", "kubectl", A("create", "secret", "generic", "mcp-ssh", "--from-file=ssh-privatekey=/home/alice/.ssh/id_ed25519"), "")
	b.c("openssl -passin env:", "openssl", A("pkcs12", "-in", "client.p12", "-nodes", "-passin", "env:P12_PASSWORD"), "")
	b.c("openssl -passin file:", "openssl", A("pkcs12", "-in", "client.p12", "-nodes", "-passin", "file:/run/secrets/p12pass"), "")
	b.c("docker --user uid:gid", "docker", A("run", "-i", "--rm", "--user", "1000:1000", "-v", "/home/alice/.aws:/root/.aws:ro", "mcp/aws"), "")
	b.c("docker --add-host", "docker", A("run", "-i", "--rm", "--add-host=host.docker.internal:host-gateway", "--network", "host", "mcp/postgres", "postgresql://host.docker.internal:5432/mydb"), "")
	b.c("dotenv-cli -e file", "npx", A("-y", "dotenv-cli", "-e", ".env.local", "--", "node", "dist/index.js"), "")
	b.c("terraform -var benign", "terraform", A("plan", "-var", "region=eu-west-1", "-var", "instance_type=t3.micro"), "")
}

// corpusHeaders: credentials in header-shaped arguments.
func corpusHeaders(b *corpusBuilder) {
	g := b.g
	b.section("header")
	remote := func(h string) []string {
		return A("-y", "mcp-remote", "https://mcp.example.com/sse", "--header", X(h))
	}
	b.c("mcp-remote Authorization Bearer", "npx", remote("Authorization: Bearer "+g.rs(csB64URL, 43)), "")
	b.c("mcp-remote Authorization:Bearer no space jwt", "npx", remote("Authorization:Bearer "+g.jwtHS()), "")
	b.c("X-API-Key hex32", "npx", remote("X-API-Key: "+g.rs(csHex, 32)), "")
	b.c("x-api-key lowercase", "npx", remote("x-api-key: "+g.rs(csAlnum, 40)), "")
	b.c("Authorization token ghp", "npx", remote("Authorization: token "+g.tk("ghp")), "")
	b.c("Authorization Basic base64", "npx", remote("Authorization: Basic "+g.sec("<base64 of user:password>", base64.StdEncoding.EncodeToString([]byte("alice:"+g.pw())))), "")
	b.c("PRIVATE-TOKEN gitlab", "npx", remote("PRIVATE-TOKEN: "+g.tk("glpat")), "")
	b.c("azure api-key header", "npx", remote("api-key: "+g.rs(csHex, 32)), "")
	b.c("Ocp-Apim-Subscription-Key", "npx", remote("Ocp-Apim-Subscription-Key: "+g.rs(csHex, 32)), "")
	b.c("X-Auth-Token", "npx", remote("X-Auth-Token: "+g.rs(csAlnum, 32)), "")
	b.c("Cookie session", "npx", remote("Cookie: sessionid="+g.rs(csLowAlnum, 32)), "")
	b.c("X-Goog-Api-Key", "npx", remote("X-Goog-Api-Key: "+g.tk("google")), "")
	b.c("Proxy-Authorization Basic", "npx", remote("Proxy-Authorization: Basic "+g.sec("<base64 of user:password>", base64.StdEncoding.EncodeToString([]byte("proxyuser:"+g.pw())))), "")
	b.c("X-Figma-Token", "npx", remote("X-Figma-Token: "+g.tk("figma")), "")
	b.c("X-Shopify-Access-Token", "npx", remote("X-Shopify-Access-Token: "+g.tk("shpat")), "")
	b.c("Authorization ApiKey elastic", "npx", remote("Authorization: ApiKey "+g.rs(csB64, 60)+"=="), "")
	b.c("Authorization Token drf", "npx", remote("Authorization: Token "+g.rs(csHex, 40)), "")
	b.c("Authorization Bot discord", "npx", remote("Authorization: Bot "+g.tk("discord")), "")
	b.c("Authorization SSWS okta", "npx", remote("Authorization: SSWS "+g.tk("okta")), "")
	b.c("Authorization Splunk uuid", "npx", remote("Authorization: Splunk "+g.uuidS()), "")
	b.c("Authorization GenieKey uuid", "npx", remote("Authorization: GenieKey "+g.uuidS()), "")
	b.c("X-Vault-Token", "npx", remote("X-Vault-Token: "+g.tk("vault")), "")
	b.c("DD-API-KEY", "npx", remote("DD-API-KEY: "+g.rs(csHex, 32)), "")
	b.c("Authorization Bearer human-length random", "npx", remote("Authorization: Bearer "+g.rs(csAlnum, 24)), "")
	b.c("X-Api-Token", "npx", remote("X-Api-Token: "+g.rs(csB64URL, 40)), "")
	b.c("X-Access-Token", "npx", remote("X-Access-Token: "+g.rs(csHex, 48)), "")
	b.c("--header=Authorization equals form", "npx", A("-y", "mcp-remote", "https://mcp.example.com/mcp", X("--header=Authorization: Bearer "+g.rs(csB64URL, 43))), "")
	b.c("-H short form", "npx", A("-y", "mcp-remote", "https://mcp.example.com/mcp", "-H", X("Authorization: Bearer "+g.rs(csB64URL, 43))), "")
	b.c("mcp-proxy --headers name value separate", "uvx", A("mcp-proxy", "--headers", "Authorization", X("Bearer "+g.rs(csB64URL, 43)), "https://mcp.example.com/sse"), "")
	b.c("mcp-proxy -H name value separate api key", "uvx", A("mcp-proxy", "-H", "X-API-Key", X(g.rs(csHex, 32)), "https://mcp.example.com/sse"), "")
	b.c("supergateway --header", "npx", A("-y", "supergateway", "--sse", "https://mcp.example.com/sse", "--header", X("X-Api-Key: "+g.rs(csAlnum, 40))), "")
	b.c("two headers one credential", "npx", A("-y", "mcp-remote", "https://mcp.example.com/sse", "--header", "Accept: text/event-stream", "--header", X("Authorization: Bearer "+g.tk("sentry_user"))), "")
	b.c("JSON headers arg", "npx", A("-y", "@acme/http-bridge", "--headers", X(`{"Authorization":"Bearer `+g.rs(csB64URL, 43)+`","X-Client":"claude"}`)), "")
	b.c("bare Bearer arg after --auth", "npx", A("-y", "@acme/bridge", "--auth", X("Bearer "+g.rs(csB64URL, 43))), "")
	b.c("Authorization Bearer openai key", "npx", remote("Authorization: Bearer "+g.tk("openai_proj")), "")
	b.c("x-goog header lowercase colon no space", "npx", remote("x-goog-api-key:"+g.tk("google")), "")
}

// corpusHeadersBenign: header-shaped arguments without credentials.
func corpusHeadersBenign(b *corpusBuilder) {
	g := b.g
	b.section("benign-header")
	remote := func(h ...string) []string {
		args := A("-y", "mcp-remote", "https://mcp.example.com/sse")
		for _, x := range h {
			args = append(args, "--header", x)
		}
		return args
	}
	b.c("Content-Type", "npx", remote("Content-Type: application/json"), "")
	b.c("Accept event-stream", "npx", remote("Accept: text/event-stream"), "")
	b.c("User-Agent", "npx", remote("User-Agent: claude-desktop/0.10.14 (darwin)"), "")
	b.c("X-Request-Id uuid", "npx", remote("X-Request-Id: "+g.uuid()), "")
	b.c("anthropic-version", "npx", remote("anthropic-version: 2023-06-01"), "")
	b.c("Notion-Version", "npx", remote("Notion-Version: 2022-06-28"), "")
	b.c("OpenAI-Organization org id", "npx", remote("OpenAI-Organization: org-"+g.rb(csAlnum, 24)), "")
	b.c("X-Tenant-Id uuid", "npx", remote("X-Tenant-Id: "+g.uuid()), "")
	b.c("Authorization Bearer $VAR", "npx", remote("Authorization: Bearer $MCP_TOKEN"), "")
	b.c("Authorization Bearer ${VAR}", "npx", remote("Authorization: Bearer ${MCP_TOKEN}"), "")
	b.c("mcp-remote README Authorization:${AUTH_HEADER}", "npx", remote("Authorization:${AUTH_HEADER}"), "")
	b.c("X-API-Key ${input:...}", "npx", remote("X-API-Key: ${input:api_key}"), "")
	b.c("Authorization Bearer ${env:...}", "npx", remote("Authorization: Bearer ${env:GITHUB_TOKEN}"), "")
	b.c("Authorization Bearer %VAR%", "npx", remote("Authorization: Bearer %API_TOKEN%"), "")
	b.c("X-MCP-Toolsets github", "npx", remote("X-MCP-Toolsets: repos,issues", "X-MCP-Readonly: true"), "")
	b.c("Cache-Control and Accept-Encoding", "npx", remote("Cache-Control: no-cache", "Accept-Encoding: gzip"), "")
	b.c("X-Forwarded-For", "npx", remote("X-Forwarded-For: 127.0.0.1"), "")
	b.c("OpenAI-Beta", "npx", remote("OpenAI-Beta: assistants=v2"), "")
	b.c("X-Api-Version", "npx", remote("X-Api-Version: 2"), "")
	b.c("mcp-proxy --headers name and reference", "uvx", A("mcp-proxy", "--headers", "Authorization", "Bearer ${MCP_TOKEN}", "https://mcp.example.com/sse"), "")
	b.c("mcp-proxy -H benign pair", "uvx", A("mcp-proxy", "-H", "X-Client-Name", "cursor", "https://mcp.example.com/sse"), "")
	b.c("JSON headers no secret", "npx", A("-y", "@acme/http-bridge", "--headers", `{"Accept":"application/json","X-Client":"claude"}`), "")
	b.c("--auth-header name only", "npx", A("-y", "@acme/bridge", "--auth-header", "Authorization"), "")
}

// corpusURLs: credentials in URLs, as the server url or inside arguments.
func corpusURLs(b *corpusBuilder) {
	g := b.g
	b.section("url-userinfo")
	b.u("https basic auth", X("https://alice:"+g.pwURL()+"@mcp.example.com/sse"))
	b.u("http admin localhost", X("http://admin:"+g.pwURL()+"@localhost:8080/mcp"))
	b.c("server-postgres password", "npx", A("-y", "@modelcontextprotocol/server-postgres", X("postgresql://postgres:"+g.pwURL()+"@localhost:5432/mydb")), "")
	b.c("postgres sslmode", "uvx", A("postgres-mcp", "--access-mode=restricted", X("postgres://app:"+g.rs(csAlnum, 24)+"@db.internal.example.com:5432/app?sslmode=require")), "")
	b.c("supabase pooler", "npx", A("-y", "@modelcontextprotocol/server-postgres", X("postgresql://postgres."+g.supaRef()+":"+g.pwURL()+"@aws-0-us-east-1.pooler.supabase.com:6543/postgres")), "")
	b.c("mysql url", "npx", A("-y", "@benborla29/mcp-server-mysql", X("mysql://root:"+g.pwURL()+"@127.0.0.1:3306/shop")), "")
	b.c("mongodb+srv atlas", "npx", A("-y", "mongodb-mcp-server", "--connectionString", X("mongodb+srv://admin:"+g.pwURL()+"@cluster0.ab1cd.mongodb.net/?retryWrites=true&w=majority&appName=Cluster0")), "")
	b.c("mongodb multi-host", "npx", A("-y", "mcp-mongo-server", X("mongodb://reader:"+g.pwURL()+"@mongo1:27017,mongo2:27017,mongo3:27017/app?replicaSet=rs0&authSource=admin")), "")
	b.c("redis cloud default user", "npx", A("-y", "@modelcontextprotocol/server-redis", X("redis://default:"+g.rs(csAlnum, 32)+"@redis-12345.c1.us-east-1-2.ec2.redns.redis-cloud.com:12345")), "")
	b.c("rediss empty user azure", "uvx", A("redis-mcp-server", "--url", X("rediss://:"+g.rs(csB64URL, 44)+"@acme-cache.redis.cache.windows.net:6380/0")), "")
	b.c("amqp", "npx", A("-y", "@acme/rabbitmq-mcp", X("amqp://mquser:"+g.pwURL()+"@rabbit:5672/vhost")), "")
	b.c("amqps amazon mq", "npx", A("-y", "@acme/rabbitmq-mcp", "--url", X("amqps://mcp:"+g.pwURL()+"@b-1234abcd.mq.us-east-1.amazonaws.com:5671")), "")
	b.c("ftp", "npx", A("-y", "@acme/ftp-mcp", X("ftp://deploy:"+g.pwURL()+"@ftp.example.com/pub")), "")
	b.c("ssh url password", "npx", A("-y", "ssh-mcp", X("ssh://deploy:"+g.pwURL()+"@server.example.com:22")), "")
	b.c("git+https password", "uvx", A("--from", X("git+https://alice:"+g.pwURL()+"@git.example.com/org/mcp-server.git"), "mcp-server"), "")
	b.c("x-access-token ghs in clone url", "uvx", A("mcp-server-git", "--repository", X("https://x-access-token:"+g.tk("ghs")+"@github.com/acme/app.git")), "")
	b.c("oauth2 glpat in clone url", "uvx", A("mcp-server-git", "--remote", X("https://oauth2:"+g.tk("glpat")+"@gitlab.com/group/project.git")), "")
	b.c("ghp as user name", "uvx", A("--from", X("git+https://"+g.tk("ghp")+"@github.com/acme/private-mcp.git"), "private-mcp"), "")
	b.c("github_pat with x-oauth-basic", "npx", A("-y", X("git+https://"+g.tk("github_pat")+":x-oauth-basic@github.com/acme/mcp.git")), "")
	b.u("uppercase scheme and host", X("HTTPS://Alice:"+g.pwURL()+"@MCP.Example.COM/sse"))
	b.c("percent-encoded password", "npx", A("-y", "@modelcontextprotocol/server-postgres", X("postgresql://app:"+g.sec("<percent-encoded password>", "Tiger%40"+g.pick(csDigits, 4)+"%23river")+"@db:5432/app")), "")
	b.c("clickhouse", "uvx", A("mcp-clickhouse", "--url", X("clickhouse://default:"+g.pwURL()+"@ch.example.com:9000/default")), "")
	b.c("neo4j+s aura", "uvx", A("mcp-neo4j-cypher", "--db-url", X("neo4j+s://neo4j:"+g.rs(csB64URL, 43)+"@abcd1234.databases.neo4j.io")), "")
	b.c("bolt", "uvx", A("mcp-neo4j-memory", X("bolt://neo4j:"+g.pwURL()+"@localhost:7687")), "")
	b.c("mssql url", "npx", A("-y", "@acme/mssql-mcp", X("mssql://sa:"+g.pwURL()+"@localhost:1433/master")), "")
	b.c("sqlserver url", "npx", A("-y", "@acme/mssql-mcp", X("sqlserver://sa:"+g.pwURL()+"@localhost:1433?database=master")), "")
	b.c("snowflake url", "uvx", A("snowflake-mcp", X("snowflake://svc:"+g.pwURL()+"@xy12345.us-east-1/ANALYTICS/PUBLIC?warehouse=COMPUTE_WH")), "")
	b.c("elasticsearch https", "npx", A("-y", "@elastic/mcp-server-elasticsearch", X("https://elastic:"+g.pwURL()+"@es.example.com:9200")), "")
	b.c("nats", "npx", A("-y", "@acme/nats-mcp", X("nats://mcp:"+g.pwURL()+"@nats:4222")), "")
	b.c("mqtt", "npx", A("-y", "@acme/mqtt-mcp", "--broker", X("mqtt://iot:"+g.pwURL()+"@broker.example.com:1883")), "")
	b.c("proxy with credentials", "npx", A("-y", "@acme/fetch-mcp", "--proxy", X("http://proxyuser:"+g.pwURL()+"@proxy.corp.example.com:3128")), "")
	b.c("--dsn= postgres", "/usr/local/bin/pg-mcp", A(X("--dsn=postgres://u:"+g.pwURL()+"@h/db")), "")
	b.c("--database-url redis empty user", "npx", A("-y", "@acme/cache-mcp", X("--database-url=redis://:"+g.rs(csAlnum, 24)+"@cache:6379")), "")
	b.c("cloudinary url", "npx", A("-y", "@cloudinary/mcp", X("cloudinary://"+g.rb(csDigits, 15)+":"+g.rs(csB64URL, 27)+"@acme-cloud")), "")
	b.c("default credentials postgres:postgres", "npx", A("-y", "@modelcontextprotocol/server-postgres", X("postgresql://postgres:postgres@localhost:5432/postgres")), "")
	b.c("root:root mysql", "npx", A("-y", "@benborla29/mcp-server-mysql", X("mysql://root:root@localhost:3306/app")), "")
	b.u("ipv6 host", X("http://admin:"+g.pwURL()+"@[::1]:8080/mcp"))
	b.c("password with raw @", "npx", A("-y", "@modelcontextprotocol/server-postgres", X("postgres://app:"+g.sec("<password with raw @>", "Maple@"+g.pick(csDigits, 4)+"x")+"@db.internal/app")), "")
	b.c("unix socket host param", "npx", A("-y", "@modelcontextprotocol/server-postgres", X("postgresql://app:"+g.pwURL()+"@/app?host=/var/run/postgresql")), "")
	b.u("bad escape in userinfo", X("https://u:"+g.pwURL()+"%zz@mcp.example.com/sse"))
	b.c("couchbase", "npx", A("-y", "@acme/couchbase-mcp", X("couchbase://Administrator:"+g.pwURL()+"@cb.example.com")), "")
	b.c("oracle url", "uvx", A("oracle-mcp", X("oracle://scott:"+g.pwURL()+"@db:1521/ORCL")), "")
	b.c("wss with userinfo", "npx", A("-y", "@acme/ws-bridge", X("wss://bot:"+g.rs(csAlnum, 32)+"@stream.example.com/ws")), "")
	b.u("url with empty user and token", X("https://:"+g.rs(csB64URL, 40)+"@mcp.example.com/mcp"))
	rawPw := func(sep string) string {
		return g.sec("<password with raw "+sep+">", corpusWords[g.r.IntN(len(corpusWords))]+sep+g.pick(csDigits, 4)+"x")
	}
	b.c("password with raw #", "npx", A("-y", "@modelcontextprotocol/server-postgres", X("postgres://app:"+rawPw("#")+"@db.internal:5432/app")), "")
	b.c("password with raw /", "npx", A("-y", "@modelcontextprotocol/server-postgres", X("postgres://app:"+rawPw("/")+"@db.internal:5432/app")), "")
	b.c("password with raw ?", "npx", A("-y", "@benborla29/mcp-server-mysql", X("mysql://root:"+rawPw("?")+"@db.internal:3306/app")), "")
	b.u("url field password with raw #", X("https://bot:"+rawPw("#")+"@mcp.example.com/sse"))
	b.u("invalid port", X("https://admin:"+g.pwURL()+"@mcp.example.com:99999999/sse"))
	b.u("unicode host", X("https://alice:"+g.pwURL()+"@bücher.example/mcp"))
	b.u("control character in url", X("https://alice:"+g.pwURL()+"@mcp.example.com/\x7fsse"))
	b.c("url inside sh -c", "sh", A("-c", X("exec uvx postgres-mcp postgresql://app:"+g.pwURL()+"@db:5432/app")), "")
	b.c("url inside JSON config arg", "npx", A("-y", "@acme/mcp", "--config", X(`{"database":"postgresql://app:`+g.pwURL()+`@db:5432/app","readOnly":true}`)), "")

	b.section("url-query")
	b.u("sse ?api_key=", X("https://mcp.example.com/sse?api_key="+g.rs(csHex, 32)))
	b.u("smithery api_key uuid and profile", X("https://server.smithery.ai/@acme/weather/mcp?api_key="+g.uuidS()+"&profile=brave-lion-"+g.rb(csLowAlnum, 6)))
	b.u("tavily remote tavilyApiKey", X("https://mcp.tavily.com/mcp/?tavilyApiKey="+g.tk("tavily")))
	b.u("exa remote exaApiKey uuid", X("https://mcp.exa.ai/mcp?exaApiKey="+g.uuidS()))
	b.u("apify ?token=", X("https://mcp.apify.com/sse?token="+g.tk("apify")))
	b.u("?access_token= ya29", X("https://api.example.com/mcp?access_token="+g.tk("ya29")))
	b.u("?apikey=", X("https://mcp.example.com/mcp?apikey="+g.rs(csAlnum, 32)))
	b.u("google ?key=AIza", X("https://generativelanguage.googleapis.com/v1beta/models?key="+g.tk("google")))
	b.u("generic ?key=hex32", X("https://mcp.example.com/sse?key="+g.rs(csHex, 32)))
	b.u("?auth= random", X("https://mcp.example.com/mcp?auth="+g.rs(csB64URL, 40)))
	b.u("?client_secret=", X("https://mcp.example.com/mcp?client_id=mcp-desktop&client_secret="+g.rs(csB64URL, 32)))
	b.u("?password= with user", X("https://mcp.example.com/mcp?user=bob&password="+g.pwURL()))
	b.u("?secret=", X("https://mcp.example.com/mcp?secret="+g.rs(csHex, 40)))
	b.u("?refresh_token=", X("https://mcp.example.com/mcp?refresh_token="+g.rs(csB64URL, 64)))
	b.u("?id_token= jwt", X("https://mcp.example.com/mcp?id_token="+g.jwtHS()))
	b.u("; separator token first", X("https://mcp.example.com/mcp?token="+g.rs(csAlnum, 40)+";mode=ro"))
	b.u("; separator token second", X("https://mcp.example.com/mcp?mode=ro;token="+g.rs(csAlnum, 40)))
	b.u("?API_KEY= upper", X("https://mcp.example.com/mcp?API_KEY="+g.rs(csHex, 32)))
	b.u("?x-api-key=", X("https://mcp.example.com/mcp?x-api-key="+g.rs(csAlnum, 40)))
	b.u("?auth_token=", X("https://mcp.example.com/mcp?auth_token="+g.rs(csAlnum, 40)))
	b.u("?private_token= gitlab", X("https://gitlab.example.com/api/v4/mcp?private_token="+g.tk("glpat")))
	b.u("bad escape before key value", X("https://mcp.example.com/mcp?api_key=%zz"+g.rs(csHex, 32)))
	b.u("bad escape elsewhere in query", X("https://mcp.example.com/mcp?api_key="+g.rs(csHex, 32)+"&q=100%"))
	b.u("fragment access_token oauth implicit", X("https://app.example.com/callback#access_token="+g.jwtHS()+"&token_type=bearer&expires_in=3600"))
	b.u("?accessToken= camel", X("https://mcp.example.com/mcp?accessToken="+g.rs(csB64URL, 43)))
	b.u("?subscription-key= azure apim", X("https://acme.azure-api.net/mcp/sse?subscription-key="+g.rs(csHex, 32)))
	b.u("?access_key= stack apis", X("https://api.example.com/mcp?access_key="+g.rs(csHex, 32)))
	b.u("wss ?token= jwt", X("wss://realtime.example.com/mcp?token="+g.jwtHS()))
	b.u("supabase rest ?apikey= service role", X("https://"+g.supaRef()+".supabase.co/rest/v1/?apikey="+g.supabaseJWT(g.supaRef(), "service_role")))
	b.u("userinfo and query both", X("https://bob:"+g.pwURL()+"@mcp.example.com/mcp?api_key="+g.rs(csHex, 32)))
	b.u("slack webhook", X("https://hooks.slack.com/services/T0"+g.rb(csUpAlnum, 9)+"/B0"+g.rb(csUpAlnum, 9)+"/"+g.rs(csAlnum, 24)))
	b.u("discord webhook", X("https://discord.com/api/webhooks/"+g.rb(csDigits, 19)+"/"+g.rs(csB64URL, 68)))
	b.u("teams webhook", X("https://acme.webhook.office.com/webhookb2/"+g.uuid()+"@"+g.uuid()+"/IncomingWebhook/"+g.rs(csHex, 32)+"/"+g.uuid()))
	b.u("telegram bot url", X("https://api.telegram.org/bot"+g.tk("telegram")+"/getUpdates"))
	b.u("firecrawl key in path", X("https://mcp.firecrawl.dev/"+g.tk("firecrawl")+"/v2/mcp"))
	b.c("mcp-remote url with ?api_key", "npx", A("-y", "mcp-remote", X("https://mcp.example.com/sse?api_key="+g.rs(csHex, 32))), "")
	b.c("--url= with token param", "npx", A("-y", "supergateway", X("--sse=https://mcp.example.com/sse?token="+g.rs(csB64URL, 43))), "")

	b.section("url-signed")
	b.u("s3 presigned sigv4", X("https://acme-reports.s3.us-east-1.amazonaws.com/q1.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential="+g.tk("akia")+"%2F20250101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20250101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature="+g.rs(csHex, 64)))
	b.u("s3 presigned with security token", X("https://acme.s3.amazonaws.com/data.json?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential="+g.tk("asia")+"%2F20250101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20250101T000000Z&X-Amz-Expires=900&X-Amz-Security-Token="+url.QueryEscape(g.tk("aws_session"))+"&X-Amz-SignedHeaders=host&X-Amz-Signature="+g.rs(csHex, 64)))
	b.u("gcs v4 signed", X("https://storage.googleapis.com/acme-bucket/report.pdf?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=mcp%40acme.iam.gserviceaccount.com%2F20250101%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20250101T000000Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature="+g.rs(csHex, 512)))
	b.u("azure blob sas", X("https://acmestore.blob.core.windows.net/docs/manual.pdf?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-01-01T00:00:00Z&st=2025-01-01T00:00:00Z&spr=https&sig="+url.QueryEscape(g.rs(csB64, 43)+"=")))
	b.u("cloudfront signed", X("https://d111111abcdef8.cloudfront.net/video.mp4?Expires=1767225600&Signature="+g.rs(csB64URL, 200)+"&Key-Pair-Id=K2JCJMDEHXQW5F"))
	b.u("cloudfront policy", X("https://d111111abcdef8.cloudfront.net/*?Policy="+g.rs(csB64URL, 180)+"&Signature="+g.rs(csB64URL, 200)+"&Key-Pair-Id=APKA"+g.rb(csUpAlnum, 16)))
	b.u("s3 legacy query auth", X("https://acme.s3.amazonaws.com/file.zip?AWSAccessKeyId="+g.tk("akia")+"&Expires=1767225600&Signature="+url.QueryEscape(g.rs(csB64, 27)+"=")))
	b.c("sas url as arg", "npx", A("-y", "@azure/storage-mcp", "--container-url", X("https://acmestore.blob.core.windows.net/mcp?sp=racwdl&st=2025-01-01T00:00:00Z&se=2026-01-01T00:00:00Z&spr=https&sv=2022-11-02&sr=c&sig="+url.QueryEscape(g.rs(csB64, 43)+"="))), "")
	b.c("--sas-token query string", "npx", A("-y", "@azure/storage-mcp", "--account", "acmestore", "--sas-token", X("?sv=2022-11-02&ss=bfqt&srt=sco&sp=rwdlacupiytfx&se=2026-01-01T00:00:00Z&spr=https&sig="+url.QueryEscape(g.rs(csB64, 43)+"="))), "")
}

// corpusURLsBenign: URLs with user names only, ordinary queries, @ and :
// outside the userinfo, and references.
func corpusURLsBenign(b *corpusBuilder) {
	g := b.g
	b.section("benign-url")
	for _, u := range []string{
		"https://api.githubcopilot.com/mcp/",
		"https://mcp.linear.app/sse",
		"https://mcp.notion.com/mcp",
		"https://mcp.sentry.dev/mcp",
		"https://mcp.atlassian.com/v1/sse",
		"https://mcp.stripe.com",
		"https://mcp.deepwiki.com/mcp",
		"https://bindings.mcp.cloudflare.com/sse",
		"http://localhost:8000/sse",
		"http://127.0.0.1:3000/mcp",
		"http://[::1]:8080/mcp",
		"https://mcp.example.com:8443/mcp",
		"https://alice@mcp.example.com/sse",
		"https://server.smithery.ai/@smithery-ai/github/mcp",
		"https://server.smithery.ai/@acme/weather/mcp?profile=brave-lion-" + g.rb(csLowAlnum, 6),
		"https://mcp.example.com/mcp?user=alice@example.com",
		"https://api.example.com/v1/mcp?model=gpt-4o&max_tokens=100",
		"https://mcp.example.com/search?keyword=mcp&sort=key&order=asc",
		"https://mcp.example.com/mcp?ref=main&sha=" + g.rb(csHex, 40),
		"https://auth.example.com/authorize?response_type=code&client_id=mcp-desktop&redirect_uri=http%3A%2F%2Flocalhost%3A3334%2Fcallback&scope=repo&state=" + g.rb(csHex, 16) + "&code_challenge=" + g.rb(csB64URL, 43) + "&code_challenge_method=S256",
		"https://mcp.example.com/mcp?utm_source=claude&utm_medium=mcp",
		"https://mcp.example.com/mcp?tokenizer=cl100k_base",
		"https://mcp.example.com/mcp?token_type_hint=access_token",
		"https://mcp.example.com/mcp?grant_type=client_credentials",
		"https://mcp.example.com/mcp?toolsets=repos,issues&readonly=true",
		"https://mcp.example.com/mcp?tenant=" + g.uuid(),
		"https://mcp.example.com/mcp?page=2&per_page=100",
		"https://docs.example.com/setup?lang=en#installation",
		"https://acme.openai.azure.com/openai/deployments/gpt-4o/mcp?api-version=2024-10-21",
		"https://mcp.example.com/mcp?monkey=1&hotkey=ctrl&keyboard=us",
		"https://mcp.example.com/mcp?transport=sse&debug=true",
		"https://docs.example.com/api-keys/rotate",
		"https://example.com/reset-password?lang=en",
		"https://vault.example.com/v1/secret/data/mcp",
		"https://maps.google.com/@37.7749,-122.4194,12z",
		"https://medium.com/@alice/building-mcp-servers-" + g.rb(csHex, 12),
		"https://mastodon.social/@alice",
		"https://mcp.example.com/mcp?redirect_uri=https%3A%2F%2Fclaude.ai%2Fapi%2Fmcp%2Fauth_callback",
		"https://mcp.example.com/sse?apiKey=${API_KEY}",
		"https://mcp.example.com/sse?token={{token}}",
		"https://mcp.example.com/sse?api_key=%EXA_API_KEY%",
		"https://mcp.example.com/sse?api_key=${input:api_key}",
		"https://mcp.example.com/mcp?public=true&keyless=1",
		"https://mcp.example.com/oauth/token",
		"https://mcp.example.com/.well-known/oauth-authorization-server",
		"https://user@mcp.example.com:8443/mcp?tools=all",
	} {
		b.u(u, u)
	}
	args := func(name string, a ...string) { b.c(name, "npx", a, "") }
	args("git ssh scp-like", "-y", "@acme/git-mcp", "--remote", "git@github.com:acme/app.git")
	args("ssh url with user", "-y", "ssh-mcp", "ssh://git@github.com/acme/app.git")
	args("git+ssh with tag", "-y", "git+ssh://git@gitlab.com/group/mcp.git#v1.2.3")
	args("git+https commit fragment", "-y", "git+https://github.com/acme/mcp.git#"+g.rb(csHex, 40))
	args("github tarball commit", "-y", "https://github.com/acme/mcp/archive/"+g.rb(csHex, 40)+".tar.gz")
	args("npx github:org/repo#sha", "-y", "github:acme/mcp-server#"+g.rb(csHex, 40))
	b.c("postgres user only", "npx", A("-y", "@modelcontextprotocol/server-postgres", "postgresql://postgres@localhost:5432/postgres"), "")
	b.c("postgres no user", "npx", A("-y", "@modelcontextprotocol/server-postgres", "postgresql://localhost/mydb"), "")
	b.c("postgres passfile param", "uvx", A("postgres-mcp", "postgresql://app@db:5432/app?sslmode=verify-full&passfile=/home/app/.pgpass&sslrootcert=/etc/ssl/ca.pem"), "")
	b.c("mysql user only", "npx", A("-y", "@benborla29/mcp-server-mysql", "mysql://root@localhost:3306/app"), "")
	b.c("mongodb authSource", "npx", A("-y", "mcp-mongo-server", "mongodb://localhost:27017/?replicaSet=rs0&authSource=admin&directConnection=true"), "")
	b.c("mongodb aws auth mechanism", "npx", A("-y", "mcp-mongo-server", "mongodb://user@cluster0.ab1cd.mongodb.net/?authMechanism=MONGODB-AWS&authSource=%24external"), "")
	b.c("redis localhost", "npx", A("-y", "@modelcontextprotocol/server-redis", "redis://localhost:6379/0"), "")
	b.c("amqp localhost", "npx", A("-y", "@acme/rabbitmq-mcp", "amqp://localhost:5672"), "")
	b.c("ssh user and port", "npx", A("-y", "ssh-mcp", "ssh://deploy@server.example.com:2222"), "")
	b.c("password reference in url", "npx", A("-y", "@modelcontextprotocol/server-postgres", "postgres://${PGUSER}:${PGPASSWORD}@db/app"), "")
	b.c("mongo password reference", "npx", A("-y", "mongodb-mcp-server", "--connectionString", "mongodb+srv://${MONGO_USER}:${MONGO_PASS}@cluster0.ab1cd.mongodb.net/"), "")
	b.c("token reference as password", "uvx", A("--from", "git+https://oauth2:${GITLAB_TOKEN}@gitlab.com/group/mcp.git", "mcp"), "")
	b.c("template password", "npx", A("-y", "@modelcontextprotocol/server-redis", "redis://:{{ redis_password }}@cache:6379"), "")
	b.c("windows-style reference password", "npx", A("-y", "@acme/db-mcp", "postgresql://%DB_USER%:%DB_PASSWORD%@db:5432/app"), "")
	b.c("s3 and gs urls", "uvx", A("cloud-storage-mcp", "--source", "s3://acme-reports/2025/", "--dest", "gs://acme-archive/reports"), "")
	b.c("file and sqlite urls", "uvx", A("mcp-server-sqlite", "--db-url", "sqlite:////Users/alice/data/app.db", "--export", "file:///Users/alice/exports/"), "")
	b.c("ollama host", "uvx", A("ollama-mcp", "--host", "http://localhost:11434"), "")
	b.c("supabase url benign", "npx", A("-y", "@supabase/mcp-server-supabase@latest", "--project-url", "https://"+g.supaRef()+".supabase.co"), "")
	b.c("mcp-remote plain", "npx", A("-y", "mcp-remote", "https://mcp.linear.app/sse"), "")
	b.c("mcp-remote with --transport", "npx", A("-y", "mcp-remote@0.1.29", "https://mcp.atlassian.com/v1/sse", "--transport", "sse-only"), "")
	b.c("user with encoded @", "npx", A("-y", "@acme/imap-mcp", "imaps://alice%40example.com@imap.example.com:993"), "")
}

// corpusConnStrings: connection strings, DSNs and JDBC URLs.
func corpusConnStrings(b *corpusBuilder) {
	g := b.g
	b.section("connstr")
	one := func(name, flag, v string) {
		b.c(name, "npx", A("-y", "@acme/db-mcp", flag, X(v)), "")
	}
	one("ado.net azure sql", "--connection-string", "Server=tcp:acme.database.windows.net,1433;Initial Catalog=app;Persist Security Info=False;User ID=mcp;Password="+g.pw()+";MultipleActiveResultSets=False;Encrypt=True;")
	one("azure storage account key", "--connection-string", "DefaultEndpointsProtocol=https;AccountName=acmestore;AccountKey="+g.rs(csB64, 86)+"==;EndpointSuffix=core.windows.net")
	one("azure service bus", "--connection-string", "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey="+g.rs(csB64, 43)+"=")
	one("cosmos db", "--connection-string", "AccountEndpoint=https://acme.documents.azure.com:443/;AccountKey="+g.rs(csB64, 86)+"==;")
	one("iot hub device", "--connection-string", "HostName=acme-hub.azure-devices.net;DeviceId=sensor-01;SharedAccessKey="+g.rs(csB64, 43)+"=")
	one("azure app configuration", "--connection-string", "Endpoint=https://acme.azconfig.io;Id="+g.rb(csAlnum, 4)+"-l0-s0:"+g.rb(csB64, 20)+";Secret="+g.rs(csB64, 43)+"=")
	one("libpq keyword form", "--dsn", "host=db.internal port=5432 dbname=app user=app password="+g.pw()+" sslmode=require")
	one("libpq quoted password", "--dsn", "host=db port=5432 dbname=app user=app password='"+g.pw()+" spaced' sslmode=disable")
	one("jdbc postgresql password param", "--jdbc-url", "jdbc:postgresql://db:5432/app?user=app&password="+g.pwURL())
	one("jdbc mysql password param", "--jdbc-url", "jdbc:mysql://db:3306/app?user=root&password="+g.pwURL()+"&useSSL=true")
	one("jdbc sqlserver semicolons", "--jdbc-url", "jdbc:sqlserver://db:1433;databaseName=app;user=sa;password="+g.pw()+";encrypt=true")
	one("jdbc oracle thin user/pass", "--jdbc-url", "jdbc:oracle:thin:scott/"+g.pwURL()+"@//db.example.com:1521/ORCLPDB1")
	one("jdbc snowflake", "--jdbc-url", "jdbc:snowflake://xy12345.snowflakecomputing.com/?user=svc_mcp&password="+g.pwURL()+"&warehouse=COMPUTE_WH")
	one("jdbc redshift", "--jdbc-url", "jdbc:redshift://acme.abc123xyz789.us-east-1.redshift.amazonaws.com:5439/dev?user=admin&password="+g.pwURL())
	one("ado Pwd= key", "--connection-string", "Data Source=db;Initial Catalog=app;User Id=sa;Pwd="+g.pw()+";")
	one("odbc PWD=", "--odbc", "Driver={ODBC Driver 18 for SQL Server};Server=db;Database=app;UID=sa;PWD="+g.pw()+";TrustServerCertificate=yes")
	one("go mysql dsn", "--dsn", "root:"+g.pwURL()+"@tcp(127.0.0.1:3306)/app?parseTime=true")
	one("stackexchange redis", "--redis", "acme-cache.redis.cache.windows.net:6380,password="+g.rs(csB64, 43)+"=,ssl=True,abortConnect=False")
	one("jdbc mysql userinfo", "--jdbc-url", "jdbc:mysql://app:"+g.pwURL()+"@db:3306/app")
	one("jdbc postgresql in -D", "-Dspring.datasource.url", "jdbc:postgresql://db:5432/app?user=app&password="+g.pwURL()+"&ssl=true")
	b.c("sqlplus user/pass@", "sqlplus", A("-S", X("scott/"+g.pwURL()+"@//db.example.com:1521/ORCLPDB1")), "")
	b.c("--connection-string= equals", "dotnet", A("McpServer.dll", X("--connection-string=Server=db;Database=app;User Id=sa;Password="+g.pw()+";")), "")
	b.c("connection string via docker -e", "docker", A("run", "-i", "--rm", "-e", X("ConnectionStrings__Default=Server=db;Database=app;User Id=sa;Password="+g.pw()+";"), "acme/mcp"), "")

	b.section("benign-connstr")
	ok := func(name, flag, v string) { b.c(name, "npx", A("-y", "@acme/db-mcp", flag, v), "") }
	ok("libpq without password", "--dsn", "host=localhost port=5432 dbname=app user=app sslmode=disable")
	ok("trusted connection", "--connection-string", "Server=localhost;Database=app;Trusted_Connection=True;TrustServerCertificate=True;")
	ok("sqlite data source", "--connection-string", "Data Source=./app.db")
	ok("azurite dev storage", "--connection-string", "UseDevelopmentStorage=true")
	ok("entra id auth", "--connection-string", "Server=tcp:acme.database.windows.net;Database=app;Authentication=Active Directory Default;Encrypt=True;")
	ok("jdbc postgres ssl", "--jdbc-url", "jdbc:postgresql://db:5432/app?ssl=true&sslmode=verify-full")
	ok("jdbc mysql user only", "--jdbc-url", "jdbc:mysql://db:3306/app?user=app&useSSL=true")
	ok("jdbc sqlserver integrated", "--jdbc-url", "jdbc:sqlserver://db:1433;databaseName=app;integratedSecurity=true;encrypt=true")
	ok("jdbc h2 mem", "--jdbc-url", "jdbc:h2:mem:testdb;DB_CLOSE_DELAY=-1")
	ok("jdbc sqlite", "--jdbc-url", "jdbc:sqlite:/data/app.db")
	ok("go mysql dsn no password", "--dsn", "root@tcp(127.0.0.1:3306)/app?parseTime=true")
	ok("password reference in ado", "--connection-string", "Server=db;Database=app;User ID=app;Password=${DB_PASSWORD};")
	ok("libpq password reference", "--dsn", "host=db user=app password=$PGPASSWORD dbname=app")
	ok("stackexchange redis no password", "--redis", "acme-cache.redis.cache.windows.net:6380,ssl=True,abortConnect=False")
	ok("jdbc snowflake key pair auth", "--jdbc-url", "jdbc:snowflake://xy12345.snowflakecomputing.com/?user=svc_mcp&authenticator=SNOWFLAKE_JWT&private_key_file=/secrets/rsa_key.p8")
	ok("jdbc oracle thin no password", "--jdbc-url", "jdbc:oracle:thin:@//db.example.com:1521/ORCLPDB1")
	ok("managed identity", "--connection-string", "Endpoint=sb://acme.servicebus.windows.net/;Authentication=ManagedIdentity")
}

// corpusBlobs: JWTs, PEM blocks, JSON configs and base64 that carry
// credentials, and their benign look-alikes.
func corpusBlobs(b *corpusBuilder) {
	g := b.g
	b.section("blob")
	b.c("bare jwt positional", "npx", A("-y", "@acme/jwt-mcp", X(g.jwtHS())), "")
	b.c("--private-key PEM newlines", "npx", A("-y", "@acme/github-app-mcp", "--app-id", "123456", "--private-key", X(g.pem(privKey("RSA"), "\n", true))), "")
	b.c("--private-key PEM escaped", "npx", A("-y", "@acme/sheets-mcp", "--private-key", X(g.pem(privKey(""), `\n`, true))), "")
	b.c("service account JSON inline", "npx", A("-y", "@acme/gcp-mcp", "--credentials-json", X(`{"type":"service_account","project_id":"acme-prod","private_key_id":"`+g.rb(csHex, 40)+`","private_key":"`+g.pem(privKey(""), `\n`, true)+`","client_email":"mcp@acme-prod.iam.gserviceaccount.com"}`)), "")
	b.c("--ssh-key OPENSSH inline", "npx", A("-y", "ssh-mcp", "--host", "server.example.com", "--ssh-key", X(g.pem(privKey("OPENSSH"), "\n", true))), "")
	b.c("EC key bare", "uvx", A("signer-mcp", X(g.pem(privKey("EC"), "\n", true))), "")
	b.c("encrypted private key", "uvx", A("signer-mcp", "--key", X(g.pem("ENCRYPTED "+privKey(""), "\n", true))), "")
	b.c("pgp private key block", "uvx", A("gpg-mcp", "--import", X(g.pem("PGP "+privKey("")+" BLOCK", "\n", true))), "")
	b.c("k8s --token jwt", "npx", A("-y", "mcp-server-kubernetes", "--server", "https://k8s.example.com:6443", X("--token="+g.jwtK8s())), "")
	ghpInConfig := g.tk("ghp")
	b.c("smithery base64 config with token", "npx", A("-y", "@smithery/cli@latest", "run", "@smithery-ai/github", "--config", X(g.sec("<base64 of JSON config holding a ghp token>", base64.StdEncoding.EncodeToString([]byte(`{"githubPersonalAccessToken":"`+ghpInConfig+`"}`))))), "")
	b.c("smithery JSON config apiKey", "npx", A("-y", "@smithery/cli@latest", "run", "@acme/weather", "--config", X(`{"apiKey":"`+g.rs(csHex, 32)+`"}`)), "")
	b.c("smithery JSON config github token", "npx", A("-y", "@smithery/cli@latest", "run", "@smithery-ai/github", "--config", X(`{"githubPersonalAccessToken":"`+g.tk("ghp")+`"}`)), "")
	b.c("JSON config braveApiKey", "npx", A("-y", "@smithery/cli@latest", "run", "@smithery-ai/brave-search", "--config", X(`{"braveApiKey":"`+g.tk("brave")+`"}`)), "")
	b.c("JSON config password", "npx", A("-y", "@acme/mcp", "--config", X(`{"host":"db","user":"app","password":"`+g.pw()+`"}`)), "")
	b.c("age secret key bare", "uvx", A("sops-mcp", X(g.tk("age"))), "")
	b.c("jwt after --jwt", "npx", A("-y", "@acme/mcp", "--jwt", X(g.jwtHS())), "")
	b.c("--kubeconfig-token", "uvx", A("k8s-mcp", "--kubeconfig-token", X(g.jwtK8s())), "")
	b.c("YAML-ish inline config", "uvx", A("acme-mcp", "--set", X("openai.api_key: "+g.tk("openai_proj"))), "")

	b.c("bare base64 user:password positional", "npx", A("-y", "@acme/jenkins-mcp", X(g.sec("<base64 of user:password>", base64.StdEncoding.EncodeToString([]byte("jenkins:"+g.pw()))))), "")
	b.c("base64 user:token after --basic", "npx", A("-y", "@acme/jira-mcp", "--basic", X(g.sec("<base64 of email:api token>", base64.StdEncoding.EncodeToString([]byte("alice@acme.com:"+g.tk("atlassian")))))), "")

	b.section("benign-blob")
	b.c("base64 of a sentence", "npx", A("-y", "@acme/mcp", "--greeting", base64.StdEncoding.EncodeToString([]byte("Welcome to the Acme knowledge base"))), "")
	b.c("base64url of a JSON list", "npx", A("-y", "@acme/mcp", "--tools", base64.RawURLEncoding.EncodeToString([]byte(`["search","fetch","summarize"]`))), "")
	b.c("base64 json no dots", "npx", A("-y", "@smithery/cli@latest", "run", "@acme/time", "--config", g.ben("<base64 of {\"transport\":\"stdio\"}>", base64.StdEncoding.EncodeToString([]byte(`{"transport":"stdio","readOnly":true}`)))), "")
	b.c("base64url json segment eyJ", "npx", A("-y", "@acme/mcp", "--data", b64url(`{"query":"weather in Paris","limit":5}`)), "")
	b.c("PEM certificate", "npx", A("-y", "@acme/mtls-mcp", "--ca-cert", g.pem("CERTIFICATE", "\n", false)), "")
	b.c("PEM public key", "npx", A("-y", "@acme/jwt-verify-mcp", "--public-key", g.pem("PUBLIC KEY", "\n", false)), "")
	b.c("JSON config no secret", "npx", A("-y", "@smithery/cli@latest", "run", "@acme/fs", "--config", `{"allowedDirectories":["/Users/alice/Desktop"],"readOnly":true}`), "")
	b.c("JSON config reference", "npx", A("-y", "@smithery/cli@latest", "run", "@acme/weather", "--config", `{"apiKey":"${WEATHER_API_KEY}"}`), "")
	b.c("JSON config maxTokens", "npx", A("-y", "@acme/llm-mcp", "--config", `{"model":"gpt-4o","maxTokens":1000,"tokenizer":"o200k_base"}`), "")
	b.c("base64 system prompt", "npx", A("-y", "@acme/agent-mcp", "--system-prompt-b64", base64.StdEncoding.EncodeToString([]byte("You are a helpful assistant that answers questions about our docs."))), "")
	b.c("npm integrity", "npx", A("-y", "@acme/mcp@1.2.3", "--integrity", g.ben("<sha512 integrity>", "sha512-"+g.pick(csB64, 86)+"==")), "")
	b.c("ssh fingerprint", "npx", A("-y", "ssh-mcp", "--host-key-fingerprint", g.ben("<ssh SHA256 fingerprint>", "SHA256:"+g.pick(csB64, 43))), "")
	b.c("auth scheme word", "npx", A("-y", "@acme/mcp", "--auth-scheme", "Basic"), "")
	b.c("json schema arg", "npx", A("-y", "@acme/mcp", "--schema", `{"type":"object","properties":{"token":{"type":"string"},"password":{"type":"string","writeOnly":true}}}`), "")
	b.c("long ordinary word", "npx", A("-y", "@acme/dictionary-mcp", "--word", "pneumonoultramicroscopicsilicovolcanoconiosis"), "")
	b.c("long camel identifier", "npx", A("-y", "@acme/mcp", "--tool", "getRepositoryPullRequestReviewCommentsForAuthenticatedUser"), "")
	b.c("sentence with credential words", "npx", A("-y", "@acme/mcp", "--description", "Rotates the API key and token for a service; never prints the password or secret."), "")
}

// corpusTokens: well-known token formats standing alone, where only their
// shape says what they are: positional arguments, inside the command, in
// URL paths, under flags with neutral names.
func corpusTokens(b *corpusBuilder) {
	g := b.g
	b.section("token")
	pos := func(kind, pkg string) {
		b.c(kind+" positional", "npx", A("-y", pkg, X(g.tk(kind))), "")
	}
	pos("ghp", "@acme/github-mcp")
	pos("github_pat", "@acme/github-mcp")
	pos("glpat", "@acme/gitlab-mcp")
	pos("xoxb", "@acme/slack-mcp")
	pos("xoxp", "@acme/slack-mcp")
	pos("openai", "@acme/openai-mcp")
	pos("openai_proj", "@acme/openai-mcp")
	pos("anthropic", "@acme/claude-mcp")
	pos("akia", "@acme/aws-mcp")
	pos("google", "@acme/maps-mcp")
	pos("hf", "@acme/hf-mcp")
	pos("npm", "@acme/npm-mcp")
	pos("stripe_live", "@acme/stripe-mcp")
	pos("stripe_live_short", "@acme/stripe-mcp")
	pos("sendgrid", "@acme/mail-mcp")
	pos("shpat", "@acme/shop-mcp")
	pos("dop", "@acme/do-mcp")
	pos("linear", "@acme/linear-mcp")
	pos("ntn", "@acme/notion-mcp")
	pos("atlassian", "@acme/jira-mcp")
	pos("groq", "@acme/groq-mcp")
	pos("tavily", "@acme/search-mcp")
	pos("brave", "@acme/search-mcp")
	pos("sentry_user", "@acme/sentry-mcp")
	pos("vault", "@acme/vault-mcp")
	pos("pypi", "@acme/pypi-mcp")
	pos("sbp", "@acme/supabase-mcp")
	pos("langsmith", "@acme/langsmith-mcp")
	b.c("neon api key as documented positional", "npx", A("-y", "@neondatabase/mcp-server-neon", "start", X(g.tk("neon"))), "")
	b.c("token under neutral flag --config", "npx", A("-y", "@acme/mcp", "--config", X(g.tk("ghp"))), "")
	b.c("token under neutral flag --value", "npx", A("-y", "@acme/mcp", "--value", X(g.tk("anthropic"))), "")
	b.c("token under -k", "npx", A("-y", "@acme/mcp", "-k", X(g.tk("openrouter"))), "")
	b.c("token in JSON array arg", "npx", A("-y", "@acme/mcp", "--tokens", X(`["`+g.tk("xoxb")+`"]`)), "")
	b.c("token inside path argument", "node", A("dist/index.js", "--cache-dir", X("/tmp/mcp-cache/"+g.tk("ghp"))), "")
	b.c("two tokens comma list", "npx", A("-y", "@acme/multi-mcp", "--tokens", X(g.tk("ghp")+","+g.tk("glpat"))), "")
	b.c("token after =", "npx", A("-y", "@acme/mcp", X("--opt="+g.tk("hf"))), "")
	b.c("aws access key in --profile-like flag", "uvx", A("aws-mcp", "--key-id", X(g.tk("akia"))), "")
	b.c("jwt in --header-value", "npx", A("-y", "@acme/mcp", "--header-value", X(g.jwtHS())), "")
}

// corpusCommands: credentials in the command field (whole command lines,
// as some clients and users write them), and benign commands.
func corpusCommands(b *corpusBuilder) {
	g := b.g
	b.section("command")
	b.c("whole command line --api-key=", X("npx -y @stripe/mcp --tools=all --api-key="+g.tk("stripe_live")), nil, "")
	b.c("env prefix in command", X("env GITHUB_TOKEN="+g.tk("ghp")+" npx -y @modelcontextprotocol/server-github"), nil, "")
	b.c("bare assignment prefix in command", X("OPENAI_API_KEY="+g.tk("openai_proj")+" node /opt/mcp/server.js"), nil, "")
	b.c("docker run -e in command", X("docker run -i --rm -e SLACK_BOT_TOKEN="+g.tk("xoxb")+" mcp/slack"), nil, "")
	b.c("postgres url in command", X("uvx postgres-mcp postgresql://app:"+g.pwURL()+"@db/app"), nil, "")
	b.c("--token in command", X("/usr/local/bin/mcp-server --token "+g.rs(csHex, 40)), nil, "")
	b.c("sh -c quoted in command", X("sh -c 'export ANTHROPIC_API_KEY="+g.tk("anthropic")+"; exec claude-mcp'"), nil, "")
	b.c("header in command quoted", X("npx mcp-remote https://mcp.example.com/sse --header 'Authorization: Bearer "+g.rs(csB64URL, 43)+"'"), nil, "")
	b.c("header in command double-quoted", X(`npx mcp-remote https://mcp.example.com/sse --header "X-API-Key: `+g.rs(csHex, 32)+`"`), nil, "")
	b.c("windows exe with --api-key", X(`C:\tools\weather-mcp.exe --api-key `+g.rs(csHex, 32)), nil, "")
	b.c("java -D in command", X("java -Dspring.ai.openai.api-key="+g.tk("openai_proj")+" -jar mcp.jar"), nil, "")
	b.c("command with args, secret in command", X("npx -y @acme/mcp --password="+g.pw()), A("--verbose"), "")
	b.c("token alone as command arg in command", X("github-mcp-server stdio "+g.tk("ghp")), nil, "")
	b.c("quoted windows path then --api-key", X(`"C:\Program Files\Acme\weather-mcp.exe" --api-key `+g.rs(csHex, 32)), nil, "")
	b.c("command with ${VAR:-default} real default", X("npx -y @acme/mcp --token ${GITHUB_TOKEN:-"+g.tk("ghp")+"}"), nil, "")
	b.c("mysql -p attached in command", X("mysql -u root -p"+g.pw()+" shop"), nil, "")

	b.section("benign-command")
	for _, c := range []string{
		"npx", "uvx", "node", "python", "python3", "docker", "bunx", "deno", "java", "dotnet", "uv", "bun", "pipx", "podman",
		"/opt/homebrew/bin/uvx",
		`C:\Program Files\nodejs\npx.cmd`,
		`C:\Users\alice\AppData\Roaming\npm\mcp-server-github.cmd`,
		"/Users/alice/.local/bin/mcp-server-keychain",
		"/home/alice/go/bin/github-mcp-server",
		"/home/alice/.nvm/versions/node/v22.11.0/bin/node",
		"~/.cargo/bin/token-counter-mcp",
		"./bin/password-manager-mcp",
		"/usr/local/bin/vault-mcp",
		"/Applications/1Password.app/Contents/MacOS/op",
		"/Users/tokenmaster/bin/secret-santa-mcp",
	} {
		b.c("command "+c, c, nil, "")
	}
	b.c("command line benign", "npx -y @modelcontextprotocol/server-filesystem /Users/alice/Desktop", nil, "")
	b.c("command line uvx benign", "uvx mcp-server-fetch --ignore-robots-txt", nil, "")
	b.c("command line env benign", "env NODE_ENV=production node /opt/mcp/index.js", nil, "")
	b.c("quoted windows path benign", `"C:\Program Files\Acme\weather-mcp.exe" --units metric --api-key-file "C:\Users\alice\weather.key"`, nil, "")
	b.c("command line references", "env GITHUB_TOKEN=$GITHUB_TOKEN npx -y @modelcontextprotocol/server-github", nil, "")

	b.section("shell")
	b.c("sh -c flag inside", "sh", A("-c", X("exec npx -y @acme/mcp --api-key "+g.rs(csHex, 32))), "")
	b.c("bash -c mcp-proxy header", "bash", A("-c", X("exec mcp-proxy --headers Authorization 'Bearer "+g.rs(csB64URL, 43)+"' https://mcp.example.com/sse")), "")
	b.c("sh -c psql url", "sh", A("-c", X("psql postgresql://app:"+g.pwURL()+"@db/app -c 'select 1' && exec npx -y @acme/pg-mcp")), "")
	b.c("wsl bash -c env", "wsl", A("bash", "-c", X("GITHUB_TOKEN="+g.tk("ghp")+" npx -y @modelcontextprotocol/server-github")), "")
	b.c("zsh -lc export", "zsh", A("-lc", X("export LINEAR_API_KEY="+g.tk("linear")+"; npx -y linear-mcp")), "")
	b.c("pwsh -Command $env", "pwsh", A("-NoProfile", "-Command", X("$env:GITHUB_TOKEN = '"+g.tk("ghp")+"'; npx -y @modelcontextprotocol/server-github")), "")
	b.c("cmd /c set", "cmd", A("/c", X("set NOTION_TOKEN="+g.tk("ntn")+"&& npx -y @notionhq/notion-mcp-server")), "")
	b.c("sh -c docker -e", "sh", A("-c", X("docker run -i --rm -e BRAVE_API_KEY="+g.tk("brave")+" mcp/brave-search")), "")
	b.c("bash -c heredoc-ish token", "bash", A("-c", X("echo "+g.tk("npm")+" > ~/.npmrc-token && exec npx -y @acme/mcp")), "")

	b.section("benign-shell")
	b.c("sh -c plain exec", "sh", A("-c", "exec npx -y @modelcontextprotocol/server-github"), "")
	b.c("gh auth token substitution", "bash", A("-c", "GITHUB_TOKEN=$(gh auth token) exec github-mcp-server stdio"), "")
	b.c("op read substitution", "sh", A("-c", "OPENAI_API_KEY=$(op read op://Private/OpenAI/credential) exec uvx openai-mcp"), "")
	b.c("source secrets file", "bash", A("-lc", "source ~/.mcp-secrets && exec node /opt/mcp/server.js"), "")
	b.c("macos keychain substitution", "sh", A("-c", "TOKEN=$(security find-generic-password -s github-mcp -w) exec github-mcp-server stdio"), "")
	b.c("cmd /c windows paths", "cmd", A("/c", "npx", "-y", "@modelcontextprotocol/server-filesystem", `C:\Users\alice\Desktop`), "")
	b.c("pwsh Get-Secret", "pwsh", A("-NoProfile", "-Command", "$env:API_KEY = (Get-Secret -Name OpenAI -AsPlainText); npx -y @acme/openai-mcp"), "")
	b.c("op run", "op", A("run", "--env-file=.env.tpl", "--", "npx", "-y", "@acme/mcp"), "")
	b.c("doppler run project", "doppler", A("run", "--project", "mcp", "--config", "prd", "--", "npx", "-y", "@acme/mcp"), "")
	b.c("aws-vault exec", "aws-vault", A("exec", "prod", "--", "uvx", "awslabs.cost-explorer-mcp-server@latest"), "")
	b.c("infisical run", "infisical", A("run", "--env=prod", "--path=/mcp", "--", "node", "server.js"), "")
	b.c("dotenvx run", "npx", A("-y", "@dotenvx/dotenvx", "run", "-f", ".env.production", "--", "node", "dist/index.js"), "")
	b.c("sh -c token file", "sh", A("-c", `exec "$HOME/.local/bin/mcp" --token-file "$XDG_RUNTIME_DIR/mcp/token"`), "")
	b.c("bash -c vault kv get", "bash", A("-c", "export DB_PASSWORD=$(vault kv get -field=password secret/mcp/db); exec uvx postgres-mcp"), "")
	b.c("sh -c pass show", "sh", A("-c", "API_KEY=`pass show mcp/api-key` exec node server.js"), "")
	b.c("wsl plain", "wsl", A("-d", "Ubuntu", "--", "npx", "-y", "@acme/mcp"), "")
}

// corpusIDsBenign: identifiers, hashes and digests that look random but
// are not credentials.
func corpusIDsBenign(b *corpusBuilder) {
	g := b.g
	b.section("benign-id")
	id := func(name string, a ...string) { b.c(name, "npx", append(A("-y", "@acme/mcp"), a...), "") }
	b.c("uvx --from git commit", "uvx", A("--from", "git+https://github.com/acme/mcp-server@"+g.rb(csHex, 40), "mcp-server"), "")
	id("--ref commit", "--ref", g.rb(csHex, 40))
	id("--commit= sha", "--commit="+g.rb(csHex, 40))
	id("--sha short", "--sha", g.rb(csHex, 7))
	b.c("git checkout commit", "git", A("-C", "/srv/mcp", "checkout", g.rb(csHex, 40)), "")
	b.c("docker image digest", "docker", A("run", "-i", "--rm", "mcp/fetch@sha256:"+g.rb(csHex, 64)), "")
	b.c("ghcr digest", "docker", A("run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server@sha256:"+g.rb(csHex, 64)), "")
	id("--digest sha256", "--digest", "sha256:"+g.rb(csHex, 64))
	id("--checksum sha256 hex", "--checksum", g.rb(csHex, 64))
	id("--md5", "--md5", g.rb(csHex, 32))
	id("--workspace-id uuid", "--workspace-id", g.uuid())
	id("--project-id uuid", "--project-id", g.uuid())
	id("--tenant-id uuid", "--tenant-id", g.uuid())
	id("--subscription-id uuid", "--subscription-id", g.uuid())
	id("notion --database-id hex32", "--database-id", g.rb(csHex, 32))
	id("notion --page-id hex32", "--page-id", g.rb(csHex, 32))
	id("--org-id openai", "--org-id", "org-"+g.rb(csAlnum, 24))
	id("cloudflare --account-id", "--account-id", g.rb(csHex, 32))
	id("cloudflare --zone-id", "--zone-id", g.rb(csHex, 32))
	id("google --spreadsheet-id", "--spreadsheet-id", "1"+g.rb(csB64URL, 43))
	id("google drive --folder-id", "--folder-id", "1"+g.rb(csB64URL, 32))
	id("airtable --base-id", "--base-id", "app"+g.rb(csAlnum, 14), "--table-id", "tbl"+g.rb(csAlnum, 14))
	id("slack --channel", "--channel", "C0"+g.rb(csUpAlnum, 9))
	id("supabase --project-ref", "--project-ref", g.supaRef())
	id("aws --instance-id", "--instance-id", "i-0"+g.rb(csHex, 16))
	id("aws --role-arn", "--role-arn", "arn:aws:iam::123456789012:role/McpReadOnly")
	id("aws --secret-arn", "--secret-arn", "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-"+g.rb(csAlnum, 6))
	id("gcp secret manager path", "--secret", "projects/acme-prod/secrets/openai-api-key/versions/latest")
	id("azure key vault secret uri", "--secret-uri", "https://acme-kv.vault.azure.net/secrets/openai-key/"+g.rb(csHex, 32))
	id("--trace-id", "--trace-id", g.rb(csHex, 32))
	id("--request-id uuid", "--request-id", g.uuid())
	id("--gpg-key-id", "--gpg-key-id", g.rb(csUHex, 16))
	id("eth --address", "--address", "0x"+g.rb(csHex, 40))
	id("eth --tx-hash", "--tx-hash", "0x"+g.rb(csHex, 64))
	id("solana --wallet pubkey", "--wallet", g.rb(csBase58, 44))
	id("--model claude", "--model", "claude-sonnet-4-5-20250929")
	id("--model gpt dated", "--model", "gpt-4o-2024-08-06")
	id("--model hf path", "--model", "meta-llama/Llama-3.1-8B-Instruct")
	id("--embedding-model", "--embedding-model", "text-embedding-3-small")
	id("--region", "--region", "eu-west-1")
	id("--location gcp", "--location", "us-central1", "--zone", "europe-west4-a")
	id("--version semver", "--version", "1.2.3")
	b.c("package with date version", "npx", A("-y", "@modelcontextprotocol/server-github@2025.4.8"), "")
	b.c("package latest", "npx", A("-y", "@upstash/context7-mcp@latest"), "")
	b.c("scoped package", "npx", A("-y", "@modelcontextprotocol/server-everything"), "")
	id("--ulid", "--ulid", "01J"+g.rb("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 23))
	id("--nanoid", "--id", g.rb(csB64URL, 21))
	id("--run-id digits", "--run-id", g.rb(csDigits, 10))
	id("--build short sha", "--build", g.rb(csHex, 7))
	id("--k8s-context", "--context", "gke_acme-prod_us-central1_prod-cluster")
	id("eks context arn", "--context", "arn:aws:eks:us-west-2:123456789012:cluster/prod")
	id("youtube --video-id", "--video-id", g.rb(csB64URL, 11))
	id("jira --issue-key", "--issue-key", "PROJ-1234")
	id("twilio --account-sid", "--account-sid", "AC"+g.rb(csHex, 32))
	id("stripe --account", "--account", "acct_1"+g.rb(csAlnum, 15))
	id("stripe --price", "--price", "price_1"+g.rb(csAlnum, 23))
	id("openai --assistant-id", "--assistant-id", "asst_"+g.rb(csAlnum, 24))
	id("vercel --team-id", "--team-id", "team_"+g.rb(csAlnum, 24))
	id("linear --team-id uuid", "--team-id", g.uuid())
	id("sentry --project slug", "--organization-slug", "acme", "--project-slug", "web-frontend")
	id("--uuid bare positional", g.uuid())
	id("hex32 positional page id", g.rb(csHex, 32))
	id("--build-hash sha1", "--build-hash", g.rb(csHex, 40))
	id("--etag", "--etag", `"`+g.rb(csHex, 32)+`"`)
	id("--cursor opaque pagination", "--cursor", g.rb(csB64URL, 24))
	id("--seed int", "--seed", "42")
	id("--timeout", "--timeout", "30s", "--retries", "3")
}

// corpusPathsBenign: paths and names that contain credential words.
func corpusPathsBenign(b *corpusBuilder) {
	b.section("benign-path")
	b.c("filesystem dirs", "npx", A("-y", "@modelcontextprotocol/server-filesystem", "/Users/alice/Desktop", "/Users/alice/Downloads"), "")
	b.c("filesystem secret-project dir", "npx", A("-y", "@modelcontextprotocol/server-filesystem", "/Users/alice/Projects/secret-project"), "")
	b.c("windows dir passwords-archive", "npx", A("-y", "@modelcontextprotocol/server-filesystem", `C:\Users\bob\Documents\passwords-archive`), "")
	b.c("claude app support", "npx", A("-y", "@modelcontextprotocol/server-filesystem", "/Users/alice/Library/Application Support/Claude"), "")
	b.c("/run/secrets path", "node", A("dist/index.js", "/run/secrets/github_token"), "")
	b.c("ssh key path", "uvx", A("ssh-mcp", "~/.ssh/id_ed25519"), "")
	b.c("credentials.db path", "uvx", A("mcp-server-sqlite", "--db-path", "/data/credentials.db"), "")
	b.c("keepass db path", "uvx", A("keepass-mcp", "--db-path", "~/mcp/passwords.kdbx"), "")
	b.c("obsidian vault", "npx", A("-y", "obsidian-mcp", "/Users/alice/Obsidian/MyVault"), "")
	b.c("allowed dirs list", "npx", A("-y", "@acme/fs-mcp", "--allowed-dirs", "/Users/alice/Desktop,/Users/alice/Downloads"), "")
	b.c("git repository path", "uvx", A("mcp-server-git", "--repository", "/Users/alice/src/token-service"), "")
	b.c("sqlite db path", "uvx", A("mcp-server-sqlite", "--db-path", "~/test.db"), "")
	b.c("python module path", "python", A("-m", "mcp_server_time", "--local-timezone=America/New_York"), "")
	b.c("node dist path", "node", A("/Users/alice/src/mcp-auth-proxy/dist/index.js"), "")
	b.c("java jar", "java", A("-jar", "/opt/mcp/keycloak-admin-mcp-1.0.0.jar", "--spring.profiles.active=prod"), "")
	b.c("uv directory run", "uv", A("--directory", "/Users/alice/src/apikey-rotation-mcp", "run", "server.py"), "")
	b.c("deno jsr", "deno", A("run", "--allow-net=api.github.com", "--allow-read=/tmp", "jsr:@acme/github-mcp@1.0.0"), "")
	b.c("bunx package", "bunx", A("@acme/secret-scanner-mcp@0.3.1", "--scan-dir", "./src"), "")
	b.c("dotnet project", "dotnet", A("run", "--project", `C:\src\PasswordPolicyMcp\PasswordPolicyMcp.csproj`), "")
	b.c("docker volume mounts", "docker", A("run", "-i", "--rm", "--mount", "type=bind,src=/Users/alice/.aws,dst=/root/.aws,readonly", "-v", "/Users/alice/.config/gcloud:/root/.config/gcloud:ro", "mcp/aws"), "")
	b.c("fetch user agent", "uvx", A("mcp-server-fetch", "--user-agent", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36"), "")
	b.c("playwright user data dir", "npx", A("@playwright/mcp@latest", "--user-data-dir", "/tmp/playwright-profile", "--isolated"), "")
	b.c("kube config path", "npx", A("-y", "mcp-server-kubernetes", "--kubeconfig", "~/.kube/config"), "")
	b.c("aws docs server", "uvx", A("awslabs.aws-documentation-mcp-server@latest"), "")
	b.c("time server tz", "uvx", A("mcp-server-time", "--local-timezone", "Europe/Berlin"), "")
	b.c("inspector wrapping node", "npx", A("-y", "@modelcontextprotocol/inspector", "node", "build/index.js"), "")
	b.c("node max-old-space", "node", A("--max-old-space-size=4096", "build/index.js"), "")
	b.c("tokens dir path", "node", A("dist/index.js", "--data-dir", "/var/lib/mcp/tokens"), "")
	b.c("cert dir", "npx", A("-y", "@acme/mcp", "--certs", "/etc/ssl/private"), "")
	b.c("email address arg", "npx", A("-y", "@acme/mail-mcp", "--from", "noreply@example.com"), "")
	b.c("host port pair", "npx", A("-y", "@acme/mcp", "--redis", "cache.internal:6379"), "")
	b.c("user at host ssh", "npx", A("-y", "ssh-mcp", "deploy@server.example.com"), "")
	b.c("user:group chown-like", "npx", A("-y", "@acme/fs-mcp", "--owner", "www-data:www-data"), "")
	b.c("scp target", "npx", A("-y", "@acme/deploy-mcp", "--target", "deploy@10.0.0.5:/var/www/app"), "")
}

// corpusRefsBenign: references to secrets in every syntax people use.
func corpusRefsBenign(b *corpusBuilder) {
	b.section("benign-ref")
	for _, v := range []string{
		"${GITHUB_TOKEN}", "$GITHUB_TOKEN", "%GITHUB_TOKEN%", "{{ github_token }}", "{{github_token}}",
		"${env:GITHUB_TOKEN}", "${input:github_token}", "$env:GITHUB_TOKEN", "${{ secrets.GITHUB_TOKEN }}",
		"${GITHUB_TOKEN:?set GITHUB_TOKEN}", "${GITHUB_TOKEN:-}", "$(gh auth token)", "`gh auth token`",
		"op://Private/GitHub/token", "vault:secret/data/mcp#github_token", "env:GITHUB_TOKEN",
		"<github-token>", "YOUR_GITHUB_TOKEN",
	} {
		b.c("--token "+v, "npx", A("-y", "@acme/gh-mcp", "--token", v), "")
	}
	for _, v := range []string{"${OPENAI_API_KEY}", "$OPENAI_API_KEY", "%OPENAI_API_KEY%", "{{ secrets.openai }}", "${input:openaiKey}"} {
		b.c("--api-key="+v, "npx", A("-y", "@acme/openai-mcp", "--api-key="+v), "")
	}
	b.c("password reference flag", "uvx", A("mysql-mcp", "--password", "${MYSQL_PASSWORD}"), "")
	b.c("password command substitution", "uvx", A("mysql-mcp", "--password", "$(cat /run/secrets/db)"), "")
	b.c("header reference input", "npx", A("-y", "mcp-remote", "https://mcp.example.com/mcp", "--header", "Authorization: Bearer ${input:mcp_token}"), "")
}

// corpusAmbiguous holds cases a careful reviewer could decide either way.
// X marks the decision taken; why says why it is not clear-cut. The cases
// the lead decided firmly have moved to corpusDecided.
func corpusAmbiguous(g *corpusGen) []corpusCase {
	b := &corpusBuilder{g: g}
	b.section("ambiguous")
	b.amb("A placeholder shaped exactly like a token (ghp_ + 36 x). Refusing costs a user nothing (replace it with a reference) and a shape-only rule cannot tell; recommend refuse.",
		"all-x ghp placeholder", "npx", A("-y", "@modelcontextprotocol/server-github", "--token", X(g.ben("<ghp_ + 36 x placeholder>", "ghp_"+strings.Repeat("x", 36)))), "")
	b.amb("Sentry DSN: the public key in the userinfo is designed to be public (shipped in browser JS), but it stands where a password or token goes and reads like one. Decided (lead): refuse, as url-user-token; pass the DSN through env (SENTRY_DSN).",
		"sentry dsn", "npx", A("-y", "@acme/mcp", "--sentry-dsn", X("https://"+g.rs(csHex, 32)+"@o"+g.rb(csDigits, 6)+".ingest.sentry.io/"+g.rb(csDigits, 7))), "")
	b.amb("Supabase anon key: a JWT meant to be public (row-level security guards data). A JWT rule cannot tell anon from service_role without decoding; recommend refuse (decode-based exceptions are fragile).",
		"supabase anon key", "npx", A("-y", "@acme/supabase-mcp", "--anon-key", X(g.supabaseJWT(g.supaRef(), "anon"))), "")
	b.amb("mysql -p VALUE (separate): mysql reads VALUE as the database name, not the password; recommend accept, but it is a classic mistake.",
		"mysql -p separate", "mysql", A("-u", "root", "-p", "shop"), "")
	b.amb("curl-style -u user:password: -u is the user flag, the value carries the password. Recommend refuse when the value has a colon and a non-empty part after it.",
		"curl -u user:pass", "curl", A("-u", X("admin:"+g.pw()), "https://api.example.com/health"), "")
	b.amb("Smithery CLI --key takes the Smithery API key (a UUID). --key is also a file path or key name elsewhere; recommend refuse only when the value is not path-like.",
		"smithery --key uuid", "npx", A("-y", "@smithery/cli@latest", "run", "@acme/weather", "--key", X(g.uuidS())), "")
	b.amb("--pat: the common abbreviation of personal access token. Recommend refuse.",
		"--pat ado", "npx", A("-y", "@azure-devops/mcp", "contoso", "--pat", X(g.tk("ado_pat"))), "")
	b.amb("Zapier/Composio-style secret path segment: the URL itself is the credential, but the path is indistinguishable from an opaque ID. Recommend refuse for the known hosts only (mcp.zapier.com /s/ paths).",
		"zapier secret path", "", nil, X("https://mcp.zapier.com/api/mcp/s/"+g.rs(csB64URL, 64)+"/mcp"))
	b.amb("Google-style page tokens (pageToken) are opaque cursors, not credentials. Recommend accept.",
		"pageToken cursor", "", nil, "https://mcp.example.com/mcp?pageToken="+g.rb(csB64URL, 40))
	b.amb("Session IDs in a URL can act as bearer credentials, but MCP's own session IDs are transport state. Recommend accept.",
		"session uuid query", "", nil, "https://mcp.example.com/mcp?session="+g.uuid()+"&stream=true")
	b.amb("Java's default truststore password 'changeit' is public knowledge. Recommend refuse anyway (it is a password flag with a literal value).",
		"truststore changeit", "java", A(X("-Djavax.net.ssl.trustStorePassword=changeit"), "-jar", "mcp.jar"), "")
	b.amb("RabbitMQ guest:guest default credentials. By the userinfo rule, refuse.",
		"amqp guest guest", "npx", A("-y", "@acme/rabbitmq-mcp", X("amqp://guest:guest@localhost:5672/")), "")
	b.amb("Application Insights connection string: Microsoft says the instrumentation key is not a secret, but it is a key assigned to a *Key name, and it lets anyone send telemetry as the app. Decided (lead): refuse; pass it through env.",
		"app insights connection string", "npx", A("-y", "@acme/mcp", "--appinsights", X("InstrumentationKey="+g.uuidS()+";IngestionEndpoint=https://westeurope-5.in.applicationinsights.azure.com/")), "")
	b.amb("A random 40-character positional argument with no flag and no prefix: could be an API key or an opaque ID. Decided (lead, decision 3): refuse; nothing names it, and the shape of a key is the best evidence. An ID goes after a flag that names it.",
		"bare random positional", "npx", A("-y", "@acme/mcp", X(g.rs(csAlnum, 40))), "")
	b.amb("Composio customerId in the query is effectively a bearer identifier. Recommend accept: the name does not say secret.",
		"composio customerId", "", nil, "https://mcp.composio.dev/partner/composio/gmail?customerId="+g.uuid())
	b.amb("A password flag with value 'changeme' from a README. Recommend refuse: it is a literal password.",
		"--password changeme", "uvx", A("mysql-mcp", "--password", X("changeme")), "")
	b.amb("Empty-password userinfo 'user:@host'. Recommend accept: nothing secret is present.",
		"empty password userinfo", "", nil, "https://alice:@mcp.example.com/sse")
	b.amb("A credential value that starts with a dash looks like the next flag, and is read as one, as the program itself would. Decided (lead): accept; a flag followed by a flag has no value.",
		"token starting with dash", "npx", A("-y", "@acme/mcp", "--token", "-"+g.rb(csB64URL, 42)), "")
	b.amb("An OAuth authorization code in a URL is short-lived, single-use and useless without the client's secret or PKCE verifier; code is an ordinary word in queries. Decided (lead): accept.",
		"oauth code in url", "", nil, "http://localhost:3334/callback?code="+g.rb(csB64URL, 40)+"&state="+g.rb(csHex, 16))
	b.amb("Minio/S3-compatible --access-key is the public half of a key pair and often a readable user name; the spec lists access key as a credential word. Recommend refuse (follow the spec).",
		"minio --access-key readable", "npx", A("-y", "minio-mcp", "--endpoint", "http://localhost:9000", "--access-key", X("minio-reader")), "")
	b.amb("Figma file keys are identifiers (they appear in figma.com/file/<key>/ URLs), but so does any random value after a *-key flag; compare --app-key (Datadog), which is a secret. Recommend accept for --file-key.",
		"figma --file-key", "npx", A("-y", "@acme/mcp", "--file-key", g.rb(csAlnum, 22)), "")
	b.amb("A 40-hex user name in an https URL: GitHub's older tokens were 40 hex, and no user name looks like that. Recommend refuse.",
		"40-hex userinfo user", "uvx", A("--from", X("git+https://"+g.rs(csHex, 40)+"@github.example.com/acme/mcp.git"), "mcp"), "")
	b.amb("A password that starts with $ reads as a shell variable ($ecret...). Indistinguishable from a reference; recommend accept.",
		"password starting with $", "uvx", A("mysql-mcp", "--password", "$ecretPassw0rd"), "")
	b.amb("--pw is a common abbreviation of password. Recommend refuse.",
		"--pw", "npx", A("-y", "@acme/imap-mcp", "--user", "alice", "--pw", X(g.pw())), "")
	b.amb("--pwd is password in some tools and working directory in others. Recommend refuse when the value is not path-like.",
		"--pwd", "npx", A("-y", "@acme/ftp-mcp", "--user", "deploy", "--pwd", X(g.pw())), "")
	b.amb("A bcrypt hash after --password-hash is not a credential (it cannot be replayed), though it should not be published. Recommend accept.",
		"--password-hash bcrypt", "npx", A("-y", "@acme/auth-mcp", "--password-hash", "$2b$12$"+g.rb(csB64, 53)), "")
	b.amb("Zoom meeting links carry pwd= (an encoded passcode). Recommend refuse: the URL grants entry.",
		"zoom pwd", "", nil, X("https://acme.zoom.us/j/"+g.rb(csDigits, 11)+"?pwd="+g.rs(csAlnum, 32)+".1"))
	b.amb("Twitter/X consumer key is the public half of an app key pair. Recommend refuse (the platform calls it API Key and treats it as secret).",
		"twitter consumer key", "npx", A("-y", "@acme/x-mcp", "--consumer-key", X(g.rs(csAlnum, 25))), "")
	b.amb("--license-key for commercial software: a secret to the vendor, not an access credential. Recommend refuse (it is a key, and random).",
		"--license-key", "npx", A("-y", "@acme/pro-mcp", "--license-key", X(g.rs(csUpAlnum, 25))), "")
	b.amb("A Dropbox shared link carries rlkey=, a capability meant to be shared with whoever gets the link; but it is a key parameter with a random value, and the link grants access. Decided (lead): refuse, as url-query-credential; keep such links out of the definition.",
		"dropbox shared link rlkey", "npx", A("-y", "@acme/mcp", "--file", X("https://www.dropbox.com/scl/fi/"+g.rb(csLowAlnum, 25)+"/report.pdf?rlkey="+g.rs(csLowAlnum, 25)+"&dl=0")), "")
	b.amb("Google Sheets / Drive IDs and Solana addresses as bare positional arguments: random-looking public identifiers, with no flag to say so. Under --spreadsheet-id they are accepted; bare, a random-string rule cannot tell them from a key. Recommend accept (no evidence of a credential).",
		"bare spreadsheet id", "npx", A("-y", "@acme/sheets-mcp", "1"+g.rb(csB64URL, 43)), "")
	b.amb("Same as the spreadsheet ID: a Drive folder ID as a bare positional. Recommend accept.",
		"bare drive folder id", "npx", A("-y", "@acme/gdrive-mcp", "1"+g.rb(csB64URL, 32)), "")
	b.amb("A Solana address (base58 public key) as a bare positional: public, but shaped exactly like a random key, and a Solana secret key in base58 looks the same. Decided (lead, decision 3): refuse; give it after a flag (--wallet ADDRESS), where it is accepted.",
		"bare solana address", "npx", A("-y", "@acme/solana-mcp", X(g.rs(csBase58, 44))), "")
	return b.cases
}

// corpusEdges: credentials in the corners: odd characters in values,
// config-key syntaxes of Spring, .NET and Hydra, npm and git config lines,
// HTML-escaped URLs and other separators.
func corpusEdges(b *corpusBuilder) {
	g := b.g
	b.section("edge")
	b.c("--password= value containing =", "npx", A("-y", "@acme/db-mcp", X("--password="+g.sec("<password with = inside>", "Purple="+g.pick(csDigits, 4)+"castle"))), "")
	b.c("--client-secret= base64 padded", "npx", A("-y", "@acme/oauth-mcp", X("--client-secret="+g.rs(csB64, 42)+"==")), "")
	b.c("--api-key value ending ==", "npx", A("-y", "@acme/mcp", "--api-key", X(g.rs(csB64, 42)+"==")), "")
	b.c("env value containing =", "docker", A("run", "-i", "--rm", "-e", X("DB_PASSWORD="+g.sec("<password with = inside>", "Tiger="+g.pick(csDigits, 4)+"ocean")), "mcp/db"), "")
	b.c("passphrase with spaces", "npx", A("-y", "@acme/sftp-mcp", "--passphrase", X(g.sec("<4-word passphrase>", "correct horse "+corpusWords[g.r.IntN(len(corpusWords))]+" staple"))), "")
	b.c("numeric password", "uvx", A("mysql-mcp", "--user", "root", "--password", X(g.sec("<6-digit password>", g.pick(csDigits, 6)))), "")
	b.c("dictionary password in env", "docker", A("run", "-i", "--rm", "-e", X("DB_PASSWORD=postgres"), "mcp/postgres"), "")
	b.c("short human password in env", "docker", A("run", "-i", "--rm", "-e", X("ADMIN_PASSWORD="+g.sec("<hunterNN>", "hunter"+g.pick(csDigits, 2))), "mcp/admin"), "")
	b.c("placeholder with human default", "npx", A("-y", "@acme/db-mcp", X("--password=${DB_PASSWORD:-"+g.pw()+"}")), "")
	b.c("lowercase authorization bearer", "npx", A("-y", "mcp-remote", "https://mcp.example.com/sse", "--header", X("authorization: bearer "+g.rs(csB64URL, 43))), "")
	b.c("header with = separator", "npx", A("-y", "@acme/http-bridge", "--header", X("Authorization=Bearer "+g.rs(csB64URL, 43))), "")
	b.c("--authorization Basic", "npx", A("-y", "@acme/bridge", "--authorization", X("Basic "+g.sec("<base64 of user:password>", base64.StdEncoding.EncodeToString([]byte("svc:"+g.pw()))))), "")
	b.c("npm _authToken config flag", "npx", A("-y", "--@acme:registry=https://npm.pkg.github.com", X("--//npm.pkg.github.com/:_authToken="+g.rs(csB64URL, 40)), "@acme/private-mcp"), "")
	b.c("npm _auth basic", "npm", A("exec", X("--//registry.acme.example.com/:_auth="+g.sec("<base64 of user:password>", base64.StdEncoding.EncodeToString([]byte("ci:"+g.pw())))), "--", "@acme/mcp"), "")
	b.c("pip extra-index-url with token", "uvx", A("--extra-index-url", X("https://__token__:"+g.rs(csB64URL, 40)+"@pypi.acme.example.com/simple"), "acme-mcp"), "")
	b.c("git -c extraheader basic", "git", A("-c", X("http.https://github.com/.extraheader=AUTHORIZATION: basic "+g.sec("<base64 of x-access-token:token>", base64.StdEncoding.EncodeToString([]byte("x-access-token:"+g.rs(csAlnum, 40))))), "clone", "https://github.com/acme/mcp.git"), "")
	b.c("spring boot --spring.datasource.password=", "java", A("-jar", "mcp.jar", X("--spring.datasource.password="+g.pw())), "")
	b.c("spring boot api-key property random", "java", A("-jar", "mcp.jar", X("--spring.ai.openai.api-key="+g.rs(csAlnum, 48))), "")
	b.c(".NET config ConnectionStrings:Default", "dotnet", A("McpServer.dll", X("--ConnectionStrings:Default=Server=db;Database=app;User Id=sa;Password="+g.pw()+";")), "")
	b.c(".NET config Azure:OpenAI:ApiKey", "dotnet", A("run", "--", X("--Azure:OpenAI:ApiKey="+g.rs(csHex, 32))), "")
	b.c("hydra override db.password", "python", A("app.py", "db.host=db.internal", X("db.password="+g.pw())), "")
	b.c("hydra override model.api_key", "python", A("-m", "agent_mcp", X("model.api_key="+g.rs(csHex, 32))), "")
	b.c("helm --set-string apiKey", "helm", A("install", "mcp", "./chart", "--set-string", X("apiKey="+g.rs(csAlnum, 40))), "")
	b.c("python dict config", "python", A("server.py", "--config", X("{'api_key': '"+g.rs(csHex, 32)+"', 'region': 'us'}")), "")
	b.c("setx name value in cmd", "cmd", A("/c", X("setx API_KEY "+g.rs(csHex, 32)+" && npx -y @acme/mcp")), "")
	b.c("export with double quotes", "bash", A("-c", X(`export OPENAI_API_KEY="`+g.rs(csAlnum, 48)+`" && exec uvx openai-mcp`)), "")
	b.c("--pass human", "npx", A("-y", "@acme/imap-mcp", "--user", "alice@example.com", "--pass", X(g.pw())), "")
	b.c("--consumer-secret and --access-token-secret", "npx", A("-y", "@acme/x-mcp", "--consumer-secret", X(g.rs(csAlnum, 50)), "--access-token-secret", X(g.rs(csAlnum, 45))), "")
	b.c("--app-secret", "npx", A("-y", "@larksuiteoapi/lark-mcp", "mcp", "-a", "cli_"+g.rb(csLowAlnum, 16), "--app-secret", X(g.rs(csAlnum, 32))), "")
	b.c("--signing-key base64", "npx", A("-y", "@acme/webhook-mcp", "--signing-key", X(g.rs(csB64, 43)+"=")), "")
	b.c("--sudo-password", "npx", A("-y", "@acme/ssh-mcp", "--host", "server", "--sudo-password", X(g.pw())), "")
	b.c("--apiToken camel", "npx", A("-y", "@acme/mcp", "--apiToken", X(g.rs(csAlnum, 40))), "")
	b.c("--access_token snake", "python", A("server.py", "--access_token", X(g.rs(csB64URL, 43))), "")
	b.c("--clientSecret camel", "node", A("index.js", "--clientSecret", X(g.rs(csB64URL, 40))), "")
	b.c("--botToken= camel", "node", A("index.js", X("--botToken="+g.tk("telegram"))), "")
	b.c("windows /password:", `C:\tools\ExchangeMcp.exe`, A("/user:svc-mcp", X("/password:"+g.pw())), "")
	b.u("html-escaped &amp; separator", X("https://mcp.example.com/mcp?format=json&amp;api_key="+g.rs(csHex, 32)))
	b.u("laravel signed url", X("https://app.example.com/mcp/export?expires=1767225600&signature="+g.rs(csHex, 64)))
	b.u("lowercase x-amz-signature", X("https://acme.s3.amazonaws.com/f.csv?x-amz-algorithm=AWS4-HMAC-SHA256&x-amz-credential="+g.tk("akia")+"%2F20250101%2Fus-east-1%2Fs3%2Faws4_request&x-amz-signature="+g.rs(csHex, 64)))
	b.u("spa fragment route token", X("https://app.example.com/#/connect?token="+g.rs(csB64URL, 43)))
	b.u("?authorization=Bearer", X("https://mcp.example.com/sse?authorization=Bearer%20"+g.rs(csB64URL, 43)))
	b.u("?passwd=", X("https://mcp.example.com/mcp?user=svc&passwd="+g.pwURL()))
	b.u("github raw token", X("https://raw.githubusercontent.com/acme/private/main/mcp.json?token=GHSAT0AAAAAA"+g.rs(csUpAlnum, 40)))
	b.u("url with tab and spaces around", X(" https://alice:"+g.pwURL()+"@mcp.example.com/sse "))
	b.c("token with trailing newline", "npx", A("-y", "@acme/gh-mcp", "--token", X(g.tk("ghp")+"\n")), "")
	b.c("token with surrounding quotes", "npx", A("-y", "@acme/gh-mcp", "--token", X(`"`+g.tk("ghp")+`"`)), "")
	b.c("token with leading space", "npx", A("-y", "@acme/openai-mcp", "--api-key", X(" "+g.tk("openai_proj"))), "")
	b.c("uppercase env name with digits", "docker", A("run", "-i", "--rm", "-e", X("S3_SECRET_ACCESS_KEY_2="+g.tk("aws_secret")), "mcp/s3"), "")
	b.c("mixed-case env name", "env", A(X("OpenAI_Api_Key="+g.rs(csAlnum, 48)), "node", "server.js"), "")
	b.c("env name with dot (java-style)", "env", A(X("api.key="+g.rs(csHex, 32)), "java", "-jar", "mcp.jar"), "")
	b.c("docker compose style --env KEY VALUE file", "docker", A("run", "-i", "--rm", "-e", X("OPENAI_API_KEY="+g.rs(csAlnum, 48)), "-e", "OPENAI_MODEL=gpt-4o", "mcp/openai"), "")
	b.c("sshpass attached -pPASSWORD", "sshpass", A(X("-p"+g.pw()), "ssh", "-o", "StrictHostKeyChecking=no", "deploy@server"), "")
}

// corpusEdgesBenign: benign look-alikes around the same corners.
func corpusEdgesBenign(b *corpusBuilder) {
	g := b.g
	b.section("benign-edge")
	id := func(name string, a ...string) { b.c(name, "npx", append(A("-y", "@acme/mcp"), a...), "") }
	id("--keyfile path", "--keyfile", "./service-account.json")
	id("--passfile path", "--passfile", "~/.pgpass")
	id("--authfile path", "--authfile", "~/.config/containers/auth.json")
	id("--api-key-path", "--api-key-path", "/etc/mcp/api-key")
	id("--token-path=", "--token-path=/var/run/secrets/kubernetes.io/serviceaccount/token")
	id("--private-key-file", "--private-key-file", "./keys/app.pem")
	id("--secret-key-ref name", "--secret-key-ref", "mcp-openai-key")
	id("--password-env NAME", "--password-env", "DB_PASSWORD")
	id("--auth-provider github", "--auth-provider", "github")
	id("--token-provider azure-cli", "--token-provider", "azure-cli")
	id("--credential-process", "--credential-process", "aws-vault exec prod --json")
	id("--key-vault-name", "--key-vault-name", "acme-kv")
	id("--max-completion-tokens", "--max-completion-tokens", "2048")
	id("--num-tokens", "--num-tokens", "256")
	id("--eos-token", "--eos-token", "<|im_end|>")
	id("--bos-token", "--bos-token", "<s>")
	id("--stop-token", "--stop-token", "</s>")
	id("--pad-token", "--pad-token", "[PAD]")
	id("--special-tokens list", "--special-tokens", "<|user|>,<|assistant|>,<|system|>")
	id("--add-special-tokens", "--add-special-tokens")
	id("--token-id", "--token-id", "50256")
	id("--auth basic", "--auth", "basic")
	id("--authentication-type none", "--authentication-type", "none")
	id("--cookie-file", "--cookie-file", "~/cookies.txt")
	b.c("yt-dlp --cookies-from-browser", "uvx", A("yt-dlp-mcp", "--cookies-from-browser", "chrome"), "")
	id("--service-account email", "--service-account", "mcp@acme-prod.iam.gserviceaccount.com")
	id("--impersonate-service-account", "--impersonate-service-account", "reader@acme-prod.iam.gserviceaccount.com")
	id("--oidc-issuer", "--oidc-issuer", "https://token.actions.githubusercontent.com")
	id("--token-expiry", "--token-expiry", "3600", "--max-token-age", "1h")
	id("--use-keychain", "--use-keychain")
	id("--password-policy", "--password-policy", "strong")
	id("--api-key-required false", "--api-key-required", "false")
	id("--secret-backend vault", "--secret-backend", "vault")
	id("--access-key-id reference", "--access-key-id", "${AWS_ACCESS_KEY_ID}", "--secret-access-key", "${AWS_SECRET_ACCESS_KEY}")
	b.c("spring boot benign properties", "java", A("-jar", "mcp.jar", "--spring.datasource.url=jdbc:postgresql://db:5432/app", "--spring.datasource.username=app", "--server.port=8081"), "")
	b.c(".NET config benign", "dotnet", A("McpServer.dll", "--Logging:LogLevel:Default=Warning", "--Azure:OpenAI:Endpoint=https://acme.openai.azure.com/", "--Azure:OpenAI:Deployment=gpt-4o"), "")
	b.c("hydra benign overrides", "python", A("app.py", "db.host=db.internal", "model.name=gpt-4o", "model.max_tokens=512"), "")
	b.c("npm registry config no token", "npx", A("-y", "--@acme:registry=https://npm.pkg.github.com", "@acme/private-mcp"), "")
	b.c("pip index-url no credentials", "uvx", A("--index-url", "https://pypi.acme.example.com/simple", "acme-mcp"), "")
	b.c("git -c benign", "git", A("-c", "core.sshCommand=ssh -i ~/.ssh/deploy_key", "clone", "git@github.com:acme/mcp.git"), "")
	b.c("python dict config benign", "python", A("server.py", "--config", "{'region': 'us', 'max_tokens': 512}"), "")
	b.c("export benign in bash", "bash", A("-c", `export NODE_ENV="production" && exec node server.js`), "")
	b.u("?password_reset=", "https://app.example.com/login?password_reset=1&lang=en")
	b.u("?auth=oauth", "https://mcp.example.com/mcp?auth=oauth")
	b.u("?token= empty", "https://mcp.example.com/mcp?token=")
	b.u("docs path with credential words", "https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/managing-your-personal-access-tokens")
	b.u("kubernetes api", "https://10.0.0.1:6443")
	b.u("html-escaped benign", "https://mcp.example.com/mcp?format=json&amp;limit=10")
	b.c("benign value with trailing newline", "npx", A("-y", "@acme/mcp", "--model", "gpt-4o\n"), "")
	b.c("windows /user: only", `C:\tools\ExchangeMcp.exe`, A("/user:svc-mcp", "/server:mail.example.com"), "")
	b.c("commit sha in env inside sh", "sh", A("-c", "GIT_SHA="+g.rb(csHex, 40)+" exec node server.js"), "")
	b.c("docker digest inside sh", "sh", A("-c", "exec docker run -i --rm mcp/fetch@sha256:"+g.rb(csHex, 64)), "")
	b.c("uuid env inside bash", "bash", A("-c", "export WORKSPACE_ID="+g.uuid()+" && exec npx -y @acme/mcp"), "")
}

// corpusMore: more services, by the environment names their READMEs use,
// including one-word names (AUTHKEY, AUTHTOKEN) and bare *_KEY.
func corpusMore(b *corpusBuilder) {
	g := b.g
	b.section("assign-more")
	type v struct{ name, value string }
	list := []v{
		{"TS_AUTHKEY", g.sec("<tskey-auth- token>", "tskey-auth-k"+g.pick(csAlnum, 11)+"CNTRL-"+g.pick(csAlnum, 33))},
		{"NGROK_AUTHTOKEN", g.sec("<ngrok authtoken>", "2"+g.pick(csAlnum, 26)+"_"+g.pick(csAlnum, 21))},
		{"FLY_API_TOKEN", g.sec("<FlyV1 token>", "FlyV1 fm2_"+g.pick(csB64, 300))},
		{"RENDER_API_KEY", g.sec("<rnd_ token>", "rnd_"+g.pick(csAlnum, 32))},
		{"UPSTASH_REDIS_REST_TOKEN", g.sec("<upstash rest token>", "AX"+g.pick(csB64URL, 70)+"=")},
		{"TURSO_AUTH_TOKEN", g.jwt("<JWT EdDSA>", `{"alg":"EdDSA","typ":"JWT"}`, `{"a":"rw","iat":1712345678,"id":"`+g.uuidRaw()+`"}`, 86)},
		{"CLERK_SECRET_KEY", g.sec("<clerk sk_live_>", "sk_live_"+g.pick(csAlnum, 40))},
		{"CONTENTFUL_MANAGEMENT_TOKEN", g.sec("<CFPAT- token>", "CFPAT-"+g.pick(csB64URL, 43))},
		{"HUBSPOT_ACCESS_TOKEN", g.sec("<pat-na1- token>", "pat-na1-"+g.uuidRaw())},
		{"SONAR_TOKEN", g.sec("<squ_ token>", "squ_"+g.pick(csHex, 40))},
		{"CIRCLECI_TOKEN", g.sec("<CCIPAT_ token>", "CCIPAT_"+g.pick(csAlnum, 22)+"_"+g.pick(csHex, 40))},
		{"BUILDKITE_API_TOKEN", g.sec("<bkua_ token>", "bkua_"+g.pick(csHex, 40))},
		{"TRELLO_TOKEN", g.sec("<ATTA token>", "ATTA"+g.pick(csHex, 64)+g.pick(csUHex, 8))},
		{"TRELLO_API_KEY", g.rs(csHex, 32)},
		{"MAILCHIMP_API_KEY", g.sec("<mailchimp key>", g.pick(csHex, 32)+"-us21")},
		{"SQUARE_ACCESS_TOKEN", g.sec("<EAAA token>", "EAAA"+g.pick(csB64URL, 60))},
		{"TYPEFORM_TOKEN", g.sec("<tfp_ token>", "tfp_"+g.pick(csAlnum, 44)+"_"+g.pick(csAlnum, 14))},
		{"JINA_API_KEY", g.sec("<jina_ token>", "jina_"+g.pick(csHex, 32)+g.pick(csAlnum, 28))},
		{"FAL_KEY", g.sec("<fal uuid:hex key>", g.uuidRaw()+":"+g.pick(csHex, 32))},
		{"VOYAGE_API_KEY", g.sec("<pa- token>", "pa-"+g.pick(csB64URL, 43))},
		{"RUNWAYML_API_SECRET", g.sec("<key_ token>", "key_"+g.pick(csHex, 128))},
		{"SERPAPI_API_KEY", g.rs(csHex, 64)},
		{"DEEPGRAM_API_KEY", g.rs(csHex, 40)},
		{"ASSEMBLYAI_API_KEY", g.rs(csHex, 32)},
		{"READWISE_TOKEN", g.rs(csAlnum, 50)},
		{"ZENDESK_API_TOKEN", g.rs(csAlnum, 40)},
		{"ALGOLIA_ADMIN_API_KEY", g.rs(csHex, 32)},
		{"QDRANT_API_KEY", g.rs(csB64URL, 40)},
		{"WEAVIATE_API_KEY", g.rs(csAlnum, 40)},
		{"NEO4J_PASSWORD", g.pw()},
		{"SNYK_TOKEN", g.uuidS()},
		{"RAILWAY_TOKEN", g.uuidS()},
		{"NOSTR_PRIVATE_KEY", g.sec("<nsec1 key>", "nsec1"+strings.ToLower(g.pick(csBech32Up, 58)))},
		{"KAGI_API_KEY", g.sec("<kagi key>", g.pick(csB64URL, 22)+"."+g.pick(csB64URL, 43))},
		{"GOOGLE_MAPS_API_KEY", g.tk("google")},
		{"AZURE_SPEECH_KEY", g.rs(csHex, 32)},
		{"AZURE_STORAGE_KEY", g.rs(csB64, 86) + "=="},
		{"AUTH0_CLIENT_SECRET", g.rs(csB64URL, 64)},
		{"PAYPAL_CLIENT_SECRET", g.rs(csB64URL, 80)},
		{"ZOOM_CLIENT_SECRET", g.rs(csAlnum, 32)},
		{"GITHUB_CLIENT_SECRET", g.rs(csHex, 40)},
		{"SLACK_SIGNING_SECRET", g.rs(csHex, 32)},
		{"WEBHOOK_SECRET", g.rs(csHex, 64)},
		{"SESSION_SECRET", g.rs(csB64, 43) + "="},
		{"COOKIE_SECRET", g.rs(csAlnum, 32)},
		{"APP_KEY", g.sec("<laravel base64: key>", "base64:"+g.pick(csB64, 43)+"=")},
		{"MASTER_KEY", g.rs(csHex, 32)},
		{"ADMIN_TOKEN", g.rs(csB64URL, 48)},
		{"PASSWORD", g.pw()},
		{"PASSPHRASE", g.pw()},
		{"DB_PASSWD", g.pw()},
		{"LDAP_BIND_PASSWORD", g.pw()},
		{"RABBITMQ_DEFAULT_PASS", g.pw()},
		{"JENKINS_API_TOKEN", g.rs(csHex, 34)},
		{"ARTIFACTORY_API_KEY", g.sec("<AKCp key>", "AKCp"+g.pick(csAlnum, 69))},
		{"GITEA_ACCESS_TOKEN", g.rs(csHex, 40)},
		{"PROXMOX_TOKEN_SECRET", g.uuidS()},
		{"HOME_ASSISTANT_TOKEN", g.jwtHS()},
		{"PORTAINER_API_KEY", g.sec("<ptr_ token>", "ptr_"+g.pick(csB64URL, 43)+"=")},
	}
	for i, e := range list {
		b.assign(i, e.name, e.value, "@acme/mcp", "mcp/acme", true)
	}
	b.c("ngrok --authtoken", "ngrok", A("http", "8080", "--authtoken", X(g.sec("<ngrok authtoken>", "2"+g.pick(csAlnum, 26)+"_"+g.pick(csAlnum, 21)))), "")
	b.c("tailscale --authkey=", "tailscale", A("up", X("--authkey="+g.sec("<tskey-auth- token>", "tskey-auth-k"+g.pick(csAlnum, 11)+"CNTRL-"+g.pick(csAlnum, 33)))), "")
	b.c("cloudflared tunnel --token", "cloudflared", A("tunnel", "run", "--token", X(g.sec("<cloudflared tunnel token>", base64.StdEncoding.EncodeToString([]byte(`{"a":"`+g.pick(csHex, 32)+`","t":"`+g.uuidRaw()+`","s":"`+g.pick(csB64, 44)+`"}`))))), "")
}

// corpusMoreBenign: benign names ending in KEY/TOKEN/SECRET, and more
// random-looking public values.
func corpusMoreBenign(b *corpusBuilder) {
	g := b.g
	b.section("benign-more")
	type v struct{ name, value string }
	list := []v{
		{"SORT_KEY", "created_at"},
		{"PARTITION_KEY", "tenant_id"},
		{"CACHE_KEY_PREFIX", "mcp:"},
		{"S3_KEY", "reports/2025/q1.csv"},
		{"PRIMARY_KEY", "id"},
		{"HOTKEY", "ctrl+shift+m"},
		{"KEY_ROTATION_DAYS", "90"},
		{"TOKEN_TTL", "3600"},
		{"SECRET_ROTATION", "enabled"},
		{"PASSWORD_RESET_URL", "https://app.example.com/reset"},
		{"OPENAI_ORG_ID", "org-" + g.rb(csAlnum, 24)},
		{"GOOGLE_CLIENT_ID", g.googleClientID()},
		{"AZURE_KEY_VAULT_NAME", "acme-kv"},
		{"SSH_KEY_PATH", "/home/alice/.ssh/id_ed25519"},
		{"GPG_KEY_ID", g.rb(csUHex, 16)},
		{"KMS_KEY_ARN", "arn:aws:kms:eu-west-1:123456789012:key/" + g.uuid()},
		{"JWT_PUBLIC_KEY_URL", "https://auth.example.com/.well-known/jwks.json"},
		{"TOKEN_ENDPOINT", "https://oauth2.googleapis.com/token"},
		{"API_KEY_NAME", "production"},
		{"SECRET_ARN", "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/mcp-" + g.rb(csAlnum, 6)},
		{"TOKEN_AUDIENCE", "api://mcp-server"},
		{"AUTH_URL", "https://auth.example.com/oauth/authorize"},
		{"SECRETS_DIR", "/run/secrets"},
		{"KEYCHAIN_NAME", "login.keychain-db"},
		{"CREDENTIALS_PROFILE", "prod-readonly"},
		{"AWS_ACCESS_KEY_ID", "${AWS_ACCESS_KEY_ID}"},
		{"PGPASSFILE", "/home/alice/.pgpass"},
		{"GIT_SSH_COMMAND", "ssh -i ~/.ssh/deploy_key -o IdentitiesOnly=yes"},
		{"HF_HOME", "/data/huggingface"},
		{"TRANSFORMERS_CACHE", "/data/hf-cache"},
		{"TIKTOKEN_CACHE_DIR", "/tmp/tiktoken"},
		{"MAX_OUTPUT_TOKENS", "8192"},
		{"GITHUB_APP_ID", "123456"},
		{"GITHUB_INSTALLATION_ID", "45678901"},
		{"SENTRY_DSN_ENABLED", "false"},
		{"PUBLIC_URL", "https://mcp.example.com"},
	}
	for i, e := range list {
		b.assign(i, e.name, e.value, "@acme/mcp", "mcp/acme", false)
	}
	id := func(name string, a ...string) { b.c(name, "npx", append(A("-y", "@acme/mcp"), a...), "") }
	id("ipfs cid v1", "--cid", "bafybei"+g.rb(csB32Low, 52))
	id("ipfs cid v0", "--cid", "Qm"+g.rb(csBase58, 44))
	id("magnet link", "--magnet", "magnet:?xt=urn:btih:"+g.rb(csHex, 40)+"&dn=ubuntu-24.04.iso")
	id("data uri icon", "--icon", "data:image/png;base64,iVBORw0KGgo"+g.rb(csB64, 300)+"=")
	id("gpg fingerprint", "--gpg-fingerprint", g.rb(csUHex, 40))
	id("ssh known host", "--known-host", g.ben("<known_hosts line>", "github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"+g.pick(csB64, 43)))
	id("wireguard peer public key", "--peer-public-key", g.rb(csB64, 43)+"=")
	id("vercel deployment id", "--deployment", "dpl_"+g.rb(csAlnum, 28))
	id("nostr npub", "--npub", "npub1"+strings.ToLower(g.rb(csBech32Up, 58)))
	id("vscode workspaceFolder", "${workspaceFolder}/server.py")
	id("vscode userHome", "--config", "${userHome}/.config/acme/mcp.json")
	id("claude code default port", "--port", "${PORT:-8080}")
	id("claude code default url", "--api-url", "${API_URL:-https://api.example.com}")
	id("claude code default model", "--model", "${MODEL:-claude-sonnet-4-5}")
	id("docker secret ref", "--secret", "id=npmrc,src=$HOME/.npmrc")
	id("aws sso start url", "--sso-start-url", "https://acme.awsapps.com/start")
	id("google sheet url", "--sheet", "https://docs.google.com/spreadsheets/d/1"+g.rb(csB64URL, 43)+"/edit#gid=0")
	id("notion page url", "--page", "https://www.notion.so/acme/Roadmap-"+g.rb(csHex, 32))
	id("figma file url", "--file", "https://www.figma.com/design/"+g.rb(csAlnum, 22)+"/Design-System?node-id=1-2")
	id("youtube url", "--url", "https://www.youtube.com/watch?v="+g.rb(csB64URL, 11))
	id("github pr url", "--pr", "https://github.com/acme/app/pull/1234#discussion_r"+g.rb(csDigits, 10))
	id("loom share url", "--video", "https://www.loom.com/share/"+g.rb(csHex, 32))
	id("gist url", "--gist", "https://gist.github.com/alice/"+g.rb(csHex, 32))
}

// corpusPathURLs: URLs whose paths or host names hold random-looking IDs
// that are not credentials (documents, commits, hosted MCP endpoints), and
// the few well-known services that do put a secret in the path.
func corpusPathURLs(b *corpusBuilder) {
	g := b.g
	b.section("benign-path-url")
	for _, u := range []string{
		"https://docs.google.com/document/d/1" + g.rb(csB64URL, 43) + "/edit",
		"https://drive.google.com/file/d/1" + g.rb(csB64URL, 32) + "/view?usp=sharing",
		"https://drive.google.com/drive/folders/1" + g.rb(csB64URL, 32),
		"https://airtable.com/app" + g.rb(csAlnum, 14) + "/tbl" + g.rb(csAlnum, 14) + "/viw" + g.rb(csAlnum, 14),
		"https://miro.com/app/board/uXjV" + g.rb(csB64URL, 8) + "=/",
		"https://linear.app/acme/issue/ENG-1234/fix-token-refresh",
		"https://acme.atlassian.net/wiki/spaces/ENG/pages/" + g.rb(csDigits, 10) + "/Runbook",
		"https://acme.slack.com/archives/C0" + g.rb(csUpAlnum, 9) + "/p" + g.rb(csDigits, 16),
		"https://trello.com/b/" + g.rb(csAlnum, 8) + "/mcp-roadmap",
		"https://acme-uploads.s3.amazonaws.com/uploads/" + g.uuid() + "/" + g.rb(csHex, 64) + ".png",
		"https://github.com/acme/app/commit/" + g.rb(csHex, 40),
		"https://github.com/acme/app/blob/" + g.rb(csHex, 40) + "/README.md",
		"https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/resolve/" + g.rb(csHex, 40) + "/config.json",
		"https://cdn.example.com/assets/app." + g.rb(csHex, 20) + ".js",
		"https://" + g.rb(csLowAlnum, 12) + "-" + g.rb(csDigits, 3) + "-" + g.rb(csDigits, 3) + ".ngrok-free.app/mcp",
		"https://" + g.rb(csLowAlnum, 32) + ".lambda-url.us-east-1.on.aws/mcp",
		"https://" + g.rb(csLowAlnum, 10) + ".execute-api.us-east-1.amazonaws.com/prod/mcp",
		"https://mcp-server-" + g.rb(csLowAlnum, 10) + "-uc.a.run.app/mcp",
		"https://acme-app-" + g.rb(csLowAlnum, 9) + "-acme-team.vercel.app/api/mcp",
		"https://acme--mcp-server-serve.modal.run/mcp",
		"https://" + g.supaRef() + ".supabase.co/functions/v1/mcp",
		"https://mcp-" + g.rb(csLowAlnum, 8) + ".azurecontainerapps.io/sse",
		"https://server.smithery.ai/" + g.uuid() + "/mcp",
		"https://registry.npmjs.org/@modelcontextprotocol/server-github/-/server-github-2025.4.8.tgz",
		"https://hub.docker.com/layers/mcp/fetch/latest/images/sha256-" + g.rb(csHex, 64),
		"https://www.notion.so/" + g.rb(csHex, 32) + "?v=" + g.rb(csHex, 32),
		"https://docs.google.com/spreadsheets/d/e/2PACX-1v" + g.rb(csB64URL, 78) + "/pubhtml",
		"https://pastebin.com/raw/" + g.rb(csAlnum, 8),
		"https://jsfiddle.net/alice/" + g.rb(csLowAlnum, 8) + "/",
		"https://app.posthog.com/project/" + g.rb(csDigits, 5) + "/insights/" + g.rb(csAlnum, 8),
	} {
		// Only an MCP endpoint is a realistic server url; a document
		// URL is given to a server as an argument.
		if corpusEndpoint(u) {
			b.u(u, u)
		}
		b.c("as arg "+u, "npx", A("-y", "@acme/mcp", "--url", u), "")
	}
	b.section("url-path")
	b.u("slack webhook as arg-free url", X("https://hooks.slack.com/workflows/T0"+g.rb(csUpAlnum, 9)+"/A0"+g.rb(csUpAlnum, 9)+"/"+g.rb(csDigits, 18)+"/"+g.rs(csAlnum, 24)))
	b.c("slack webhook as --webhook-url", "npx", A("-y", "@acme/notify-mcp", "--webhook-url", X("https://hooks.slack.com/services/T0"+g.rb(csUpAlnum, 9)+"/B0"+g.rb(csUpAlnum, 9)+"/"+g.rs(csAlnum, 24))), "")
	b.c("discord webhook in env", "docker", A("run", "-i", "--rm", "-e", X("DISCORD_WEBHOOK_URL=https://discord.com/api/webhooks/"+g.rb(csDigits, 19)+"/"+g.rs(csB64URL, 68)), "mcp/notify"), "")
	b.u("telegram bot token in path, sendMessage", X("https://api.telegram.org/bot"+g.tk("telegram")+"/sendMessage?chat_id=-100"+g.rb(csDigits, 10)))
	b.u("github token as path segment of a proxy", X("https://mcp.example.com/"+g.tk("ghp")+"/sse"))
	b.u("anthropic key in path", X("https://proxy.example.com/v1/"+g.tk("anthropic")+"/mcp"))
}

// corpusPositionalBenign: random-looking identifiers given as bare
// positional arguments, as many servers take them.
func corpusPositionalBenign(b *corpusBuilder) {
	g := b.g
	b.section("benign-positional")
	pos := func(name, pkg, v string) { b.c(name, "npx", A("-y", pkg, v), "") }
	pos("airtable base id", "airtable-mcp-server", "app"+g.rb(csAlnum, 14))
	pos("figma file key", "figma-developer-mcp", g.rb(csAlnum, 22))
	pos("youtube video id", "@acme/youtube-mcp", g.rb(csB64URL, 11))
	pos("supabase project ref", "@acme/supabase-mcp", g.supaRef())
	pos("cloudflare account id", "@cloudflare/mcp-server-cloudflare", g.rb(csHex, 32))
	pos("sha256 file hash", "@acme/virustotal-mcp", g.rb(csHex, 64))
	pos("commit sha", "@acme/git-mcp", g.rb(csHex, 40))
	pos("ulid", "@acme/mcp", "01J"+g.rb("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 23))
	pos("mongodb object id", "@acme/mongo-mcp", g.rb(csHex, 24))
	pos("stripe customer id", "@acme/stripe-mcp", "cus_"+g.rb(csAlnum, 14))
	pos("intercom workspace", "@acme/intercom-mcp", g.rb(csLowAlnum, 8))
	pos("slack channel id", "@acme/slack-mcp", "C0"+g.rb(csUpAlnum, 9))
	pos("discord guild id", "@acme/discord-mcp", g.rb(csDigits, 19))
	pos("hubspot portal id", "@acme/hubspot-mcp", g.rb(csDigits, 8))
	pos("notion database id dashed", "@acme/notion-mcp", g.uuid())
	pos("gcp project id", "@acme/gcp-mcp", "acme-prod-"+g.rb(csDigits, 6))
	pos("azure resource id", "@azure/mcp", "/subscriptions/"+g.uuid()+"/resourceGroups/rg-mcp/providers/Microsoft.Web/sites/acme-mcp")
	pos("ipfs cid", "@acme/ipfs-mcp", "bafybei"+g.rb(csB32Low, 52))
	pos("eth contract address", "@acme/evm-mcp", "0x"+g.rb(csHex, 40))
	pos("base64 of a path", "@acme/mcp", base64.StdEncoding.EncodeToString([]byte("/Users/alice/Documents/notes")))
	pos("hex-encoded text", "@acme/mcp", fmt.Sprintf("%x", "hello from the mcp corpus"))
	pos("nanoid", "@acme/mcp", g.rb(csB64URL, 21))
	pos("long kebab words", "@acme/mcp", "organisation-wide-knowledge-base-synchronisation")
}

// corpusPasswordChars: human passwords holding each common symbol, in each
// form a password takes on a command line. ($, % and braces are left out:
// they start references.)
func corpusPasswordChars(b *corpusBuilder) {
	g := b.g
	b.section("password-chars")
	for _, sym := range "!#*?@-_.+=&^~;:,/|<>[]()" {
		pw := func() string {
			w := corpusWords[g.r.IntN(len(corpusWords))]
			return g.sec("<password Word"+string(sym)+"NNNNword>", w+string(sym)+g.pick(csDigits, 4)+strings.ToLower(w))
		}
		b.c("--password VALUE with "+string(sym), "uvx", A("mysql-mcp", "--user", "app", "--password", X(pw())), "")
		b.c("--password=VALUE with "+string(sym), "uvx", A("mysql-mcp", "--user=app", X("--password="+pw())), "")
		b.c("-pVALUE with "+string(sym), "mysql", A("-u", "app", X("-p"+pw()), "shop"), "")
		b.c("PASSWORD=VALUE with "+string(sym), "docker", A("run", "-i", "--rm", "-e", X("DB_PASSWORD="+pw()), "mcp/db"), "")
	}
}

// corpusEndpoint reports whether u is one of the hosted MCP endpoints of
// corpusPathURLs rather than a document or repository URL.
func corpusEndpoint(u string) bool {
	for _, h := range []string{".ngrok-free.app/", ".lambda-url.", ".execute-api.", ".run.app/", ".vercel.app/", ".modal.run/", ".supabase.co/functions/", ".azurecontainerapps.io/", "server.smithery.ai/"} {
		if strings.Contains(u, h) {
			return true
		}
	}
	return false
}

// corpusRefDefaults: a reference to a credential-named variable with a
// literal default, as a bare argument, after an ordinary flag, or in the
// command: the default is the value recorded (docs/secrets.md, decision 30).
func corpusRefDefaults(b *corpusBuilder) {
	g := b.g
	b.section("ref-default")
	b.c("bare ${OPENAI_API_KEY:-random}", "npx", A("-y", "@acme/mcp", X("${OPENAI_API_KEY:-"+g.rs(csAlnum, 31)+"}")), "")
	b.c("bare ${OPENAI_API_KEY:-token}", "npx", A("-y", "@acme/mcp", X("${OPENAI_API_KEY:-"+g.tk("openai_proj")+"}")), "")
	b.c("--db ${DB_PASSWORD:-pw}", "npx", A("-y", "@acme/db-mcp", "--db", X("${DB_PASSWORD:-"+g.pw()+"}")), "")
	b.c("--config ${API_TOKEN:-random}", "npx", A("-y", "@acme/mcp", "--config", X("${API_TOKEN:-"+g.rs(csB64URL, 40)+"}")), "")
	b.c("bare ${DB_PASSWORD-pw}", "npx", A("-y", "@acme/db-mcp", X("${DB_PASSWORD-"+g.pw()+"}")), "")
	b.c("bare ${DB_PASSWORD:=pw}", "npx", A("-y", "@acme/db-mcp", X("${DB_PASSWORD:="+g.pw()+"}")), "")
	b.c("bare ${DB_PASSWORD=pw}", "npx", A("-y", "@acme/db-mcp", X("${DB_PASSWORD="+g.pw()+"}")), "")
	b.c("bare ${DB_PASSWORD:-changeme}", "npx", A("-y", "@acme/db-mcp", X("${DB_PASSWORD:-changeme}")), "")
	b.c("--dsn-pass= ${PGPASSWORD:-pw}", "npx", A("-y", "@acme/db-mcp", X("--db-options=${PGPASSWORD:-"+g.pw()+"}")), "")
	b.c("${OPENAI_KEY:-random} (a *_KEY name)", "npx", A("-y", "@acme/mcp", X("${OPENAI_KEY:-"+g.rs(csAlnum, 32)+"}")), "")
	b.c("${GITHUB_TOKEN:-random} in a shell line", "sh", A("-c", X("exec npx -y @acme/mcp ${GITHUB_TOKEN:-"+g.rs(csAlnum, 36)+"}")), "")
	b.c("${API_KEY:-random} in the command", X("npx -y @acme/mcp ${API_KEY:-"+g.rs(csAlnum, 32)+"}"), nil, "")
	b.c("${SECRET:-pw} inside a word", "npx", A("-y", "@acme/mcp", X("--opts=user:${SECRET:-"+g.pw()+"}")), "")
	b.c("nested default, inner credential", "npx", A("-y", "@acme/mcp", X("${MCP_ARG:-${API_TOKEN:-"+g.rs(csAlnum, 32)+"}}")), "")
	b.u("${API_TOKEN:-random} in a URL path", X("https://mcp.example.com/t/${API_TOKEN:-"+g.rs(csAlnum, 32)+"}/mcp"))
}

// corpusRefDefaultsBenign: references with no default, an empty one, a
// placeholder, a reference or a command as the default, an error message
// (:?), an alternate word (:+), and literal defaults of names that are not
// a credential's.
func corpusRefDefaultsBenign(b *corpusBuilder) {
	b.section("benign-ref-default")
	for _, v := range []string{
		"${OPENAI_API_KEY}", "${OPENAI_API_KEY:-}", "${OPENAI_API_KEY-}", "${DB_PASSWORD:=}",
		"${OPENAI_API_KEY:?set OPENAI_API_KEY}", "${DB_PASSWORD?DB_PASSWORD is unset}", "${DB_PASSWORD:?missing password}",
		"${OPENAI_API_KEY:-<your-api-key>}", "${API_TOKEN:-YOUR_API_TOKEN}", "${API_TOKEN:-${FALLBACK_TOKEN}}",
		"${API_TOKEN:-$FALLBACK_TOKEN}", "${DB_PASSWORD:-$(cat /run/secrets/db)}", "${API_KEY:-op://Private/OpenAI/key}",
		"${API_TOKEN:+--token=$API_TOKEN}", "${API_TOKEN:+--verbose}", "${GITHUB_TOKEN_FILE:-/run/secrets/gh}",
		"${PORT:-8080}", "${HOST:-0.0.0.0}", "${LOG_LEVEL:=info}", "${MODEL-claude-sonnet-4-5}",
		"${PAGE_TOKEN:-first}", "${API_KEY_ENV:-OPENAI_API_KEY}", "${AUTH:-oauth}", "${DB_PASSWORD:-}",
	} {
		b.c("bare "+v, "npx", A("-y", "@acme/mcp", v), "")
		b.c("--db "+v, "npx", A("-y", "@acme/mcp", "--db", v), "")
	}
	b.u("url with ${API_TOKEN} path", "https://mcp.example.com/t/${API_TOKEN}/mcp")
	b.u("url with ${REGION:-eu} host", "https://${REGION:-eu}.mcp.example.com/mcp")
}

// corpusEscapedParams: a credential parameter whose name is
// percent-encoded, which a server decodes before it reads it.
func corpusEscapedParams(b *corpusBuilder) {
	g := b.g
	b.section("url-escaped-name")
	b.u("?%74oken=", X("https://mcp.example.com/sse?%74oken="+g.rs(csB64URL, 43)))
	b.u("?tok%65n=", X("https://mcp.example.com/sse?tok%65n="+g.rs(csB64URL, 43)))
	b.u("?TOK%45N= upper escape", X("https://mcp.example.com/sse?TOK%45N="+g.rs(csB64URL, 43)))
	b.u("?api%5Fkey=", X("https://api.example.com/v1?api%5Fkey="+g.rs(csHex, 32)))
	b.u("?api%5fkey= lower hex", X("https://api.example.com/v1?q=1&api%5fkey="+g.rs(csAlnum, 32)))
	b.u("?%6Bey=", X("https://maps.example.com/api?%6Bey="+g.rs(csB64URL, 39)))
	b.u("?%61pp%69d=", X("https://api.example.com/data/2.5/weather?q=London&%61pp%69d="+g.rs(csHex, 32)))
	b.u("?%70assword= after a bad escape elsewhere", X("https://h.example.com/?q=%zz&%70assword="+g.pw()))
	b.u("#%61ccess_token= fragment", X("https://app.example.com/cb#%61ccess_token="+g.rs(csB64URL, 43)+"&token_type=bearer"))
	b.u("?%73ig= signed", X("https://acmestore.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&%73ig="+url.QueryEscape(g.rs(csB64, 43)+"=")))
	b.u("?X-Amz-%53ignature=", X("https://acme.s3.amazonaws.com/f?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-%53ignature="+g.rs(csHex, 64)))
	b.u("jdbc ;%70assword=", X("jdbc:sqlserver://db:1433;databaseName=app;user=sa;%70assword="+g.pw()))
	b.c("arg url ?%74oken=", "npx", A("-y", "mcp-remote", X("https://mcp.example.com/sse?%74oken="+g.rs(csB64URL, 43))), "")
}

// corpusEscapedParamsBenign: escaped names that decode to no credential's
// name, escapes in values, and names with malformed escapes.
func corpusEscapedParamsBenign(b *corpusBuilder) {
	g := b.g
	b.section("benign-url-escaped-name")
	for _, u := range []string{
		"https://mcp.example.com/sse?q=%74oken",
		"https://mcp.example.com/sse?%74oken_type=bearer",
		"https://api.example.com/v1?max%5Ftokens=100",
		"https://api.example.com/v1?page%5Ftoken=" + g.rs(csB64URL, 40),
		"https://api.example.com/v1?sort%3Dkey=1",
		"https://api.example.com/v1?%6Beyword=password",
		"https://api.example.com/v1?%zzoken=abc123",
		"https://api.example.com/v1?%2574oken=abc123",
		"https://api.example.com/v1?top%6=abc123", // a malformed escape: read as written (tok%6 would be a truncated token name now)
		"https://api.example.com/v1?%6Bey=name",
		"https://api.example.com/v1?%74oken=${MCP_TOKEN}",
		"https://api.example.com/v1?%61pi_key=YOUR_API_KEY",
		"https://api.example.com/search?q=%61pi_key%3Dsecret&lang=en",
		"https://api.example.com/v1?client%5Fid=app&response%5Ftype=token",
	} {
		b.u(u, u)
	}
}

// corpusCloudFront: a CloudFront signed URL is refused for its Signature;
// Policy (a policy document) and Key-Pair-Id (a public key's ID) are not
// credentials on their own (docs/secrets.md, decision 32).
func corpusCloudFront(b *corpusBuilder) {
	g := b.g
	policy := base64.StdEncoding.EncodeToString([]byte(`{"Statement":[{"Resource":"https://d111111abcdef8.cloudfront.net/*","Condition":{"DateLessThan":{"AWS:EpochTime":1767225600}}}]}`))
	cfPolicy := strings.NewReplacer("+", "-", "=", "_", "/", "~").Replace(policy) // CloudFront's URL-safe base64
	b.section("url-signed-cloudfront")
	b.u("cloudfront signature first", X("https://d111111abcdef8.cloudfront.net/a.mp4?Signature="+g.rs(csB64URL, 172)+"&Policy="+cfPolicy+"&Key-Pair-Id=K"+g.rb(csUpAlnum, 13)))
	b.u("cloudfront lowercase signature", X("https://d111111abcdef8.cloudfront.net/a.mp4?Expires=1767225600&signature="+g.rs(csB64URL, 172)+"&Key-Pair-Id=APKA"+g.rb(csUpAlnum, 16)))
	b.u("cloudfront policy and signature, no key id", X("https://d111111abcdef8.cloudfront.net/*?Policy="+cfPolicy+"&Signature="+g.rs(csB64URL, 172)))
	b.c("cloudfront signed url as arg", "npx", A("-y", "@acme/media-mcp", "--source", X("https://d111111abcdef8.cloudfront.net/a.mp4?Policy="+cfPolicy+"&Signature="+g.rs(csB64URL, 172)+"&Key-Pair-Id=K"+g.rb(csUpAlnum, 13))), "")

	b.section("benign-url-cloudfront")
	b.u("cloudfront Policy alone", "https://d111111abcdef8.cloudfront.net/a.mp4?Policy="+cfPolicy)
	b.u("cloudfront Key-Pair-Id alone (APKA)", "https://d111111abcdef8.cloudfront.net/a.mp4?Key-Pair-Id=APKA"+g.rb(csUpAlnum, 16))
	b.u("cloudfront Key-Pair-Id alone (key group)", "https://d111111abcdef8.cloudfront.net/a.mp4?Key-Pair-Id=K"+g.rb(csUpAlnum, 13))
	b.u("cloudfront Policy and Key-Pair-Id, no signature", "https://d111111abcdef8.cloudfront.net/*?Policy="+cfPolicy+"&Key-Pair-Id=K"+g.rb(csUpAlnum, 13))
	b.u("cloudfront Expires alone", "https://d111111abcdef8.cloudfront.net/a.mp4?Expires=1767225600")
	b.u("?policy=strict", "https://mcp.example.com/mcp?policy=strict&key-pair-id=default")
	b.c("--key-pair-id flag", "npx", A("-y", "@acme/cdn-mcp", "--key-pair-id", "K"+g.rb(csUpAlnum, 13), "--policy", cfPolicy), "")
}

// pctFirst percent-encodes the i-th byte of a token, as %XX.
func pctFirst(tok string, i int) string {
	return tok[:i] + fmt.Sprintf("%%%02X", tok[i]) + tok[i+1:]
}

// corpusEncodedTokens: a token that only its percent-decoded form shows: set
// apart from the word before it by an escaped separator (a%3Dghp_…,
// %20ghp_…), or with a character of its prefix or body escaped (ghp%5F…,
// g%68p_…, %73k-proj-…). A server decodes the value once and reads the
// token (docs/secrets.md, decision 33).
func corpusEncodedTokens(b *corpusBuilder) {
	g := b.g
	b.section("encoded-token")
	b.u("?q=a%3Dghp_", X("http://h/mcp?q=a%3D"+g.tk("ghp")))
	b.u("?q=x%20ghp_ (escaped space)", X("https://mcp.example.com/mcp?q=x%20"+g.tk("ghp")))
	b.u("?q=ghp%5F", X("https://mcp.example.com/mcp?q="+pctFirst(g.tk("ghp"), 3)))
	b.u("?q=ghp%5f lower hex", X("https://mcp.example.com/mcp?q="+strings.Replace(pctFirst(g.tk("ghp"), 3), "%5F", "%5f", 1)))
	b.u("path g%68p_", X("https://mcp.example.com/mcp/"+pctFirst(g.tk("ghp"), 1)))
	b.u("path %73k-proj-", X("https://mcp.example.com/mcp/"+pctFirst(g.tk("openai_proj"), 0)))
	b.u("path x%2Fsk-ant- (escaped slash)", X("https://mcp.example.com/t/x%2F"+g.tk("anthropic")+"/mcp"))
	b.u("escaped body character", X("https://mcp.example.com/sse?q="+pctFirst(g.tk("ghp"), 20)))
	b.u("fragment x%3Dglpat-", X("https://mcp.example.com/mcp#x%3D"+g.tk("glpat")))
	b.u("?q=x%3Dxoxb- slack", X("https://mcp.example.com/mcp?q=x%3D"+g.tk("xoxb")))
	b.c("--a=b%3Dghp_", "npx", A("-y", "@acme/mcp", X("--a=b%3D"+g.tk("ghp"))), "")
	b.c("%20ghp_ arg", "npx", A("-y", "@acme/mcp", X("%20"+g.tk("ghp"))), "")
	b.c("ghp%5F arg", "npx", A("-y", "@acme/mcp", X(pctFirst(g.tk("ghp"), 3))), "")
	b.c("g%68p_ arg after a flag", "npx", A("-y", "@acme/mcp", "--query", X(pctFirst(g.tk("ghp"), 1))), "")
	b.c("mcp-remote url %73k-proj- path", "npx", A("-y", "mcp-remote", X("https://mcp.example.com/mcp/"+pctFirst(g.tk("openai_proj"), 0))), "")
	b.c("AKIA in escaped query", "uvx", A("aws-mcp", X("--filter=owner%3D"+g.tk("akia"))), "")
	b.c("x%3Dghp_ in the command", X("npx -y @acme/mcp --q=x%3D"+g.tk("ghp")), nil, "")
	b.c("sh -c with %3Dghp_", "sh", A("-c", X("exec npx -y @acme/mcp --q=x%3D"+g.tk("ghp"))), "")
}

// corpusEncodedTokensBenign: escapes that decode to no token: placeholders,
// words and identifiers that start like a token's prefix, and malformed
// escapes.
func corpusEncodedTokensBenign(b *corpusBuilder) {
	g := b.g
	b.section("benign-encoded-token")
	for _, u := range []string{
		"https://mcp.example.com/mcp?q=a%3Dghp_...",
		"https://mcp.example.com/mcp?q=a%3Dghp_" + rep("x", 36),
		"https://mcp.example.com/mcp?q=a%3Dghp_" + g.rb(csAlnum, 12),
		"https://mcp.example.com/mcp?q=%73k-learn-model-selection",
		"https://mcp.example.com/mcp?redirect=%2Fdocs%2Fghp_setup%2Fstep-two",
		"https://mcp.example.com/mcp?q=100%25&r=%zz&s=%",
		"https://mcp.example.com/mcp/%7B" + g.uuid() + "%7D",
		"https://mcp.example.com/mcp?title=Caf%C3%A9%20sk-learn%20notes",
		"https://mcp.example.com/mcp?q=%2Fkey-value-store%2Fsecret_sauce",
		"https://mcp.example.com/mcp?sha=%3D" + g.rb(csHex, 40),
	} {
		b.u(u, u)
	}
	b.c("--a=b%3Dghp_...", "npx", A("-y", "@acme/mcp", "--a=b%3Dghp_..."), "")
	b.c("%20sk-learn arg", "npx", A("-y", "@acme/mcp", "--query", "how%20to%20use%20sk-learn%20pipelines"), "")
	b.c("escaped path arg", "npx", A("-y", "@acme/mcp", "/Users/me/My%20Documents/AKIA%20notes"), "")
	b.c("escaped uuid arg", "npx", A("-y", "@acme/mcp", "--workspace=%7B"+g.uuid()+"%7D"), "")
}

// textCase is one text CheckText reads: a system prompt, a description.
type textCase struct {
	name, text string
	dirty      bool
}

// corpusTexts: prose holding a credential only its encoded form shows
// (refused), and prose with escapes, base64-looking words, hashes, UUIDs
// and data URLs of images (accepted).
func corpusTexts(g *corpusGen) []textCase {
	b := &corpusBuilder{g: g}
	b.section("text")
	var cs []textCase
	d := func(name, text string) { cs = append(cs, textCase{name, text, true}) }
	ok := func(name, text string) { cs = append(cs, textCase{name, text, false}) }
	d("key%3Dghp_", "Call it with key%3D"+g.tk("ghp")+" in the query.")
	d("ghp%5F", "The token is "+pctFirst(g.tk("ghp"), 3)+".")
	d("g%68p_", "Use g"+pctFirst(g.tk("ghp"), 1)[1:]+" to call it.")
	d("url path %73k-proj-", "Endpoint: https://mcp.example.com/mcp/"+pctFirst(g.tk("openai_proj"), 0))
	d("%20xoxb-", "Slack:%20"+g.tk("xoxb"))
	d("escaped body character", "See "+pctFirst(g.tk("glpat"), 10)+" for access.")

	ok("escaped prose", "Search for caf%C3%A9%20menus; use sk-learn%20pipelines; 100%25 done; %zz stays.")
	ok("escaped placeholder", "Pass key%3Dghp_... or token%3D%3Cyour-token%3E.")
	ok("escaped short prefix", "The redirect is %2Fdocs%2Fghp_setup and %2Fkey-value-store.")
	ok("escaped uuid", "The workspace is %7B"+g.uuid()+"%7D.")

	// Base64: a token inside base64 text (decision 34).
	std := base64.StdEncoding.EncodeToString
	raw := func(v string) string { return base64.RawURLEncoding.EncodeToString([]byte(v)) }
	d("base64 of a token", "Decode "+std([]byte(g.tk("ghp")))+" and send it.")
	d("base64 JSON with a token", "config: "+std([]byte(`{"githubToken":"`+g.tk("ghp")+`","org":"acme"}`)))
	d("base64url JSON with a token, no padding", "Pass --config="+raw(`{"apiKey":"`+g.tk("openai_proj")+`"}`)+" to it.")
	d("base64 kubeconfig with a service-account JWT", "kubeconfig:\n"+std([]byte("apiVersion: v1\nkind: Config\nusers:\n- name: ci\n  user:\n    token: "+g.jwtK8s()+"\n")))
	d("base64 of a PEM private key", "key="+std([]byte(g.pem(privKey("RSA"), "\n", true))))
	d("base64 of a slack webhook", "("+std([]byte(`{"webhook":"https://hooks.slack.com/services/T`+g.pick(csUpAlnum, 8)+"/B"+g.pick(csUpAlnum, 10)+"/"+g.pick(csAlnum, 24)+`"}`))+")")

	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), g.pick(csAlnum, 1)...)
	for range 300 {
		png = append(png, byte(g.r.IntN(256)))
	}
	svg := `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><path d="M12 2L2 7l10 5 10-5-10-5zm0 13l-10-5v6l10 5 10-5v-6l-10 5z" fill="#336699"/></svg>`
	sri := make([]byte, 48)
	for i := range sri {
		sri[i] = byte(g.r.IntN(256))
	}
	ok("base64 of a sentence", "The greeting is "+std([]byte("Hello, world! This is an ordinary test message for the tool."))+" in base64.")
	ok("base64 JSON without a credential", "Example: "+std([]byte(`{"name":"acme-mcp","version":"1.2.0","tools":["search","fetch"]}`)))
	ok("base64 JSON with a placeholder", "Set config to "+std([]byte(`{"token":"ghp_...","apiKey":"${API_KEY}","secret":"<your-secret>"}`))+".")
	ok("base64 of a sentence about credentials", std([]byte("postgres://user:password@localhost/db is the URL's shape; set --api-key to your key.")))
	ok("base64 JSON with a non-token key", "Or "+std([]byte(`{"apiKey":"abc123","password":"hunter2"}`))+": plain JSON of it is not judged either.")
	ok("png data url", "Icon: data:image/png;base64,"+std(png))
	ok("svg data url", `<img src="data:image/svg+xml;base64,`+std([]byte(svg))+`">`)
	ok("hashes", "sha256 "+g.rb(csHex, 64)+", commit "+g.rb(csHex, 40)+", integrity sha384-"+std(sri)+".")
	ok("uuids", "Workspace "+g.uuid()+" and project "+g.uuid()+" are linked.")
	ok("long identifiers", "See AbstractSingletonProxyFactoryBeanConfigurationManager and /usr/local/lib/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js.")
	ok("base64-looking words", "Words like Base64EncodedConfigurationValueForProductionUse, ThisIsNotBase64ButLooksLikeItVeryMuch and aGVsbG8 appear.")
	ok("ssh public key", "Add ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"+g.rb(csB64, 43)+" alice@laptop to authorized_keys.")
	ok("base64 of an escaped URL", "Redirect: "+std([]byte("https://mcp.example.com/mcp?q=%2Fdocs%2Fghp_setup&r=100%25")))
	return cs
}

// TestCorpusText runs corpusTexts through CheckText: every dirty text is
// refused at its pointer, no clean one is, and no message quotes anything.
func TestCorpusText(t *testing.T) {
	g := newCorpusGen()
	cases := corpusTexts(g)
	var planted, found, benign, fp int
	for _, c := range cases {
		err := secrets.CheckText("/systemPrompt", c.text)
		corpusLeaks(t, g, corpusCase{name: c.name, args: []string{c.text}}, []error{err})
		for _, r := range refusals.All(err) {
			if r.Pointer != "/systemPrompt" {
				t.Errorf("%s: refusal at %q", c.name, r.Pointer)
			}
		}
		if c.dirty {
			planted++
			if err != nil {
				found++
			} else {
				t.Errorf("MISS [text] %s: %s", c.name, g.show(c.text))
			}
		} else {
			benign++
			if err != nil {
				fp++
				t.Errorf("FALSE POSITIVE [text] %s: %s: %v", c.name, g.show(c.text), err)
			}
		}
	}
	t.Logf("text: recall %d/%d, false positives %d of %d benign texts", found, planted, fp, benign)
}
