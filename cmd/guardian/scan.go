package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/guardian-agent/guardian-go/internal/mcpconfig"
	"github.com/guardian-agent/guardian-go/internal/names"
	"github.com/guardian-agent/guardian-go/refusals"
	"github.com/guardian-agent/guardian-go/secrets"
)

const scanUsage = `Usage: guardian scan FILE...

Scan reads MCP client config files (Claude Desktop, Claude Code and Cursor
{"mcpServers": ...}, VS Code {"servers": ...} with comments) and checks every
server's command, args and url for credentials: the values an agent's
definition would record. Each one found is printed as

	FILE: POINTER: RULE: FIX

where POINTER is the JSON pointer of the value in FILE and RULE the rule
that fired (docs/secrets.md lists them). The value itself is never printed.
Env and headers are where credentials belong, so they are not reported.

Flags:

  --json
        print one JSON report on stdout, with each file's servers and every
        refusal and problem (docs/cli.md gives the shape); nothing on stderr
            guardian scan .vscode/mcp.json --json

Exit status: 0 when nothing is refused, 1 when something is, 2 when a file
cannot be read or parsed (the message names the file, line and column).

Example:

	guardian scan testdata/configs/clean.json testdata/configs/dirty.json
`

func runScan(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	asJSON := wantsJSON(args)
	fl := flag.NewFlagSet("scan", flag.ContinueOnError)
	fl.SetOutput(io.Discard) // its error is printed below, escaped
	fl.Usage = func() {}     // printed below, to stdout when asked for
	fl.Bool("json", false, "")
	files, err := parseArgs(fl, args) // flags anywhere, as for the other commands
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, scanUsage)
			return exitOK
		}
		if asJSON {
			return usageFailure(&env{stdout: stdout, stderr: stderr}, "scan", true, err, scanUsage)
		}
		printLine(stderr, "guardian scan: %v", err)
		fmt.Fprint(stderr, "\n"+scanUsage)
		return exitBad
	}
	if len(files) == 0 {
		if asJSON {
			return usageFailure(&env{stdout: stdout, stderr: stderr}, "scan", true, errors.New("no files given"), scanUsage)
		}
		fmt.Fprint(stderr, "guardian scan: no files given\n\n"+scanUsage)
		return exitBad
	}
	if asJSON {
		return scanJSON(ctx, files, stdout)
	}
	code := exitOK
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			printLine(stderr, "guardian scan: %v", err)
			return exitBad
		}
		if c := scanFile(name, stdout, stderr); c > code {
			code = c
		}
	}
	return code
}

// credentials refuses, at pointers into the config, the credentials a
// server's name (its key), command, args and URL hold: where a definition
// would record them. Command and args are read together, as the command
// says what a flag means (mysql -pSECRET, sshpass -p SECRET). A name is
// refused at the server's pointer, whose last token is then its stand-in.
func credentials(s *mcpconfig.Server) error {
	return refusals.Join(append(names.Credential(s.Pointer, s.Name),
		secrets.CheckStdio(s.Pointer, s.Command, s.Args),
		secrets.CheckURL(s.URLPointer(), s.URL),
	)...)
}

// scanFile scans one file and reports on it; it returns the exit code the
// file alone would give.
func scanFile(name string, stdout, stderr io.Writer) int {
	cfg, err := mcpconfig.ReadFileAll(name)
	if cfg == nil {
		return reportError(name, err, stdout, stderr)
	}
	// Servers in file order; each server's refusals sorted by pointer.
	found := configRefusals(cfg, err, nil, credentials)
	for _, r := range found {
		printRefusal(stdout, name, r)
	}
	n := len(found)
	switch {
	case n == 0:
		printLine(stderr, "guardian scan: %s: %s, no credentials found", name, plural(len(cfg.Servers), "server"))
		return exitOK
	case err != nil: // not only credentials: each line says its fix
		printLine(stderr, "guardian scan: %s: %s, %s refused: fix %s as %s line says",
			name, plural(len(cfg.Servers), "server"), plural(n, "value"), them(n), map[bool]string{true: "its", false: "each"}[n == 1])
		return exitRefused
	default:
		printLine(stderr, "guardian scan: %s: %s, %s refused: move %s to env or headers",
			name, plural(len(cfg.Servers), "server"), plural(n, "value"), them(n))
		return exitRefused
	}
}

