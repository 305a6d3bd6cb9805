package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/internal/mcpconfig"
	"github.com/guardian-agent/guardian-go/refusals"
)

// reportVersion is the version of the --json report shape, recorded in
// every report as "reportVersion". docs/cli.md describes the shape; a
// field may be added without a new version, never removed or changed.
const reportVersion = 1

// The statuses a report gives, and the exit code each means.
const (
	statusOK          = "ok"          // 0
	statusDrift       = "drift"       // 1: check and diff found changes
	statusRefused     = "refused"     // 1: something cannot be recorded
	statusInvalid     = "invalid"     // 2: a file cannot be read or parsed
	statusFailed      = "failed"      // 2: a server could not be loaded
	statusInterrupted = "interrupted" // 2: interrupted (Ctrl-C, SIGTERM)
	statusUsage       = "usage"       // 2: bad flags or arguments
)

func exitCodeOf(status string) int {
	switch status {
	case statusOK:
		return exitOK
	case statusDrift, statusRefused:
		return exitRefused
	}
	return exitBad
}

// worse returns the status that wins when both hold: the one with the
// higher exit code, the first one given on a tie.
func worse(a, b string) string {
	if exitCodeOf(b) > exitCodeOf(a) {
		return b
	}
	return a
}

// header starts every JSON report.
type header struct {
	ReportVersion int    `json:"reportVersion"`
	Command       string `json:"command"`
	Status        string `json:"status"`
	ExitCode      int    `json:"exitCode"`
}

func newHeader(command, status string) header {
	return header{ReportVersion: reportVersion, Command: command, Status: status, ExitCode: exitCodeOf(status)}
}

// problem is one thing that stopped a command, located as precisely as it
// can be: a refusal, malformed input, a reference without a value, an
// unreadable file. It never quotes a value from the input.
type problem struct {
	// File is the file the problem is in, as given on the command line
	// (or as the config names it); empty for the recorded document.
	File string `json:"file,omitempty"`
	// Line and Column (1-based) locate malformed input in File.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// Pointer is the JSON pointer of the value in File (or in the
	// recorded document).
	Pointer string `json:"pointer,omitempty"`
	// Kind is the family: contains-secret, cannot-record, undescribed,
	// invalid, unset, unreadable or usage.
	Kind string `json:"kind"`
	// Rule is the ID of the rule that fired, for a refusal.
	Rule string `json:"rule,omitempty"`
	// Subject names the tool or server, where there is one.
	Subject string `json:"subject,omitempty"`
	// Message says what is wrong.
	Message string `json:"message,omitempty"`
	// Fix says what to do instead.
	Fix string `json:"fix,omitempty"`
}

// The problem kinds that are not refusal families.
const (
	kindInvalid    = "invalid"
	kindUnset      = "unset"
	kindUnreadable = "unreadable"
	kindUsage      = "usage"
)

// kindOf names a refusal's family.
func kindOf(r *refusals.Error) string {
	switch {
	case errors.Is(r.Kind, refusals.ErrContainsSecret):
		return "contains-secret"
	case errors.Is(r.Kind, refusals.ErrCannotRecord):
		return "cannot-record"
	case errors.Is(r.Kind, refusals.ErrUndescribed):
		return "undescribed"
	}
	return kindInvalid
}

func refusalProblem(file string, r *refusals.Error) problem {
	return problem{File: file, Pointer: r.Pointer, Kind: kindOf(r), Rule: r.Rule, Subject: r.Subject, Message: r.Detail, Fix: r.Fix}
}

// problemsOf turns what reading file gave into problems, and says whether
// any of them is a refusal rather than unreadable input. Errors it does
// not know are printed by their message, which for this module's packages
// never quotes a value.
func problemsOf(file string, err error) (ps []problem, refused bool) {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return []problem{{File: file, Kind: kindUnreadable, Message: "cannot read: " + pe.Err.Error()}}, false
	}
	for _, e := range flatten(err) {
		var me *mcpconfig.Error
		var re *refusals.Error
		switch {
		case errors.As(e, &me):
			ps = append(ps, problem{File: file, Line: me.Line, Column: me.Column, Pointer: me.Pointer, Kind: kindInvalid, Message: me.Msg})
		case errors.As(e, &re):
			p := refusalProblem(file, re)
			ps = append(ps, p)
			if p.Kind != kindInvalid {
				refused = true
			}
		default:
			ps = append(ps, problem{File: file, Kind: kindInvalid, Message: e.Error()})
		}
	}
	return ps, refused
}

