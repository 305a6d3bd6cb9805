package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/guardian-agent/guardian-go/definition"
)

func recordUsage() string {
	return `Usage: guardian record CONFIG [flags]

Record connects to the MCP servers of CONFIG, an MCP client config
(Claude Desktop, Claude Code or Cursor {"mcpServers": ...}, VS Code
{"servers": ...}), loads their tools, and writes the definition document of
an agent given all of them: every tool as the model sees it and the servers
the tools come from, in canonical JSON.

Headers, env, envFile and cwd are used to connect and never recorded. A
credential in a command, an argument or a URL, where the document would keep
it, is refused before any server starts, as guardian scan refuses it.
References are resolved to connect, and recorded as written: ${env:NAME}
from guardian's environment, ${input:ID} from GUARDIAN_INPUT_<ID> (the id
upper-cased, other characters '_'), ${workspaceFolder}, ${userHome}, and in
mcpServers files ${NAME} and ${NAME:-default}. A relative command, cwd or
envFile resolves against CONFIG's directory (for a config in .vscode or
.cursor, the project's), where stdio servers run unless cwd says otherwise,
and which ${workspaceFolder} stands for.

Flags:

  -o FILE
        write the document to FILE, atomically, instead of stdout
            guardian record mcp.json -o agent.json
` + recordFlagsUsage("record", "", "CONFIG's file name without its extension", "none") +
		jsonFlagUsage("with the document unless -o is given", progressOnStderr, "guardian record mcp.json -o agent.json --json") + `
Progress (each server connecting, its tools, its failure) goes to stderr
when stderr is a terminal. A server that fails is reported by name with its
reason and, for a stdio server, the last lines of its stderr, cleaned of
anything that looks like a credential.

Exit status: 0 when the document is written; 1 when something is refused;
2 on bad usage, a config that cannot be read or resolved, a server that
cannot be loaded (with --keep-going too, though the others are written), or
an interrupt (Ctrl-C stops the servers first).

Example:

	guardian record testdata/configs/docs.json
`
}

// recordReport is record's --json report.
type recordReport struct {
	header
	Config string `json:"config"`
	// Agent is the agent's name, Digest its definition's, when recorded.
	Agent  string `json:"agent,omitempty"`
	Digest string `json:"digest,omitempty"`
	// Output is the file the document was written to (-o).
	Output   string         `json:"output,omitempty"`
	Servers  []serverReport `json:"servers"`
	Problems []problem      `json:"problems"`
	// Document is the definition document, unless -o was given.
	Document json.RawMessage `json:"document,omitempty"`
}

func runRecord(ctx context.Context, args []string, e *env) int {
	asJSON := wantsJSON(args)
	fl := newFlagSet("record")
	var rf recordFlags
	rf.register(fl)
	out := fl.String("o", "", "")
	fl.Bool("json", false, "")
	pos, err := parseCommandArgs(fl, args, "CONFIG")
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(e.stdout, recordUsage())
		return exitOK
	}
	if err != nil {
		return usageFailure(e, "record", asJSON, err, recordUsage())
	}
	config := pos[0]
	opts, err := rf.options(config, nil)
	if err != nil {
		return usageFailure(e, "record", asJSON, err, recordUsage())
	}

	rec := recordConfig(ctx, e, "record", config, opts)
	var doc []byte
	if rec.def != nil {
		doc, _ = rec.def.Document() // exported once already, by recordConfig
	}
	if rec.def != nil && *out != "" {
		if err := writeFileAtomic(*out, doc, config); err != nil {
			rec.status = worse(rec.status, statusInvalid)
			rec.problems = append(rec.problems, writeProblem(*out, err))
			*out = ""
			doc = nil
		}
	}

	if asJSON {
		r := recordReport{header: newHeader("record", rec.status), Config: config, Output: *out, Servers: rec.servers, Problems: rec.problems}
		if rec.def != nil {
			r.Agent, r.Digest = rec.def.Record().Name, rec.def.Digest()
			if *out == "" {
				r.Document = doc
			}
		}
		writeJSON(e.stdout, r)
		return r.ExitCode
	}
	printRecording(e.stderr, "record", rec)
	if rec.def != nil && *out == "" {
		_, _ = e.stdout.Write(doc) // a failed write is exit 2: runChecked
	}
	printLine(e.stderr, "guardian record: %s", recordSummary(rec, *out, opts.keepGoing))
	return exitCodeOf(rec.status)
}

