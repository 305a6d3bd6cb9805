package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestStderrTail(t *testing.T) {
	tail := newStderrTail([]string{"a", "a] b", "c"})
	write := func(s string) {
		t.Helper()
		if n, err := io.WriteString(tail, s); n != len(s) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	// As mcpservers writes: the prefix, then the line, in separate writes.
	write("[a] ")
	write("first\n")
	write("[a] b] longest name wins\n")
	write("[c] one\n[c] two\r\n")
	for i := range tailLines + 3 {
		write(fmt.Sprintf("[a] line %d\n", i))
	}
	write("[c] " + strings.Repeat("é", tailLineMax) + "\n")
	write("[c] no newline yet")
	red := newRedactor(nil)

	a := tail.Tail("a", red)
	if len(a) != tailLines || a[0] != "line 3" || a[len(a)-1] != fmt.Sprintf("line %d", tailLines+2) {
		t.Errorf("tail of a = %q", a)
	}
	if b := tail.Tail("a] b", red); !slices.Equal(b, []string{"longest name wins"}) {
		t.Errorf("tail of \"a] b\" = %q", b)
	}
	c := tail.Tail("c", red)
	if len(c) != 4 || c[0] != "one" || c[1] != "two" || c[3] != "no newline yet" {
		t.Errorf("tail of c = %q", c)
	}
	if long := c[2]; len(long) > tailLineMax+3 || !strings.HasSuffix(long, "é...") {
		t.Errorf("long line kept as %d bytes: %q", len(long), long)
	}
	if x := tail.Tail("unknown", red); len(x) != 0 {
		t.Errorf("tail of an unknown server = %q", x)
	}
}

func TestStderrTailBounded(t *testing.T) {
	tail := newStderrTail([]string{"s"})
	chunk := strings.Repeat("x", 1<<16)
	_, _ = io.WriteString(tail, "[s] ")
	for range 64 { // 4 MiB without a newline
		_, _ = io.WriteString(tail, chunk)
	}
	if len(tail.partial) > rawLineMax+64+1 {
		t.Errorf("an unfinished line grew to %d bytes", len(tail.partial))
	}
	got := tail.Tail("s", newRedactor(nil))
	if len(got) != 1 || len(got[0]) > tailLineMax+3 {
		t.Errorf("tail = %d lines, first %d bytes", len(got), len(got[0]))
	}
}

// FuzzStderrTail: any bytes, in any chunks, keep the tail bounded, never
// panic, and never attribute a line to a server it did not name.
func FuzzStderrTail(f *testing.F) {
	f.Add([]byte("[a] x\n[b] y\n"), uint8(3))
	f.Add([]byte("[a] "+strings.Repeat("z", 500)), uint8(7))
	f.Fuzz(func(t *testing.T, data []byte, step uint8) {
		tail := newStderrTail([]string{"a", "b"})
		n := int(step%32) + 1
		for len(data) > 0 {
			k := min(n, len(data))
			_, _ = tail.Write(data[:k])
			data = data[k:]
		}
		red := newRedactor(nil)
		for _, s := range []string{"a", "b"} {
			lines := tail.Tail(s, red)
			if len(lines) > tailLines+1 {
				t.Fatalf("%d lines kept", len(lines))
			}
			for _, l := range lines {
				if len(l) > tailLineMax*3+3 {
					t.Fatalf("a line of %d bytes kept", len(l))
				}
			}
		}
		if len(tail.Tail("c", red)) != 0 {
			t.Fatal("lines for a server never named")
		}
	})
}

// A line cut at rawLineMax before it is cleaned loses any beginning of a
// value it ends with; a line cleaned then cut to tailLineMax never ends
// inside a mark.
func TestStderrTailCuts(t *testing.T) {
	// A line of two given values, cut at rawLineMax five bytes into the
	// second: too short a beginning for the redactor to know, it must go
	// with the cut. The first value is long, so that the cleaned line is
	// short enough to be shown to its end.
	small := "given-" + strings.Repeat("7", 20)
	head := "first "
	big := ("big-" + strings.Repeat("7a", rawLineMax/2))[:rawLineMax-len(head)-len(" then ")-5]
	red := newRedactor([]string{small, big})
	line := head + big + " then " + small
	if cut := strings.LastIndex(line, small) + 5; cut != rawLineMax {
		t.Fatalf("the test line is cut at %d, not 5 bytes into its second value (%d)", rawLineMax, cut)
	}
	tail := newStderrTail([]string{"s"})
	_, _ = io.WriteString(tail, "[s] "+line+"\n")
	if got, want := tail.Tail("s", red), head+redactedMark+" then ..."; len(got) != 1 || got[0] != want {
		t.Errorf("tail of a line cut raw = %q, want [%q]", got, want)
	}
	for pad := tailLineMax - len(redactedMark); pad <= tailLineMax; pad++ {
		s := shorten(strings.Repeat("y", pad)+redactedMark+" tail", false)
		if m := strings.TrimSuffix(s, "..."); strings.HasSuffix(m, "<") || strings.Contains(m, "<") && !strings.HasSuffix(m, redactedMark) {
			t.Errorf("pad %d: cut inside the mark: %q", pad, s[len(s)-16:])
		}
	}
}
