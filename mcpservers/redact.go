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

	"github.com/guardian-agent/guardian-go/internal/secretforms"
)

// redactor removes a connection's secrets from text that reaches an error:
// header values, environment values, the URL and its password and query
// values, and the credentials of every HTTP request actually sent (what
// Auth and a call's own headers added). Causes from net/http and mcp-go
// quote URLs, and a server's own error message may echo what it was sent.
//
// It is safe for concurrent use: requests teach it while errors are made.
type redactor struct {
	mu   sync.Mutex          // serializes learning
	seen map[string]struct{} // every variant learnt, with its kind, under mu
	set  atomic.Pointer[secretSet]
}

// secretSet is what a redactor knows, replaced whole when it learns, so
// that readers need no lock. Every value is lower-cased (ASCII only, so
// that offsets are those of the text): matching ignores case.
type secretSet struct {
	// all is every variant of every value, longest first, so that a
	// value containing another goes whole.
	all []string
	// creds is all but the whole URL, which a server may quote in a tool
	// without echoing a credential: what holdsCredential looks for.
	creds []string
	// windows holds every windowLen-byte run of the variants of each
	// credential of at least minWindowed bytes: a prefix, a half or a
	// suffix of a secret (a server printing "using key ghp_abcd..." or a
	// secret split over two lines) is redacted too.
	windows map[string]struct{}
}

// windowLen is the shortest run of a long secret that is redacted, and
// minWindowed the shortest secret whose runs are.
const (
	windowLen   = 12
	minWindowed = 16
)

// minSecret is the shortest value redacted: shorter ones ("1", "true")
// would mangle every message and are no credential.
const minSecret = 6

func newRedactor(cfg *connConfig) *redactor {
	r := &redactor{}
	var creds, plain []string
	// sort puts a named value with the credentials or with the plain
	// values: every one is redacted from error text, but only a
	// credential in a tool's definition makes it an echo. NODE_ENV=
	// production is no credential, and a tool may well say "production".
	sort := func(name string, vals ...string) {
		for _, v := range vals {
			if credentialName(name) || randomLooking(v) {
				creds = append(creds, v)
			} else {
				plain = append(plain, v)
			}
		}
	}
	for k, v := range cfg.headers {
		sort(k, appendHeaderSecrets(nil, k, v)...)
	}
	for k, v := range cfg.env {
		sort(k, v)
	}
	if cfg.url != "" {
		if u, err := url.Parse(cfg.url); err == nil {
			if u.User != nil {
				p, _ := u.User.Password()
				creds = append(creds, u.User.Username(), p)
			}
			for k, vs := range u.Query() {
				sort(k, vs...)
			}
		}
	}
	r.learn(creds...)
	r.learnText(plain...)
	r.learnText(cfg.url)
	return r
}

// credentialName reports whether a header's, variable's or parameter's
// name says its value is a credential.
func credentialName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"auth", "key", "token", "secret", "pass", "pwd", "credential", "cookie", "session", "private", "signature", "sig", "jwt", "bearer", "cert"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// randomLooking reports whether v looks like key material, whatever its
// name: 16 bytes or more, no space, letters and digits both, and neither a
// path nor a URL.
func randomLooking(v string) bool {
	if len(v) < 16 || strings.ContainsAny(v, " \t\n") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, ".") || strings.Contains(v, "://") {
		return false
	}
	letter, digit := false, false
	for i := 0; i < len(v); i++ {
		c := v[i] | 0x20
		letter = letter || (c >= 'a' && c <= 'z')
		digit = digit || (v[i] >= '0' && v[i] <= '9')
	}
	return letter && digit
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
	var creds, plain []string
	for k, vs := range h {
		if protocolHeaders[k] || strings.HasPrefix(k, "Mcp-Param-") {
			continue
		}
		for _, v := range vs {
			for _, s := range appendHeaderSecrets(nil, k, v) {
				if credentialName(k) || randomLooking(s) {
					creds = append(creds, s)
				} else {
					plain = append(plain, s)
				}
			}
		}
	}
	r.learn(creds...)
	r.learnText(plain...)
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
	var all, creds, windows []string
	for _, v := range vals {
		if len(v) < minSecret {
			continue
		}
		for _, s := range variants(v) {
			s = secretforms.FoldASCII(s)
			if r.seen == nil {
				r.seen = map[string]struct{}{}
			}
			// "t": in all; "c": in creds too.
			if _, ok := r.seen["t"+s]; !ok {
				r.seen["t"+s] = struct{}{}
				all = append(all, s)
			}
			if _, ok := r.seen["c"+s]; cred && !ok {
				r.seen["c"+s] = struct{}{}
				creds = append(creds, s)
				if len(v) >= minWindowed {
					for i := 0; i+windowLen <= len(s); i++ {
						windows = append(windows, s[i:i+windowLen])
					}
				}
			}
		}
	}
	if len(all)+len(creds) == 0 {
		return
	}
	next := &secretSet{windows: map[string]struct{}{}}
	if old := r.set.Load(); old != nil {
		next.all = slices.Clone(old.all)
		next.creds = slices.Clone(old.creds)
		for w := range old.windows {
			next.windows[w] = struct{}{}
		}
	}
	for _, w := range windows {
		next.windows[w] = struct{}{}
	}
	next.all = longestFirst(append(next.all, all...))
	next.creds = longestFirst(append(next.creds, creds...))
	r.set.Store(next)
}