// String formats the problem on one line, as guardian scan does:
//
//	FILE:LINE:COLUMN: POINTER: RULE ("SUBJECT"): MESSAGE; FIX
//
// leaving out what it does not have, and the subject when the pointer
// names it already.
func (p problem) String() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
	} else {
		b.WriteString("recorded document")
	}
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", p.Line, p.Column)
	}
	if p.Pointer != "" {
		b.WriteString(": ")
		b.WriteString(p.Pointer)
	}
	if p.Rule != "" {
		b.WriteString(": ")
		b.WriteString(p.Rule)
	}
	if p.Rule != "" && p.Subject != "" && !strings.Contains(p.Pointer, refusals.Pointer(p.Subject)) {
		b.WriteString(" (")
		b.WriteString(strconv.Quote(p.Subject))
		b.WriteString(")")
	}
	var tail []string
	for _, s := range []string{p.Message, p.Fix} {
		if s != "" {
			tail = append(tail, s)
		}
	}
	if len(tail) > 0 {
		b.WriteString(": ")
		b.WriteString(strings.Join(tail, "; "))
	}
	return b.String()
}

// writeJSON writes v as indented JSON, without HTML escaping, and a
// newline.
//
// Text a terminal would act on is escaped (jsonSafe): the report is valid
// JSON, and the same values, however it is shown.
func writeJSON(w io.Writer, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
	_, _ = w.Write(jsonSafe(buf.Bytes()))
}

// changeLine formats one change for people: what changed, then how.
func changeLine(c definition.Change) string {
	var b strings.Builder
	if c.Agent != "" {
		b.WriteString("sub-agent ")
		b.WriteString(c.Agent)
		b.WriteString(": ")
	}
	tool := "tool " + strconv.Quote(c.Tool)
	server := "server " + strconv.Quote(c.Server)
	detail := func(what string) string {
		if c.Detail == "" {
			return what
		}
		return what + ": " + c.Detail
	}
	switch c.Kind {
	case definition.AgentChanged:
		b.WriteString("agent " + detail("changed"))
	case definition.ToolAdded, definition.ToolRemoved:
		b.WriteString(tool + ": ")
		if c.Kind == definition.ToolAdded {
			b.WriteString("added")
		} else {
			b.WriteString("removed")
		}
		if c.Server != "" {
			b.WriteString(" (" + server + ")")
		}
	case definition.ToolRenamed:
		b.WriteString(tool + ": renamed from " + strconv.Quote(c.From) + " (same description and schemas)")
	case definition.ToolDescription:
		b.WriteString(tool + ": " + detail("description changed"))
	case definition.ToolTitle:
		b.WriteString(tool + ": " + detail("title changed"))
	case definition.ToolInputSchema:
		b.WriteString(tool + ": input schema " + c.Detail)
	case definition.ToolOutputSchema:
		b.WriteString(tool + ": output schema " + c.Detail)
	case definition.ToolAnnotations:
		b.WriteString(tool + ": " + detail("annotations changed"))
	case definition.ToolDestructive:
		b.WriteString(tool + ": DESTRUCTIVE HINT FLIPPED: " + strings.TrimPrefix(c.Detail, "destructiveHint "))
	case definition.ToolCode:
		b.WriteString(tool + ": " + detail("code changed"))
	case definition.ToolServer:
		b.WriteString(tool + ": " + detail("calls another server"))
	case definition.ServerAdded:
		b.WriteString(server + ": " + detail("added"))
	case definition.ServerRemoved:
		b.WriteString(server + ": " + detail("removed"))
	case definition.ServerChanged:
		b.WriteString(server + ": " + detail("changed"))
	case definition.SubAgentAdded:
		b.WriteString(detail("added"))
	case definition.SubAgentRemoved:
		b.WriteString(detail("removed"))
	default:
		// Exclusions, the format version, and kinds added later.
		b.WriteString(c.String())
	}
	return b.String()
}

// printChanges writes the changes for people, one a line.
func printChanges(w io.Writer, changes []definition.Change) {
	for _, c := range changes {
		printLine(w, "%s", changeLine(c))
	}
}
