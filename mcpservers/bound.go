package mcpservers

import (
	"bytes"
	"fmt"
	"io"
)

// maxMessageBytes bounds what one server can make the client hold at once:
// a single line of a stdio server's output, a single line or event of an
// event stream, and the whole of any other HTTP response body. 64 MiB is
// far more than any real message needs (a tools/list page of thousands of
// tools is a few MiB) and keeps a server that writes without end from
// exhausting memory. A server that goes past it loses its connection.
const maxMessageBytes = 64 << 20

// messageBound is the bound for a connection: maxMessageBytes, unless the
// client's options lowered it (tests do).
func messageBound(cfg *connConfig) int64 {
	if cfg.bound > 0 && cfg.bound < maxMessageBytes {
		return cfg.bound
	}
	return maxMessageBytes
}

// errTooLong is what a read ends with once a server went past the bound.
// It never quotes what the server sent.
type errTooLong struct {
	what  string // "a line", "an event", "a response body"
	bound int64
}

func (e *errTooLong) Error() string {
	return fmt.Sprintf("the server sent %s of more than %d bytes", e.what, e.bound)
}

// lineCounter follows the length of the current line (and, for an event
// stream, of the current event: the bytes since the last blank line) over
// the chunks fed to it.
type lineCounter struct {
	bound  int64
	events bool  // count events too
	line   int64 // bytes of the current line, its "\n" aside
	cr     bool  // the current line's last byte so far is '\r'
	event  int64 // bytes of the current event
}

// feed takes the next chunk and reports the error once a line or event
// goes past the bound; n is how much of b came before that point.
func (c *lineCounter) feed(b []byte) (n int, err error) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		chunk := b
		if i >= 0 {
			chunk = b[:i]
		}
		if len(chunk) > 0 {
			c.cr = chunk[len(chunk)-1] == '\r'
		}
		c.line += int64(len(chunk))
		c.event += int64(len(chunk))
		if c.line > c.bound {
			return n, &errTooLong{what: "a line", bound: c.bound}
		}
		if c.events && c.event > c.bound {
			return n, &errTooLong{what: "an event", bound: c.bound}
		}
		if i < 0 {
			return n + len(b), nil
		}
		// A line holding nothing but its break ("\n" or "\r\n") ends the
		// event.
		if c.line == 0 || (c.line == 1 && c.cr) {
			c.event = 0
		}
		c.line, c.cr = 0, false
		n += i + 1
		b = b[i+1:]
	}
	return n, nil
}

// boundedBody ends an HTTP response body with an *errTooLong once the
// server went past the bound: on an event stream a line or an event, on any
// other body the body itself.
type boundedBody struct {
	io.ReadCloser
	lines *lineCounter // event streams
	left  int64        // other bodies: bytes still allowed
	bound int64
	err   error
}

func newBoundedBody(body io.ReadCloser, bound int64, eventStream bool) *boundedBody {
	b := &boundedBody{ReadCloser: body, bound: bound, left: bound}
	if eventStream {
		b.lines = &lineCounter{bound: bound, events: true}
	}
	return b
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.ReadCloser.Read(p)
	if b.lines != nil {
		if k, lerr := b.lines.feed(p[:n]); lerr != nil {
			b.err = lerr
			return k, lerr
		}
		return n, err
	}
	if int64(n) > b.left {
		b.err = &errTooLong{what: "a response body", bound: b.bound}
		return int(b.left), b.err
	}
	b.left -= int64(n)
	return n, err
}