// options turns the flags into recordOptions for the config at path;
// golden, when check has one, gives the defaults of --name and --exclude.
func (f *recordFlags) options(path string, golden *definition.Definition) (*recordOptions, error) {
	o := &recordOptions{name: f.name, exclude: f.exclude, prefix: f.prefix, timeout: f.timeout, keepGoing: f.keepGoing}
	if o.timeout <= 0 {
		return nil, usagef("--timeout must be positive")
	}
	if f.servers != "" {
		for _, s := range strings.Split(f.servers, ",") {
			if s = strings.TrimSpace(s); s != "" {
				o.servers = append(o.servers, s)
			}
		}
		if o.servers == nil {
			return nil, usagef("--servers names no server")
		}
	}
	if golden != nil {
		rec := golden.Record()
		if o.name == "" {
			o.name = rec.Name
		}
		if o.exclude == nil {
			o.exclude = rec.Extensions.Guardian.Exclude
		}
	}
	if o.name == "" {
		o.name = strings.TrimLeft(strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), ".")
		if o.name == "" {
			o.name = "agent"
		}
	}
	return o, nil
}

// printRecording reports, for people, the servers that failed and the
// problems found.
func printRecording(w io.Writer, cmd string, rec *recording) {
	for _, s := range rec.servers {
		if s.Status != serverFailed {
			continue
		}
		printLine(w, "guardian %s: server %q failed: %s", cmd, s.Name, s.Reason)
		for _, l := range s.Stderr {
			printLine(w, "    %s", l)
		}
	}
	for _, p := range rec.problems {
		printLine(w, "guardian %s: %s", cmd, p)
	}
}

// recordSummary says in a line what recording did.
func recordSummary(rec *recording, out string, keepGoing bool) string {
	failed, total := 0, 0
	for _, s := range rec.servers {
		if s.Status == serverFailed {
			failed++
		}
		if s.Status != serverSkipped {
			total++
		}
	}
	var b strings.Builder
	switch {
	case rec.status == statusInterrupted:
		b.WriteString("interrupted: servers stopped")
	case failed > 0:
		fmt.Fprintf(&b, "%d of %s failed", failed, plural(total, "server"))
		if !keepGoing && failed < total {
			b.WriteString(" (--keep-going records the others)")
		}
	case rec.status != statusOK:
		secret := 0
		for _, p := range rec.problems {
			if p.Kind == "contains-secret" {
				secret++
			}
		}
		if secret > 0 {
			fmt.Fprintf(&b, "%s refused (move %s to env or headers, or write a reference such as ${env:NAME})",
				plural(secret, "value"), them(secret))
			if n := len(rec.problems) - secret; n > 0 {
				fmt.Fprintf(&b, " and %d more %s", n, pluralWord(n, "problem"))
			}
		} else {
			b.WriteString(plural(len(rec.problems), "problem"))
		}
	}
	if rec.def == nil {
		if b.Len() > 0 {
			b.WriteString(": ")
		}
		b.WriteString("nothing recorded")
		return b.String()
	}
	if b.Len() > 0 {
		b.WriteString("; ")
	}
	r := rec.def.Record()
	fmt.Fprintf(&b, "agent %q: %s from %s, %s", r.Name, plural(len(r.Tools), "tool"), plural(len(r.MCPServers), "server"), rec.def.Digest())
	if out != "" {
		b.WriteString("; wrote " + out)
	}
	return b.String()
}

func writeProblem(path string, err error) problem {
	msg := err.Error()
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		msg = pe.Err.Error()
	case errors.As(err, &le):
		msg = le.Err.Error()
	}
	return problem{File: path, Kind: kindUnreadable, Message: "cannot write: " + msg}
}

// usageFailure reports bad usage, as JSON when asked for, and returns its
// exit status.
func usageFailure(e *env, cmd string, asJSON bool, err error, usageText string) int {
	if asJSON {
		writeJSON(e.stdout, struct {
			header
			Problems []problem `json:"problems"`
		}{newHeader(cmd, statusUsage), []problem{{Kind: kindUsage, Message: err.Error()}}})
		return exitBad
	}
	printLine(e.stderr, "guardian %s: %v", cmd, err)
	fmt.Fprint(e.stderr, "\n"+usageText)
	return exitBad
}

func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
