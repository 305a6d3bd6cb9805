package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
)

// The ways a client authenticates at the token endpoint (RFC 7591
// section 2, token_endpoint_auth_method).
const (
	authBasic = "client_secret_basic"
	authPost  = "client_secret_post"
	authNone  = "none"
)

// client is the OAuth client a sign-in uses.
type client struct {
	id, secret string
	method     string // authBasic, authPost or authNone
}

// registrationResponse is what this package reads of an RFC 7591
// registration response.
type registrationResponse struct {
	ClientID                string `json:"client_id"`
	ClientSecret            string `json:"client_secret"`
	TokenEndpointAuthMethod string `json:"token_endpoint_auth_method"`
}

// chooseClient picks the client for a sign-in, in the order: a
// pre-registered client, a client registered before with this
// authorization server and redirect URL (stored), a client ID metadata
// document when the server supports them, else dynamic registration.
func (a *Auth) chooseClient(ctx context.Context, hc *http.Client, md *serverMetadata, prev *Credentials, learn func(...string)) (client, error) {
	if a.cfg.ClientID != "" {
		c := client{id: a.cfg.ClientID, secret: a.cfg.ClientSecret}
		c.method = secretMethod(c.secret, md.TokenEndpointAuthMethodsSupported, "")
		return c, nil
	}
	if prev != nil && prev.ClientID != "" && prev.Issuer == md.Issuer && prev.RedirectURL == a.cfg.RedirectURL && prev.ClientMetadataURL == "" {
		return client{id: prev.ClientID, secret: prev.ClientSecret, method: prev.AuthMethod}, nil
	}
	if a.cfg.ClientMetadataURL != "" && md.ClientIDMetadataDocumentSupported {
		return client{id: a.cfg.ClientMetadataURL, method: authNone}, nil
	}
	if md.RegistrationEndpoint == "" {
		return client{}, newErr("", "register", ErrAuthorization, "the authorization server has no registration this client can use: configure a pre-registered client ID")
	}
	return a.register(ctx, hc, md, learn)
}

// secretMethod picks how to send a client secret: the one the
// registration said, else the first of basic and post the server lists,
// else basic (RFC 8414's default); none without a secret.
func secretMethod(secret string, supported []string, registered string) string {
	if secret == "" {
		return authNone
	}
	switch registered {
	case authBasic, authPost:
		return registered
	}
	if len(supported) > 0 && !slices.Contains(supported, authBasic) && slices.Contains(supported, authPost) {
		return authPost
	}
	return authBasic
}

// register registers a public client by RFC 7591 dynamic registration.
func (a *Auth) register(ctx context.Context, hc *http.Client, md *serverMetadata, learn func(...string)) (client, error) {
	name := a.cfg.ClientName
	if name == "" {
		name = "guardian-go"
	}
	body, err := json.Marshal(map[string]any{
		"client_name":                name,
		"redirect_uris":              []string{a.cfg.RedirectURL},
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": authNone,
	})
	if err != nil {
		return client{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, md.RegistrationEndpoint, bytes.NewReader(body))
	if err != nil {
		return client{}, newErr("", "register", ErrAuthorization, "the registration endpoint cannot be requested")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return client{}, newErr("", "register", ErrAuthorization, "registering the client was cut short", ctx.Err())
		}
		return client{}, newErr("", "register", ErrAuthorization, "could not reach the registration endpoint")
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadataBytes+1))
	if err != nil || len(b) > maxMetadataBytes {
		return client{}, newErr("", "register", ErrAuthorization, "could not read the registration response")
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		var e struct {
			Error string `json:"error"`
		}
		_ = json.Unmarshal(b, &e)
		return client{}, newErr("", "register", ErrAuthorization, "the registration endpoint answered "+statusText(resp.StatusCode, e.Error))
	}
	var rr registrationResponse
	if err := decodeStrict(b, &rr); err != nil || rr.ClientID == "" {
		return client{}, newErr("", "register", ErrAuthorization, "the registration response has no client_id")
	}
	learn(rr.ClientSecret)
	c := client{id: rr.ClientID, secret: rr.ClientSecret}
	switch {
	case rr.TokenEndpointAuthMethod == authNone || rr.ClientSecret == "":
		c.method = authNone
		c.secret = ""
	default:
		c.method = secretMethod(rr.ClientSecret, md.TokenEndpointAuthMethodsSupported, rr.TokenEndpointAuthMethod)
	}
	return c, nil
}
