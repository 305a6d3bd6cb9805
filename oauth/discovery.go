package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/guardian-agent/guardian-go/internal/weborigin"
)

// Discovery, as the MCP authorization spec (2025-11-25) orders it:
//
//  1. protected resource metadata (RFC 9728): the URL in the 401's
//     WWW-Authenticate resource_metadata parameter, then
//     /.well-known/oauth-protected-resource with the MCP endpoint's path
//     appended, then at the root. Its resource must be the server's.
//  2. the authorization server's metadata (RFC 8414, OpenID Connect
//     Discovery): for an issuer with a path, oauth-authorization-server
//     and openid-configuration with the path inserted, then
//     openid-configuration appended to the path; without one, the two at
//     the root. Its issuer must be the authorization server's URL, and it
//     must list PKCE S256.
//  3. no protected resource metadata at all: a 2025-03-26 server, whose
//     authorization server is at its own origin; metadata there, or the
//     default endpoints /authorize, /token and /register.

// maxMetadataBytes bounds a metadata or registration document.
const maxMetadataBytes = 1 << 20

// challenge is one WWW-Authenticate challenge: its scheme (lower case)
// and its parameters (names lower case).
type challenge struct {
	scheme string
	params map[string]string
}

// parseChallenges parses WWW-Authenticate header values (RFC 9110 section
// 11.6.1): challenges separated by commas, each a scheme and then either
// auth-params (name=token or name="quoted string") or a token68. It keeps
// what it can read of a malformed value and never fails.
func parseChallenges(values []string) []challenge {
	var out []challenge
	for _, v := range values {
		p := &chParser{s: v}
		var cur *challenge
		for {
			p.skip(", \t")
			if p.done() {
				break
			}
			tok := p.token()
			if tok == "" {
				p.i++ // not a token: skip the byte
				continue
			}
			p.skip(" \t")
			if !p.done() && p.s[p.i] == '=' && cur != nil {
				p.i++
				p.skip(" \t")
				var val string
				if !p.done() && p.s[p.i] == '"' {
					val = p.quoted()
				} else {
					val = p.token()
				}
				name := strings.ToLower(tok)
				if _, seen := cur.params[name]; !seen {
					cur.params[name] = val
				}
				continue
			}
			// A new challenge: the token is its scheme.
			out = append(out, challenge{scheme: strings.ToLower(tok), params: map[string]string{}})
			cur = &out[len(out)-1]
			// A token68 (Basic's credentials, say) may follow the scheme:
			// a token, perhaps '=' padding, then a comma or the end.
			save := p.i
			if t := p.token(); t != "" {
				for !p.done() && p.s[p.i] == '=' {
					p.i++
				}
				p.skip(" \t")
				if p.done() || p.s[p.i] == ',' {
					continue
				}
			}
			p.i = save
		}
	}
	return out
}

type chParser struct {
	s string
	i int
}

func (p *chParser) done() bool { return p.i >= len(p.s) }

func (p *chParser) skip(set string) {
	for !p.done() && strings.IndexByte(set, p.s[p.i]) >= 0 {
		p.i++
	}
}

// token reads an RFC 9110 token (tchar*), plus the characters a token68
// may hold ('/', but not '=').
func (p *chParser) token() string {
	start := p.i
	for !p.done() {
		c := p.s[p.i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~/:", c) >= 0 {
			p.i++
			continue
		}
		break
	}
	return p.s[start:p.i]
}

// quoted reads a quoted-string at p.i, undoing its backslash escapes.
func (p *chParser) quoted() string {
	p.i++ // the opening quote
	var b strings.Builder
	for !p.done() {
		c := p.s[p.i]
		p.i++
		switch c {
		case '\\':
			if !p.done() {
				b.WriteByte(p.s[p.i])
				p.i++
			}
		case '"':
			return b.String()
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// bearer returns the Bearer challenge's parameters, or nil.
func bearer(cs []challenge) map[string]string {
	for _, c := range cs {
		if c.scheme == "bearer" {
			return c.params
		}
	}
	return nil
}

// resourceMetadata is what this package reads of RFC 9728 protected
// resource metadata.
type resourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

// serverMetadata is what this package reads of RFC 8414 (or OpenID
// Connect) authorization server metadata.
type serverMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	ResponseTypesSupported            []string `json:"response_types_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	ScopesSupported                   []string `json:"scopes_supported"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported"`
	IssParameterSupported             bool     `json:"authorization_response_iss_parameter_supported"`
	// legacy: the 2025-03-26 default endpoints, no metadata document.
	legacy bool
}

// decodeStrict decodes a JSON object into v by exact (case-sensitive)
// member names: encoding/json would take "Resource" for "resource", which
// a server could use to show a check one value and the flow another.
func decodeStrict(b []byte, v any) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return errors.New("not a JSON object")
	}
	exact := map[string]json.RawMessage{}
	rt := jsonFieldNames(v)
	for k, raw := range m {
		if slices.Contains(rt, k) {
			exact[k] = raw
		}
	}
	b, err := json.Marshal(exact)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return errors.New("a member has the wrong type")
	}
	return nil
}

