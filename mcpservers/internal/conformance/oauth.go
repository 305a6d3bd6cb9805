package main

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/oauth"
)

// The suite's scenarios take this client ID metadata document URL as the
// client's (auth/basic-cimd checks it is used where the authorization
// server supports such documents); the suite never fetches it.
const clientMetadataURL = "https://conformance-test.local/client-metadata.json"

// redirectURL is where the suite's authorization server sends the
// "browser" back to. Nothing listens there: followRedirect reads the
// redirect instead.
const redirectURL = "http://127.0.0.1:8976/callback"

// newOAuth is the client's OAuth: a headless user who approves at once.
func newOAuth() (mcpservers.Auth, error) {
	return oauth.New(oauth.Config{
		Authorize:         followRedirect,
		RedirectURL:       redirectURL,
		ClientMetadataURL: clientMetadataURL,
		ClientName:        "guardian-go conformance client",
	})
}

// followRedirect plays the user's browser: it loads the authorization URL
// and returns where the authorization server redirects, without following
// it there.
func followRedirect(ctx context.Context, authURL string) (*url.URL, error) {
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return nil, errors.New("the authorization URL cannot be requested")
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, errors.New("the authorization endpoint could not be reached")
	}
	defer resp.Body.Close()
	loc, err := resp.Location()
	if err != nil {
		return nil, errors.New("the authorization endpoint did not redirect")
	}
	return loc, nil
}
