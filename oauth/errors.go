package oauth

import (
	"errors"
	"strconv"
	"strings"
)

// The kinds of *Error. Test for them with errors.Is; they match through
// the *mcpservers.Error of a connection that failed for one too, which
// holds the *Error as its cause.
var (
	// ErrSignInRequired: the server needs the user to sign in, and there
	// is no way to: the Config has no Authorize func (as off a
	// terminal), and no stored token or refresh token serves.
	ErrSignInRequired = errors.New("sign-in required")
	// ErrMetadata: the server's or its authorization server's metadata
	// was refused, as the authorization spec requires: protected resource
	// metadata naming another resource, no authorization server, an
	// authorization server or endpoint that is not https (loopback http
	// aside), an issuer that is not the authorization server's URL, or no
	// PKCE S256. Nothing was sent to the authorization server.
	ErrMetadata = errors.New("authorization metadata refused")
	// ErrAuthorization: signing in, registering the client or getting a
	// token failed (the authorization server refused, the redirect's
	// state did not match, the token store failed, ...).
	ErrAuthorization = errors.New("authorization failed")
	// ErrInvalidUse: New was given a Config that cannot work, or a method
	// was called on a nil or zero *Auth (make one with New) or given a
	// nil request. Nothing was sent.
	ErrInvalidUse = errors.New("invalid use")
)

// Error is a failure of [Auth] for one MCP server. Its text names
// the server by origin, the step and the cause; never a token, a client
// secret, a code, a verifier, or text the servers sent.
type Error struct {
	// Server is the MCP server's origin (scheme, host and port): its URL's
	// path and query may hold credentials, so they are left out.
	Server string
	// Op is the step that failed: "configure", "discover", "register",
	// "sign in", "token", "refresh" or "store".
	Op string
	// Kind is ErrSignInRequired, ErrMetadata, ErrAuthorization or
	// ErrInvalidUse; errors.Is matches it.
	Kind error
	// Err is the cause, if any: a context error, a token store's error, a
	// network error. The text of the error is not printed.
	Err error

	detail string
}

// Error formats the failure on one line, for example:
//
//	oauth: server https://mcp.example.com: discover: authorization metadata refused: the protected resource metadata is for another resource
func (e *Error) Error() string {
	if e == nil {
		return "oauth: <nil>"
	}
	var b strings.Builder
	b.WriteString("oauth")
	if e.Server != "" {
		b.WriteString(": server ")
		b.WriteString(e.Server)
	}
	if e.Op != "" {
		b.WriteString(": ")
		b.WriteString(e.Op)
	}
	b.WriteString(": ")
	if e.Kind != nil {
		b.WriteString(e.Kind.Error())
	} else {
		b.WriteString("failed")
	}
	if e.detail != "" {
		b.WriteString(": ")
		b.WriteString(e.detail)
	}
	return b.String()
}

// Unwrap returns the kind and the cause.
func (e *Error) Unwrap() []error {
	if e == nil {
		return nil
	}
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// newErr makes an *Error; detail is our own text, never a value
// of the servers'.
func newErr(server, op string, kind error, detail string, cause ...error) *Error {
	e := &Error{Server: server, Op: op, Kind: kind, detail: detail}
	if len(cause) > 0 {
		e.Err = cause[0]
	}
	return e
}

// safeCode returns an OAuth error code the server sent if it is the short
// token the RFCs define (letters, digits and _), else "".
func safeCode(s string) string {
	if len(s) == 0 || len(s) > 64 {
		return ""
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return ""
		}
	}
	return s
}

// statusText says "HTTP N" and, when it is safe, the OAuth error code.
func statusText(status int, code string) string {
	s := "HTTP " + strconv.Itoa(status)
	if c := safeCode(code); c != "" {
		s += " (" + c + ")"
	}
	return s
}
