package refusals_test

import (
	"errors"
	"fmt"

	"github.com/guardian-agent/guardian-go/refusals"
)

func ExampleError() {
	var err error = &refusals.Error{
		Kind:    refusals.ErrContainsSecret,
		Pointer: refusals.Pointer("mcpServers", "0", "args", "3"),
		Rule:    "url-password",
		Subject: "docs",
		Fix:     "put it in headers or env",
	}
	fmt.Println(err)
	fmt.Println(errors.Is(err, refusals.ErrContainsSecret))
	// Output:
	// /mcpServers/0/args/3: contains a secret: url-password ("docs"); put it in headers or env
	// true
}

func ExampleJoin() {
	err := refusals.Join(
		&refusals.Error{Kind: refusals.ErrWebSocket, Pointer: "/mcpServers/1", Subject: "live"},
		&refusals.Error{Kind: refusals.ErrContainsSecret, Pointer: "/mcpServers/0/url", Rule: "url-query-credential"},
	)
	for _, r := range refusals.All(err) {
		fmt.Println(r.Pointer, errors.Is(r, refusals.ErrCannotRecord))
	}
	// Output:
	// /mcpServers/0/url false
	// /mcpServers/1 true
}

func ExamplePointer() {
	p := refusals.Pointer("mcpServers", "my/server")
	fmt.Println(refusals.Append(p, "args", "0"))
	tokens, _ := refusals.Tokens(p)
	fmt.Printf("%q\n", tokens)
	// Output:
	// /mcpServers/my~1server/args/0
	// ["mcpServers" "my/server"]
}

func ExampleTokens() {
	tokens, err := refusals.Tokens("/a~0b/c~1d")
	fmt.Printf("%q %v\n", tokens, err)
	// Output:
	// ["a~b" "c/d"] <nil>
}

func ExampleAll() {
	err := fmt.Errorf("build: %w", refusals.Join(
		&refusals.Error{Kind: refusals.ErrInvalid, Pointer: "/mcpServers/2"},
		&refusals.Error{Kind: refusals.ErrInvalid, Pointer: "/mcpServers/0"},
	))
	fmt.Println(len(refusals.All(err)))
	// Output:
	// 2
}

func ExampleComparePointers() {
	fmt.Println(refusals.ComparePointers("/args/2", "/args/10"))
	// Output:
	// -1
}

func ExampleRelocate() {
	// A check of a server's args on their own reports at /args/1; in the
	// config, the args sit under the server.
	err := refusals.Join(
		&refusals.Error{Kind: refusals.ErrContainsSecret, Pointer: "/args/1", Rule: "credential-flag"},
		errors.New("not a refusal"),
	)
	server := refusals.Pointer("mcpServers", "db")
	for _, r := range refusals.All(errors.Join(refusals.Relocate(err, func(p string) string { return server + p })...)) {
		fmt.Println(r.Pointer, r.Rule)
	}
	fmt.Println(refusals.All(err)[0].Pointer) // the original is unchanged
	// Output:
	// /mcpServers/db/args/1 credential-flag
	// /args/1
}
