package secrets_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/refusals"
	"github.com/guardian-agent/guardian-go/secrets"
)

// The fuzz targets plant a secret into fuzzed surroundings and check that
// nothing panics and that, whatever the input, no message ever carries the
// secret or a piece of it. A planted token of a well-known format must also
// still be refused, wherever it lands.

var plantedToken = fake.github

// fixedMessages is every line a refusal from these targets can print: one
// per rule and pointer, built from the rule table alone. A message made
// only of these lines cannot hold anything of the input.
var fixedMessages = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range secrets.Rules() {
		for _, p := range []string{"/args/0", "/args/1", "/args/2", "/args/3", "/url", "/command", "/text"} {
			m[p+": "+refusals.ErrContainsSecret.Error()+": "+r.ID+": "+r.Finds+"; "+r.Fix] = true
		}
	}
	return m
}()

func fuzzSeeds(f *testing.F) {
	for _, s := range []string{
		"", "https://user:pw@host/db", "--api-key", "postgres://u:%zz@h", "?token=", "Authorization: Bearer ",
		"${KEY:-", "-----BEGIN PRIVATE KEY-----", "jdbc:oracle:thin:", "\xff\x00", "GITHUB_TOKEN=", `{"apiKey":"`,
		"mysql -p", "-H", "https://:@", "a://b:c@d?e=f#g=h;i=j",
		"setx", "set -x API_KEY", `API_KEY="`, "$(", "`", "${A:?", "{{", "-----BEGIN CERTIFICATE-----\nQUJD\n-----END CERTIFICATE-----",
		"sqlplus", "a/b@//h", "/password:", "$env:API_KEY = '", "SetEnvironmentVariable('API_KEY', '", "os.environ['API_KEY'] = '",
		"${API_KEY:-hunter22}", "${DB_PASSWORD-${A:=b}}", "${${${", "https://h/?%74oken=x&tok%65n=%", "?Policy=a&Key-Pair-Id=b&Signature=c",
	} {
		f.Add(s, s)
	}
}

func checkNoLeak(t *testing.T, err error, secret string) {
	t.Helper()
	if err == nil {
		return
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		if !fixedMessages[line] {
			t.Fatalf("message line is not one of the fixed refusal texts: %q", line)
		}
	}
	for _, r := range refusals.All(err) {
		if r.Kind != refusals.ErrContainsSecret || r.Rule == "" {
			t.Fatalf("malformed refusal %#v", r)
		}
	}
}

func mustRefuse(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: planted token not refused", what)
	}
}

// A token standing as its own word (spaces around it) must be refused.
func FuzzCheckArgs(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, a, b string) {
		args := []string{a, a + " " + plantedToken + " " + b, b}
		err := secrets.CheckArgs("/args", args)
		mustRefuse(t, "CheckArgs", err)
		checkNoLeak(t, err, plantedToken)
		// Any fuzzed value given to a credential flag is never quoted.
		err = secrets.CheckArgs("/args", []string{"--password", a, "--token=" + b})
		checkNoLeak(t, err, a)
		checkNoLeak(t, err, b)
		// CheckStdio, with a fuzzed command: it refuses the planted token
		// as CheckArgs does, and quotes nothing.
		err = secrets.CheckStdio("", a, args)
		mustRefuse(t, "CheckStdio", err)
		checkNoLeak(t, err, plantedToken)
		for _, command := range []string{b, "mysql", "sshpass", "docker login", "sqlplus"} {
			checkNoLeak(t, secrets.CheckStdio("", command, []string{"-p" + a, "-p", b, a + "/" + b + "@//h"}), a)
		}
		// Fuzzed words side by side, and as the end of an argument: a
		// word that leaves something pending meets any next word.
		checkNoLeak(t, secrets.CheckArgs("/args", []string{a, b}), a)
		checkNoLeak(t, secrets.CheckArgs("/args", []string{a + b}), a)
		checkNoLeak(t, secrets.CheckStdio("", a, []string{b}), b)
	})
}

func FuzzCheckURL(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, a, b string) {
		pw := "Pw" + plantedToken[4:20]
		err := secrets.CheckURL("/url", "https://user:"+pw+"@"+a+"?"+b)
		if !strings.ContainsAny(a, "@") {
			mustRefuse(t, "CheckURL", err)
		}
		checkNoLeak(t, err, pw)
		err = secrets.CheckURL("/url", a+"://"+b+"?token="+pw+"&"+a)
		checkNoLeak(t, err, pw)
		err = secrets.CheckURL("/url", a+" "+plantedToken+" "+b)
		mustRefuse(t, "CheckURL token", err)
		checkNoLeak(t, err, plantedToken)
		checkNoLeak(t, secrets.CheckURL("/url", a), a)
	})
}