func jsonFieldNames(v any) []string {
	switch v.(type) {
	case *resourceMetadata:
		return []string{"resource", "authorization_servers", "scopes_supported"}
	case *serverMetadata:
		return []string{"issuer", "authorization_endpoint", "token_endpoint", "registration_endpoint",
			"response_types_supported", "code_challenge_methods_supported",
			"token_endpoint_auth_methods_supported", "scopes_supported",
			"client_id_metadata_document_supported", "authorization_response_iss_parameter_supported"}
	case *registrationResponse:
		return []string{"client_id", "client_secret", "token_endpoint_auth_method"}
	}
	return nil
}

// fetchJSON GETs u and decodes a 200 answer into v. found is false for any
// other status (the next location is tried); err is for a request that
// could not be made or an answer that is not a JSON object.
func fetchJSON(ctx context.Context, hc *http.Client, u string, v any) (found bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, errors.New("a metadata URL cannot be requested")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		return false, errors.New("could not fetch metadata")
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxMetadataBytes))
		return false, nil
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadataBytes+1))
	if err != nil {
		return false, errors.New("could not read metadata")
	}
	if len(b) > maxMetadataBytes {
		return false, errors.New("a metadata document is larger than 1 MiB")
	}
	if err := decodeStrict(b, v); err != nil {
		return true, err
	}
	return true, nil
}

// wellKnown inserts a well-known suffix into u's path (RFC 8414 section
// 3.1, RFC 9728 section 3.1): https://h/p becomes https://h/.well-known/S/p.
func wellKnown(u *url.URL, suffix string) string {
	w := url.URL{Scheme: u.Scheme, Host: u.Host}
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	w.Path = "/.well-known/" + suffix
	if p != "" && p != "/" {
		w.RawPath = "/.well-known/" + suffix + p
		w.Path, _ = url.PathUnescape(w.RawPath)
	}
	return w.String()
}

// discoverResource finds the server's protected resource metadata, or nil
// for a server that has none (a 2025-03-26 server).
func discoverResource(ctx context.Context, hc *http.Client, server *url.URL, params map[string]string) (*resourceMetadata, error) {
	var where []string
	if u := params["resource_metadata"]; u != "" {
		if pu, err := url.Parse(u); err == nil && (pu.Scheme == "https" || pu.Scheme == "http" && weborigin.IsLoopback(pu.Hostname())) && pu.Host != "" {
			where = append(where, pu.String())
		}
	}
	if p := strings.TrimSuffix(server.EscapedPath(), "/"); p != "" {
		where = append(where, wellKnown(server, "oauth-protected-resource"))
	}
	where = append(where, (&url.URL{Scheme: server.Scheme, Host: server.Host, Path: "/.well-known/oauth-protected-resource"}).String())
	return firstServed(ctx, hc, where, "the protected resource metadata", func(md *resourceMetadata) error {
		return checkResource(md, server)
	})
}

// metadataRefused is the discover error for refused metadata; the server
// is filled in by the caller.
func metadataRefused(detail string) *Error {
	return newErr("", "discover", ErrMetadata, detail)
}

// checkResource refuses protected resource metadata that is not for this
// server (RFC 9728 section 3.3: a document for another resource would get
// the user to sign in, and hand tokens, for that one), or names no usable
// authorization server. The resource may be the server's URL or a prefix
// of it on the same origin (the root's metadata names the origin).
func checkResource(md *resourceMetadata, server *url.URL) error {
	ru, err := url.Parse(md.Resource)
	if md.Resource == "" || err != nil || ru.Fragment != "" {
		return metadataRefused("the protected resource metadata names no resource, or one that is not a URL")
	}
	so, _ := weborigin.Of(server)
	if !so.Same(ru) || ru.RawQuery != "" {
		return metadataRefused("the protected resource metadata is for another resource than this server")
	}
	rp := strings.TrimSuffix(ru.EscapedPath(), "/")
	sp := strings.TrimSuffix(server.EscapedPath(), "/")
	if rp != "" && rp != sp && !strings.HasPrefix(sp, rp+"/") {
		return metadataRefused("the protected resource metadata is for another resource than this server")
	}
	if len(md.AuthorizationServers) == 0 {
		return metadataRefused("the protected resource metadata names no authorization server")
	}
	for _, as := range md.AuthorizationServers {
		if err := checkEndpoint(as); err != nil {
			return metadataRefused("the protected resource metadata names an authorization server that " + err.Error())
		}
	}
	return nil
}