// variants are the forms in which v may be quoted back (secretforms.Of),
// each once.
func variants(v string) []string {
	out := secretforms.Of(v)
	slices.Sort(out)
	return slices.Compact(out)
}

func longestFirst(s []string) []string {
	slices.SortStableFunc(s, func(a, b string) int { return len(b) - len(a) })
	return s
}

// find calls mark for every match in low (lower-cased text) of a value of
// list, or of a window of set, with the part of it not yet marked by an
// earlier match of the same value, until mark returns false. The work is
// linear in low for each value, and for the windows a map look-up per
// byte.
func (set *secretSet) find(low string, list []string, mark func(i, j int) bool) {
	for _, v := range list {
		end := 0
		for off := 0; off < len(low); {
			k := strings.Index(low[off:], v)
			if k < 0 {
				break
			}
			i := off + k
			if !mark(max(i, end), i+len(v)) {
				return
			}
			end, off = i+len(v), i+1
		}
	}
	if len(set.windows) == 0 {
		return
	}
	end := 0
	for i := 0; i+windowLen <= len(low); i++ {
		if _, ok := set.windows[low[i:i+windowLen]]; ok {
			if !mark(max(i, end), i+windowLen) {
				return
			}
			end = i + windowLen
		}
	}
}

// holds reports whether s holds a value of list or a window.
func (set *secretSet) holds(s string, list []string) bool {
	if set == nil {
		return false
	}
	found := false
	set.find(secretforms.FoldASCII(s), list, func(i, j int) bool { found = true; return false })
	return found
}

// holdsCredential reports whether s holds a credential of the connection,
// in any of its forms and case, or a long enough part of one.
func (r *redactor) holdsCredential(s string) bool {
	if r == nil {
		return false
	}
	set := r.set.Load()
	return set != nil && set.holds(s, set.creds)
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

// redact replaces every secret in s, and every run of a long one, in any
// of their forms and case, with "[redacted]".
func (r *redactor) redact(s string) string {
	if r == nil {
		return s
	}
	set := r.set.Load()
	if set == nil {
		return s
	}
	var m []bool
	set.find(secretforms.FoldASCII(s), set.all, func(i, j int) bool {
		if m == nil {
			m = make([]bool, len(s))
		}
		for ; i < j; i++ {
			m[i] = true
		}
		return true
	})
	if m == nil {
		return s
	}
	// Whole runes go, so that what is left is valid UTF-8.
	for i := 1; i < len(s); i++ {
		if m[i] && !m[i-1] {
			for j := i; j > 0 && !utf8.RuneStart(s[j]); j-- {
				m[j-1] = true
			}
		}
	}
	for i := 0; i+1 < len(s); i++ {
		if m[i] && !m[i+1] && !utf8.RuneStart(s[i+1]) {
			m[i+1] = true
		}
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if !m[i] {
			b.WriteByte(s[i])
			continue
		}
		b.WriteString("[redacted]")
		for i+1 < len(s) && m[i+1] {
			i++
		}
	}
	out := b.String()
	// A secret that overlaps the marker can survive, or appear, in what
	// is left: say nothing at all then.
	if set.holds(out, set.all) {
		return "[details withheld]"
	}
	return out
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
		if set := r.set.Load(); set.holds(s, set.all) {
			return "[details withheld]"
		}
	}
	return s
}
