package redact_test

import (
	"fmt"
	"strings"

	"github.com/guardian-agent/guardian-go/internal/redact"
)

func Example() {
	r := redact.New()
	// A password under a name that says so is a credential; NODE_ENV's
	// value is only text, redacted from errors but no echo in a tool.
	pw := "pw-" + strings.Repeat("x1", 8)
	r.LearnEnv("DB_PASSWORD", pw)
	r.LearnEnv("NODE_ENV", "production")

	fmt.Println(r.Redact("login failed with " + pw + " in production"))
	fmt.Println(r.Clean("login failed with " + strings.ToUpper(pw[:14]) + "..."))
	fmt.Println(r.HoldsCredential("Deploys to production"))
	fmt.Println(r.EchoedIn([]byte(`{"description":"default password ` + pw + `"}`)))
	// Output:
	// login failed with [redacted] in [redacted]
	// login failed with <redacted>...
	// false
	// true
}
