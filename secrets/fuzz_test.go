package secrets_test

import (
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

// fixedText is every word a refusal's message is made of, whatever the
// input: the rules' texts, the kind, the pointers the targets use.
var fixedText = func() string {
	var b strings.Builder
	for _, r := range secrets.Rules() {
		b.WriteString(r.ID + "\x00" + r.Finds + "\x00" + r.Fix + "\x00")
	}
	b.WriteString(refusals.ErrContainsSecret.Error() + "\x00/args/0/args/1/args/2/args/3/url/command: ; ")
	return b.String()
}()

func fuzzSeeds(f *testing.F) {
	for _, s := range []string{
		"", "https://user:pw@host/db", "--api-key", "postgres://u:%zz@h", "?token=", "Authorization: Bearer ",
		"${KEY:-", "-----BEGIN PRIVATE KEY-----", "jdbc:oracle:thin:", "\xff\x00", "GITHUB_TOKEN=", `{"apiKey":"`,
		"mysql -p", "-H", "https://:@", "a://b:c@d?e=f#g=h;i=j",
	} {
		f.Add(s, s)
	}
}

// planted is the secret as the fuzzer placed it: between a and b, so that it
// may join with what surrounds it.
func checkNoLeak(t *testing.T, err error, secret string) {
	t.Helper()
	if err == nil {
		return
	}
	msg := err.Error()
	for i := 0; i+8 <= len(secret); i++ {
		// A fuzzed value may itself spell part of the fixed wording
		// ("contains a secret"); only bytes that could have come from
		// the input count.
		if w := secret[i : i+8]; strings.Contains(msg, w) && !strings.Contains(fixedText, w) {
			t.Fatalf("message holds part of the planted secret: %q", msg)
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
