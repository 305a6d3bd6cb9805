package redact

import (
	"strconv"
	"strings"

	"github.com/guardian-agent/guardian-go/refusals"
	"github.com/guardian-agent/guardian-go/secrets"
)

// Marks of Clean, for lines printed to people.
const (
	// LineMark stands for a removed value in Clean's output. It is a
	// placeholder the secrets checks accept, so that the line it is in
	// is judged on what is left.
	LineMark = "<redacted>"
	// WithheldLine is all of Clean's output when what is left still
	// looks like it holds a credential, or still holds a value.
	WithheldLine = "[line withheld: it may hold a credential]"
)

// Clean returns s, a line a server wrote or an error that may quote what
// a server was given, with every value r learnt replaced as Redact does
// (by LineMark), then every word the secrets checks refuse replaced, and
// WithheldLine when what is left still looks like it holds a credential,
// or still holds a value.
//
// Of a refused word NAME=value only the value goes, so that the line says
// what was set; but only when NAME is a name (letters, digits, '_', '-',
// '.', starting with a letter or '_'), that secrets accepts alone, holding
// nothing r learnt, and the value is not empty and does not start with
// '=': a base64 secret ending in '=' or '==' is one word, not an
// assignment, and goes whole.
func (r *Redactor) Clean(s string) string {
	set := r.load()
	if set != nil {
		s, _ = set.replace(s, LineMark)
	}
	words := strings.Fields(s)
	bad, ok := refusedWords(words)
	if !ok {
		return WithheldLine
	}
	// A word the checks accept may hold a refused one between
	// punctuation ("(key=...)", "token,"): check it without.
	var at []int
	var cores []string
	for i, w := range words {
		if c := strings.Trim(w, wordPunct); !bad[i] && c != w && c != "" {
			at, cores = append(at, i), append(cores, c)
		}
	}
	badCores, ok := refusedWords(cores)
	if !ok {
		return WithheldLine
	}
	for j := range badCores {
		w := words[at[j]]
		k := strings.Index(w, cores[j])
		words[at[j]] = w[:k] + r.redactWord(cores[j]) + w[k+len(cores[j]):]
	}
	for i := range bad {
		words[i] = r.redactWord(words[i])
	}
	if len(bad)+len(badCores) > 0 {
		s = strings.Join(words, " ")
	}
	// Whole-line shapes the words alone do not show ("Authorization:
	// Bearer ..."), and values that survived (overlapping the mark).
	if secrets.CheckArgs("", []string{s}) != nil || set.holdsValue(s) {
		return WithheldLine
	}
	return s
}

// wordPunct is what may stand around a word in prose or a log line.
const wordPunct = `,.;:!?()[]{}<>"'` + "`"

// refusedWords returns the indexes of the words the secrets checks refuse,
// read as a command line's arguments; false if a refusal cannot be placed
// on one word.
func refusedWords(words []string) (map[int]bool, bool) {
	err := secrets.CheckArgs("", words)
	if err == nil {
		return nil, true
	}
	bad := map[int]bool{}
	for _, f := range refusals.All(err) {
		toks, terr := refusals.Tokens(f.Pointer)
		if terr != nil || len(toks) != 1 {
			return nil, false
		}
		i, aerr := strconv.Atoi(toks[0])
		if aerr != nil || i < 0 || i >= len(words) {
			return nil, false
		}
		bad[i] = true
	}
	return bad, true
}

// redactWord is a refused word redacted: NAME=<redacted> when it is an
// assignment whose name can be printed, the mark alone otherwise.
func (r *Redactor) redactWord(w string) string {
	if key, ok := r.assignedName(w); ok {
		return key + "=" + LineMark
	}
	return LineMark
}

// assignedName returns the name of word read as NAME=value, if it is one
// that can be printed without any part of a secret (see Clean).
func (r *Redactor) assignedName(word string) (string, bool) {
	key, val, ok := strings.Cut(word, "=")
	if !ok || val == "" || val[0] == '=' || !isName(key) {
		return "", false
	}
	if secrets.CheckArgs("", []string{key}) != nil {
		return "", false
	}
	if set := r.load(); set.holdsValue(key) {
		return "", false
	}
	return key, true
}

// isName reports whether s is a variable's or option's name: at most 64
// bytes of letters, digits, '_', '-' and '.', starting with a letter or
// '_' (or with "-" or "--", for an option).
func isName(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "-")
	if s == "" || len(s) > 64 || !isLetter(s[0]) && s[0] != '_' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && !isDigit(c) && c != '_' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// TrimCut drops from the end of s, a line cut short before it was
// cleaned, any beginning of a form of a value r learnt: too short to be
// found, it may be the start of one.
func (r *Redactor) TrimCut(s string) string {
	set := r.load()
	if set == nil {
		return s
	}
	f := foldASCII(s)
	for _, list := range [][]string{set.all, set.words} {
		for _, v := range list {
			for k := min(len(v)-1, len(f)); k > 0; k-- {
				if strings.HasSuffix(f, v[:k]) {
					f, s = f[:len(f)-k], s[:len(s)-k]
					break
				}
			}
		}
	}
	return s
}
