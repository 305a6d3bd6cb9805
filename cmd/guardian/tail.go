package main

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/guardian-agent/guardian-go/internal/redact"
)

// A failed stdio server is reported with the last lines it wrote to its
// standard error: usually the reason it failed. Those lines are the
// server's own words and may quote what it was given (an environment
// value, a token it rejected), so they are kept bounded and cleaned before
// they are printed: see redact.Redactor.Clean.
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
			// The last word was cut short: a part of a token the
			// checks would know whole, and of a value whatever its
			// length. It goes, with any beginning of a value.
			s = r.TrimCut(s)
			s = s[:strings.LastIndexAny(s, " \t")+1]
		}
		out = append(out, strings.ToValidUTF8(shorten(r.Clean(s), l.cut), "\uFFFD"))
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
// server was given, before it is printed: the module's one redactor
// (internal/redact), which mcpservers uses too.
type redactor = redact.Redactor

// newRedactor returns a redactor that knows values, the values used to
// connect (env and header values, what references resolved to).
func newRedactor(values []string) *redactor {
	r := redact.New()
	r.LearnGiven(values...)
	return r
}

const (
	redactedMark = redact.LineMark
	withheldLine = redact.WithheldLine
)

func longestFirst(a, b string) int { return cmp.Compare(len(b), len(a)) }
