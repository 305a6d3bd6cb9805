package mcpservers

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// redactor removes a connection's secrets from text that reaches an error:
// header values, environment values, the URL and its password and query
// values. Causes from net/http and mcp-go quote URLs, and a server's own
// error message may echo what it was sent.
type redactor struct {
	secrets []string
}

// minSecret is the shortest value redacted: shorter ones ("1", "true")
// would mangle every message and are no credential.
const minSecret = 6

func newRedactor(cfg *connConfig) *redactor {
	r := &redactor{}
	add := func(s string) {
		if len(s) >= minSecret {
			r.secrets = append(r.secrets, s)
			if q := url.QueryEscape(s); q != s {
				r.secrets = append(r.secrets, q)
			}
		}
	}
	for _, v := range cfg.headers {
		add(v)
	}
	for _, v := range cfg.env {
		add(v)
	}
	if cfg.url != "" {
		add(cfg.url)
		if u, err := url.Parse(cfg.url); err == nil {
			if u.User != nil {
				add(u.User.Username())
				p, _ := u.User.Password()
				add(p)
			}
			for _, vs := range u.Query() {
				for _, v := range vs {
					add(v)
				}
			}
		}
	}
	// Longest first, so that a value containing another goes whole.
	for i := 1; i < len(r.secrets); i++ {
		for j := i; j > 0 && len(r.secrets[j]) > len(r.secrets[j-1]); j-- {
			r.secrets[j], r.secrets[j-1] = r.secrets[j-1], r.secrets[j]
		}
	}
	return r
}

func (r *redactor) redact(s string) string {
	if r == nil {
		return s
	}
	for _, v := range r.secrets {
		s = strings.ReplaceAll(s, v, "[redacted]")
	}
	// A secret that overlaps the marker can survive, or appear, in what
	// is left: say nothing at all then.
	for _, v := range r.secrets {
		if strings.Contains(s, v) {
			return "[details withheld]"
		}
	}
	return s
}

// maxDetail bounds how much of a cause an error prints.
const maxDetail = 300

// describe is err's text made safe to print: a *url.Error's URL replaced,
// the connection's secrets removed, and the length bounded.
func (r *redactor) describe(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	var ue *url.Error
	for e := err; errors.As(e, &ue); e = ue.Err {
		s = strings.ReplaceAll(s, strconv.Quote(ue.URL), "[url]")
		if ue.Err == nil {
			break
		}
	}
	s = r.redact(s)
	if len(s) > maxDetail {
		n := maxDetail
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "..."
		// The ellipsis can complete a secret that ends in dots.
		for _, v := range r.secrets {
			if strings.Contains(s, v) {
				return "[details withheld]"
			}
		}
	}
	return s
}
