package secrets_test

// Fresh values of issue 19's token classes, generated anew on every run:
// a vendor prefix no list names with a generated body or a UUID, in prose
// and as a positional argument, and a UUID or hex key in a credential
// header line. The generator knows nothing of the rules' lists; the
// benign side is what such values sit beside in real descriptions and
// launch lines (UUIDs as IDs, digests, versions, package names).
//
// A failure prints the seed (GUARDIAN_FRESH_SEED=N reruns it) and the
// shape of the value, never the value.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/secrets"
)

const (
	alphaLower = "abcdefghijklmnopqrstuvwxyz"
	alphaUpper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	alphaDigit = "0123456789"
	alphaHex   = "0123456789abcdef"
)

// freshGen draws the values of one run.
type freshGen struct{ r *rand.Rand }

func newFreshGen(t testing.TB) *freshGen {
	seed := rand.Uint64()
	if s := os.Getenv("GUARDIAN_FRESH_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("GUARDIAN_FRESH_SEED: %v", err)
		}
		seed = n
	}
	t.Logf("seed %d (GUARDIAN_FRESH_SEED=%d reruns it)", seed, seed)
	return &freshGen{rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

func (g *freshGen) pick(set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[g.r.IntN(len(set))]
	}
	return string(b)
}

func (g *freshGen) one(options ...string) string { return options[g.r.IntN(len(options))] }

func (g *freshGen) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

func (g *freshGen) uuid(upper bool) string {
	h := g.pick(alphaHex, 32)
	u := h[0:8] + "-" + h[8:12] + "-4" + h[13:16] + "-" + g.one("8", "9", "a", "b") + h[17:20] + "-" + h[20:32]
	if upper {
		return strings.ToUpper(u)
	}
	return u
}

// prefix is a vendor's prefix, as no list has it: one or two segments of
// two to seven letters (a digit after the first letter now and then, as
// in r8_ or dop_v1_), in one case, each followed by '_' or '-'.
func (g *freshGen) prefix() (string, string) {
	upper := g.r.IntN(5) == 0
	sep := g.one("_", "-")
	seg := func() string {
		s := g.pick(alphaLower, g.between(2, 7))
		if g.r.IntN(6) == 0 {
			s = s[:1] + g.pick(alphaDigit, 1) + s[1:]
		}
		if upper {
			s = strings.ToUpper(s)
		}
		return s
	}
	p := seg() + sep
	if g.r.IntN(3) == 0 {
		p += seg() + g.one("_", "-")
	}
	return p, fmt.Sprintf("%q", p)
}

// body is a generated token body and its shape: letters and digits (either
// or both cases), hex, or base64url, 20 characters or more.
func (g *freshGen) body() (string, string) {
	switch g.r.IntN(6) {
	case 0, 1:
		n := g.between(20, 64)
		return g.pick(alphaLower+alphaUpper+alphaDigit, n), fmt.Sprintf("%d base62", n)
	case 2:
		n := g.between(20, 64)
		return g.pick(alphaLower+alphaDigit, n), fmt.Sprintf("%d lower+digits", n)
	case 3:
		n := g.between(20, 64)
		return g.pick(alphaUpper+alphaDigit, n), fmt.Sprintf("%d upper+digits", n)
	case 4:
		n := g.one("32", "40", "48", "64")
		k, _ := strconv.Atoi(n)
		return g.pick(alphaHex, k), n + " hex"
	default:
		n := g.between(24, 64)
		b := g.pick(alphaLower+alphaUpper+alphaDigit, 1) + g.pick(alphaLower+alphaUpper+alphaDigit+"-_", n-2) + g.pick(alphaLower+alphaUpper+alphaDigit, 1)
		return b, fmt.Sprintf("%d base64url", n)
	}
}

// token is a vendor prefix and a generated body, or a prefix and a UUID.
func (g *freshGen) token(uuid bool) (string, string) {
	p, ps := g.prefix()
	if uuid {
		up := g.r.IntN(4) == 0
		return p + g.uuid(up), ps + "+uuid"
	}
	b, bs := g.body()
	return p + b, ps + "+" + bs
}

// prose puts v in a sentence of a tool description.
func (g *freshGen) prose(v string) (string, string) {
	forms := []string{
		"Authenticate with %s before calling this tool.",
		"Example: %s",
		"The service key (%s) is used for every request.",
		"Use `%s` as the credential.",
		"Configured with \"%s\".",
		"Connects as %s, then lists the items.",
		"%s",
		"Pass %s, or set it in the environment.",
		"key %s;",
	}
	f := g.one(forms...)
	return fmt.Sprintf(f, v), f
}

