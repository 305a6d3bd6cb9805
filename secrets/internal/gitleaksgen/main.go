// Command gitleaksgen writes secrets/catalog_gen.go: the token formats of
// gitleaks' rule file (config/gitleaks.toml of the gitleaks version this
// module requires), as a compact table the secrets package matches
// without a regular-expression engine.
//
//	go -C secrets/internal/gitleaksgen run . -out ../../catalog_gen.go
//
// (go generate ./secrets runs it). It lives in a module of its own so
// that gitleaks and what its config package pulls in (viper and more)
// never reach the core's go.mod.
//
// A rule becomes a format when its regular expression is a token's shape:
// a literal prefix of three or more bytes, then sets of bytes each taken a
// bounded number of times (alternations expanded, at most 16 ways). Rules
// that find a secret by the name before it ("a value after 'algolia' and
// '='") are left out, as are shapes the table cannot hold (unbounded
// wildcards, multi-line context); the file's header counts them.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"regexp/syntax"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
)

// step is a set of bytes taken min..max times.
type step struct {
	set      [4]uint64
	min, max int
}

// tokenFormat is one rule's shape: its ID, least entropy, and steps.
type tokenFormat struct {
	id      string
	entropy float64
	steps   []step
}

// maxRun bounds a step without an upper bound (x+, x*).
const maxRun = 1024

// maxWays bounds how many sequences an alternation expands to.
const maxWays = 16

// minPrefix is the shortest literal prefix a format needs: shorter ones
// ("ey", "SK") start too many words.
const minPrefix = 3

var errShape = fmt.Errorf("not a token's shape")

var verbose = flag.Bool("v", false, "list the rules left out")

func main() {
	out := flag.String("out", "", "the Go file to write (standard output if empty)")
	flag.Parse()
	src, err := generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gitleaksgen:", err)
		os.Exit(1)
	}
	if *out == "" {
		os.Stdout.Write(src)
		return
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gitleaksgen:", err)
		os.Exit(1)
	}
}

// generate returns the Go source of the table.
func generate() ([]byte, error) {
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(strings.NewReader(config.DefaultConfig)); err != nil {
		return nil, err
	}
	var vc config.ViperConfig
	if err := v.Unmarshal(&vc); err != nil {
		return nil, err
	}
	cfg, err := vc.Translate()
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(cfg.Rules))
	for id := range cfg.Rules {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var formats []tokenFormat
	var byName, unfit int
	for _, id := range ids {
		r := cfg.Rules[id]
		if r.Regex == nil {
			unfit++
			continue
		}
		expr := r.Regex.String()
		if strings.Contains(expr, `[\w.-]{0,50}?`) {
			byName++ // a vendor's name, then an assignment: the name rules' kind
			continue
		}
		seqs, err := shapes(expr)
		if err != nil {
			unfit++
			if *verbose {
				fmt.Fprintf(os.Stderr, "unfit %s: %s\n", id, expr)
			}
			continue
		}
		for _, s := range seqs {
			formats = append(formats, tokenFormat{id: id, entropy: r.Entropy, steps: s})
		}
	}
	return render(formats, len(ids), byName, unfit)
}

// shapes returns the step sequences a rule's expression matches as a
// token: its capture group, or the whole, without boundary assertions.
func shapes(expr string) ([][]step, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}

	core := coreOf(re)
	seqs, err := seqsOf(core)
	if err != nil {
		return nil, err
	}
	var out [][]step
	for _, s := range seqs {
		if literalPrefix(s) >= minPrefix {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, errShape
	}
	return out, nil
}

// coreOf strips what surrounds the token: leading and trailing
// assertions and delimiter groups, and takes the first capture group if
// the expression has one.
func coreOf(re *syntax.Regexp) *syntax.Regexp {
	if c := firstCapture(re); c != nil {
		return c.Sub[0]
	}
	return re
}

func firstCapture(re *syntax.Regexp) *syntax.Regexp {
	if re.Op == syntax.OpCapture {
		return re
	}
	if re.Op == syntax.OpConcat {
		for _, s := range re.Sub {
			if s.Op == syntax.OpCapture {
				return s
			}
		}
	}
	return nil
}

