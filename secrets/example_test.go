package secrets_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/guardian-agent/guardian-go/refusals"
	"github.com/guardian-agent/guardian-go/secrets"
)

func ExampleCheckArgs() {
	args := []string{"-y", "@modelcontextprotocol/server-postgres", "--api-key", "abc123", "postgres://app:hunter22@db/app"}
	err := secrets.CheckArgs("/mcpServers/db/args", args)
	for _, r := range refusals.All(err) {
		fmt.Println(r.Pointer, r.Rule)
	}
	fmt.Println(errors.Is(err, refusals.ErrContainsSecret))

	// References to a secret are fine: only the reference is recorded.
	fmt.Println(secrets.CheckArgs("/mcpServers/db/args", []string{"--api-key", "${API_KEY}"}))
	// Output:
	// /mcpServers/db/args/3 credential-flag
	// /mcpServers/db/args/4 url-password
	// true
	// <nil>
}

func ExampleCheckURL() {
	err := secrets.CheckURL("/mcpServers/docs/url", "https://mcp.example.com/sse?token=abc123")
	fmt.Println(err)
	fmt.Println(secrets.CheckURL("/mcpServers/docs/url", "https://mcp.example.com/sse?region=eu"))
	// Output:
	// /mcpServers/docs/url: contains a secret: url-query-credential: a credential in a URL's query or fragment; drop it from the URL: put it in headers (an Authorization header) or env, or write a reference such as ${NAME}
	// <nil>
}

func ExampleCheckCommand() {
	err := secrets.CheckCommand("/mcpServers/db/command", "mysql -uroot -pS3cret app")
	var r *refusals.Error
	if errors.As(err, &r) {
		fmt.Println(r.Pointer, r.Rule)
	}
	// Output:
	// /mcpServers/db/command credential-flag
}

func ExampleCheckText() {
	// A system prompt a definition would record. Prose is read for the
	// credentials that are credentials anywhere; "password" in a sentence
	// is not one.
	// (The token is built in code, so that no literal token sits in the
	// repository.)
	token := "ghp_" + strings.Repeat("EXAMPLE0fake1token2", 2)[:36]
	prompt := "Answer from the docs. Use the token " + token + " when you call GitHub."
	err := secrets.CheckText("/systemPrompt", prompt)
	var r *refusals.Error
	if errors.As(err, &r) {
		fmt.Println(r.Pointer, r.Rule)
	}
	fmt.Println(secrets.CheckText("/systemPrompt", "Never ask the user for a password or an API key."))
	// Output:
	// /systemPrompt token/github
	// <nil>
}

func ExampleCheckStdio() {
	// A stdio server as an MCP client config gives it. The command says
	// what -p means: for mysql, the password.
	err := secrets.CheckStdio("/mcpServers/db", "mysql", []string{"-h", "db", "-u", "app", "-pS3cret/pw", "shop"})
	for _, r := range refusals.All(err) {
		fmt.Println(r.Pointer, r.Rule)
	}
	// For ssh, -p is a port.
	fmt.Println(secrets.CheckStdio("/mcpServers/remote", "ssh", []string{"-p", "2222", "deploy@host", "mcp-server"}))
	// Output:
	// /mcpServers/db/args/4 credential-flag
	// <nil>
}

func ExampleRules() {
	for _, r := range secrets.Rules()[:3] {
		fmt.Println(r.ID)
	}
	// Output:
	// url-password
	// url-user-token
	// url-query-credential
}

func ExampleCredentials() {
	// A DSN in a variable of any name: its password is the credential.
	fmt.Printf("%q\n", secrets.Credentials("mysql://root:pw@db/app"))
	fmt.Printf("%q\n", secrets.Credentials("Server=db;User Id=sa;Password=s3cr;"))
	// A reference is where a secret comes from, not a secret.
	fmt.Printf("%q\n", secrets.Credentials("postgres://app:${DB_PASSWORD}@db/app"))
	// Output:
	// ["pw"]
	// ["s3cr"]
	// []
}