// header is a credential header's name: the well-known ones and vendors'
// own, as documentation writes them.
func (g *freshGen) header() string {
	vendor := strings.ToUpper(g.pick(alphaLower, 1)) + g.pick(alphaLower, g.between(3, 8))
	return g.one(
		"X-API-Key", "x-api-key", "Api-Key", "X-Auth-Token", "X-Access-Token",
		"X-"+vendor+"-API-Key", "X-"+vendor+"-Token", "X-"+vendor+"-Key", vendor+"-Api-Key",
		vendor+"-Token", "X-"+vendor+"-Secret", "X-"+vendor+"-Auth-Token", "X-"+vendor+"-Access-Key",
	)
}

// keyValue is a key as a UUID or hex, as many vendors issue them.
func (g *freshGen) keyValue() (string, string) {
	switch g.r.IntN(4) {
	case 0:
		return g.uuid(false), "uuid"
	case 1:
		return g.uuid(true), "UUID"
	case 2:
		n := g.one("32", "40", "64")
		k, _ := strconv.Atoi(n)
		return g.pick(alphaHex, k), n + " hex"
	default:
		return strings.ToUpper(g.pick(alphaHex, 32)), "32 HEX"
	}
}

// freshCase is one generated value: prose for CheckText, or the
// arguments of a launch line for CheckArgs.
type freshCase struct {
	text  string
	args  []string
	shape string
}

func (c freshCase) refused() bool {
	if c.args != nil {
		return secrets.CheckArgs("/args", c.args) != nil
	}
	return secrets.CheckText("/description", c.text) != nil
}

type freshClass struct {
	name  string
	dirty bool
	gen   func(g *freshGen) freshCase
}

// launch puts v as a positional argument of a launch line.
func (g *freshGen) launch(v string) ([]string, string) {
	pkg := "@" + g.pick(alphaLower, 5) + "/mcp-" + g.pick(alphaLower, 6)
	switch g.r.IntN(4) {
	case 0:
		return []string{"-y", pkg, v}, "npx -y PKG <v>"
	case 1:
		return []string{"run", "-i", "--rm", "ghcr.io/" + g.pick(alphaLower, 6) + "/mcp:latest", v}, "docker run … IMAGE <v>"
	case 2:
		return []string{g.pick(alphaLower, 6) + "-mcp", "serve", v}, "uvx PKG serve <v>"
	default:
		return []string{"-y", pkg, "--stdio", "--", v}, "npx -y PKG --stdio -- <v>"
	}
}

var freshClasses = []freshClass{
	{"prefixed token in prose", true, func(g *freshGen) freshCase {
		v, vs := g.token(false)
		t, ts := g.prose(v)
		return freshCase{text: t, shape: ts + " with " + vs}
	}},
	{"prefix and UUID in prose", true, func(g *freshGen) freshCase {
		v, vs := g.token(true)
		t, ts := g.prose(v)
		return freshCase{text: t, shape: ts + " with " + vs}
	}},
	{"prefixed token as an argument", true, func(g *freshGen) freshCase {
		v, vs := g.token(false)
		a, as := g.launch(v)
		return freshCase{args: a, shape: as + " with " + vs}
	}},
	{"prefix and UUID as an argument", true, func(g *freshGen) freshCase {
		v, vs := g.token(true)
		a, as := g.launch(v)
		return freshCase{args: a, shape: as + " with " + vs}
	}},
	{"UUID or hex in a credential header line", true, func(g *freshGen) freshCase {
		h := g.header()
		v, vs := g.keyValue()
		f := g.one("%s: %s", "Send the header %s: %s with each request.", "curl -H '%s: %s' https://api.example.com", "{\"headers\": {\"%s: %s\"}}")
		return freshCase{text: fmt.Sprintf(f, h, v), shape: fmt.Sprintf(f, h, vs)}
	}},
	{"Authorization with any scheme and a UUID or hex", true, func(g *freshGen) freshCase {
		scheme := g.one("Bearer", "Token", "ApiKey", "Key", strings.ToUpper(g.pick(alphaLower, 1))+g.pick(alphaLower, g.between(3, 8)),
			strings.ToUpper(g.pick(alphaLower, 1))+g.pick(alphaLower, 5)+"-API-Key", strings.ToUpper(g.pick(alphaLower, 4)))
		v, vs := g.keyValue()
		f := g.one("Authorization: %s %s", "Send Authorization: %s %s with each request.", "-H 'Authorization: %s %s'")
		return freshCase{text: fmt.Sprintf(f, scheme, v), shape: fmt.Sprintf(f, scheme, vs)}
	}},
	{"IDs, digests and versions in prose", false, func(g *freshGen) freshCase {
		v, vs := g.benign()
		t, ts := g.prose(v)
		return freshCase{text: t, shape: ts + " with " + vs}
	}},
	{"IDs, digests and versions as an argument", false, func(g *freshGen) freshCase {
		v, vs := g.benign()
		if strings.ContainsAny(v, " ") {
			v = strings.Fields(v)[0]
		}
		a, as := g.launch(v)
		return freshCase{args: a, shape: as + " with " + vs}
	}},
	{"IDs in other header lines", false, func(g *freshGen) freshCase {
		h := g.one("X-Request-Id", "X-Correlation-ID", "Idempotency-Key", "X-Trace-Id", "X-Amz-Request-Id", "ETag", "If-None-Match",
			"X-"+strings.ToUpper(g.pick(alphaLower, 1))+g.pick(alphaLower, 5)+"-Request-Id", "X-Session-Id", "Mcp-Session-Id")
		v, vs := g.keyValue()
		return freshCase{text: fmt.Sprintf("Responses carry %s: %s for support.", h, v), shape: h + ": " + vs}
	}},
}

