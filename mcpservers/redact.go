package mcpservers

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// redactor removes a connection's secrets from text that reaches an error:
// header values, environment values, the URL and its password and query
// values, and the credentials of every HTTP request actually sent (what
// Auth and a call's own headers added). Causes from net/http and mcp-go
// quote URLs, and a server's own error message may echo what it was sent.
//
// It is safe for concurrent use: requests teach it while errors are made.
type redactor struct {
	mu      sync.Mutex          // serializes learning
	seen    map[string]struct{} // every value learnt, under mu
	secrets atomic.Pointer[[]string]
	// creds are the secrets but the whole URL, which a server may quote
	// in a tool without echoing a credential: what checkTool looks for.
	creds atomic.Pointer[[]string]
}

// minSecret is the shortest value redacted: shorter ones ("1", "true")
// would mangle every message and are no credential.
const minSecret = 6

func newRedactor(cfg *connConfig) *redactor {
	r := &redactor{}
	var vals []string
	for k, v := range cfg.headers {
		vals = appendHeaderSecrets(vals, k, v)
	}
	for _, v := range cfg.env {
		vals = append(vals, v)
	}
	if cfg.url != "" {
		if u, err := url.Parse(cfg.url); err == nil {
			if u.User != nil {
				p, _ := u.User.Password()
				vals = append(vals, u.User.Username(), p)
			}
			for _, vs := range u.Query() {
				vals = append(vals, vs...)
			}
		}
	}
	r.learn(vals...)
	r.learnText(cfg.url)
	return r
}

// appendHeaderSecrets appends what of a header's value may be quoted back
// as a credential: the value, and for an auth header its credentials
// without the scheme ("Bearer" alone would be redacted everywhere) and a
// Basic pair's user and password.
func appendHeaderSecrets(vals []string, name, value string) []string {
	vals = append(vals, value)
	switch http.CanonicalHeaderKey(name) {
	case "Authorization", "Proxy-Authorization":
		scheme, cred, ok := strings.Cut(strings.TrimSpace(value), " ")
		if !ok {
			break
		}
		cred = strings.TrimSpace(cred)
		vals = append(vals, cred)
		if strings.EqualFold(scheme, "Basic") {
			if b, err := base64.StdEncoding.DecodeString(cred); err == nil {
				user, pass, _ := strings.Cut(string(b), ":")
				vals = append(vals, string(b), user, pass)
			}
		}
	}
	return vals
}

// protocolHeaders are the headers of a request that carry no credential:
// mcp-go and net/http set them, and their values ("application/json",
// "tools/call", a tool's name) would mangle every message if redacted.
var protocolHeaders = map[string]bool{
	"Accept": true, "Accept-Encoding": true, "Cache-Control": true, "Connection": true,
	"Content-Length": true, "Content-Type": true, "Last-Event-Id": true, "User-Agent": true,
	"Mcp-Protocol-Version": true, "Mcp-Method": true, "Mcp-Name": true,
}

// learnHeaders learns the values of the headers a request is sent with,
// but the protocol's own.
func (r *redactor) learnHeaders(h http.Header) {
	var vals []string
	for k, vs := range h {
		if protocolHeaders[k] || strings.HasPrefix(k, "Mcp-Param-") {
			continue
		}
		for _, v := range vs {
			vals = appendHeaderSecrets(vals, k, v)
		}
	}
	r.learn(vals...)
}

// learn adds values to redact. The list is replaced, never changed, so
// that readers need no lock; a value already known costs a map look-up.
func (r *redactor) learn(vals ...string) {
	r.add(true, vals...)
}

// learnText adds values to redact from text that are no credential in
// themselves (the connection's URL, whose credentials are learnt apart).
func (r *redactor) learnText(vals ...string) {
	r.add(false, vals...)
}

func (r *redactor) add(cred bool, vals ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var added, addedCreds []string
	for _, v := range vals {
		if len(v) < minSecret {
			continue
		}
		for _, s := range []string{v, url.QueryEscape(v)} {
			if r.seen == nil {
				r.seen = map[string]struct{}{}
			}
			// "t": in the secrets redacted; "c": in creds too.
			if _, ok := r.seen["t"+s]; !ok {
				r.seen["t"+s] = struct{}{}
				added = append(added, s)
			}
			if _, ok := r.seen["c"+s]; cred && !ok {
				r.seen["c"+s] = struct{}{}
				addedCreds = append(addedCreds, s)
			}
		}
	}
	store(&r.secrets, added)
	store(&r.creds, addedCreds)
}

// store replaces *p with its values and added, longest first, so that a
// value containing another goes whole.
func store(p *atomic.Pointer[[]string], added []string) {
	if len(added) == 0 {
		return
	}
	var secrets []string
	if old := p.Load(); old != nil {
		secrets = append(secrets, *old...)
	}
	secrets = append(secrets, added...)
	slices.SortStableFunc(secrets, func(a, b string) int { return len(b) - len(a) })
	p.Store(&secrets)
}

// holdsCredential reports whether s holds a credential of the connection.
func (r *redactor) holdsCredential(s string) bool {
	if r == nil {
		return false
	}
	if p := r.creds.Load(); p != nil {
		for _, v := range *p {
			if strings.Contains(s, v) {
				return true
			}
		}
	}
	return false
}

// echoedIn reports whether a tool's raw JSON definition holds a credential
// of the connection: in any string or member name, decoded (so that JSON
// escapes hide nothing), or in the raw text itself.
func (r *redactor) echoedIn(raw []byte) bool {
	if r.holdsCredential(string(raw)) {
		return true
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return false // parseTool read it; the raw text was checked
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case string:
			return r.holdsCredential(x)
		case json.Number:
			return r.holdsCredential(string(x))
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case map[string]any:
			for k, e := range x {
				if r.holdsCredential(k) || walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// list is the values to redact, longest first.
func (r *redactor) list() []string {
	if r == nil {
		return nil
	}
	if p := r.secrets.Load(); p != nil {
		return *p
	}
	return nil
}

func (r *redactor) redact(s string) string {
	secrets := r.list()
	for _, v := range secrets {
		s = strings.ReplaceAll(s, v, "[redacted]")
	}
	// A secret that overlaps the marker can survive, or appear, in what
	// is left: say nothing at all then.
	for _, v := range secrets {
		if strings.Contains(s, v) {
			return "[details withheld]"
		}
	}
	return s
}

// redactValue returns v, decoded JSON, with every string in it (member
// names too) redacted: a server's error data may echo a credential as
// well as its message.
func (r *redactor) redactValue(v any) any {
	switch x := v.(type) {
	case string:
		return r.redact(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = r.redactValue(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[r.redact(k)] = r.redactValue(e)
		}
		return out
	}
	return v // numbers, booleans, null
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
		for _, v := range r.list() {
			if strings.Contains(s, v) {
				return "[details withheld]"
			}
		}
	}
	return s
}
