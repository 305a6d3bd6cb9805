package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/definition"
)

// flagSets returns each new command's flag set, as its run function builds
// it, for the help tests to walk.
func flagSets() map[string]*flag.FlagSet {
	sets := map[string]*flag.FlagSet{}
	rec := newFlagSet("record")
	var rf recordFlags
	rf.register(rec)
	rec.String("o", "", "")
	rec.Bool("json", false, "")
	sets["record"] = rec

	chk := newFlagSet("check")
	var cf recordFlags
	cf.register(chk)
	chk.String("golden", "", "")
	chk.Bool("update", false, "")
	chk.Bool("json", false, "")
	sets["check"] = chk

	for _, name := range []string{"diff", "validate", "scan"} {
		fl := newFlagSet(name)
		fl.Bool("json", false, "")
		sets[name] = fl
	}
	return sets
}

// Every flag of every command is explained in its --help, with an example
// command line that uses it.
func TestHelpExplainsEveryFlag(t *testing.T) {
	for name, fl := range flagSets() {
		t.Run(name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(context.Background(), []string{name, "--help"}, &out, &errb); code != exitOK || errb.Len() != 0 {
				t.Fatalf("%s --help: exit %d, stderr %q", name, code, errb.String())
			}
			help := out.String()
			if !strings.HasPrefix(help, "Usage: guardian "+name+" ") || !strings.Contains(help, "Exit status:") || !strings.Contains(help, "\nExample:\n") {
				t.Errorf("%s --help lacks usage, exit status or example:\n%s", name, help)
			}
			fl.VisitAll(func(f *flag.Flag) {
				dash := "--"
				if len(f.Name) == 1 {
					dash = "-"
				}
				heading := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(dash+f.Name) + `( |$)`)
				example := regexp.MustCompile(`(?m)^ +guardian ` + name + ` .*` + regexp.QuoteMeta(dash+f.Name) + `( |$)`)
				if !heading.MatchString(help) {
					t.Errorf("%s --help does not explain %s%s", name, dash, f.Name)
				}
				if !example.MatchString(help) {
					t.Errorf("%s --help has no example using %s%s", name, dash, f.Name)
				}
			})
			// help CMD and -h say the same.
			for _, args := range [][]string{{"help", name}, {name, "-h"}} {
				var again bytes.Buffer
				if code := run(context.Background(), args, &again, &bytes.Buffer{}); code != exitOK || again.String() != help {
					t.Errorf("%q differs from --help", args)
				}
			}
		})
	}
	var out bytes.Buffer
	run(context.Background(), []string{"--help"}, &out, &bytes.Buffer{})
	for _, c := range commands() {
		if !strings.Contains(out.String(), "\t"+c.name+" ") || !strings.Contains(out.String(), "guardian "+c.name+" ") {
			t.Errorf("guardian --help does not list %s with an example", c.name)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"record"}, "missing CONFIG"},
		{[]string{"record", "a.json", "b.json"}, "too many arguments: want CONFIG"},
		{[]string{"record", "a.json", "--timeout", "0s"}, "--timeout must be positive"},
		{[]string{"record", "a.json", "--timeout", "soon"}, `invalid value "soon" for flag -timeout`},
		{[]string{"record", "a.json", "--servers", " , "}, "--servers names no server"},
		{[]string{"record", "--nope", "a.json"}, "flag provided but not defined: -nope"},
		{[]string{"check", "a.json"}, "--golden FILE is required"},
		{[]string{"check", "--golden", "g.json"}, "missing CONFIG"},
		{[]string{"diff", "a.json"}, "missing NEW"},
		{[]string{"diff"}, "missing OLD and NEW"},
		{[]string{"diff", "a.json", "b.json", "c.json"}, "too many arguments: want OLD and NEW"},
		{[]string{"validate"}, "missing FILE"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(context.Background(), tt.args, &out, &errb)
			if code != exitBad || out.Len() != 0 || !strings.Contains(errb.String(), tt.msg) || !strings.Contains(errb.String(), "Usage: guardian "+tt.args[0]) {
				t.Errorf("exit %d\nstdout: %s\nstderr: %s\nwant %q and the usage on stderr", code, out.String(), errb.String(), tt.msg)
			}
			// With --json, the same error as a report on stdout.
			out.Reset()
			errb.Reset()
			code = run(context.Background(), append(tt.args, "--json"), &out, &errb)
			var rep struct {
				header
				Problems []problem `json:"problems"`
			}
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatalf("--json: %v\n%s", err, out.String())
			}
			if code != exitBad || rep.Status != statusUsage || rep.ExitCode != exitBad || len(rep.Problems) != 1 ||
				!strings.Contains(rep.Problems[0].Message, tt.msg) || errb.Len() != 0 {
				t.Errorf("--json: exit %d, %+v, stderr %q", code, rep, errb.String())
			}
		})
	}
}

