package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/guardian-agent/guardian-go/definition"
)

func diffUsage() string {
	return `Usage: guardian diff OLD NEW [--json]

Diff reads two definition documents strictly and prints how NEW differs
from OLD, one change a line, as guardian check reports drift: tools added,
removed and renamed (same description and schemas under a new name);
description, title, schema, annotation and code changes, with a flip of
destructiveHint called out on its own; servers added, removed, and changed
(transport, command, args or url). The order is fixed: by agent, then
servers, then tools, each by name.

Flags:

` + jsonFlagUsage("with the changes and both digests", nothingOnStderr, "guardian diff old.json new.json --json") + `
Exit status: 0 when the documents are equal, 1 when they differ (or one
holds a credential), 2 on bad usage or a document that cannot be read or is
not a valid definition.

Example:

	guardian diff testdata/configs/docs.golden.json cmd/guardian/testdata/examples/docs-v2.json
`
}

// diffReport is diff's --json report.
type diffReport struct {
	header
	Old       string `json:"old"`
	New       string `json:"new"`
	OldDigest string `json:"oldDigest,omitempty"`
	NewDigest string `json:"newDigest,omitempty"`
	// Problems are what kept a document from being read.
	Problems []problem `json:"problems"`
	// Changes are present when the two were compared (empty when equal).
	Changes *[]definition.Change `json:"changes,omitempty"`
}

func runDiff(ctx context.Context, args []string, e *env) int {
	asJSON := wantsJSON(args)
	fl := newFlagSet("diff")
	fl.Bool("json", false, "")
	pos, err := parseCommandArgs(fl, args, "OLD", "NEW")
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(e.stdout, diffUsage())
		return exitOK
	}
	if err != nil {
		return usageFailure(e, "diff", asJSON, err, diffUsage())
	}
	r := diffReport{Old: pos[0], New: pos[1], Problems: []problem{}}
	status := statusOK
	var defs [2]*definition.Definition
	for i, path := range pos {
		_, def, ps, st := readDefinition(path)
		defs[i] = def
		r.Problems = append(r.Problems, ps...)
		status = worse(status, st.status)
	}
	if status == statusOK {
		r.OldDigest, r.NewDigest = defs[0].Digest(), defs[1].Digest()
		changes := definition.Diff(defs[0], defs[1])
		if changes == nil {
			changes = []definition.Change{}
		}
		r.Changes = &changes
		if len(changes) > 0 {
			status = statusDrift
		}
	}
	r.header = newHeader("diff", status)
	if asJSON {
		writeJSON(e.stdout, r)
		return r.ExitCode
	}
	for _, p := range r.Problems {
		printLine(e.stderr, "guardian diff: %s", p)
	}
	if r.Changes == nil {
		return r.ExitCode
	}
	printChanges(e.stdout, *r.Changes)
	if n := len(*r.Changes); n > 0 {
		printLine(e.stderr, "guardian diff: %s", plural(n, "change"))
	} else {
		printLine(e.stderr, "guardian diff: no changes (%s)", r.NewDigest)
	}
	return r.ExitCode
}