// benign is a value that stands where tokens stand in real text and is
// none: an ID, a digest, a version, a package name.
func (g *freshGen) benign() (string, string) {
	idNouns := []string{"user", "project", "workspace", "org", "team", "request", "trace", "run", "job", "task", "order", "event", "item", "document", "page", "file", "thread", "message", "node"}
	switch g.r.IntN(13) {
	case 0:
		return g.uuid(g.r.IntN(3) == 0), "bare uuid"
	case 1:
		return g.pick(alphaHex, 40), "commit hash"
	case 2:
		return fmt.Sprintf("v%d.%d.%d-%s.%d", g.r.IntN(10), g.r.IntN(30), g.r.IntN(30), g.one("alpha", "beta", "rc", "next", "canary"), g.r.IntN(40)), "pre-release version"
	case 3:
		return fmt.Sprintf("v0.0.0-2024%02d%02d%06d-%s", 1+g.r.IntN(12), 1+g.r.IntN(28), g.r.IntN(240000), g.pick(alphaHex, 12)), "Go pseudo-version"
	case 4:
		return "@" + g.pick(alphaLower, 6) + "/" + strings.Join([]string{g.one("mcp", "server", "tools"), g.pick(alphaLower, 5), g.pick(alphaLower, 7)}, "-"), "npm package name"
	case 5:
		return "sha256:" + g.pick(alphaHex, 64), "sha256 digest"
	case 6:
		n := g.one(idNouns...)
		return n + g.one("_", "-") + g.uuid(false), "ID noun + uuid"
	case 7:
		words := []string{"list", "all", "open", "pull", "requests", "for", "the", "current", "repository", "and", "branch", "name", "value"}
		var w []string
		for range g.between(4, 7) {
			w = append(w, g.one(words...))
		}
		return strings.Join(w, g.one("_", "-")), "snake or kebab identifier"
	case 8:
		return "https://www.notion.so/" + strings.ToUpper(g.pick(alphaLower, 1)) + g.pick(alphaLower, 5) + "-" + strings.ToUpper(g.pick(alphaLower, 1)) + g.pick(alphaLower, 4) + "-" + g.pick(alphaHex, 32), "Notion page URL"
	case 9:
		return fmt.Sprintf("%d.%d.%d-build.%d+sha.%s", g.r.IntN(5), g.r.IntN(20), g.r.IntN(20), g.r.IntN(900), g.pick(alphaHex, 7)), "semver with build metadata"
	case 10:
		return "ghcr.io/" + g.pick(alphaLower, 6) + "/mcp-server@sha256:" + g.pick(alphaHex, 64), "image digest reference"
	case 11:
		return fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02dZ", 2020+g.r.IntN(6), 1+g.r.IntN(12), 1+g.r.IntN(28), g.r.IntN(24), g.r.IntN(60), g.r.IntN(60)), "timestamp"
	default:
		return "urn:uuid:" + g.uuid(false), "urn:uuid"
	}
}

// freshRounds is how many values of each class one run draws.
const freshRounds = 400

// TestFreshTokenClasses: every generated credential of each class is
// refused, and no benign value is; the per-class scores are logged (the
// issue's before/after numbers come from this test run on each side).
func TestFreshTokenClasses(t *testing.T) {
	g := newFreshGen(t)
	for _, cl := range freshClasses {
		refused := 0
		var wrong []string
		for range freshRounds {
			c := cl.gen(g)
			r := c.refused()
			if r {
				refused++
			}
			if r != cl.dirty && len(wrong) < 5 {
				wrong = append(wrong, c.shape)
			}
		}
		t.Logf("%-50s refused %3d of %d (%5.1f%%)", cl.name, refused, freshRounds, 100*float64(refused)/freshRounds)
		// A credential class is met at 98% (a generated body can read
		// as words by chance, and a prefix can be a noun that marks an
		// ID: see docs/secrets.md); a benign value is never refused.
		if cl.dirty && refused*100 >= freshRounds*98 || !cl.dirty && refused == 0 {
			continue
		}
		for _, w := range wrong {
			if cl.dirty {
				t.Errorf("%s: not refused: %s", cl.name, w)
			} else {
				t.Errorf("%s: refused: %s", cl.name, w)
			}
		}
	}
}
