package mcpservers

import (
	"net/url"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/guardian-agent/guardian-go/internal/execargs"
	namerule "github.com/guardian-agent/guardian-go/internal/names"
	"github.com/guardian-agent/guardian-go/refusals"
)

// validate checks a connection before anything is started, and returns one
// refusal per problem. A refusal names the server and points at the field,
// and never quotes a value: a command, URL, header or environment value may
// hold a credential. Nor does it quote a malformed header or variable name,
// which is most likely a value pasted in the wrong place.
func validate(name string, c Connection) []error {
	// A name or key that holds a credential is a stand-in (internal/names).
	base, subject := namerule.Append("/mcpServers", name, -1), namerule.Subject(name)
	refuse := func(pointer, rule, detail, fix string) error {
		return &refusals.Error{Kind: refusals.ErrInvalid, Pointer: pointer, Rule: rule, Subject: subject, Detail: detail, Fix: fix}
	}
	var errs []error
	if name == "" {
		errs = append(errs, refuse(base, "server-name-empty", "a server has an empty name", "give every server a non-empty name"))
	}
	c = deref(c)
	switch c := c.(type) {
	case nil:
		errs = append(errs, refuse(base, "connection-missing", "the server has no connection", "give a Stdio, StreamableHTTP, SSE or WebSocket connection"))
	case Stdio:
		if c.Command == "" {
			errs = append(errs, refuse(refusals.Append(base, "command"), "command-empty", "the command is empty", "name the program that runs the server"))
		}
		// The rule definition.Build applies to what it records, too.
		errs = append(errs, execargs.Refusals(base, subject, c.Command, c.Args)...)
		for i, k := range sortedKeys(c.Env) {
			switch {
			case k == "" || strings.ContainsAny(k, "=\x00"):
				// A malformed name may be a pasted NAME=secret: it is
				// pointed at by its place, never quoted.
				errs = append(errs, refuse(refusals.Append(base, "env"), "env-invalid", "the name of environment variable "+ordinal(i)+" (in sorted order) is empty or holds '=' or NUL", "fix the variable's name"))
			case strings.ContainsRune(c.Env[k], 0):
				errs = append(errs, refuse(namerule.Append(refusals.Append(base, "env"), k, i), "env-invalid", "the environment variable's value holds NUL", "fix the variable"))
			}
		}
		if c.Dir != "" && !filepath.IsAbs(c.Dir) {
			errs = append(errs, refuse(refusals.Append(base, "cwd"), "cwd-relative", "the working directory is a relative path", "give an absolute path, or none for the current directory"))
		}
	case StreamableHTTP:
		errs = append(errs, validateURL(base, subject, c.URL, "http", "https")...)
		errs = append(errs, validateHeaders(base, subject, c.Headers)...)
		errs = append(errs, validateAuth(base, subject, c.Auth)...)
	case SSE:
		errs = append(errs, validateURL(base, subject, c.URL, "http", "https")...)
		errs = append(errs, validateHeaders(base, subject, c.Headers)...)
		errs = append(errs, validateAuth(base, subject, c.Auth)...)
	case WebSocket:
		errs = append(errs, validateURL(base, subject, c.URL, "ws", "wss")...)
		errs = append(errs, validateHeaders(base, subject, c.Headers)...)
	default:
		// A type embedding one of the four satisfies Connection, but is
		// none of them: refuse it now rather than fail at connect.
		errs = append(errs, refuse(base, "connection-unknown", "the connection is not a Stdio, StreamableHTTP, SSE or WebSocket value (a type embedding one is not one)", "give a Stdio, StreamableHTTP, SSE or WebSocket connection, or a pointer to one"))
	}
	return errs
}

// validateURL never passes on url.Parse's error, which quotes the whole URL,
// password and query included (golang/go#53993).
func validateURL(base, name, raw string, schemes ...string) []error {
	pointer := refusals.Append(base, "url")
	refuse := func(rule, detail string) []error {
		return []error{&refusals.Error{
			Kind: refusals.ErrInvalid, Pointer: pointer, Rule: rule, Subject: name, Detail: detail,
			Fix: "give an absolute " + strings.Join(schemes, " or ") + " URL",
		}}
	}
	if raw == "" {
		return refuse("url-empty", "the URL is empty")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return refuse("url-malformed", "the URL cannot be parsed")
	}
	if !slices.Contains(schemes, strings.ToLower(u.Scheme)) {
		return refuse("url-scheme", "the URL's scheme is not "+strings.Join(schemes, " or "))
	}
	if u.Host == "" {
		return refuse("url-host", "the URL has no host")
	}
	return nil
}

func validateHeaders(base, name string, h map[string]string) []error {
	var errs []error
	for i, k := range sortedKeys(h) {
		switch {
		case !validHeaderName(k):
			// A malformed name may be a pasted "Bearer <token>": it is
			// pointed at by its place, never quoted.
			errs = append(errs, &refusals.Error{
				Kind: refusals.ErrInvalid, Pointer: refusals.Append(base, "headers"), Rule: "header-invalid", Subject: name,
				Detail: "the name of header " + ordinal(i) + " (in sorted order) is empty or holds characters HTTP does not allow", Fix: "fix the header's name",
			})
		case !validHeaderValue(h[k]):
			errs = append(errs, &refusals.Error{
				Kind: refusals.ErrInvalid, Pointer: namerule.Append(refusals.Append(base, "headers"), k, i), Rule: "header-invalid", Subject: name,
				Detail: "the header's value holds characters HTTP does not allow", Fix: "fix the header",
			})
		}
	}
	return errs
}

// validateAuth refuses an Auth that is a nil func or pointer: it would
// panic on the first request, perhaps on a goroutine of mcp-go's.
func validateAuth(base, name string, a Auth) []error {
	if a == nil || !isNil(a) {
		return nil
	}
	return []error{&refusals.Error{
		Kind: refusals.ErrInvalid, Pointer: refusals.Append(base, "auth"), Rule: "auth-nil", Subject: name,
		Detail: "Auth is a nil func or pointer", Fix: "set an Auth, or leave the field nil for none",
	}}
}

// isNil reports whether v is nil, or holds a nil func or pointer: a
// method called on either most likely panics. (A nil map or slice type
// may well have methods that work.)
func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Func, reflect.Pointer:
		return rv.IsNil()
	}
	return false
}

// ordinal names the i-th (from 0) key of a map in sorted order, counting
// from 1, for a key that cannot be quoted.
func ordinal(i int) string {
	return "#" + strconv.Itoa(i+1)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// validHeaderName reports whether s is an RFC 9110 token.
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// validHeaderValue reports whether s holds no control character but tab.
func validHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}
