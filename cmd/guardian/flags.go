package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// defaultTimeout bounds how long one server may take to start and list
// its tools. npx may first download a package, and go run compile one.
const defaultTimeout = 60 * time.Second

// recordFlags are the flags record and check share: how to record.
type recordFlags struct {
	name      string
	servers   string
	exclude   listFlag
	prefix    bool
	timeout   time.Duration
	keepGoing bool
}

func (f *recordFlags) register(fl *flag.FlagSet) {
	fl.StringVar(&f.name, "name", "", "")
	fl.StringVar(&f.servers, "servers", "", "")
	fl.Var(&f.exclude, "exclude", "")
	fl.BoolVar(&f.prefix, "prefix-tool-names", false, "")
	fl.DurationVar(&f.timeout, "timeout", defaultTimeout, "")
	fl.BoolVar(&f.keepGoing, "keep-going", false, "")
}

// recordFlagsUsage documents recordFlags for command cmd, with an
// example each; extra ends every example (check's --golden), and
// nameDefault and excludeDefault say what --name and --exclude default to.
func recordFlagsUsage(cmd, extra, nameDefault, excludeDefault string) string {
	r := strings.NewReplacer("CMD", cmd, "EXTRA", extra, "NAMEDEFAULT", nameDefault, "EXCLUDEDEFAULT", excludeDefault)
	return r.Replace(`  --name AGENT
        the agent's name in the document (default: NAMEDEFAULT)
            guardian CMD .vscode/mcp.jsonEXTRA --name researcher
  --servers NAME,NAME
        record only these servers of the config (default: all of them but
        those it disables with "disabled": true). A NAME starting with /
        is the JSON pointer of one server, to pick one of several of a name
        (~/.claude.json's projects): two of a name are never recorded
            guardian CMD mcp.jsonEXTRA --servers github,memory
  --exclude POINTER
        leave an optional field out of the document, such as arguments that
        are paths on one machine; repeatable (default: EXCLUDEDEFAULT).
        The document lists it in extensions.guardian.exclude; it never
        hides a refusal
            guardian CMD mcp.jsonEXTRA --exclude /mcpServers/0/args
  --prefix-tool-names
        name each tool "<server>_<tool>", for servers that offer tools of
        one name
            guardian CMD mcp.jsonEXTRA --prefix-tool-names
  --timeout DURATION
        how long each server may take to start and list its tools
        (default 60s)
            guardian CMD mcp.jsonEXTRA --timeout 2m
  --keep-going
        when a server fails, record the others anyway; the failure is still
        reported and the exit status is still 2
            guardian CMD mcp.jsonEXTRA --keep-going
`)
}

// What stderr carries with --json, for jsonFlagUsage: record and check
// print progress while servers load; diff and validate print nothing.
const (
	progressOnStderr = "stderr then carries only progress"
	nothingOnStderr  = "nothing goes to stderr"
)

// jsonFlagUsage documents --json for a command: what the report holds,
// what stderr carries then, and an example command line.
func jsonFlagUsage(holds, stderr, example string) string {
	return `  --json
        print one JSON report on stdout, ` + holds + `;
        ` + stderr + ` (docs/cli.md gives the shape)
            ` + example + `
`
}

// listFlag is a flag that may be given more than once.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// newFlagSet returns a flag set that prints nothing itself: commands print
// their usage where it belongs (stdout when asked for, stderr on error).
func newFlagSet(name string) *flag.FlagSet {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	fl.Usage = func() {}
	return fl
}

// parseArgs parses flags wherever they are among the arguments (guardian
// record CONFIG --name x), as people write them, and returns the
// arguments that are not flags. Everything after "--" is an argument.
func parseArgs(fl *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fl.Parse(args); err != nil {
			return nil, err
		}
		rest := fl.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// wantsJSON reports whether args ask for --json, before they are parsed:
// a usage error is then reported as JSON too.
func wantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "json" {
			continue
		}
		if !hasVal {
			return true
		}
		b, err := strconv.ParseBool(val)
		return err == nil && b
	}
	return false
}

// usageError is bad usage: a flag that does not parse, a missing argument.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// parseCommandArgs parses a command's flags and checks the positional
// arguments, one for each of names (CONFIG, or OLD and NEW): a usage error
// says exactly which are missing. It reports --help as flag.ErrHelp.
func parseCommandArgs(fl *flag.FlagSet, args []string, names ...string) ([]string, error) {
	pos, err := parseArgs(fl, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, &usageError{msg: err.Error()}
	}
	switch {
	case len(pos) < len(names):
		return nil, usagef("missing %s", strings.Join(names[len(pos):], " and "))
	case len(pos) > len(names):
		return nil, usagef("too many arguments: want %s", strings.Join(names, " and "))
	}
	return pos, nil
}
