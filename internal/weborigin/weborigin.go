// Package weborigin is the rule for a URL's origin (RFC 6454: scheme, host
// and port) that mcpservers' connections and package oauth share: where a
// connection's credentials may go, which resource a server's metadata may
// speak for, and how an origin is shown in a message.
package weborigin

import (
	"net"
	"net/url"
	"strings"
)

// Origin is a URL's scheme, host and port, compared as a browser does:
// scheme and host without regard to case, an absent port as the scheme's
// default.
type Origin struct{ scheme, host, port string }

// Of returns u's origin; ok is false for a URL without a host, or of
// another scheme than http or https.
func Of(u *url.URL) (o Origin, ok bool) {
	if u == nil || u.Host == "" {
		return Origin{}, false
	}
	o = Origin{scheme: strings.ToLower(u.Scheme), host: strings.ToLower(u.Hostname()), port: u.Port()}
	if o.port == "" {
		switch o.scheme {
		case "http":
			o.port = "80"
		case "https":
			o.port = "443"
		}
	}
	return o, o.scheme == "http" || o.scheme == "https"
}

// Same reports whether u is on o; a URL of another scheme than http or
// https never is.
func (o Origin) Same(u *url.URL) bool {
	uo, ok := Of(u)
	return ok && uo == o
}

// Printable renders u's origin for a message, or "" when it holds
// anything but printable ASCII (a terminal must not be steered by it).
func Printable(u *url.URL) string {
	if u == nil || u.Host == "" {
		return ""
	}
	s := strings.ToLower(u.Scheme) + "://" + u.Host
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f || s[i] == '"' || s[i] == '\\' {
			return ""
		}
	}
	return s
}

// IsLoopback reports whether host (a URL's Hostname) is localhost or a
// loopback address.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