// configRefusals returns the refusals of a config mcpconfig.ParseAll
// read: those of its shape (parseErr: args that are not strings) and
// those check gives each server, server by server in file order, each
// server's sorted by pointer, so that every problem is seen at once. When
// only is non-nil, check runs on those servers alone (the shape's
// refusals are every server's). A value the shape refuses is not checked
// again.
func configRefusals(cfg *mcpconfig.Config, parseErr error, only []mcpconfig.Server, check func(*mcpconfig.Server) error) []*refusals.Error {
	shape := refusals.All(parseErr)
	refused := map[string]bool{}
	for _, r := range shape {
		refused[r.Pointer] = true
	}
	var out []*refusals.Error
	taken := make([]bool, len(shape))
	for i := range cfg.Servers {
		s := &cfg.Servers[i]
		var errs []error
		for j, r := range shape {
			if !taken[j] && (r.Pointer == s.Pointer || strings.HasPrefix(r.Pointer, s.Pointer+"/")) {
				errs = append(errs, r)
				taken[j] = true
			}
		}
		if only == nil || slices.ContainsFunc(only, func(x mcpconfig.Server) bool { return x.Pointer == s.Pointer }) {
			for _, r := range refusals.All(check(s)) {
				if !refused[r.Pointer] {
					errs = append(errs, r)
				}
			}
		}
		out = append(out, refusals.All(refusals.Join(errs...))...)
	}
	for j, r := range shape {
		if !taken[j] {
			out = append(out, r)
		}
	}
	return out
}

func printRefusal(w io.Writer, file string, r *refusals.Error) {
	printLine(w, "%s: %s: %s: %s", file, r.Pointer, r.Rule, r.Fix)
}

// reportError reports a file that cannot be scanned: unreadable or
// malformed (exit 2). Refusals among its errors (stdio args that are not
// strings) are printed like any refusal.
func reportError(name string, err error, stdout, stderr io.Writer) int {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		printLine(stderr, "guardian scan: %s: cannot read: %v", name, pe.Err)
		return exitBad
	}
	code := exitRefused
	var found []*refusals.Error
	for _, e := range flatten(err) {
		var me *mcpconfig.Error
		var re *refusals.Error
		switch {
		case errors.As(e, &me):
			where := fmt.Sprintf("%s:%d:%d", name, me.Line, me.Column)
			if me.Pointer != "" {
				where += ": " + me.Pointer
			}
			printLine(stderr, "guardian scan: %s: %s", where, me.Msg)
			code = exitBad
		case errors.As(e, &re):
			found = append(found, re)
		default:
			printLine(stderr, "guardian scan: %s: %v", name, e)
			code = exitBad
		}
	}
	for _, r := range found {
		printRefusal(stdout, name, r)
	}
	if code == exitRefused {
		printLine(stderr, "guardian scan: %s: cannot be scanned until %s fixed", name, plural(len(found), "value is"))
	}
	return code
}

func flatten(err error) []error {
	if m, ok := err.(interface{ Unwrap() []error }); ok {
		return m.Unwrap()
	}
	return []error{err}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	switch word {
	case "value is":
		return fmt.Sprintf("%d values are", n)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// scanReport is scan's --json report.
type scanReport struct {
	header
	Files []scannedFile `json:"files"`
	// Problems are every file's refusals and problems, file by file.
	Problems []problem `json:"problems"`
}

// scannedFile is one file scan read: how many servers it has, and how
// many of its values are refused. Servers is 0 for a file that cannot be
// read or parsed.
type scannedFile struct {
	File    string `json:"file"`
	Status  string `json:"status"`
	Servers int    `json:"servers"`
	Refused int    `json:"refused"`
}

// scanJSON scans the files as runScan does, and writes the outcome as one
// JSON report.
func scanJSON(ctx context.Context, files []string, stdout io.Writer) int {
	r := scanReport{Files: []scannedFile{}, Problems: []problem{}}
	status := statusOK
	for _, name := range files {
		if ctx.Err() != nil {
			status = worse(status, statusInterrupted)
			break
		}
		f := scannedFile{File: name, Status: statusOK}
		cfg, err := mcpconfig.ReadFileAll(name)
		var ps []problem
		if cfg == nil {
			var refused bool
			ps, refused = problemsOf(name, err)
			f.Status = statusInvalid
			if refused && !hasKind(ps, kindInvalid, kindUnreadable) {
				f.Status = statusRefused
			}
		} else {
			f.Servers = len(cfg.Servers)
			for _, x := range configRefusals(cfg, err, nil, credentials) {
				ps = append(ps, refusalProblem(name, x))
			}
			if len(ps) > 0 {
				f.Status = statusRefused
			}
		}
		for _, p := range ps {
			if p.Kind != kindInvalid && p.Kind != kindUnreadable {
				f.Refused++
			}
		}
		r.Files = append(r.Files, f)
		r.Problems = append(r.Problems, ps...)
		status = worse(status, f.Status)
	}
	r.header = newHeader("scan", status)
	writeJSON(stdout, r)
	return r.ExitCode
}