// seqsOf expands re into the step sequences it matches.
func seqsOf(re *syntax.Regexp) ([][]step, error) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpWordBoundary, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpBeginLine, syntax.OpEndLine:
		return [][]step{nil}, nil
	case syntax.OpLiteral:
		var s []step
		for _, r := range re.Rune {
			st, err := runeStep(r, re.Flags&syntax.FoldCase != 0)
			if err != nil {
				return nil, err
			}
			s = append(s, st)
		}
		return [][]step{s}, nil
	case syntax.OpCharClass:
		st, err := classStep(re.Rune)
		if err != nil {
			return nil, err
		}
		return [][]step{{st}}, nil
	case syntax.OpCapture:
		return seqsOf(re.Sub[0])
	case syntax.OpConcat:
		out := [][]step{nil}
		for _, sub := range re.Sub {
			subs, err := seqsOf(sub)
			if err != nil {
				return nil, err
			}
			var next [][]step
			for _, a := range out {
				for _, b := range subs {
					next = append(next, append(append([]step(nil), a...), b...))
				}
			}
			if len(next) > maxWays {
				return nil, errShape
			}
			out = next
		}
		return out, nil
	case syntax.OpAlternate:
		var out [][]step
		for _, sub := range re.Sub {
			subs, err := seqsOf(sub)
			if err != nil {
				return nil, err
			}
			out = append(out, subs...)
		}
		if len(out) > maxWays {
			return nil, errShape
		}
		return out, nil
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		min, max := 0, maxRun
		switch re.Op {
		case syntax.OpPlus:
			min = 1
		case syntax.OpQuest:
			max = 1
		case syntax.OpRepeat:
			min, max = re.Min, re.Max
			if max < 0 || max > maxRun {
				max = maxRun
			}
		}
		subs, err := seqsOf(re.Sub[0])
		if err != nil {
			return nil, err
		}
		if len(subs) == 1 && len(subs[0]) == 1 && subs[0][0].min == 1 && subs[0][0].max == 1 {
			st := subs[0][0]
			st.min, st.max = min, max
			return [][]step{{st}}, nil
		}
		// A group repeated a fixed, small number of times: spelled out.
		if min == max && min <= 4 {
			out := [][]step{nil}
			for range min {
				var next [][]step
				for _, a := range out {
					for _, b := range subs {
						next = append(next, append(append([]step(nil), a...), b...))
					}
				}
				if len(next) > maxWays {
					return nil, errShape
				}
				out = next
			}
			return out, nil
		}
	}
	return nil, errShape
}

func runeStep(r rune, fold bool) (step, error) {
	if r > 0x7f {
		return step{}, errShape
	}
	var st step
	st.set[r/64] |= 1 << (r % 64)
	if fold {
		if 'a' <= r && r <= 'z' {
			u := r - 'a' + 'A'
			st.set[u/64] |= 1 << (u % 64)
		} else if 'A' <= r && r <= 'Z' {
			l := r - 'A' + 'a'
			st.set[l/64] |= 1 << (l % 64)
		}
	}
	st.min, st.max = 1, 1
	return st, nil
}

// classStep is a character class's ASCII bytes; a class reaching past
// ASCII (\S, [^…]) is no token's alphabet.
func classStep(ranges []rune) (step, error) {
	var st step
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if hi > 0x7f {
			// Case folding adds ſ and K (the Kelvin sign) to [a-z]
			// under (?i): not a token's. A wider class (\S, [^"]) is
			// no token's alphabet.
			if lo > 0x7f && hi-lo < 2 {
				continue
			}
			return step{}, errShape
		}
		for r := lo; r <= hi; r++ {
			st.set[r/64] |= 1 << (r % 64)
		}
	}
	st.min, st.max = 1, 1
	return st, nil
}

// literalPrefix is how many leading steps match exactly one byte, up to
// case.
func literalPrefix(s []step) int {
	n := 0
	for _, st := range s {
		if st.min != 1 || st.max != 1 || count(st.set) > 2 {
			break
		}
		n++
	}
	return n
}

func count(set [4]uint64) int {
	n := 0
	for _, w := range set {
		for ; w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}

// render writes the table as Go source.
func render(formats []tokenFormat, rules, byName, unfit int) ([]byte, error) {
	version := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/zricethezav/gitleaks/v8" {
				version = d.Version
			}
		}
	}
	sets := map[[4]uint64]int{}
	var order [][4]uint64
	for _, f := range formats {
		for _, st := range f.steps {
			if _, ok := sets[st.set]; !ok {
				sets[st.set] = len(order)
				order = append(order, st.set)
			}
		}
	}
	ids := map[string]bool{}
	for _, f := range formats {
		ids[f.id] = true
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by secrets/internal/gitleaksgen; DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "// The token formats of gitleaks %s (github.com/zricethezav/gitleaks/v8,\n", version)
	fmt.Fprintf(&b, "// config/gitleaks.toml), Copyright (c) 2019 Zachary Rice, under the MIT\n")
	fmt.Fprintf(&b, "// License (see NOTICE). Of its %d rules, %d give the %d formats below;\n", rules, len(ids), len(formats))
	fmt.Fprintf(&b, "// %d find a secret by a vendor's name before it, which the name rules\n", byName)
	fmt.Fprintf(&b, "// do in their own way, and %d have shapes this table does not hold.\n\n", unfit)
	fmt.Fprintf(&b, "package secrets\n\n")
	fmt.Fprintf(&b, "// catalogVersion is the gitleaks release the table was generated from.\n")
	fmt.Fprintf(&b, "const catalogVersion = %q\n\n", version)
	fmt.Fprintf(&b, "// catalogSets are the byte sets of the formats' steps.\n")
	fmt.Fprintf(&b, "var catalogSets = [...]catalogSet{\n")
	for _, s := range order {
		fmt.Fprintf(&b, "\t{%#x, %#x, %#x, %#x},\n", s[0], s[1], s[2], s[3])
	}
	fmt.Fprintf(&b, "}\n\n")
	fmt.Fprintf(&b, "// catalog holds gitleaks' token formats, in its rules' order.\n")
	fmt.Fprintf(&b, "var catalog = [...]catalogFormat{\n")
	for _, f := range formats {
		fmt.Fprintf(&b, "\t{id: %q, entropy: %g, steps: []catalogStep{", f.id, f.entropy)
		for i, st := range f.steps {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "{%d, %d, %d}", sets[st.set], st.min, st.max)
		}
		b.WriteString("}},\n")
	}
	fmt.Fprintf(&b, "}\n")
	return format.Source(b.Bytes())
}