func TestParseArgs(t *testing.T) {
	tests := []struct {
		args []string
		pos  []string
		name string
		json bool
	}{
		{[]string{"c.json"}, []string{"c.json"}, "", false},
		{[]string{"c.json", "--name", "x", "--json"}, []string{"c.json"}, "x", true},
		{[]string{"--name=x", "c.json", "-json=false"}, []string{"c.json"}, "x", false},
		{[]string{"a", "--name", "x", "b"}, []string{"a", "b"}, "x", false},
		{[]string{"--", "--name", "x"}, []string{"--name", "x"}, "", false},
		{[]string{"a", "--", "-b"}, []string{"a", "-b"}, "", false},
	}
	for _, tt := range tests {
		fl := newFlagSet("t")
		name := fl.String("name", "", "")
		asJSON := fl.Bool("json", false, "")
		pos, err := parseArgs(fl, tt.args)
		if err != nil || strings.Join(pos, "|") != strings.Join(tt.pos, "|") || *name != tt.name || *asJSON != tt.json {
			t.Errorf("parseArgs(%q) = %q, name %q, json %v, %v; want %q, %q, %v", tt.args, pos, *name, *asJSON, err, tt.pos, tt.name, tt.json)
		}
		if got := wantsJSON(tt.args); got != tt.json {
			t.Errorf("wantsJSON(%q) = %v, want %v", tt.args, got, tt.json)
		}
	}
}

// docs/cli.md documents every flag, change kind, status and problem kind.
func TestDocsCoverEverything(t *testing.T) {
	data, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	var want []string
	for _, fl := range flagSets() {
		fl.VisitAll(func(f *flag.Flag) {
			if len(f.Name) == 1 {
				want = append(want, "`-"+f.Name+" ")
			} else {
				want = append(want, "--"+f.Name)
			}
		})
	}
	for _, k := range []definition.ChangeKind{
		definition.AgentChanged, definition.ToolAdded, definition.ToolRemoved, definition.ToolRenamed,
		definition.ToolDescription, definition.ToolTitle, definition.ToolInputSchema, definition.ToolOutputSchema,
		definition.ToolAnnotations, definition.ToolDestructive, definition.ToolCode, definition.ToolServer,
		definition.ServerAdded, definition.ServerRemoved, definition.ServerChanged, definition.SubAgentAdded,
		definition.SubAgentRemoved, definition.ExclusionsChanged, definition.FormatVersionChanged,
	} {
		want = append(want, "`"+string(k)+"`")
	}
	for _, s := range []string{statusOK, statusDrift, statusRefused, statusInvalid, statusFailed, statusInterrupted, statusUsage,
		"contains-secret", "cannot-record", "undescribed", kindInvalid, kindUnset, kindUnreadable, kindUsage,
		serverOK, serverFailed, serverSkipped, inputEnvPrefix} {
		want = append(want, "`"+s)
	}
	for _, w := range want {
		if !strings.Contains(doc, w) {
			t.Errorf("docs/cli.md does not mention %s", w)
		}
	}
}

// Every command's help example runs as written, from the repository's
// root, as the binary: every file it names exists.
func TestHelpExamplesRun(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	// What each example gives: diff and scan show what they find.
	// login needs a terminal: off one, it says so (exit 2).
	want := map[string]int{"record": exitOK, "check": exitOK, "diff": exitRefused, "validate": exitOK, "scan": exitRefused, "login": exitBad, "logout": exitOK}
	// login and logout use the user's config directory: a test's own.
	cfgHome := []string{"XDG_CONFIG_HOME=" + t.TempDir()}
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			help := guardian(t, root, nil, c.name, "--help")
			_, example, ok := strings.Cut(help.stdout, "\nExample:\n\n")
			if !ok {
				t.Fatalf("no example in %s --help", c.name)
			}
			var ran int
			for _, line := range strings.Split(example, "\n") {
				if !strings.HasPrefix(line, "\tguardian ") {
					continue
				}
				args := strings.Fields(line)[1:]
				r := guardian(t, root, cfgHome, args...)
				if r.code != want[c.name] {
					t.Errorf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.TrimSpace(line), r.code, want[c.name], r.stdout, r.stderr)
				}
				ran++
			}
			if ran == 0 {
				t.Errorf("%s --help: no example command line", c.name)
			}
		})
	}
}

// Commands that start no server have no progress: their help does not
// promise any, and with --json they print nothing on stderr.
func TestHelpNoProgressPromised(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"diff", "testdata/configs/docs.golden.json", "cmd/guardian/testdata/examples/docs-v2.json"},
		{"validate", "testdata/configs/docs.golden.json"},
	} {
		help := guardian(t, root, nil, args[0], "--help")
		if strings.Contains(help.stdout, "progress") || !strings.Contains(help.stdout, "nothing goes to stderr") {
			t.Errorf("%s --help promises progress, or does not say stderr is empty with --json", args[0])
		}
		if r := guardian(t, root, nil, append(args, "--json")...); r.stderr != "" || r.stdout == "" {
			t.Errorf("%s --json: stderr %q", args[0], r.stderr)
		}
	}
}