// checkEndpoint requires an https URL, or http on a loopback address (as
// OAuth 2.1 allows for development): the spec requires authorization
// server endpoints on https.
func checkEndpoint(s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.User != nil || u.Fragment != "" {
		return errors.New("is not an absolute http or https URL")
	}
	switch {
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && weborigin.IsLoopback(u.Hostname()):
		return nil
	case u.Scheme == "http":
		return errors.New("is not https")
	}
	return errors.New("is not an http or https URL")
}

// serverMetadataURLs lists where an issuer's metadata may be, in the
// spec's order.
func serverMetadataURLs(issuer *url.URL) []string {
	base := url.URL{Scheme: issuer.Scheme, Host: issuer.Host}
	p := strings.TrimSuffix(issuer.EscapedPath(), "/")
	if p == "" {
		a, b := base, base
		a.Path = "/.well-known/oauth-authorization-server"
		b.Path = "/.well-known/openid-configuration"
		return []string{a.String(), b.String()}
	}
	appended := base.String() + p + "/.well-known/openid-configuration"
	return []string{
		wellKnown(issuer, "oauth-authorization-server"),
		wellKnown(issuer, "openid-configuration"),
		appended,
	}
}

// firstServed fetches the metadata documents at urls in the order given
// and returns the first one served, once check accepts it; nil when none is
// served. what names the document in the refusal of one that is not valid.
func firstServed[T any](ctx context.Context, hc *http.Client, urls []string, what string, check func(*T) error) (*T, error) {
	for _, u := range urls {
		var md T
		found, err := fetchJSON(ctx, hc, u, &md)
		if err != nil && ctx.Err() != nil {
			return nil, err
		}
		if !found {
			continue
		}
		if err != nil {
			return nil, metadataRefused(what + " is not valid: " + err.Error())
		}
		if err := check(&md); err != nil {
			return nil, err
		}
		return &md, nil
	}
	return nil, nil
}

// discoverServer fetches the authorization server's metadata and checks
// it. legacy allows the 2025-03-26 default endpoints when there is none.
func discoverServer(ctx context.Context, hc *http.Client, issuer string, legacy bool) (*serverMetadata, error) {
	iu, err := url.Parse(issuer)
	if err != nil {
		return nil, metadataRefused("the authorization server's URL is not a URL")
	}
	md, err := firstServed(ctx, hc, serverMetadataURLs(iu), "the authorization server's metadata", func(md *serverMetadata) error {
		return checkServer(md, issuer)
	})
	if err != nil || md != nil {
		return md, err
	}
	if !legacy {
		return nil, newErr("", "discover", ErrAuthorization, "the authorization server publishes no metadata (RFC 8414 or OpenID Connect discovery)")
	}
	// 2025-03-26: the default endpoints at the server's origin.
	base := strings.TrimSuffix(issuer, "/")
	return &serverMetadata{
		Issuer:                base,
		AuthorizationEndpoint: base + "/authorize",
		TokenEndpoint:         base + "/token",
		RegistrationEndpoint:  base + "/register",
		legacy:                true,
	}, nil
}

// checkServer refuses authorization server metadata the spec says not to
// use.
func checkServer(md *serverMetadata, issuer string) error {
	// RFC 8414 section 3.3 (and OpenID Connect Discovery 4.3): the issuer
	// must be the URL the metadata was looked up for, or another server
	// could pass its metadata off as this one's (a mix-up attack).
	if strings.TrimSuffix(md.Issuer, "/") != strings.TrimSuffix(issuer, "/") {
		return metadataRefused("the authorization server's metadata names another issuer than the authorization server")
	}
	if !slices.Contains(md.CodeChallengeMethodsSupported, "S256") {
		return metadataRefused("the authorization server does not list PKCE S256 in code_challenge_methods_supported, which the spec requires")
	}
	if len(md.ResponseTypesSupported) > 0 && !slices.Contains(md.ResponseTypesSupported, "code") {
		return metadataRefused("the authorization server does not support the authorization code flow")
	}
	for _, e := range []struct{ name, u string }{
		{"authorization_endpoint", md.AuthorizationEndpoint},
		{"token_endpoint", md.TokenEndpoint},
	} {
		if e.u == "" {
			return metadataRefused("the authorization server's metadata has no " + e.name)
		}
		if err := checkEndpoint(e.u); err != nil {
			return metadataRefused("the authorization server's " + e.name + " " + err.Error())
		}
	}
	if md.RegistrationEndpoint != "" {
		if err := checkEndpoint(md.RegistrationEndpoint); err != nil {
			return metadataRefused("the authorization server's registration_endpoint " + err.Error())
		}
	}
	return nil
}
