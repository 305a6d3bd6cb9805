// Package oauth signs in to MCP servers that require authorization, by
// the MCP authorization spec: protected resource metadata (RFC 9728),
// authorization server metadata (RFC 8414, OpenID Connect discovery),
// client registration (pre-registered, client ID metadata documents, RFC
// 7591), the authorization code flow with PKCE S256, state, iss (RFC 9207)
// and the resource parameter (RFC 8707), refresh, and scope step-up.
//
// An [Auth] is an mcpservers.Auth: give it to a StreamableHTTP or SSE
// connection. It meets package mcpservers on interfaces of standard
// library types (mcpservers.ConnectionAuth, mcpservers.UserCoder), and
// neither package imports the other. Its failures are *[Error] values,
// which a connection's *mcpservers.Error holds as its cause.
//
// Tokens, refresh tokens, client secrets, codes and verifiers are
// connection secrets: the connection redacts them, no error of this package
// holds one, and none reaches a definition. This package is library code: a
// definition fingerprints only the user's code an Auth runs (its
// AuthorizeFunc and TokenStore). docs/oauth.md has the whole story.
package oauth
