package oauth_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/url"
	"os"
	"path/filepath"

	"github.com/guardian-agent/guardian-go/internal/oauthtest"
	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/oauth"
)

// An MCP server that requires OAuth: the first request's 401 starts the
// sign-in, and the tools load once the user has approved. Here a loopback
// authorization server approves at once; a real program opens the user's
// browser at authURL and waits for the redirect on a loopback listener at
// RedirectURL (see cmd/guardian's oauth.go).
func ExampleNew() {
	srv := oauthtest.New(oauthtest.Options{})
	defer srv.Close()

	auth, err := oauth.New(oauth.Config{
		Authorize: func(ctx context.Context, authURL string) (*url.URL, error) {
			return oauthtest.FollowRedirect(ctx, authURL) // the browser, played
		},
		RedirectURL: "http://127.0.0.1:8976/callback",
		Store:       &oauth.MemoryTokenStore{},
	})
	if err != nil {
		log.Fatal(err)
	}
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{
		"tracker": mcpservers.StreamableHTTP{URL: srv.MCP, Auth: auth},
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	tools, err := c.Tools(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools {
		fmt.Println(t.Name())
	}
	// Output: whoami
}

// Off a terminal, as in CI, an OAuth without Authorize never prompts: it
// uses the tokens a FileTokenStore holds, and otherwise fails with
// ErrSignInRequired.
func ExampleFileTokenStore() {
	srv := oauthtest.New(oauthtest.Options{})
	defer srv.Close()
	dir, _ := os.MkdirTemp("", "tokens")
	defer os.RemoveAll(dir)

	headless, err := oauth.New(oauth.Config{
		Store: oauth.FileTokenStore{Dir: filepath.Join(dir, "guardian")},
	})
	if err != nil {
		log.Fatal(err)
	}
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{
		"tracker": mcpservers.StreamableHTTP{URL: srv.MCP, Auth: headless},
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	_, err = c.Tools(context.Background())
	fmt.Println(errors.Is(err, oauth.ErrSignInRequired))
	// Output: true
}
