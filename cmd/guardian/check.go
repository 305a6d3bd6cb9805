package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/internal/mcpconfig"
)

func checkUsage() string {
	return `Usage: guardian check CONFIG --golden FILE [flags]

Check records CONFIG's agent as guardian record does, and compares it with
the golden definition document FILE, as a CI job pins what an agent is made
of. Equal, it exits 0. Different, it prints what drifted, one change a line,
tool by tool and server by server, in a fixed order, and exits 1:

	tool "search": description changed: "Search the docs." → "Search all docs."
	tool "lookup": renamed from "find" (same description and schemas)
	tool "purge": DESTRUCTIVE HINT FLIPPED: false → true
	tool "fetch": input schema changed at /properties/url
	server "docs": changed: args ["serve"] → ["serve" "--all"]

(added and removed tools and servers, title, output schema, annotation and
code changes too; docs/cli.md lists every kind). The agent is recorded under
the golden file's name and exclusions unless --name or --exclude say
otherwise.

Flags:

  --golden FILE
        the golden definition document to compare with (required)
            guardian check mcp.json --golden testdata/agent.json
  --update
        rewrite FILE with the recording (creating it if missing) and exit 0.
        A recording with a failed server (--keep-going) is never written
            guardian check mcp.json --golden testdata/agent.json --update
` + recordFlagsUsage("check", " --golden agent.json", "the golden file's agent name", "the golden file's") +
		jsonFlagUsage("with the changes and both digests", progressOnStderr, "guardian check mcp.json --golden agent.json --json") + `
Exit status: 0 when the recording equals FILE (or FILE was updated); 1 on
drift, or when something is refused; 2 on bad usage, a config or golden file
that cannot be read, a server that cannot be loaded, or an interrupt.

Example:

	guardian check testdata/configs/docs.json --golden testdata/configs/docs.golden.json
`
}

// checkReport is check's --json report.
type checkReport struct {
	header
	Config string `json:"config"`
	Golden string `json:"golden"`
	// GoldenDigest and Digest are the two definitions' digests, when read
	// and recorded.
	GoldenDigest string `json:"goldenDigest,omitempty"`
	Digest       string `json:"digest,omitempty"`
	// Updated is true when --update rewrote the golden file.
	Updated  bool           `json:"updated"`
	Servers  []serverReport `json:"servers"`
	Problems []problem      `json:"problems"`
	// Changes are the differences from the golden file, present when the
	// two were compared (empty when equal).
	Changes *[]definition.Change `json:"changes,omitempty"`
}

func runCheck(ctx context.Context, args []string, e *env) int {
	asJSON := wantsJSON(args)
	fl := newFlagSet("check")
	var rf recordFlags
	rf.register(fl)
	golden := fl.String("golden", "", "")
	update := fl.Bool("update", false, "")
	fl.Bool("json", false, "")
	pos, err := parseCommandArgs(fl, args, "CONFIG")
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(e.stdout, checkUsage())
		return exitOK
	}
	if err == nil && *golden == "" {
		err = usagef("--golden FILE is required")
	}
	if err != nil {
		return usageFailure(e, "check", asJSON, err, checkUsage())
	}
	config := pos[0]
	r := checkReport{Config: config, Golden: *golden, Servers: []serverReport{}, Problems: []problem{}}
	status := statusOK
	finish := func() int {
		r.header = newHeader("check", status)
		if asJSON {
			writeJSON(e.stdout, r)
		}
		return r.ExitCode
	}

	// The golden file first: a missing or broken one needs no servers.
	want, old, ps, gstatus := readDefinition(*golden)
	if errors.Is(gstatus.err, fs.ErrNotExist) && *update {
		ps, gstatus = nil, readStatus{status: statusOK}
	}
	if gstatus.status != statusOK {
		status, r.Problems = gstatus.status, ps
		if !asJSON {
			for _, p := range ps {
				printLine(e.stderr, "guardian check: %s", p)
			}
			if errors.Is(gstatus.err, fs.ErrNotExist) {
				printLine(e.stderr, "guardian check: run with --update to create %s", *golden)
			}
		}
		return finish()
	}
	if old != nil {
		r.GoldenDigest = old.Digest()
	}
	opts, err := rf.options(config, old)
	if err != nil {
		return usageFailure(e, "check", asJSON, err, checkUsage())
	}

	rec := recordConfig(ctx, e, "check", config, opts)
	status, r.Servers, r.Problems = rec.status, rec.servers, rec.problems
	if !asJSON {
		printRecording(e.stderr, "check", rec)
	}
	if rec.def == nil {
		if !asJSON {
			printLine(e.stderr, "guardian check: %s", recordSummary(rec, "", opts.keepGoing))
		}
		return finish()
	}
	r.Digest = rec.def.Digest()

	var changes []definition.Change
	if old != nil {
		changes = definition.Diff(old, rec.def)
	}
	if changes == nil {
		changes = []definition.Change{}
	}
	r.Changes = &changes
	if !asJSON {
		printChanges(e.stdout, changes)
	}
	doc, _ := rec.def.Document()
	drifted := old == nil || len(changes) > 0
	switch {
	case *update && rec.status != statusOK:
		status = worse(status, statusDrift)
		if !asJSON {
			printLine(e.stderr, "guardian check: %s not updated: the recording is incomplete", *golden)
		}
	case *update && (drifted || !bytes.Equal(want, doc)):
		if err := writeFileAtomic(*golden, doc, config); err != nil {
			p := writeProblem(*golden, err)
			r.Problems = append(r.Problems, p)
			status = worse(status, statusInvalid)
			if !asJSON {
				printLine(e.stderr, "guardian check: %s", p)
			}
			break
		}
		r.Updated = true
		if !asJSON {
			if old == nil { // nothing to accept changes against
				printLine(e.stderr, "guardian check: created %s; %s", *golden, recordSummary(rec, "", false))
			} else {
				printLine(e.stderr, "guardian check: updated %s: %s accepted; %s", *golden, plural(len(changes), "change"), recordSummary(rec, "", false))
			}
		}
	case drifted:
		status = worse(status, statusDrift)
		if !asJSON {
			printLine(e.stderr, "guardian check: %s drifted from %s: %s (run with --update to accept %s)",
				config, *golden, plural(len(changes), "change"), them(len(changes)))
		}
	default:
		if !asJSON {
			printLine(e.stderr, "guardian check: %s matches %s: %s", config, *golden, recordSummary(rec, "", opts.keepGoing))
		}
	}
	return finish()
}

// readStatus is how reading a definition document went.
type readStatus struct {
	status string
	err    error // the error reading the file, if any
}

// readDefinition reads and strictly parses the document at path, and
// returns its bytes and definition, or the problems found: unreadable or
// invalid (status invalid), or holding a credential (status refused).
func readDefinition(path string) ([]byte, *definition.Definition, []problem, readStatus) {
	data, err := mcpconfig.ReadBounded(path, mcpconfig.MaxFileSize)
	if err != nil {
		ps, _ := problemsOf(path, err)
		return nil, nil, ps, readStatus{status: statusInvalid, err: err}
	}
	def, err := definition.Parse(data)
	if err != nil {
		ps, refused := problemsOf(path, err)
		status := statusInvalid
		if refused && !hasKind(ps, kindInvalid) {
			status = statusRefused
		}
		return data, nil, ps, readStatus{status: status}
	}
	return data, def, nil, readStatus{status: statusOK}
}
