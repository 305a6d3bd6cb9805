package mcpservers

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/guardian-agent/guardian-go/internal/redact"
	"github.com/guardian-agent/guardian-go/internal/weborigin"
)

// A connection speaks to one origin: the scheme, host and port of its URL.
// Its requests carry credentials (the configured headers, a call's own,
// whatever Auth adds, later OAuth tokens), and the URL is what a
// definition records as the server the tools call. So this package sends
// nothing to another origin, wherever the address came from:
//
//   - a redirect is followed only within the connection's origin, only if
//     it keeps the method (a POST answered 301, 302 or 303 would become a
//     GET without its body), and at most maxRedirects times; any other is
//     an ErrRedirect error telling the user to configure the URL the
//     server names. An https URL redirected to http is another origin.
//   - an SSE endpoint event naming another origin ends the connection with
//     the same error (mcp-go checks the host and port but not the scheme,
//     and ignores a foreign endpoint, waiting 30 s for another).
//   - the connection's RoundTripper refuses any request to another origin
//     before it sets a header or calls Auth, whatever sent it: defence in
//     depth, should mcp-go, net/http or a caller's CheckRedirect let one
//     through.
//
// net/http itself drops Authorization and Cookie on a redirect to another
// host, but the RoundTripper sets the configured headers on every request,
// redirects included, which undid that.

// maxRedirects is net/http's default bound, kept when the caller's client
// has no CheckRedirect of its own.
const maxRedirects = 10

// origin is a URL's scheme, host and port (internal/weborigin's rule,
// which package oauth shares).
type origin = weborigin.Origin

// redirectError is a redirect this package does not follow, or a request it
// does not send. Its text never holds a URL: at most the origin the server
// named (scheme, host and port), without userinfo, path or query, and only
// when that is printable ASCII.
type redirectError struct {
	status int    // the redirect's HTTP status; 0 when none
	reason string // what was refused, for the message
}

func (e *redirectError) Error() string {
	s := e.reason
	if e.status != 0 {
		s = "HTTP " + strconv.Itoa(e.status) + " " + s
	}
	return s
}

// elsewhere describes a refusal to go to u, another origin.
func elsewhere(status int, what string, u *url.URL) *redirectError {
	to := "another origin"
	if p := weborigin.Printable(u); p != "" {
		to += " (" + p + ")"
	} else if u != nil && u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https" {
		to += " (not http or https)"
	}
	return &redirectError{status: status, reason: what + " " + to + "; credentials and requests go only to the configured URL's origin: configure the URL the server names, if you trust it"}
}

// checkRedirect is the connection's redirect policy (see above), run before
// the caller's own CheckRedirect, if any, which then has the last word.
func checkRedirect(o origin, user func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		status := 0
		if req.Response != nil {
			status = req.Response.StatusCode
		}
		if !o.Same(req.URL) {
			return elsewhere(status, "redirected to", req.URL)
		}
		if len(via) > 0 && req.Method != via[len(via)-1].Method {
			return &redirectError{status: status, reason: "would turn the " + via[len(via)-1].Method + " into a " + req.Method + ", which MCP cannot use: configure the URL the server redirects to"}
		}
		if user != nil {
			return user(req, via)
		}
		if len(via) >= maxRedirects {
			return &redirectError{reason: "the server redirected more than " + strconv.Itoa(maxRedirects) + " times"}
		}
		return nil
	}
}

// checkLocation refuses a redirect whose Location cannot be parsed, before
// net/http's client quotes the whole header in its error.
func checkLocation(req *http.Request, resp *http.Response) error {
	if !isRedirect(resp.StatusCode) {
		return nil
	}
	loc := resp.Header.Get("Location")
	if loc == "" {
		return nil
	}
	if _, err := req.URL.Parse(loc); err != nil {
		return &redirectError{status: resp.StatusCode, reason: "redirected to a Location that cannot be parsed"}
	}
	return nil
}

// isRedirect reports whether net/http's client follows a response of this
// status.
func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// refusedRedirect finds a redirectError in err or, when ctx is done, in
// its cause (an SSE endpoint on another origin ends the session's waits
// with it), and describes it for an *Error.
func refusedRedirect(ctx context.Context, red *redact.Redactor, err error) (*redirectError, string, bool) {
	var re *redirectError
	if !errors.As(err, &re) && (ctx.Err() == nil || !errors.As(context.Cause(ctx), &re)) {
		return nil, "", false
	}
	// The origin is the server's text: it is told, cleared of the
	// connection's secrets, as a server's error message is.
	return re, red.Redact(re.Error()), true
}
