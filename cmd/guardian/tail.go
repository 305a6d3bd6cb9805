package main

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/guardian-agent/guardian-go/internal/secretforms"
	"github.com/guardian-agent/guardian-go/refusals"
	"github.com/guardian-agent/guardian-go/secrets"
)

// A failed stdio server is reported with the last lines it wrote to its
// standard error: usually the reason it failed. Those lines are the
// server's own words and may quote what it was given (an environment
// value, a token it rejected), so they are kept bounded and cleaned before
// they are printed: see clean.
const (
	tailLines   = 10  // lines kept per server
	tailLineMax = 300 // bytes shown of a line, once cleaned
	// rawLineMax bytes of a line are kept until it is cleaned: a line is
	// cleaned whole and only then cut to tailLineMax, so that a value
	// straddling the cut is found whole.
	rawLineMax = 16 << 10
)

// rawLine is a line as a server wrote it, and whether it was cut.
type rawLine struct {
	s   string
	cut bool
}

// stderrTail receives what stdio servers write to their standard error,
// as mcpservers.ClientOptions.Stderr sends it ("[<server>] " before each
// line), and keeps the last lines of each server. It never blocks for
// long: a server writing to a full pipe would stop.
type stderrTail struct {
	mu      sync.Mutex
	names   []string // the servers, longest first, to match prefixes
	lines   map[string][]rawLine
	partial []byte // an unfinished line
	last    string // the server of the last line, for a line too long to carry its prefix
}

func newStderrTail(servers []string) *stderrTail {
	names := slices.Clone(servers)
	// Longest first, so that a server named "a] b" wins over "a".
	slices.SortStableFunc(names, longestFirst)
	return &stderrTail{names: names, lines: map[string][]rawLine{}}
}

func (t *stderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			// Keep no more of an unfinished line than a line's worth,
			// plus room for the prefix.
			room := rawLineMax + 64 + len(t.longest()) - len(t.partial)
			t.partial = append(t.partial, p[:max(0, min(len(p), room))]...)
			break
		}
		line := append(t.partial, p[:i]...)
		t.partial = t.partial[:0:0]
		t.add(line)
		p = p[i+1:]
	}
	return n, nil
}

func (t *stderrTail) longest() string {
	if len(t.names) == 0 {
		return ""
	}
	return t.names[0]
}

// add files one complete line under its server.
func (t *stderrTail) add(line []byte) {
	server := t.last
	for _, name := range t.names {
		if p := "[" + name + "] "; bytes.HasPrefix(line, []byte(p)) {
			server, line = name, line[len(p):]
			break
		}
	}
	if server == "" {
		return
	}
	t.last = server
	l := rawLine{s: strings.TrimRight(string(line), "\r")}
	if len(l.s) > rawLineMax {
		l.s, l.cut = l.s[:rawLineMax], true
	}
	ls := append(t.lines[server], l)
	if len(ls) > tailLines {
		ls = ls[len(ls)-tailLines:]
	}
	t.lines[server] = ls
}

// Tail returns the last lines server wrote, cleaned of secrets.
func (t *stderrTail) Tail(server string, r *redactor) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.partial) > 0 {
		// An unfinished last line is often the whole reason (a panic
		// with no newline): take it too.
		saved := t.partial
		t.partial = nil
		t.add(saved)
	}
	lines := t.lines[server]
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if strings.TrimSpace(l.s) == "" {
			continue
		}
		s := l.s
		if l.cut {
			s = r.trimCut(s)
		}
		out = append(out, strings.ToValidUTF8(shorten(r.clean(s), l.cut), "\uFFFD"))
	}
	return out
}

// shorten cuts a cleaned line to tailLineMax bytes, at the start of a
// character and never inside a mark, with "..." when anything is cut.
func shorten(s string, cut bool) string {
	if len(s) <= tailLineMax {
		if cut {
			return s + "..."
		}
		return s
	}
	n := tailLineMax
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	if j := strings.LastIndex(s[:n], "<"); j >= 0 && j+len(redactedMark) > n && strings.HasPrefix(s[j:], redactedMark) {
		n = j
	}
	return s[:n] + "..."
}

// redactor cleans text a server wrote, or an error that may quote what a
// server was given, before it is printed.
//
// A value is found in the forms a server may print it in: as given,
// upper- or lower-cased, percent-encoded (url.QueryEscape, url.PathEscape),
// JSON-escaped (with and without HTML escapes, "/" as "\/"), all matched
// without regard to ASCII case. A value of windowSecret bytes or more is
// also found in part: any run of windowLen bytes of one of its forms (a
// prefix, a half on a line of its own) is removed. The windows are kept in
// a map and looked up once per position of the text, so the work is linear
// in the text.
type redactor struct {
	values   []string            // the values used to connect: env, headers, resolved references
	needles  []string            // folded forms of the values shorter than windowSecret
	windows  map[string]struct{} // folded windowLen-byte runs of the forms of longer values
	variants []string            // every folded form, for a line cut short
}

// minSecret is the shortest value redacted: shorter ones ("1", "true")
// would mangle every line and are no credential.
const minSecret = 6

