package redact

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"
)

// fakePW is a generated password of 2+2n bytes, letters and digits: short,
// as the passwords of a DSN often are.
func fakePW(t testing.TB, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "Q7" + hex.EncodeToString(b)
}

// plainNamed are environment variables whose names say nothing of a
// credential, holding one (issue 14, leak 2), and the credential.
func plainNamed(t testing.TB) []struct{ name, value, secret string } {
	pw, tok := fakePW(t, 4), "tok"+fakePW(t, 8)
	return []struct{ name, value, secret string }{
		{"DB_URL", "mysql://root:" + pw + "@db/app", pw},
		{"DATABASE_URL", "postgres://app:" + pw + "@db.internal:5432/app", pw},
		{"MONGODB_URI", "mongodb+srv://svc:" + pw + "@cluster0.example.net/app?retryWrites=true", pw},
		{"CONNECTION_STRING", "Server=db;Database=app;User Id=sa;Password=" + pw + ";", pw},
		{"MY_PW", pw, pw},
		{"OPENAPI_MCP_HEADERS", `{"Authorization": "Bearer ` + tok + `"}`, tok},
	}
}

// TestCredentialsUnderPlainNames: a credential secrets finds inside an
// environment or header value is a credential whatever the value is
// called: a tool quoting it is an echo, and it is redacted, however short;
// the rest of the value (a DSN's scheme, user and host) is text, which a
// tool may name.
func TestCredentialsUnderPlainNames(t *testing.T) {
	for _, tc := range plainNamed(t) {
		t.Run(tc.name, func(t *testing.T) {
			r := New()
			r.LearnEnv(tc.name, tc.value)
			for _, echo := range []string{
				`{"description":"connects with ` + strings.ReplaceAll(tc.value, `"`, `\"`) + `"}`,
				`{"inputSchema":{"properties":{"p":{"default":"` + tc.secret + `"}}}}`,
				`{"title":"uses ` + tc.secret + ` to log in"}`,
			} {
				if !r.EchoedIn([]byte(echo)) {
					t.Errorf("a tool quoting %s's credential is no echo (%d-byte definition)", tc.name, len(echo))
				}
			}
			if got := r.Redact("authentication failed with " + tc.secret + "."); got != "authentication failed with [redacted]." {
				t.Errorf("the credential is not redacted: %d bytes left", len(got))
			}
			if tc.secret == tc.value {
				return // only its name says it is one
			}
			h := New()
			h.LearnHeader("X-Upstream", tc.value)
			if !h.HoldsCredential("uses " + tc.secret) {
				t.Errorf("a header holding %s's value: its credential is not one", tc.name)
			}
		})
	}
	r := New()
	r.LearnEnv("DATABASE_URL", "postgres://postgres:"+fakePW(t, 4)+"@localhost:5432/postgres")
	if r.EchoedIn([]byte(`{"description":"Queries postgres://postgres@localhost:5432/postgres."}`)) {
		t.Error("a tool naming the database, without its password, is taken for an echo")
	}
}
