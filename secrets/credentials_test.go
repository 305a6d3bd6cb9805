package secrets_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/guardian-agent/guardian-go/secrets"
)

// Credentials, on values people put in env and headers, returns exactly
// the secret substrings, and nothing for references, placeholders and
// ordinary settings. Each password is built in code; short ones count.
func TestCredentials(t *testing.T) {
	pw := "p" + "4Ss" // five bytes and less: still a credential
	tok := fit("Ex4mpleFakeTok3n", 24)
	cases := []struct {
		name, value string
		want        []string
	}{
		{"mysql DSN", "mysql://root:" + pw + "@db/app", []string{pw}},
		{"postgres URL with query", "postgres://app:" + pw + "@db:5432/app?sslmode=disable", []string{pw}},
		{"mongodb+srv", "mongodb+srv://u:" + pw + "@cluster0.example.mongodb.net/db", []string{pw}},
		{"redis empty user", "redis://:" + pw + "@cache:6379/0", []string{pw}},
		{"two-byte password", "amqp://guest:" + pw[:2] + "@mq/", []string{pw[:2]}},
		{"scheme-less proxy", "user:" + pw + "@proxy.example.com:3128", []string{pw}},
		{"Go MySQL DSN", "root:" + pw + "@tcp(db:3306)/app", []string{pw}},
		{"ADO.NET connection string", "Server=db;Database=app;User Id=sa;Password=" + pw + ";", []string{pw}},
		{"libpq key=value", "host=db user=app password=" + pw + " dbname=app", []string{pw}},
		{"JDBC properties", "jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=" + pw, []string{pw}},
		{"JSON headers", `{"Authorization": "Bearer ` + tok + `"}`, []string{tok}},
		{"JSON api key", `{"apiKey": "` + pw + `", "region": "eu"}`, []string{pw}},
		{"header line", "Authorization: Bearer " + tok, []string{tok}},
		{"bearer value alone, short", "Bearer " + pw, []string{pw}},
		{"assignment", "API_TOKEN=" + pw, []string{pw}},
		{"token", fake.github, []string{fake.github}},
		{"token in a URL", "https://x-access-token:" + fake.github + "@github.com/org/repo.git", []string{fake.github}},
		{"query credential", "https://api.example.com/v1?api_key=" + pw + "&region=eu", []string{pw}},
		{"reference default", "postgres://app:${DB_PASSWORD:-" + pw + "}@db/app", []string{pw}},
		{"two passwords", "a://u:" + pw + "@h1 b://v:" + pw[:3] + "x@h2", []string{pw, pw[:3] + "x"}},
		{"same password twice", "a://u:" + pw + "@h1 b://v:" + pw + "@h2", []string{pw}},
		{"percent-encoded token", "token%3D" + strings.Replace(fake.github, "_", "%5F", 1), []string{strings.Replace(fake.github, "_", "%5F", 1)}},

		{"reference", "${DB_PASSWORD}", nil},
		{"URL with reference", "postgres://app:${DB_PASSWORD}@db/app", nil},
		{"placeholder", "<token>", nil},
		{"placeholder password", "mysql://root:<password>@db/app", nil},
		{"user alone", "https://alice@example.com/", nil},
		{"plain URL", "https://api.example.com/v1?region=eu-west-1", nil},
		{"number", "8080", nil},
		{"word", "production", nil},
		{"path", "/run/secrets/db_password", nil},
		{"empty", "", nil},
		{"bearer reference", "Bearer ${TOKEN}", nil},
		{"JSON without credentials", `{"region": "eu", "timeout": 30}`, nil},
	}
	for _, c := range cases {
		got := secrets.Credentials(c.value)
		if !slices.Equal(got, c.want) {
			// Lengths only: the values are fakes, but a message never
			// prints what the scan took for a secret.
			t.Errorf("%s: got %d credentials %v, want %d %v", c.name, len(got), lens(got), len(c.want), lens(c.want))
		}
		if c.want == nil && got != nil {
			t.Errorf("%s: got a non-nil empty result", c.name)
		}
	}
}

func lens(ss []string) []int {
	var n []int
	for _, s := range ss {
		n = append(n, len(s))
	}
	return n
}

// On every value of the corpus, Credentials agrees with CheckArgs reading
// the value as one argument: what it refuses, Credentials finds (and each
// finding is a substring of the value), and what it accepts, Credentials
// finds nothing in. A refused value holding planted secrets gives a
// credential that overlaps one of them (not all: a CloudFront policy
// travels with its signature, and only the signature is secret).
func TestCredentialsCorpus(t *testing.T) {
	g := newCorpusGen()
	var refused, found, benign, quiet, overlaps, planted int
	for _, c := range corpusCases(g) {
		values := append([]string{c.command, c.url}, c.args...)
		for _, v := range values {
			if v == "" {
				continue
			}
			creds := secrets.Credentials(v)
			for _, s := range creds {
				if s == "" || !strings.Contains(v, s) {
					t.Fatalf("%s: a credential is not a substring of its value", g.plain(c.name))
				}
			}
			if secrets.CheckArgs("/v", []string{v}) != nil {
				refused++
				if creds != nil {
					found++
				} else {
					t.Errorf("MISS %s: %s: refused as an argument, no credential found", c.cat, g.show(v))
				}
			} else {
				benign++
				if creds == nil {
					quiet++
				} else {
					t.Errorf("EXTRA %s: %s: accepted as an argument, %d credentials found", c.cat, g.show(v), len(creds))
				}
			}
			if creds == nil {
				continue
			}
			holds, hit := false, false
			for s := range g.secret {
				if len(s) < 4 || !strings.Contains(v, s) {
					continue
				}
				holds = true
				if slices.ContainsFunc(creds, func(c string) bool { return strings.Contains(c, s) || strings.Contains(s, c) }) {
					hit = true
				}
			}
			if holds {
				planted++
				if hit {
					overlaps++
				} else {
					t.Errorf("%s: %s: the credentials found overlap no planted secret", c.cat, g.plain(c.name))
				}
			}
		}
	}
	t.Logf("refused values: %d of %d give credentials; accepted values: %d of %d give none; values with planted secrets whose credentials overlap one: %d of %d",
		found, refused, quiet, benign, overlaps, planted)
}

// Credentials is linear: a value 40 times longer takes about 40 times as
// long, never 1600 (hostile repetitions of every opener). The bound, ten
// times the linear ratio, leaves room for a busy machine and -race.
func TestCredentialsLinear(t *testing.T) {
	for _, unit := range []string{
		"a://u:p@", "password=", "${A:-", `"token":"`, "Bearer ", "-----BEGIN PRIVATE KEY-----", "%41", "ghp_", "@//", "u:p@h.io ",
		"</password>", "\npassword: x", `key="a" value="`, "https:/u:p@", `\u0041\/`, "${API_KEY:-${", "X-API-Key: ", "%7B%22a",
		"{apiKey: '", "bearer token ", "\u2014password ", "-----BEGIN PRIVATE KEY-----\nProc-Type: x\n",
	} {
		small := strings.Repeat(unit, 500)
		big := strings.Repeat(unit, 20000)
		ts := timeIt(func() { secrets.Credentials(small) })
		tb := timeIt(func() { secrets.Credentials(big) })
		if tb > 400*ts+50*time.Millisecond {
			t.Errorf("%q repeated: 40x input took %v vs %v", unit, tb, ts)
		}
	}
}

func timeIt(f func()) time.Duration {
	best := time.Duration(1 << 62)
	for range 3 {
		start := time.Now()
		f()
		best = min(best, time.Since(start))
	}
	return best
}