const (
	windowSecret = 16 // values this long are also redacted in part
	windowLen    = 12 // the shortest part of one redacted
)

const (
	// redactedMark stands for a removed value. It is a placeholder the
	// secrets checks accept, so that the line it is in is judged on what
	// is left.
	redactedMark = "<redacted>"
	withheldLine = "[line withheld: it may hold a credential]"
)

func newRedactor(values []string) *redactor {
	r := &redactor{windows: map[string]struct{}{}}
	seen := map[string]bool{}
	forms := map[string]bool{}
	for _, v := range values {
		if len(v) < minSecret || seen[v] {
			continue
		}
		seen[v] = true
		r.values = append(r.values, v)
		for _, f := range secretForms(v) {
			f = secretforms.FoldASCII(f)
			if forms[f] {
				continue
			}
			forms[f] = true
			r.variants = append(r.variants, f)
			if len(f) < windowSecret {
				r.needles = append(r.needles, f)
				continue
			}
			for i := 0; i+windowLen <= len(f); i++ {
				r.windows[f[i:i+windowLen]] = struct{}{}
			}
		}
	}
	// Longest first, so that a value containing another goes whole.
	slices.SortStableFunc(r.values, longestFirst)
	slices.SortStableFunc(r.needles, longestFirst)
	return r
}

// secretForms returns v in the forms a server may print it in.
func secretForms(v string) []string {
	var out []string
	for _, b := range []string{v, strings.ToUpper(v), strings.ToLower(v)} {
		out = append(out, secretforms.Of(b)...)
	}
	return out
}

// spans returns the merged byte ranges of s that hold a value, a form of
// one, or a windowLen-byte run of one.
func (r *redactor) spans(s string) [][2]int {
	if len(r.needles) == 0 && len(r.windows) == 0 {
		return nil
	}
	f := secretforms.FoldASCII(s)
	var sp [][2]int
	if len(r.windows) > 0 {
		for i := 0; i+windowLen <= len(f); i++ {
			if _, ok := r.windows[f[i:i+windowLen]]; ok {
				if n := len(sp); n > 0 && sp[n-1][1] >= i {
					sp[n-1][1] = i + windowLen
				} else {
					sp = append(sp, [2]int{i, i + windowLen})
				}
			}
		}
	}
	for _, nd := range r.needles {
		for off := 0; ; {
			j := strings.Index(f[off:], nd)
			if j < 0 {
				break
			}
			sp = append(sp, [2]int{off + j, off + j + len(nd)})
			off += j + 1
		}
	}
	if len(r.needles) == 0 {
		return sp
	}
	slices.SortFunc(sp, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	merged := sp[:0]
	for _, x := range sp {
		if n := len(merged); n > 0 && merged[n-1][1] >= x[0] {
			merged[n-1][1] = max(merged[n-1][1], x[1])
		} else {
			merged = append(merged, x)
		}
	}
	return merged
}

// replace returns s with every span of a value replaced by the mark.
func (r *redactor) replace(s string) string {
	sp := r.spans(s)
	if len(sp) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, x := range sp {
		b.WriteString(s[last:x[0]])
		b.WriteString(redactedMark)
		last = x[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// trimCut drops from the end of s, a line cut short, any beginning of a
// form of a value: too short to be found, it is the start of one.
func (r *redactor) trimCut(s string) string {
	f := secretforms.FoldASCII(s)
	for _, v := range r.variants {
		for k := min(len(v)-1, len(f)); k > 0; k-- {
			if strings.HasSuffix(f, v[:k]) {
				f, s = f[:len(f)-k], s[:len(s)-k]
				break
			}
		}
	}
	return s
}

// clean returns s with every value the connection was given replaced,
// every word the secrets checks refuse replaced, and nothing at all (a
// note saying so) when what is left still looks like it holds a
// credential, or still holds a value.
func (r *redactor) clean(s string) string {
	s = r.replace(s)
	words := strings.Fields(s)
	if err := secrets.CheckArgs("", words); err != nil {
		for _, f := range refusals.All(err) {
			toks, terr := refusals.Tokens(f.Pointer)
			if terr != nil || len(toks) != 1 {
				return withheldLine
			}
			i, aerr := strconv.Atoi(toks[0])
			if aerr != nil || i < 0 || i >= len(words) {
				return withheldLine
			}
			// Keep the name of an assignment: what was set, not to what.
			key, _, isAssign := strings.Cut(words[i], "=")
			if isAssign && !strings.ContainsAny(key, ":/@") {
				words[i] = key + "=" + redactedMark
			} else {
				words[i] = redactedMark
			}
		}
		s = strings.Join(words, " ")
	}
	// Whole-line shapes the words alone do not show ("Authorization:
	// Bearer ..."), and values that survived (overlapping the marker).
	if secrets.CheckArgs("", []string{s}) != nil {
		return withheldLine
	}
	if len(r.spans(s)) > 0 {
		return withheldLine
	}
	return s
}

func longestFirst(a, b string) int { return cmp.Compare(len(b), len(a)) }
