package refusals

import (
	"errors"
	"strings"
	"testing"
)

// A nil *Error, alone or among others, makes no method panic: Error and
// Unwrap answer, and Join and All drop it as they drop a nil error.
func TestNilErrorIsSafe(t *testing.T) {
	var e *Error
	if got := e.Error(); got != "refusals: nil *Error" {
		t.Errorf("nil Error() = %q", got)
	}
	if e.Unwrap() != nil {
		t.Error("nil Unwrap() != nil")
	}
	if errors.Is(e, ErrInvalid) {
		t.Error("errors.Is(nil *Error, ErrInvalid)")
	}
	real := &Error{Kind: ErrInvalid, Pointer: "/a"}
	joined := Join(e, real, error(e), nil)
	if joined != real {
		t.Errorf("Join(nil *Error, r) = %v, want r alone", joined)
	}
	if all := All(errors.Join(e, real)); len(all) != 1 || all[0] != real {
		t.Errorf("All drops no nil *Error: %v", all)
	}
	if Join(e) != nil {
		t.Error("Join(nil *Error) != nil")
	}
}

// Error writes what is not graphic in a pointer (a config key holding a
// newline, an escape sequence or a bidi override) as Go escapes: the line
// stays one line, shown as written.
func TestErrorEscapesThePointer(t *testing.T) {
	e := &Error{Kind: ErrInvalid, Pointer: Pointer("mcpServers", "a\nforged line\x1b[2K\r\u202eb\xff"), Detail: "x\ty"}
	got := e.Error()
	want := `/mcpServers/a\nforged line\x1b[2K\r\u202eb\xff: invalid: x\ty`
	if got != want {
		t.Errorf("Error() = %q\nwant      %q", got, want)
	}
	if strings.ContainsAny(got, "\n\r\x1b\u202e") {
		t.Error("a control or bidi character is in the message")
	}
	plain := &Error{Kind: ErrInvalid, Pointer: "/mcpServers/日本/args/0"}
	if got := plain.Error(); got != "/mcpServers/日本/args/0: invalid" {
		t.Errorf("graphic text changed: %q", got)
	}
}