func FuzzCheckCommand(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, a, b string) {
		err := secrets.CheckCommand("/command", a+" "+plantedToken+" "+b)
		mustRefuse(t, "CheckCommand", err)
		checkNoLeak(t, err, plantedToken)
		checkNoLeak(t, secrets.CheckCommand("/command", a+" --api-key "+b), b)
		checkNoLeak(t, secrets.CheckCommand("/command", a), a)
	})
}

// FuzzCheckText: a token between any two texts, with a separator, is found;
// nothing found is ever quoted; and CheckText finds nothing CheckArgs would
// not (it is the subset of the rules that hold anywhere).
func FuzzCheckText(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, a, b string) {
		err := secrets.CheckText("/text", a+" "+plantedToken+" "+b)
		mustRefuse(t, "CheckText", err)
		checkNoLeak(t, err, plantedToken)
		err = secrets.CheckText("/text", a+b)
		checkNoLeak(t, err, a+b)
		if err != nil && secrets.CheckArgs("/args", []string{a + b}) == nil && !onlyPrefixed(err) {
			t.Errorf("CheckText refuses what CheckArgs accepts")
		}
	})
}

// onlyPrefixed: every refusal is token/prefixed, which an argument
// exempts after an ordinary flag (--record-id rec_…: the flag names an
// identifier) and prose, which has no flags, does not.
func onlyPrefixed(err error) bool {
	for _, r := range refusals.All(err) {
		if r.Rule != "token/prefixed" {
			return false
		}
	}
	return true
}

// FuzzCredentials: every credential returned is a non-empty substring of
// the value, none twice; whatever CheckArgs refuses in the value as one
// argument, Credentials finds something in; a token set apart by spaces
// is found whole; and nothing panics.
func FuzzCredentials(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, v := range []string{a, a + b, a + " " + plantedToken + " " + b} {
			creds := secrets.Credentials(v)
			seen := map[string]bool{}
			for _, c := range creds {
				if c == "" || !strings.Contains(v, c) {
					t.Fatalf("a credential is not a substring of the value")
				}
				if seen[c] {
					t.Fatalf("a credential is returned twice")
				}
				seen[c] = true
			}
			if creds != nil && len(creds) == 0 {
				t.Fatalf("an empty, non-nil result")
			}
			if creds == nil && secrets.CheckArgs("/args", []string{v}) != nil {
				t.Fatalf("CheckArgs refuses the value, Credentials finds nothing")
			}
		}
		if !slices.Contains(secrets.Credentials(a+" "+plantedToken+" "+b), plantedToken) {
			t.Fatalf("a planted token standing alone is not returned whole")
		}
	})
}

// A vendor's prefix and a generated body no list names, and a UUID key
// in a credential header line, built in code (issue 19's classes).
var (
	plantedPrefixed = "zqv_" + fit("Kx7Wm2Pr9Tv4Ab8Zq3", 32)
	plantedHeader   = "X-Acme-Key: " + fit("3f2a9c1e", 8) + "-" + fit("7b4d", 4) + "-4" + fit("1a2", 3) + "-8" + fit("c3e", 3) + "-" + fit("9d8e7f6a5b4c", 12)
)

// FuzzPrefixedAndHeader: a prefixed token, or a UUID under a credential
// header, between any two texts (set apart by a space and a newline) is
// refused by CheckText, and as the first argument by CheckArgs whatever
// follows; no message quotes anything.
func FuzzPrefixedAndHeader(f *testing.F) {
	fuzzSeeds(f)
	f.Add("https://x/", "/y")
	f.Add("--id", "")
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, planted := range []string{plantedPrefixed, plantedHeader} {
			err := secrets.CheckText("/text", a+"\n"+planted+" "+b)
			mustRefuse(t, "CheckText", err)
			checkNoLeak(t, err, planted)
		}
		// First, nothing before it can make it a flag's value or a
		// variable's name.
		err := secrets.CheckArgs("/args", []string{plantedPrefixed, a, b})
		if !slices.ContainsFunc(refusals.All(err), func(r *refusals.Error) bool { return r.Pointer == "/args/0" }) {
			t.Errorf("a prefixed token as a positional argument is not refused")
		}
		checkNoLeak(t, err, plantedPrefixed)
	})
}
