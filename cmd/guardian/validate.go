package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
)

func validateUsage() string {
	return `Usage: guardian validate FILE [--json]

Validate reads the definition document FILE strictly, as guardian check
reads a golden file: valid UTF-8 JSON without duplicate keys or unknown
fields, every value of the right type, valid against the document's JSON
Schema (docs/definition.schema.json), tools and servers sorted and unique,
every server used by a tool, and no credential in a server's command, URL or
arguments. Each problem is printed as

	FILE: POINTER: RULE: WHAT; FIX

where POINTER is the JSON pointer of the value in FILE; the value itself is
never printed. A valid document not in canonical form (as guardian writes
it) is valid, and said so.

Flags:

` + jsonFlagUsage("with the problems, the agent, its counts and digest", nothingOnStderr, "guardian validate agent.json --json") + `
Exit status: 0 when FILE is a valid definition; 1 when it holds a
credential; 2 when it cannot be read or is not a valid definition, or on bad
usage.

Example:

	guardian validate testdata/configs/docs.golden.json
`
}

// validateReport is validate's --json report.
type validateReport struct {
	header
	File     string    `json:"file"`
	Problems []problem `json:"problems"`
	// Agent, Tools, Servers and Digest describe a valid document.
	Agent   string `json:"agent,omitempty"`
	Tools   int    `json:"tools"`
	Servers int    `json:"servers"`
	Digest  string `json:"digest,omitempty"`
	// Canonical is true when FILE holds exactly the bytes guardian would
	// write for it.
	Canonical bool `json:"canonical"`
}

func runValidate(ctx context.Context, args []string, e *env) int {
	asJSON := wantsJSON(args)
	fl := newFlagSet("validate")
	fl.Bool("json", false, "")
	pos, err := parseCommandArgs(fl, args, "FILE")
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(e.stdout, validateUsage())
		return exitOK
	}
	if err != nil {
		return usageFailure(e, "validate", asJSON, err, validateUsage())
	}
	path := pos[0]
	data, def, ps, st := readDefinition(path)
	r := validateReport{header: newHeader("validate", st.status), File: path, Problems: ps}
	if r.Problems == nil {
		r.Problems = []problem{}
	}
	if def != nil {
		rec := def.Record()
		doc, _ := def.Document()
		r.Agent, r.Tools, r.Servers, r.Digest = rec.Name, len(rec.Tools), len(rec.MCPServers), def.Digest()
		r.Canonical = bytes.Equal(doc, data)
	}
	if asJSON {
		writeJSON(e.stdout, r)
		return r.ExitCode
	}
	if def == nil {
		if st.err != nil { // unreadable: no problem in the document to report
			for _, p := range ps {
				printLine(e.stderr, "guardian validate: %s", p)
			}
			return r.ExitCode
		}
		for _, p := range ps {
			printLine(e.stdout, "%s", p)
		}
		verdict := "not a valid definition"
		if st.status == statusRefused {
			verdict = "refused: it holds a credential"
		}
		printLine(e.stderr, "guardian validate: %s: %s: %s", path, verdict, plural(len(ps), "problem"))
		return r.ExitCode
	}
	note := ""
	if !r.Canonical {
		note = "; not in canonical form (guardian record writes it so)"
	}
	printLine(e.stderr, "guardian validate: %s: valid definition of agent %q: %s from %s, %s%s",
		path, r.Agent, plural(r.Tools, "tool"), plural(r.Servers, "server"), r.Digest, note)
	return r.ExitCode
}
