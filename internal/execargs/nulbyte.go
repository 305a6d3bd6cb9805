// Package execargs holds the rule a stdio server's command and arguments
// must keep for a program to be started with them, which the definition
// (what Build records) and mcpservers (what NewClient starts) share, so
// that a definition never records a server that cannot be started as
// written.
package execargs

import (
	"strconv"
	"strings"

	"github.com/guardian-agent/guardian-go/refusals"
)

// Refusals refuses a NUL byte in command (at pointer/command) or in an
// argument (at pointer/args/<i>): an operating system passes a program
// its command line as NUL-terminated strings, so such a value cannot be
// given to it (os/exec refuses it). Each refusal is refusals.ErrInvalid,
// rule "command-invalid" or "arg-invalid", with subject as its Subject; it
// never quotes the value.
func Refusals(pointer, subject, command string, args []string) []error {
	var errs []error
	if strings.IndexByte(command, 0) >= 0 {
		errs = append(errs, &refusals.Error{Kind: refusals.ErrInvalid, Pointer: refusals.Append(pointer, "command"), Rule: "command-invalid",
			Subject: subject, Detail: "the command holds a NUL byte", Fix: "remove it"})
	}
	for i, a := range args {
		if strings.IndexByte(a, 0) >= 0 {
			errs = append(errs, &refusals.Error{Kind: refusals.ErrInvalid, Pointer: refusals.Append(pointer, "args", strconv.Itoa(i)), Rule: "arg-invalid",
				Subject: subject, Detail: "the argument holds a NUL byte", Fix: "remove it"})
		}
	}
	return errs
}
