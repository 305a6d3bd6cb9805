// Package redact is the one redactor of this module: it learns the values
// a connection is given (environment and header values, a URL's password
// and query, what requests were actually sent with) and removes them from
// text that is printed or recorded: mcpservers' error messages and its
// check for credentials a server echoed into a tool's definition, and the
// guardian command's server stderr lines and failure reasons.
//
// What a credential looks like is the secrets package's to say: a value is
// a credential when secrets refuses it under its name or alone, and every
// credential secrets finds inside a value (a DSN's password, a JSON
// member's token) is one too, whatever the value is called.
//
// A value is found in the forms a text may quote it in: as given, in any
// ASCII case, percent-encoded (query or path), JSON-escaped (with and
// without HTML escapes, / as \/), and inside a base64 or percent-encoded
// run of the text that decodes to text holding it. A credential is also
// learnt as a server that decodes it holds it: percent-decoded once ('+'
// as itself and as a space), and, when it is the password of a
// user:password pair (a URL's or DSN's userinfo), the pair as written and
// decoded and the base64 of each, as Basic auth carries the pair. A URL's
// password is a credential whatever secrets makes of it (a value given to
// a connection holds no references: "$ecret" is a password). A credential of 16 bytes
// or more is also found in part: any 12-byte run of one of its forms.
// A credential shorter than 6 bytes is found only as a whole word (not
// inside a longer run of letters and digits), so that a password "pw" is
// redacted in "root:pw@db" but not in "password"; a value that is not a
// credential is redacted only from 6 bytes, as shorter ones ("1", "true")
// would shred every message.
//
// The work is linear in the text: each value is looked for once from left
// to right, the runs of a long credential are looked up in a map once per
// position, and each encoded run is decoded once.
package redact

import (
	"slices"
	"sync"
	"sync/atomic"
)

// Redactor removes what it learnt from text. The zero value and a nil
// *Redactor know nothing and redact nothing. It is safe for concurrent
// use: requests teach it while errors are made.
type Redactor struct {
	mu   sync.Mutex          // serializes learning
	seen map[string]struct{} // every form learnt, with its kind, under mu
	set  atomic.Pointer[set]
}

// set is what a Redactor knows, replaced whole when it learns, so that
// readers need no lock. Every form is folded (ASCII lower case), so that
// offsets into the folded text are those of the text.
type set struct {
	// all is every form of every value of minSecret bytes or more,
	// longest first, so that a value containing another goes whole.
	all []string
	// creds is the forms in all that are of credentials: a server may
	// quote the other values (a URL, NODE_ENV=production) in a tool.
	creds []string
	// words is the forms of credentials shorter than minSecret, found
	// as whole words only.
	words []string
	// windows holds every windowLen-byte run of the forms of each
	// credential of at least minWindowed bytes: a prefix, a half or a
	// suffix of a secret (a server printing "using key ghp_abcd..." or a
	// secret split over two lines) is redacted too.
	windows map[string]struct{}
}

// windowLen is the shortest run of a long credential that is redacted,
// and minWindowed the shortest credential whose runs are.
const (
	windowLen   = 12
	minWindowed = 16
)

// minSecret is the shortest value found anywhere in a text; a shorter
// credential is found as a whole word, a shorter other value not at all.
const minSecret = 6

// New returns a Redactor that knows nothing yet.
func New() *Redactor { return &Redactor{} }

// Learn adds credentials: values redacted from text, whatever their length
// (see the package doc for short ones), and an echo when a tool's
// definition holds one (EchoedIn).
func (r *Redactor) Learn(vals ...string) {
	r.add(true, vals...)
}

// LearnText adds values redacted from text that are no credential in
// themselves (a connection's URL, NODE_ENV=production): a tool may quote
// them. Values shorter than 6 bytes are not learnt.
func (r *Redactor) LearnText(vals ...string) {
	r.add(false, vals...)
}

func (r *Redactor) add(cred bool, vals ...string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var all, creds, words, windows []string
	if cred {
		vals = withDecoded(vals)
	}
	for _, v := range vals {
		if v == "" || len(v) < minSecret && !cred {
			continue
		}
		for _, s := range forms(v) {
			s = foldASCII(s)
			if r.seen == nil {
				r.seen = map[string]struct{}{}
			}
			// "t": in all; "c": in creds; "w": in words.
			if len(v) < minSecret {
				if _, ok := r.seen["w"+s]; !ok {
					r.seen["w"+s] = struct{}{}
					words = append(words, s)
				}
				continue
			}
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
	if len(all)+len(creds)+len(words) == 0 {
		return
	}
	next := &set{windows: map[string]struct{}{}}
	if old := r.set.Load(); old != nil {
		next.all = slices.Clone(old.all)
		next.creds = slices.Clone(old.creds)
		next.words = slices.Clone(old.words)
		for w := range old.windows {
			next.windows[w] = struct{}{}
		}
	}
	for _, w := range windows {
		next.windows[w] = struct{}{}
	}
	next.all = longestFirst(append(next.all, all...))
	next.creds = longestFirst(append(next.creds, creds...))
	next.words = longestFirst(append(next.words, words...))
	r.set.Store(next)
}

func longestFirst(s []string) []string {
	slices.SortStableFunc(s, func(a, b string) int { return len(b) - len(a) })
	return s
}

// load returns what r knows, nil if nothing.
func (r *Redactor) load() *set {
	if r == nil {
		return nil
	}
	return r.set.Load()
}
