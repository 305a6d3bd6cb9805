package refusals

import (
	"errors"
	"testing"
)

// Relocate moves copies, in All's order, keeps every other field, and
// leaves the refusals it was given, and anything not a refusal, alone.
func TestRelocate(t *testing.T) {
	a := &Error{Kind: ErrContainsSecret, Pointer: "/0", Rule: "token/github", Subject: "s", Detail: "d", Fix: "f"}
	b := &Error{Kind: ErrWebSocket, Pointer: "", Rule: "websocket"}
	err := Join(a, errors.New("other"), b)
	moved := Relocate(err, func(p string) string { return "/mcpServers/x" + p })
	got := All(errors.Join(moved...))
	if len(moved) != 2 || len(got) != 2 {
		t.Fatalf("Relocate gave %d refusals, want 2", len(moved))
	}
	if got[0].Pointer != "/mcpServers/x" || got[0].Rule != "websocket" {
		t.Errorf("first: %+v", got[0])
	}
	want := *a
	want.Pointer = "/mcpServers/x/0"
	if *got[1] != want {
		t.Errorf("second: %+v, want %+v", got[1], want)
	}
	if a.Pointer != "/0" || b.Pointer != "" || got[1] == a {
		t.Error("Relocate changed the refusals it was given")
	}
	if Relocate(errors.New("plain"), func(string) string { return "/x" }) != nil || Relocate(nil, nil) != nil {
		t.Error("Relocate of no refusal is not nil")
	}
}
